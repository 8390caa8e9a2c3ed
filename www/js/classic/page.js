// The classic model's page: its markup, built once into `#classic-root` (index.html
// holds only the shell). Every id starts with `classic-`; every static text is a
// catalogue key on its element (lib/build.js), relabelled by applyTexts. The app
// (app.js) and the editor (editor.js) fill and wire it; the panels (seeds, sweep) build
// inside the places left for them here.

import { builder, embedCaption, foldBelowWide } from '../lib/build.js';
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

const { id, tx, aria, btn, scrollBox } = builder('classic');

/** The scenario panel's fields: the engine's path and the label's catalogue key. */
const SCENARIO_FIELDS = [
  ['clients', 'classic.f.clients'],
  ['duration_s', 'classic.f.duration'],
  ['capacity', 'classic.f.capacity'],
  ['outage.from_s', 'classic.f.outageFrom'],
  ['outage.to_s', 'classic.f.outageTo'],
  ['upstream_latency_ms', 'classic.f.latency'],
  ['breaker_trip_failures', 'classic.f.tripAfter'],
  ['breaker_open_s', 'classic.f.openS'],
];

/**
 * The strategies table's column heads: a catalogue key (and the key of its tooltip), or a
 * key read by screen readers only.
 * @type {{key: string, hint?: string, srOnly?: boolean}[]}
 */
const STRATEGY_COLUMNS = [
  { key: 'classic.col.order', srOnly: true },
  { key: 'classic.col.name' },
  { key: 'classic.col.maxRetry' },
  { key: 'classic.col.baseMs' },
  { key: 'classic.col.jitter' },
  { key: 'classic.col.budget' },
  { key: 'classic.col.deadline' },
  { key: 'classic.col.breaker' },
  { key: 'classic.col.tripsAfter', hint: 'classic.col.tripsAfterHint' },
  { key: 'classic.col.openS', hint: 'classic.col.openSHint' },
  { key: 'cost.column', hint: 'cost.title' },
  { key: 'classic.col.actions', srOnly: true },
];

/** The views of the results: the table or one of the article's reports (shell.js VIEWS). */
const REPORT_TABS = ['table', 'herd', 'sweep', 'breaker'];

/**
 * A heading and the body of a section labelled by it.
 * @param {string} s the section's id suffix
 * @param {'h2' | 'h3'} level
 * @param {string} key the heading's catalogue key
 * @param {Record<string, any>} attrs the section's other attributes
 * @param {...Node} children
 */
function section(s, level, key, attrs, ...children) {
  return el(
    'section',
    { id: id(s), 'aria-labelledby': id(`${s}-h`), ...attrs },
    el(level, { id: id(`${s}-h`), ...tx(key) }),
    ...children,
  );
}

/** The presets, one compact list (the description shown is above the chart). */
function presetsBlock() {
  return section(
    'presets-block',
    'h2',
    'classic.presets',
    { class: 'editor-only' },
    el('select', { id: id('presets'), class: 'presets', 'aria-labelledby': id('presets-block-h') }),
  );
}

/**
 * The scenario panel: its fields, the seed with its random button, the time attribution.
 * @param {string[]} attributions the engine's conventions, its default first
 */
function scenarioBlock(attributions) {
  const fields = SCENARIO_FIELDS.map(([field, key]) =>
    el('label', {}, el('span', tx(key)), ' ', el('input', { 'data-field': field, inputmode: 'numeric' })),
  );
  const seed = el(
    'label',
    { class: 'seed' },
    el('span', tx('classic.f.seed')),
    ' ',
    el('input', { 'data-field': 'seed', inputmode: 'numeric', spellcheck: 'false' }),
    btn('random-seed', 'classic.randomSeed'),
  );
  const attribution = el(
    'label',
    { class: 'attribution', title: t('attribution.title'), 'data-i18n-title': 'attribution.title' },
    el('span', tx('attribution.label')),
    ' ',
    el(
      'select',
      { 'data-field': 'attribution', id: id('attribution') },
      ...attributions.map((a) => el('option', { value: a, ...tx(`attribution.${a}`) })),
    ),
  );
  return section(
    'scenario-block',
    'h2',
    'classic.scenario',
    { class: 'editor-only' },
    // Never submitted: every field is read as it is edited.
    el(
      'form',
      {
        id: id('scenario-form'),
        class: 'scenario-grid',
        autocomplete: 'off',
        onsubmit: (/** @type {Event} */ e) => e.preventDefault(),
      },
      ...fields,
      seed,
      attribution,
    ),
    el('ul', { id: id('scenario-problems'), class: 'problems' }),
  );
}

