// Tests of Trunk's post_build hook (scripts/post-build.mjs), in node without a browser:
// on a small staging directory made here, that a release build's modules are minified and
// still do what they did, that the integrity hashes in index.html match the files again,
// and that the .d.ts leaves the site; then, on the built site (DIST, a release build),
// that every integrity hash matches its file and no .d.ts or unminified module ships.
// The e2e tests load that same minified site in Chromium.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOOK = path.join(here, '../../scripts/post-build.mjs');
const DIST = process.env.DIST || path.join(here, '../../dist');

const UTIL = `// A helper module with a long name and a comment, imported by a relative path.
export function multiplyTheNumbers(firstNumber, secondNumber) {
  const theProductOfBoth = firstNumber * secondNumber; // the product
  return theProductOfBoth;
}
`;
const APP = `/* The entry module: a class, a Chinese text and a relative import. */
import { multiplyTheNumbers } from './lib/util.js';

export class CounterWithAVeryLongName {
  constructor() {
    this.countSoFar = 0;
  }
  /** Adds the product of a and b. */
  add(a, b) {
    this.countSoFar += multiplyTheNumbers(a, b);
    return this.countSoFar;
  }
}

export const greeting = '重试风暴模拟器';
export const where = new URL('./lib/util.js', import.meta.url).pathname.endsWith('/lib/util.js');
`;
const CSS = `/* The page's colours. */
body {
  color: #ff0000;
  margin: 0px 0px 0px 0px;
}
`;
/** The temporary folders made, removed at the end. @type {string[]} */
const made = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const WASM = Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]);
const STALE = 'sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * The SRI hash of a file, `algo-base64`.
 * @param {string} algo
 * @param {string} file
 */
function sri(algo, file) {
  return `${algo}-${createHash(algo).update(fs.readFileSync(file)).digest('base64')}`;
}

/**
 * Every (url, integrity) pair of a page's tags, quoted or not.
 * @param {string} html
 * @returns {Array<[string, string]>}
 */
