// Editor plumbing for both models: scenario paths (`tiers[1].client.budget.percent`,
// the paths the engine names in its messages), turning input text into the values the
// engine reads, and marking fields with the engine's messages.

import { el } from './dom.js';

/**
 * Reads `a.b[2].c` from an object.
 * @param {any} obj
 * @param {string} path
 * @returns {any}
 */
export function getPath(obj, path) {
  return path.split('.').reduce((o, key) => {
    if (o === undefined || o === null) return undefined;
    const m = /^(\w+)\[(\d+)\]$/.exec(key);
    return m ? (o[m[1]] || [])[Number(m[2])] : o[key];
  }, obj);
}

/**
 * Writes `a.b[2].c` in an object (`undefined` deletes the key).
 * @param {any} obj
 * @param {string} path
 * @param {unknown} value
 */
export function setPath(obj, path, value) {
  const keys = path.split('.');
  let o = obj;
  keys.forEach((key, i) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(key);
    const last = i === keys.length - 1;
    if (m) {
      o = o[m[1]][Number(m[2])];
    } else if (last) {
      if (value === undefined) delete o[key];
      else o[key] = value;
    } else {
      o = o[key];
    }
  });
}

/**
 * An input's text as the engine reads an integer (a seed, a count): an exact integer as
 * a number, anything else (a seed beyond 2^53, a typo) as the text itself, so the engine
 * names it.
 * @param {string} text
 * @returns {number | string}
 */
export function parseInteger(text) {
  const t = String(text).trim();
  if (/^-?\d+$/.test(t)) {
    const n = Number(t);
    if (Number.isSafeInteger(n)) return n;
  }
  return t;
}

/**
 * An input's text as the engine reads a number: a decimal as a number, anything else as
 * the text (the engine names it).
 * @param {string} text
 * @returns {number | string}
 */
export function parseNumber(text) {
  const t = String(text).trim();
  if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return t;
}

/**
 * A validation problem (the engine's `Problem`, or a run's error with the field it names):
 * `message` is the technical form (the field's path, value and range); `kind` lets the
 * engine word it plainly at the field (`plainWords`).
 * @typedef {{field: string, message: string, value?: string, allowed?: string, kind?: string}} Problem
 */

/**
 * How the engine words a problem plainly for a field labelled `label` (set once the wasm
 * is ready: `wasm.plainMessage`); until then, the technical message.
 * @type {(p: Problem, label: string) => string}
 */
let plainWords = (p) => p.message;

/**
 * Sets how a problem is worded plainly at its field (boot.js, with the engine's words).
 * @param {(p: Problem, label: string) => string} words
 */
export function setPlainWords(words) {
  plainWords = words;
}

/**
 * The label the reader sees for `input`: its column's header in a table, else its
 * `<label>`'s own text, else its aria-label.
 * @param {Element} input
 * @returns {string}
 */
export function labelOf(input) {
  const label = input.closest('label');
  // The label's own words: its text and spans, not its controls or messages.
  const own = [...(label?.childNodes ?? [])]
    .filter((n) => n.nodeType === Node.TEXT_NODE || n.nodeName === 'SPAN')
    .map((n) => n.textContent)
    .join('')
    .trim();
  if (own) return own;
  const cell = input.closest('td');
  const head = cell?.closest('table')?.tHead?.rows[0]?.cells[cell.cellIndex];
  if (head?.textContent?.trim()) return head.textContent.trim();
  return input.getAttribute('aria-label') ?? '';
}

/**
 * Marks every field under `root` that the engine complained about, with its plain words
 * (the technical message, with the field's path, value and range, as its title), and
 * clears the marks of the last call (under `root` only: each editor owns its marks).
 * A problem without a field path (text in a number field) goes where the bad text is.
 * @param {ParentNode} root
 * @param {Problem[]} problems
 * @param {Set<string>} badText paths of fields holding text that is not a number
 * @param {(field: string) => string[]} [candidates] where a message for `field` may go, best first
 * @returns {Problem[]} the problems no field under `root` shows
 */
export function markProblems(root, problems, badText, candidates = (f) => [f]) {
  for (const node of root.querySelectorAll('.field-msg')) node.remove();
  for (const node of root.querySelectorAll('.invalid')) {
    node.classList.remove('invalid');
    node.removeAttribute('aria-invalid');
  }
  const unplaced = [];
  for (const p of problems) {
    const fields = p.field ? candidates(p.field) : [...badText];
    let placed = false;
    for (const field of fields) {
      const input = root.querySelector(`[data-field="${CSS.escape(field)}"]`);
      if (!input) continue;
      input.classList.add('invalid');
      input.setAttribute('aria-invalid', 'true');
      const plain = p.kind ? plainWords(p, labelOf(input)) : p.message;
      (input.closest('label, fieldset, td') ?? input.parentElement)?.append(
        el('small', { class: 'field-msg', text: plain, title: p.message }),
      );
      placed = true;
      // One place for a named field; text-typing problems mark every bad field.
      if (p.field) break;
    }
    if (!placed) unplaced.push(p);
  }
  return unplaced;
}

/**
 * A new random seed: 48 random bits, a fresh and still readable seed (any i64 can be typed).
 * @returns {number}
 */
export function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0xffff) * 2 ** 32 + words[1];
}