/** The strategies table (rows built by the editor), the delay preview, add and reset. */
function strategiesBlock() {
  const heads = STRATEGY_COLUMNS.map(({ key, hint, srOnly }) =>
    srOnly
      ? el('th', {}, el('span', { class: 'sr-only', ...tx(key) }))
      : el('th', { ...tx(key), title: hint && t(hint), 'data-i18n-title': hint }),
  );
  return section(
    'strategies-block',
    'h2',
    'classic.strategies',
    { class: 'editor-only' },
    el(
      'div',
      { class: 'scroll' },
      el('table', { id: id('strategies'), class: 'strategies' }, el('thead', {}, el('tr', {}, ...heads)), el('tbody')),
    ),
    el('figure', { id: id('delay-preview'), class: 'delay-preview', 'aria-live': 'polite' }),
    el(
      'div',
      { class: 'row-actions' },
      btn('add-strategy', 'classic.addStrategy'),
      btn('reset-strategies', 'classic.resetStrategies'),
    ),
  );
}

/** The run's status line: timing, the busy state with Cancel, stale results, copy messages. */
function statusLine() {
  return el(
    'div',
    { class: 'status editor-only' },
    el('span', { id: id('timing'), class: 'timing' }),
    el(
      'span',
      { id: id('spinner'), class: 'spinner', hidden: true },
      el('span', { class: 'dot' }),
      ' ',
      el('span', tx('shell.running')),
      ' ',
      btn('cancel-run', 'shell.cancel'),
    ),
    el('span', { id: id('stale'), class: 'stale', hidden: true, ...tx('shell.stale') }),
    el('span', { id: id('copied'), class: 'copied', role: 'status' }),
  );
}

/** The chart with its readout and legend (the chart switch goes before the legend). */
function chartBlock() {
  return el(
    'div',
    { id: id('chart-block'), class: 'chart-block' },
    el(
      'div',
      { class: 'chart-wrap' },
      el('canvas', { id: id('chart'), role: 'img', tabindex: '0', ...aria('classic.chartLabel') }),
      el('div', { id: id('readout'), class: 'readout', hidden: true }),
    ),
    el('div', { id: id('legend'), class: 'legend editor-only', role: 'group', ...aria('classic.legendLabel') }),
  );
}

/** One of the article's reports, exactly as the CLI prints it. */
function reportBlock() {
  return el(
    'section',
    { id: id('report-block'), class: 'report-block', hidden: true, 'aria-labelledby': id('report-h') },
    el('h3', { id: id('report-h') }),
    el('p', { id: id('report-note'), class: 'hint' }),
    el(
      'div',
      { class: 'scroll', tabindex: '0', role: 'region', 'aria-labelledby': id('report-h') },
      el('pre', { id: id('report-text'), class: 'report-text' }),
    ),
    el(
      'div',
      { class: 'row-actions editor-only' },
      btn('report-md', 'report.exportMd'),
      btn('report-breaker-preset', 'report.loadBreaker'),
    ),
  );
}

/** The article's figures and checks under every time-attribution convention. */
function attributionBlock() {
  return el(
    'section',
    { id: id('attribution-block'), class: 'editor-only', 'aria-labelledby': id('attribution-h') },
    el('h3', { id: id('attribution-h'), ...tx('attribution.heading') }),
    el('p', { class: 'note', ...tx('attribution.note') }),
    // Focusable scroll regions, so keyboard users can scroll the wide tables (axe).
    el(
      'div',
      { class: 'scroll', tabindex: '0', role: 'region', 'aria-labelledby': id('attribution-h') },
      el('table', { id: id('attribution-figures'), class: 'results' }),
    ),
    el(
      'div',
      { class: 'scroll', tabindex: '0', role: 'region', 'aria-labelledby': id('attribution-h') },
      el('table', { id: id('attribution-checks'), class: 'results' }),
    ),
  );
}