function integrities(html) {
  return [...html.matchAll(/<(?:link|script)\b[^>]*>/g)].flatMap(([tag]) => {
    const integrity = /\bintegrity=["']?([^"'\s>]+)/.exec(tag);
    const url = /\b(?:href|src)=["']?([^"'\s>]+)/.exec(tag);
    return integrity && url ? [/** @type {[string, string]} */ ([url[1], integrity[1]])] : [];
  });
}

/**
 * A staging directory as Trunk leaves it under the public URL /sub/: index.html with a
 * stale hash for the module and a style sheet (one unquoted, as an HTML minifier writes
 * it), and a right one for the wasm, which the hook does not change.
 * @returns {{ staging: string, types: string }}
 */
function stage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postbuild-'));
  made.push(dir);
  const staging = path.join(dir, 'stage');
  fs.mkdirSync(path.join(staging, 'js/lib'), { recursive: true });
  fs.writeFileSync(path.join(staging, 'js/app.js'), APP);
  fs.writeFileSync(path.join(staging, 'js/lib/util.js'), UTIL);
  fs.writeFileSync(path.join(staging, 'style.css'), CSS);
  fs.writeFileSync(path.join(staging, 'app_bg.wasm'), WASM);
  fs.writeFileSync(path.join(staging, 'app.d.ts'), 'export const greeting: string;\n');
  const wasmHash = sri('sha384', path.join(staging, 'app_bg.wasm'));
  fs.writeFileSync(
    path.join(staging, 'index.html'),
    `<!doctype html><html><head>
<link rel="stylesheet" href="/sub/style.css" integrity="${STALE}"/>
<link rel=modulepreload href=/sub/js/app.js integrity=${STALE.replace('384', '512')} crossorigin>
<link rel="preload" href="/sub/app_bg.wasm" integrity="${wasmHash}" as="fetch">
</head><body></body></html>
`,
  );
  return { staging, types: path.join(dir, 'types') };
}

/**
 * Runs the hook as Trunk does.
 * @param {string} staging
 * @param {string} types
 * @param {'release' | 'debug'} profile
 */
function hook(staging, types, profile) {
  const run = spawnSync(process.execPath, [HOOK], {
    env: {
      ...process.env,
      TRUNK_STAGING_DIR: staging,
      TRUNK_PROFILE: profile,
      TRUNK_PUBLIC_URL: '/sub/',
      WEB_TYPES_DIR: types,
    },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

/**
 * Asserts that every integrity hash of the staging directory's index.html is its file's.
 * @param {string} staging
 * @param {number} expected how many tags carry one
 */
function assertHashesMatch(staging, expected) {
  const pairs = integrities(fs.readFileSync(path.join(staging, 'index.html'), 'utf8'));
  assert.equal(pairs.length, expected);
  for (const [url, hash] of pairs) {
    const file = path.join(staging, url.replace(/^\/sub\//, ''));
    assert.equal(hash, sri(hash.split('-')[0], file), url);
  }
}

test('release: each module and style sheet minified in place, still the same module', async () => {
  const { staging, types } = stage();
  const before = stage().staging;
  hook(staging, types, 'release');

  const app = fs.readFileSync(path.join(staging, 'js/app.js'), 'utf8');
  const util = fs.readFileSync(path.join(staging, 'js/lib/util.js'), 'utf8');
  const css = fs.readFileSync(path.join(staging, 'style.css'), 'utf8');
  assert.ok(app.length < APP.length * 0.8, app);
  assert.ok(util.length < UTIL.length * 0.6, util);
  assert.ok(css.length < CSS.length * 0.6, css);
  for (const text of [app, util, css]) assert.doesNotMatch(text, /the product|entry module|colours|\n {2}/);
  // Raw UTF-8, not \\u escapes; the relative import and the exported names unchanged.
  assert.match(app, /重试风暴模拟器/);
  assert.match(app, /from\s*["']\.\/lib\/util\.js["']/);
  assert.match(css, /color:red/);

  // The minified modules do what the originals do.
  const original = await import(pathToFileURL(path.join(before, 'js/app.js')).href);
  const minified = await import(pathToFileURL(path.join(staging, 'js/app.js')).href);
  assert.deepEqual(Object.keys(minified).sort(), Object.keys(original).sort());
  const [a, b] = [new original.CounterWithAVeryLongName(), new minified.CounterWithAVeryLongName()];
  for (const [x, y] of [
    [2, 3],
    [4, 5],
    [-1, 7],
  ]) {
    assert.equal(b.add(x, y), a.add(x, y));
  }
  assert.equal(minified.greeting, original.greeting);
  assert.equal(minified.where, true);

  // The wasm is not touched, and every hash in index.html is its file's again.
  assert.deepEqual(fs.readFileSync(path.join(staging, 'app_bg.wasm')), WASM);
  assertHashesMatch(staging, 3);
});

test('the .d.ts leaves the site for the types folder, in release and debug builds', () => {
  for (const profile of /** @type {const} */ (['release', 'debug'])) {
    const { staging, types } = stage();
    hook(staging, types, profile);
    assert.ok(!fs.existsSync(path.join(staging, 'app.d.ts')), profile);
    assert.equal(fs.readFileSync(path.join(types, 'app.d.ts'), 'utf8'), 'export const greeting: string;\n');
  }
});

test('debug: every file left as it is (trunk serve stays readable)', () => {
  const { staging, types } = stage();
  hook(staging, types, 'debug');
  assert.equal(fs.readFileSync(path.join(staging, 'js/app.js'), 'utf8'), APP);
  assert.equal(fs.readFileSync(path.join(staging, 'js/lib/util.js'), 'utf8'), UTIL);
  assert.equal(fs.readFileSync(path.join(staging, 'style.css'), 'utf8'), CSS);
  assertHashesMatch(staging, 3);
});

test('a hash for a file the site does not have fails the build', () => {
  const { staging, types } = stage();
  fs.unlinkSync(path.join(staging, 'style.css'));
  const run = spawnSync(process.execPath, [HOOK], {
    env: { ...process.env, TRUNK_STAGING_DIR: staging, TRUNK_PROFILE: 'release', WEB_TYPES_DIR: types },
    encoding: 'utf8',
  });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /style\.css \(in index\.html\) is not in the site/);
});

test('the built site: hashes match, no .d.ts, every module minified', () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const pairs = integrities(html);
  // The glue, the wasm and the two style sheets.
  assert.ok(pairs.length >= 4, JSON.stringify(pairs));
  const base = /<base href="([^"]*)"/.exec(html)?.[1] ?? '/';
  for (const [url, hash] of pairs) {
    const file = path.join(DIST, url.startsWith(base) ? url.slice(base.length) : url);
    assert.equal(hash, sri(hash.split('-')[0], file), url);
  }
  /** @param {string} dir @returns {string[]} */
  const walk = (dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const files = walk(DIST);
  assert.deepEqual(
    files.filter((f) => f.endsWith('.d.ts')),
    [],
  );
  const code = files.filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  assert.ok(code.length > 20, `${code.length} files`);
  for (const file of code) {
    // The sources start with a comment and are indented; esbuild keeps neither.
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /^\s*\/[/*]|\n {2}\S/, path.relative(DIST, file));
  }
});
