// Accessibility: axe-core on every view (the classic page and each of the article's
// reports, the cluster page, the embeds) finds no serious or critical violation; and the
// keyboard moves inside the strategy grid and the presets list with the arrow keys.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

/**
 * Waits until both models' runs have settled and the page has painted.
 * @param {import('playwright-core').Page} page
 */
async function settled(page) {
  await page.waitForFunction(
    () => {
      const p = /** @type {any} */ (window).playground;
      return !!p && [p.classic.runner, p.cluster.runner].every((r) => !r.current && !r.pending);
    },
    null,
    { timeout: 60_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
}

/**
 * The serious and critical violations axe-core finds on the page as it is.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
async function violations(page) {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (window).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (/** @type {any} */ v) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×, e.g. ${v.nodes
            .slice(0, 3)
            .map((/** @type {any} */ n) => n.target.join(' '))
            .join(' | ')})`,
      );
  });
}

/** The link of the default cluster scenario, from the page's own encoder. @param {import('playwright-core').Page} page */
function clusterLink(page) {
  return page.evaluate(() => {
    const w = window.wasmBindings;
    const cluster = w.bundledScenarios('en').find((/** @type {any} */ p) => p.model === 'cluster')?.scenario;
    return w.encodeState({ model: 'cluster', cluster, view: { hidden: [] } });
  });
}

// Every view a reader can open: [name, query, what to wait for].
const VIEWS = [
  ['classic', '', 'runs'],
  ['classic, zh', '?lang=zh', 'runs'],
  ['classic herd report', '?view=herd', 'runs'],
  ['classic sweep report', '?view=sweep', 'runs'],
  ['classic breaker report', '?view=breaker', 'runs'],
  ['classic embed (both)', '?embed=both', 'runs'],
  ['classic embed (chart)', '?embed=chart', 'runs'],
  ['classic embed (table)', '?embed=table', 'runs'],
  ['classic embed (herd report)', '?embed=herd', 'runs'],
];

for (const [name, query, runs] of VIEWS) {
  test(`axe-core: no serious or critical violation on the ${name} view`, async () => {
    const page = await h.page(`${h.url}${query}`);
    await e2e.waitRunCount(page, runs, 1);
    await settled(page);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

for (const embed of [null, 'both', 'chart']) {
  test(`axe-core: no serious or critical violation on the cluster ${embed ? `embed (${embed})` : 'view'}`, async () => {
    const first = await h.page(h.url);
    await e2e.waitRunCount(first, 'runs', 1);
    const link = await clusterLink(first);
    await first.close();
    const page = await h.page(`${h.url}?s=${encodeURIComponent(link)}${embed ? `&embed=${embed}` : ''}`);
    await e2e.waitRunCount(page, 'clusterRuns', 1);
    await settled(page);
    if (!embed) await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'a11y-cluster.png') });
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('axe-core: no serious or critical violation on the narrow embed and in the embed dialog', async () => {
  // The compact table of a narrow embed.
  const narrow = await h.page(`${h.url}?embed=table`);
  await narrow.setViewportSize({ width: 360, height: 800 });
  await e2e.waitRunCount(narrow, 'runs', 1);
  await settled(narrow);
  assert.deepEqual(await violations(narrow), []);
  await narrow.close();
  // The dialog open, its preview measured.
  const page = await h.page(h.url);
  await e2e.waitRunCount(page, 'runs', 1);
  await page.click('#copy-embed');
  await page.waitForFunction(() => !!document.getElementById('embed-dialog')?.dataset.height, null, {
    timeout: 60_000,
  });
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('arrow keys move inside the strategy grid as in a spreadsheet', async () => {
  const page = await h.page(h.url);
  await e2e.waitRunCount(page, 'runs', 1);
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-field') ?? null);
  await page.focus('[data-field="strategies[1].max_retry"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'strategies[2].max_retry');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), 'strategies[0].max_retry');
  // The whole text is selected on arrival: right goes on to the next cell, left back.
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'strategies[0].base_ms');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 'strategies[0].max_retry');
  // Inside a text the caret moves first: End, then right leaves the cell.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('End');
  assert.equal(await focused(), 'strategies[0].name');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 'strategies[0].name', 'the caret moved inside the name');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'strategies[0].max_retry');
  // No edit was made by moving around: the scenario is still the article's.
  assert.equal(await page.evaluate(() => window.playground.classic.cfg.strategies[0].max_retry), 3);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the presets are one list: arrow keys load the next preset, and it says which is loaded', async () => {
  const page = await h.page(h.url);
  await e2e.waitRunCount(page, 'runs', 1);
  assert.equal(await page.locator('#classic-presets').evaluate((s) => s.tagName), 'SELECT');
  assert.equal(await page.inputValue('#classic-presets'), 'article');
  const ids = await page.$$eval('#classic-presets option[data-preset]', (o) => o.map((x) => x.getAttribute('value')));
  const n = await e2e.runCount(page, 'runs');
  await page.focus('#classic-presets');
  await page.keyboard.press('ArrowDown');
  await e2e.waitRunCount(page, 'runs', n + 1);
  assert.equal(await page.inputValue('#classic-presets'), ids[1]);
  // An edit makes the scenario no longer the preset: the list shows its prompt, so the
  // same preset can be loaded again.
  await e2e.commitField(page, { field: 'capacity', value: '250', runs: 'runs', commit: 'change' });
  assert.equal(await page.inputValue('#classic-presets'), '');
  await e2e.choosePreset(page, ids[1]);
  await page.waitForFunction(() => window.playground.classic.cfg.capacity !== 250);
  assert.equal(await page.inputValue('#classic-presets'), ids[1]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('axe-core: no serious or critical violation with the cluster glossary and the paste box open, a configuration read', async () => {
  const page = await h.page(`${h.url}?lang=en`);
  await e2e.waitRunCount(page, 'runs', 1);
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  await page.click('#cluster-glossary summary');
  await page.click('#cluster-paste summary');
  await page.waitForFunction(() => (document.getElementById('cluster-paste-library')?.children.length ?? 0) > 1);
  await page.fill(
    '#cluster-paste-text',
    'resilience4j:\n  retry:\n    instances:\n      inventory:\n        max-attempts: 3\n',
  );
  await page.click('#cluster-paste-read');
  await page.waitForSelector('#cluster-paste-out li');
  await page.click('#cluster-write');
  await page.waitForFunction(
    () => /** @type {HTMLTextAreaElement} */ (document.getElementById('cluster-write-text')).value !== '',
  );
  await settled(page);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});
