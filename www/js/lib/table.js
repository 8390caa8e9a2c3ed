// Tables whose cells come formatted from the engine (a run's table(), tierTable(),
// compare(), the classic verdicts), so they match the CLI to the character. Text only.

import { el } from './dom.js';

/** @typedef {{columns: string[], rows: string[][]}} Table */

/**
 * Renders `{columns, rows}` into `table` (the first cell of each row as a row header).
 * @param {HTMLTableElement} table
 * @param {Table} data
 * @param {(row: string[]) => string} [rowClass]
 */
export function renderTable(table, { columns, rows }, rowClass = () => '') {
  table.replaceChildren(
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: c })))),
    el(
      'tbody',
      {},
      ...rows.map((row) =>
        el(
          'tr',
          { class: rowClass(row) },
          ...row.map((cell, i) => (i === 0 ? el('th', { scope: 'row', text: cell }) : el('td', { text: cell }))),
        ),
      ),
    ),
  );
}
