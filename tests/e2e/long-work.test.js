// Long work asks first: a link whose ensemble the engine estimates at minutes (10,000
// seeds of the GC stampede) shows a notice with the engine's estimate in words and does
// not start; "Run anyway" starts it; a short link runs without asking. The notice is in
// the page's language, and fits a 360 px screen (screenshots in ARTIFACTS).

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
before(() => h.start());
after(() => h.stop());

const PRESET = 'cluster-gc-stampede-naive';
// A fixed pool, so the estimate the test compares with is the page's.
const WORKERS = 2;
const NOTICE = '[data-long-work="cluster-ensemble"]';

/**
 * The share link text of the GC stampede over `seeds` seeds, made by the page's own encoder.
 * @param {import('playwright-core').Page} page
 * @param {number} seeds
 */
function link(page, seeds) {
  return page.evaluate(
    ([id, n]) => {
      const w = window.wasmBindings;
      const cluster = w.bundledScenarios('en').find((/** @type {any} */ p) => p.id === id)?.scenario;
      return w.encodeState({ model: 'cluster', cluster, cluster_sweep: { seeds: n }, view: { hidden: [] } });
    },
    /** @type {const} */ ([PRESET, seeds]),
  );
}

/**
 * The engine's estimate of that ensemble on the page's pool, its time in `lang`.
 * @param {import('playwright-core').Page} page
 * @param {number} seeds
 * @param {string} lang
 */
function estimate(page, seeds, lang) {
  return page.evaluate(
    ([id, n, workers, l]) => {
      const w = window.wasmBindings;
      const cluster = w.bundledScenarios('en').find((/** @type {any} */ p) => p.id === id)?.scenario;
      return w.estimatePlan('cluster', cluster, { seeds: n }, workers, l);
    },
    /** @type {const} */ ([PRESET, seeds, WORKERS, lang]),
  );
}

/** Opens the default page and waits for its wasm (its first run). */
async function home() {
  const page = await h.page(`${h.url}?lang=en&workers=${WORKERS}`);
  await e2e.waitRunCount(page, 'runs', 1);
  return page;
}

/**
 * The cluster ensemble's state on the page (running, done, cancelled; undefined: none).
 * @param {import('playwright-core').Page} page
 */
function ensembleState(page) {
  return page.evaluate(() => document.body.dataset.clusterEnsemble);
}

