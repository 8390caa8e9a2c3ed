// The results table and the verdicts: cells come formatted from the engine
// (resultsTable, verdicts), so they match the CLI to the character. Text only.

import { el, $ } from './dom.js';

/** Renders `{columns, rows}` into the results table. */
export function renderTable(table) {
  const results = $('results');
  results.tHead.replaceChildren(el('tr', {}, ...table.columns.map((c) => el('th', { scope: 'col', text: c }))));
  results.tBodies[0].replaceChildren(...table.rows.map((row) =>
    el('tr', {}, ...row.map((cell, i) => (i === 0 ? el('th', { scope: 'row', text: cell }) : el('td', { text: cell }))))));
}

/** Renders the acceptance checks as PASS / FAIL / n/a with their numbers. */
export function renderVerdicts(verdicts) {
  $('verdicts').replaceChildren(...verdicts.map((v) => {
    const label = v.pass === true ? 'PASS' : v.pass === false ? 'FAIL' : 'n/a';
    const kind = v.pass === true ? 'pass' : v.pass === false ? 'fail' : 'na';
    return el('li', { class: kind }, el('span', { class: `badge ${kind}`, text: label }),
      el('span', { class: 'v-name', text: v.name }), el('span', { class: 'v-detail', text: v.detail }));
  }));
}
