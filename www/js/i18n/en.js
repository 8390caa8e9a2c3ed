// English texts of the page, by key (see ../lib/i18n.js). Keep zh.js in step: a test
// fails when a key is missing in either.

/** @type {Record<string, string>} */
export default {
  'lang.name': 'English',
  // Many seeds (seeds/panel.js)
  'seeds.label': 'seeds',
  'seeds.hint': '1 = one run; more runs the scenario over that many seeds (the first is its own seed)',
  'seeds.cancel': 'Cancel',
  'seeds.progress': '{done} of {total} seeds…',
  'seeds.done': '{total} seeds in {s} s',
  'seeds.cancelled': 'cancelled after {done} of {total} seeds',
  'seeds.title': 'Over many seeds: median [p5–p95]',
  'seeds.metric': 'distribution of',
  'seeds.distHint': 'one dot per seed; click a dot to open that seed’s run',
  'seeds.distAria': 'Distribution of the chosen metric over the seeds, a strip per group',
  'seeds.exportMd': 'Markdown table (median [p5–p95])',
  'seeds.exportCsv': 'CSV per seed',
};