test('a link to minutes of work shows the estimate and waits; "Run anyway" starts it', async () => {
  const page = await home();
  const long = await link(page, 10_000);
  const expected = await estimate(page, 10_000, 'en');
  assert.equal(expected.ask, true, expected.text);

  await page.goto(`${h.url}?s=${long}&lang=en&workers=${WORKERS}`);
  const notice = page.locator(NOTICE);
  await notice.waitFor({ state: 'visible' });
  // The single run of the same scenario (well under a second) still runs and shows.
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  const text = String(await notice.locator('.long-work-text').textContent());
  assert.equal(
    text,
    `These 10,000 runs would take ${expected.time} (peak memory ${expected.memory}), so they have not started.`,
  );
  assert.match(expected.time, /^about .*min/);
  // Nothing started: no ensemble state, no progress, no ensemble results.
  assert.equal(await ensembleState(page), undefined);
  assert.equal(await page.locator('#cluster-root .seeds-out').isHidden(), true);
  assert.equal(await page.locator('#cluster-root .seeds-cancel').isHidden(), true);
  // The link still carries the ensemble (the reader may share it as it is).
  assert.equal(new URL(page.url()).searchParams.get('s'), long);
  await notice.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'long-work-notice-1280.png') });

  await page.setViewportSize({ width: 360, height: 800 });
  await notice.scrollIntoViewIfNeeded();
  const box = await notice.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `the notice fits 360 px: ${JSON.stringify(box)}`);
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'long-work-notice-360.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  await notice.locator('.long-work-run').click();
  await page.waitForFunction(() => document.body.dataset.clusterEnsemble === 'running');
  assert.equal(await notice.isHidden(), true);
  // Some seeds come in, then Cancel stops the rest.
  await page.waitForFunction(() =>
    /^[1-9]/.test(document.querySelector('#cluster-root .seeds-status')?.textContent ?? ''),
  );
  await page.click('#cluster-root .seeds-cancel');
  await page.waitForFunction(() => document.body.dataset.clusterEnsemble === 'cancelled');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a short link runs without asking', async () => {
  const page = await home();
  const short = await link(page, 4);
  assert.equal((await estimate(page, 4, 'en')).ask, false);
  await page.goto(`${h.url}?s=${short}&lang=en&workers=${WORKERS}`);
  await page.waitForFunction(() => document.body.dataset.clusterEnsemble === 'done', undefined, { timeout: 60_000 });
  assert.equal(await page.locator('[data-long-work]:not([hidden])').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the notice is in the page language, the time in the engine words', async () => {
  const page = await home();
  const long = await link(page, 10_000);
  const expected = await estimate(page, 10_000, 'zh');
  await page.goto(`${h.url}?s=${long}&lang=zh&workers=${WORKERS}`);
  const notice = page.locator(NOTICE);
  await notice.waitFor({ state: 'visible' });
  assert.equal(
    await notice.locator('.long-work-text').textContent(),
    `这 10,000 次运行预计需要${expected.time}（内存峰值 ${expected.memory}），因此尚未开始。`,
  );
  assert.match(expected.time, /^约 /);
  assert.equal(await notice.locator('.long-work-run').textContent(), '仍然运行');
  // A switch to English rewords the notice in place.
  await page.selectOption('#lang-select', 'en');
  await page.waitForFunction(
    (sel) =>
      /^These 10,000 runs would take about /.test(document.querySelector(`${sel} .long-work-text`)?.textContent ?? ''),
    NOTICE,
  );
  assert.equal(await notice.locator('.long-work-run').textContent(), 'Run anyway');
  assert.equal(await ensembleState(page), undefined);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a link to a long sweep asks too, and keeps its definition in the link', async () => {
  const page = await home();
  // The metastability map at 20 seeds a point: 320 cluster runs of 90 s.
  const { long, expected } = await page.evaluate(
    ([workers]) => {
      const w = window.wasmBindings;
      const s = w.sweepPresets('en').find((/** @type {any} */ p) => p.id === 'metastability-map');
      const cluster = w.bundledScenarios('en').find((/** @type {any} */ p) => p.id === s.scenario)?.scenario;
      const sweep = { ...s.sweep, seeds: 20 };
      return {
        long: w.encodeState({ model: 'cluster', cluster, cluster_sweep: sweep, view: { hidden: [] } }),
        expected: w.estimatePlan('cluster', cluster, sweep, workers, 'en'),
      };
    },
    [WORKERS],
  );
  assert.equal(expected.ask, true, expected.text);
  await page.goto(`${h.url}?s=${long}&lang=en&workers=${WORKERS}`);
  const notice = page.locator('[data-long-work="cluster-sweep"]');
  await notice.waitFor({ state: 'visible' });
  assert.equal(
    await notice.locator('.long-work-text').textContent(),
    `This sweep of 320 runs would take ${expected.time} (peak memory ${expected.memory}), so it has not started.`,
  );
  assert.equal(await page.evaluate(() => document.body.dataset.clusterSweep), undefined);
  assert.equal(new URL(page.url()).searchParams.get('s'), long);
  await notice.locator('.long-work-run').click();
  await page.waitForFunction(() => document.body.dataset.clusterSweep === 'running');
  assert.equal(await notice.isHidden(), true);
  await page.click('#cluster-root .sweep-cancel');
  await page.waitForFunction(() => document.body.dataset.clusterSweep === 'cancelled');
  assert.deepEqual(page.errors, []);
  await page.close();
});
