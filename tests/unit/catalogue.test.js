// The page's two catalogues (www/js/i18n/en.js, zh.js) against each other and against
// the page's code, in node (no browser): a key missing in either language, a Chinese text
// that is a copy of the English, placeholders that differ, a key the code uses that no
// catalogue has, or a user-visible literal in the page's code outside the catalogues.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import enCatalogue from '../../www/js/i18n/en.js';
import zhCatalogue from '../../www/js/i18n/zh.js';

// (The tests' tsconfig sees these modules' default export as the namespace.)
const en = /** @type {Record<string, string>} */ (/** @type {unknown} */ (enCatalogue));
const zh = /** @type {Record<string, string>} */ (/** @type {unknown} */ (zhCatalogue));

const www = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../www');

/** Every .js file of the page but the catalogues. */
function pageScripts() {
  /** @type {string[]} */
  const out = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'i18n') walk(p);
      } else if (e.name.endsWith('.js')) out.push(p);
    }
  };
  walk(path.join(www, 'js'));
  return out;
}

// Texts that are the same in both languages on purpose (a unit, an engine field name the
// reader types into the CLI, an arrow).
const SAME_IN_BOTH = new Set(['classic.col.deadline', 'classic.key.deadline_ms']);

// Chinese text: at least one CJK ideograph.
const CJK = /[\u3400-\u9fff]/;

/** @param {string} s */
const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('both catalogues have the same keys, real Chinese and the same placeholders', () => {
  const missingZh = Object.keys(en).filter((k) => !(k in zh));
  const missingEn = Object.keys(zh).filter((k) => !(k in en));
  assert.deepEqual(missingZh, [], 'keys missing in zh.js');
  assert.deepEqual(missingEn, [], 'keys missing in en.js');
  for (const [key, text] of Object.entries(en)) {
    assert.ok(text.trim(), `en.js ${key} is empty`);
    assert.ok(zh[key].trim(), `zh.js ${key} is empty`);
    assert.deepEqual(placeholders(zh[key]), placeholders(text), `placeholders of ${key}`);
    if (!SAME_IN_BOTH.has(key) && key !== 'lang.name') {
      assert.ok(CJK.test(zh[key]) || zh[key] !== text, `zh.js ${key} is the English text`);
    }
  }
});

test('every key the page uses is in the catalogues', () => {
  /** @type {{key: string, where: string}[]} */
  const used = [];
  // A quoted literal in a catalogue's namespace (`'classic.col.name'`) is a key, however
  // it reaches t(): directly, through the page builders' tx()/btn(), or from a table of keys.
  const namespaces = new Set(Object.keys(en).map((k) => k.split('.')[0]));
  for (const file of pageScripts()) {
    const src = fs.readFileSync(file, 'utf8');
    for (const m of src.matchAll(/\bt\(\s*'([\w.]+)'/g)) used.push({ key: m[1], where: file });
    for (const m of src.matchAll(/'([a-z][a-zA-Z]*(?:\.\w+)+)'/g)) {
      if (namespaces.has(m[1].split('.')[0])) used.push({ key: m[1], where: file });
    }
    // A key built from a value (`report.tab.${view}`): some key must have that prefix.
    for (const m of src.matchAll(/\bt\(\s*`([\w.]+)\$\{/g)) used.push({ key: `${m[1]}*`, where: file });
  }
  const html = fs.readFileSync(path.join(www, 'index.html'), 'utf8');
  for (const m of html.matchAll(/data-i18n(?:-[\w-]+)?="([\w.]+)"/g)) used.push({ key: m[1], where: 'index.html' });
  assert.ok(used.length > 50, `found only ${used.length} uses`);
  const keys = Object.keys(en);
  const missing = used.filter(({ key }) =>
    key.endsWith('*') ? !keys.some((k) => k.startsWith(key.slice(0, -1))) : !(key in en),
  );
  assert.deepEqual(missing, []);
});

// Literals that are not words of a language: symbols, the language names in their own
// language (the switch shows each in itself), the product's name in <title> (set by t()).
const HTML_ALLOWED = new Set(['中文', 'English', '↗']);

test('index.html has no text outside the catalogues', () => {
  const html = fs
    .readFileSync(path.join(www, 'index.html'), 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|noscript|title)\b[\s\S]*?<\/\1>/g, '');
  /** @type {string[]} */
  const bad = [];
  for (const m of html.matchAll(/<([a-z0-9]+)([^>]*)>([^<]*)/g)) {
    const [, , attrs, text] = m;
    const words = text.trim();
    if (/[A-Za-z\u3400-\u9fff]/.test(words) && !attrs.includes('data-i18n=') && !HTML_ALLOWED.has(words)) {
      bad.push(words);
    }
    for (const a of attrs.matchAll(/\s(title|aria-label|placeholder|alt)="([^"]*)"/g)) bad.push(`${a[1]}="${a[2]}"`);
  }
  assert.deepEqual(bad, []);
});

test('page code has no user-visible literal outside the catalogues', () => {
  // Where a literal would reach the reader: text, titles, labels, banners, status lines.
  const sink =
    /(?:\btext:|\btitle:|'aria-label':|\bplaceholder:|\.textContent\s*=|\.title\s*=|\bbanner\(|\.flash\()\s*(['"`])((?:(?!\1).)*)\1/g;
  /** @type {string[]} */
  const bad = [];
  for (const file of pageScripts()) {
    const rel = path.relative(path.join(www, 'js'), file);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(sink)) {
        // A template that only places values (`${a} ${b}`) carries no words of its own.
        const words = m[2].replace(/\$\{[^}]*\}/g, '');
        if (/[A-Za-z\u3400-\u9fff]{2,}/.test(words)) bad.push(`${rel}:${i + 1}: ${m[0]}`);
      }
    });
  }
  assert.deepEqual(bad, []);
});

test('the style sheets put no words on the page (a ::before text comes from an attribute)', () => {
  /** @type {string[]} */
  const bad = [];
  for (const file of fs.readdirSync(www).filter((f) => f.endsWith('.css'))) {
    for (const m of fs.readFileSync(path.join(www, file), 'utf8').matchAll(/content:\s*([^;}]*)/g)) {
      const literal = m[1].replace(/attr\([^)]*\)/g, '');
      if (/[A-Za-z\u3400-\u9fff]{2,}/.test(literal)) bad.push(`${file}: ${m[0]}`);
    }
  }
  assert.deepEqual(bad, []);
});
