// The engine's definitions of a table's columns or a summary's figures: a glossary list
// under the tables, and every header cell focusable with its definition as its tooltip
// (mouse) and its accessible description (keyboard, screen readers).

import { el } from './dom.js';

/** @typedef {import('../../retrystorm-web.js').GlossaryEntry} GlossaryEntry */

/**
 * Fills `list` (a `<dl>`) with `entries` and points each of `headers` (in the entries'
 * order) at its definition.
 * @param {HTMLElement} list
 * @param {Iterable<Element>} headers
 * @param {GlossaryEntry[]} entries
 * @param {(i: number) => string} idOf the id the i-th definition gets
 */
export function renderGlossary(list, headers, entries, idOf) {
  list.replaceChildren(
    ...entries.flatMap(({ term, meaning }, i) => [el('dt', { text: term }), el('dd', { id: idOf(i), text: meaning })]),
  );
  for (const [i, cell] of [...headers].entries()) {
    const entry = entries[i];
    if (!entry) continue;
    cell.setAttribute('title', entry.meaning);
    cell.setAttribute('tabindex', '0');
    cell.setAttribute('aria-describedby', idOf(i));
  }
}