/** The downloads and the box that holds the last copied or exported text. */
function exportBlock() {
  return section(
    'export-block',
    'h3',
    'shell.export',
    { class: 'editor-only' },
    el(
      'div',
      { class: 'row-actions' },
      btn('export-md', 'export.md'),
      btn('export-csv', 'export.csv'),
      btn('export-png', 'export.png'),
      btn('export-json', 'export.json'),
    ),
    el('label', { class: 'export-label', for: id('export-text'), ...tx('export.box') }),
    el('textarea', { id: id('export-text'), class: 'export-text', rows: 6, readonly: true, spellcheck: 'false' }),
  );
}

/**
 * Builds the classic page into `root`.
 * @param {HTMLElement} root
 * @param {{attributions: string[]}} options the engine's time-attribution conventions
 */
export function buildClassicPage(root, { attributions }) {
  const tabs = el(
    'div',
    { id: id('report-tabs'), class: 'report-tabs editor-only', role: 'group', ...aria('report.views') },
    ...REPORT_TABS.map((view) => el('button', { type: 'button', 'data-view': view, ...tx(`report.tab.${view}`) })),
  );
  // The editor folds away on a phone (opened by the app on wide screens, where its
  // summary is hidden); the results come first in the document, so a phone shows the
  // chart first and the keyboard reaches it in a few Tabs.
  const editor = el(
    'details',
    { id: id('editor'), class: 'editor-fold editor-only' },
    el('summary', tx('classic.editScenario')),
    presetsBlock(),
    scenarioBlock(attributions),
    strategiesBlock(),
  );
  foldBelowWide(/** @type {HTMLDetailsElement} */ (editor));
  root.replaceChildren(
    el(
      'div',
      { class: 'workbench' },
      el(
        'section',
        { id: id('output-block'), class: 'output-pane', 'aria-labelledby': id('output-h') },
        el('h2', { id: id('output-h'), class: 'editor-only', ...tx('classic.results') }),
        // What the scenario shown is about, the default one included.
        el('p', { id: id('preset-desc'), class: 'hint' }),
        // The engine's verdict on the run: the strategy that keeps overload lowest, and the trap.
        el('p', { id: id('verdict'), class: 'verdict', 'aria-live': 'polite' }),
        tabs,
        statusLine(),
        // The seeds control (seeds/panel.js).
        el('div', { id: id('seeds-controls'), class: 'editor-only' }),
        chartBlock(),
        reportBlock(),
        el(
          'div',
          { id: id('table-block'), class: 'table-block' },
          scrollBox(el('table', { id: id('results'), class: 'results' }), 'classic.resultsLabel'),
          // A narrow embed shows fewer columns (embed.css); this shows them all.
          el('button', { type: 'button', id: id('all-columns'), class: 'columns-toggle', 'aria-pressed': 'false' }),
          // The engine's definition of every column; each header points at its own.
          el(
            'details',
            { id: id('glossary'), class: 'glossary' },
            el('summary', tx('classic.glossary')),
            el('dl', { id: id('glossary-list') }),
          ),
        ),
      ),
      editor,
    ),
    // Below the workbench: the sweep, the article's checks, the exports.
    el(
      'div',
      { id: id('more-block') },
      // The sweep panel (sweep/panel.js).
      el('div', { id: id('sweep') }),
      attributionBlock(),
      section(
        'verdicts-block',
        'h3',
        'classic.verdicts',
        { class: 'editor-only' },
        el('ul', { id: id('verdicts'), class: 'verdicts' }),
      ),
      exportBlock(),
    ),
    embedCaption(id),
  );
}
