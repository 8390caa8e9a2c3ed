// The page's words in Chinese and English. Every user-visible text of the page comes
// from the catalogues in ../i18n/ through t(); the engine's own texts (tables, reports,
// validation messages) come from Rust. Keys are dotted, grouped by the module that shows
// them (`shell.copyLink`, `classic.seeds`, `ensemble.passOn`).

import en from '../i18n/en.js';
import zh from '../i18n/zh.js';

/** @typedef {'en' | 'zh'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
export const CATALOGUES = { en, zh };

/** @type {Lang} */
let current = 'en';

/** The page's language. */
export function lang() {
  return current;
}

/**
 * Switches the language (the page redraws its texts itself).
 * @param {Lang} l
 */
export function setLang(l) {
  current = l;
}

/**
 * The text of `key` in the current language, with `{name}` placeholders filled from
 * `vars`. A key missing from the catalogue is a bug the catalogue test catches; the key
 * itself is shown rather than nothing.
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 * @returns {string}
 */
export function t(key, vars) {
  const text = CATALOGUES[current][key] ?? CATALOGUES.en[key] ?? key;
  return vars ? text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m)) : text;
}
