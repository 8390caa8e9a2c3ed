// Loading and first paint: the built index.html already holds the default view's verdict
// and results table (written by scripts/post-build.mjs from the engine), so a reader sees
// the article's table before the wasm arrives; until the engine is ready the shell's
// controls are disabled and the page says it is loading.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

// The shell's controls, disabled while the wasm loads.
const CONTROLS = [
  'input[name="model"][value="classic"]',
  'input[name="model"][value="cluster"]',
  '#lang-select',
  '#copy-link',
  '#copy-embed',
];

/**
 * Opens `query` with the wasm request held until `release()` is called.
 * @param {string} query
 */
async function openHeld(query) {
  const context = /** @type {import('playwright-core').BrowserContext} */ (h.context);
  const page = /** @type {e2e.TestPage} */ (await context.newPage());
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  /** @type {() => void} */
  let release = () => {};
  const gate = new Promise((resolve) => {
    release = () => resolve(undefined);
  });
  await page.route('**/*.wasm', async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(`${h.url}${query}`, { waitUntil: 'domcontentloaded' });
  return { page, release };
}

/**
 * The cells of the first visible results table under `root`.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
function visibleRows(page, selector) {
  return page.$$eval(selector, (tables) => {
    const table = tables.find((t) => /** @type {HTMLElement} */ (t).offsetParent !== null);
    return table ? [...table.querySelectorAll('tr')].map((r) => [...r.children].map((c) => String(c.textContent))) : [];
  });
}

test('the built index.html holds the default table, in both languages, before any script runs', () => {
  const html = fs.readFileSync(path.join(e2e.DIST, 'index.html'), 'utf8');
  assert.ok(html.includes('<div id="first-paint" class="first-paint"><div class="fp-en"'), 'no first paint');
  assert.equal((html.match(/<table class="results"/g) || []).length, 2);
  for (const cell of ['S1 固定重试3次', 'S6 预算+熔断', '1.30x', '2.34x', '0.94x', '1/[21]/0']) {
    assert.ok(html.includes(`>${cell}<`), cell);
  }
});

for (const [lang, shownClass] of [
  ['en', '.fp-en'],
  ['zh', '.fp-zh'],
]) {
  test(`with the wasm held back (${lang}), the article's table is shown and the controls are disabled, then live`, async () => {
    const { page, release } = await openHeld(`?lang=${lang}`);
    // boot.js sets the page's language before it waits for the wasm.
    await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang);
    await page.waitForSelector(`#first-paint ${shownClass} table.results`, { state: 'visible' });
    const other = shownClass === '.fp-en' ? '.fp-zh' : '.fp-en';
    assert.equal(await page.isVisible(`#first-paint ${other}`), false);
    const early = await visibleRows(page, '#first-paint table.results');
    assert.equal(early.length, 7, 'a header and the six strategies');
    assert.equal(early[1][0], 'S1 固定重试3次');
    assert.ok(String(await page.textContent(`#first-paint ${shownClass} .verdict`)).trim());
    // Loading, visibly; nothing to click yet.
    assert.ok(await page.isVisible('#loading'));
    assert.equal(await page.isVisible('#app'), false);
    for (const sel of CONTROLS) assert.ok(await page.isDisabled(sel), `${sel} is enabled while loading`);
    await page.screenshot({ path: path.join(e2e.ARTIFACTS, `loading-${lang}.png`) });

    release();
    await e2e.waitRunCount(page, 'runs', 1);
    assert.equal(await page.$('#first-paint'), null);
    for (const sel of CONTROLS) assert.ok(await page.isEnabled(sel), `${sel} is disabled once live`);
    assert.equal(await page.isVisible('#loading'), false);
    // The live table is the one the build wrote.
    assert.deepEqual(await e2e.tableRows(page, '#classic-results'), early);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('a link to another state does not show the default table while it loads', async () => {
  const { page, release } = await openHeld('?s=v1.AAAA');
  await page.waitForSelector('#loading', { state: 'visible' });
  assert.equal(await page.isVisible('#first-paint'), false);
  release();
  await e2e.waitRunCount(page, 'runs', 1);
  await page.close();
});

test('a wasm that never arrives keeps the first paint and says the simulator could not be loaded', async () => {
  const context = /** @type {import('playwright-core').BrowserContext} */ (h.context);
  const page = await context.newPage();
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(h.url);
  await page.waitForSelector('#banner:not([hidden])', { timeout: 30_000 });
  assert.match(String(await page.textContent('#banner')), /could not be loaded/);
  assert.ok(await page.isVisible('#first-paint .fp-en table.results'));
  for (const sel of CONTROLS) assert.ok(await page.isDisabled(sel), sel);
  await page.close();
});
