// The page's words in Chinese and English. Every user-visible text of the page comes
// from the catalogues in ../i18n/ through t(); the engine's own texts (tables, reports,
// validation messages) come from Rust, asked for in the page's language. Keys are dotted,
// grouped by the module that shows them (`shell.copyLink`, `classic.seeds`).
//
// The language: `lang=zh|en` in the URL, else the reader's saved choice (the header's
// switch), else the browser's languages (any `zh…` is Chinese), else English.

import en from '../i18n/en.js';
import zh from '../i18n/zh.js';

/** @typedef {'en' | 'zh'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
export const CATALOGUES = { en, zh };

// Where the header's switch remembers the reader's choice.
const STORAGE_KEY = 'retrystorm.lang';

/** @type {Lang} */
let current = 'en';

/** @type {Set<() => void>} */
const listeners = new Set();

/** The page's language. */
export function lang() {
  return current;
}

/**
 * `zh` or `en` for a language tag, or null for anything else.
 * @param {string | null | undefined} tag
 * @returns {Lang | null}
 */
export function asLang(tag) {
  if (!tag) return null;
  const t = tag.toLowerCase();
  if (t === 'zh' || t.startsWith('zh-')) return 'zh';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/** The saved choice, if storage is allowed (it is not in some iframes). */
function saved() {
  try {
    return asLang(localStorage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

/**
 * The language to start in: the URL's, else the saved one, else the browser's.
 * @param {Location} [loc]
 * @returns {Lang}
 */
export function initialLang(loc = window.location) {
  const fromUrl = asLang(new URLSearchParams(loc.search).get('lang'));
  if (fromUrl) return fromUrl;
  const kept = saved();
  if (kept) return kept;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const l = asLang(tag);
    if (l) return l;
  }
  return 'en';
}

/**
 * Switches the language, rewrites the static texts and tells every listener (the apps
 * redraw what they built). `remember` saves it as the reader's choice.
 * @param {Lang} l
 * @param {{remember?: boolean}} [options]
 */
export function setLang(l, { remember = false } = {}) {
  current = l;
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // No storage (a sandboxed iframe): the choice lasts for this page only.
    }
  }
  document.title = t('app.title');
  applyTexts(document);
  for (const f of listeners) f();
}

/**
 * Calls `f` after every language switch.
 * @param {() => void} f
 */
export function onLangChange(f) {
  listeners.add(f);
}

/**
 * Fills the static texts under `root` from the catalogue: `data-i18n` (text),
 * `data-i18n-title`, `data-i18n-aria-label`.
 * @param {ParentNode} root
 */
export function applyTexts(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) {
    node.textContent = t(/** @type {string} */ (node.getAttribute('data-i18n')));
  }
  for (const attr of ['title', 'aria-label']) {
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      node.setAttribute(attr, t(/** @type {string} */ (node.getAttribute(`data-i18n-${attr}`))));
    }
  }
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

/**
 * The label of a scenario field by its JSON key (`timeout_ms`): the catalogue's `field.*`.
 * @param {string} key
 */
export const fieldLabel = (key) => known(`field.${key}`, key);

/**
 * The label of an enumerated value or a kind (`round_robin`, `token_bucket`): the
 * catalogue's `value.*`; the value itself stays what the scenario and the link hold.
 * @param {string} value
 */
export const valueLabel = (value) => known(`value.${value}`, value);

/**
 * The text of `key`, or `raw` when no catalogue has it (a field or value newer than the
 * catalogues still reads as its JSON name; the catalogue test catches the gap).
 * @param {string} key
 * @param {string} raw
 */
function known(key, raw) {
  return key in CATALOGUES.en ? t(key) : raw.replace(/_/g, ' ');
}
