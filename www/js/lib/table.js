// Tables whose cells come formatted from the engine (a run's table(), tierTable(),
// compare(), the classic verdicts), so they match the CLI to the character. Text only.

import { el } from './dom.js';

/** @typedef {{columns: string[], rows: string[][]}} Table */

/**
 * Renders `{columns, rows}` into `table` (the first cell of each row as a row header).
 * @param {HTMLTableElement} table
 * @param {Table} data
 * @param {(row: string[], i: number) => string} [rowClass] a row's class, from its cells or its index
 */
export function renderTable(table, { columns, rows }, rowClass = () => '') {
  table.replaceChildren(
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: c })))),
    el(
      'tbody',
      {},
      ...rows.map((row, r) =>
        el(
          'tr',
          { class: rowClass(row, r) },
          ...row.map((cell, i) => (i === 0 ? el('th', { scope: 'row', text: cell }) : el('td', { text: cell }))),
        ),
      ),
    ),
  );
}

/**
 * The engine's CSV (RFC 4180: quoted fields, doubled quotes) as `{columns, rows}`: the
 * charts' data tables show the export's own cells, never numbers recomputed here.
 * @param {string} text
 * @returns {Table}
 */
export function parseCsv(text) {
  /** @type {string[][]} */
  const lines = [];
  /** @type {string[]} */
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      lines.push(row);
      row = [];
      cell = '';
    } else if (c !== '\r') cell += c;
  }
  if (cell !== '' || row.length) lines.push([...row, cell]);
  const [columns = [], ...rows] = lines;
  return { columns, rows };
}
