// Tables of the cluster model: the summary, the per-tier totals and the A/B comparison.
// Every cell comes formatted from the engine (clusterSummaryTable, clusterTierTable,
// clusterCompare); this only puts the strings in cells, as text.

import { el } from '../dom.js';

/** Renders `{columns, rows}` into `table` (first cell of each row as a row header). */
export function renderTable(table, { columns, rows }, rowClass = () => '') {
  table.replaceChildren(
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: c })))),
    el('tbody', {}, ...rows.map((row) => el('tr', { class: rowClass(row) },
      ...row.map((cell, i) => (i === 0 ? el('th', { scope: 'row', text: cell }) : el('td', { text: cell })))))));
}

/** Classes for an A/B row: which way it moved. */
export function deltaClass(row) {
  const d = row[3] || '';
  if (d.startsWith('+')) return 'up';
  if (d.startsWith('−')) return 'down';
  return '';
}
