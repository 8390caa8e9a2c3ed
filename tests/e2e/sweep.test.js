// End-to-end tests of the sweep panel (sweep/panel.js): the breaker-threshold link draws
// its curve and recommends the threshold the CLI's `grid` recommends; a two-parameter
// link reproduces the CLI's JSONL values in the heatmap's readout; a click on a point
// opens that point's scenario; Cancel leaves the page usable; a bad sweep link falls
// back with a message naming the field; screenshots in light, dark and at 360 px, and
// the cluster's metastability map side by side.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BREAKER = JSON.parse(fs.readFileSync(path.join(ROOT, 'scenarios/sweeps/breaker-threshold.json'), 'utf8'));

before(() => h.start());
after(() => h.stop());

/** @param {object} state the share state */
function link(state) {
  return `v3.${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
}

/**
 * Opens a link and waits for its sweep to end (`done`, or the state given).
 * @param {string} query
 * @param {{key?: string, until?: string}} [options]
 */
async function openSweep(query, { key = 'classicSweep', until = 'done' } = {}) {
  const page = await h.page(`${h.url}${query}`);
  await page.waitForFunction(([k, u]) => document.body.dataset[k] === u, [key, until], { timeout: 120_000 });
  return page;
}

/** @param {string[]} args */
function cli(args) {
  return execFileSync(e2e.CLI, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/**
 * The readout the keyboard shows at every position of a chart.
 * @param {import('playwright-core').Page} page
 * @param {string} canvas
 */
async function readouts(page, canvas) {
  const n = await page.evaluate(() => window.playground.classic.sweep.sides[0].view.handle?.positions() ?? 0);
  await page.focus(canvas);
  await page.keyboard.press('Home');
  /** @type {string[]} */
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(String(await page.textContent('.sweep-side-b .readout')));
    await page.keyboard.press('ArrowRight');
  }
  return out;
}

test('the breaker-threshold link draws the curve and recommends the CLI’s threshold', async () => {
  const def = { ...BREAKER, seeds: 8 };
  const page = await openSweep(`?s=${link({ classic_sweep: def })}`);
  const drawn = await page.$eval('.sweep-chart-b', (c) => Number(/** @type {HTMLElement} */ (c).dataset.drawn || 0));
  assert.ok(drawn > 0);
  // The CLI on the same sweep (its file, 8 seeds): the "recommended" line.
  const text = cli(['grid', '--sweep', path.join(ROOT, 'scenarios/sweeps/breaker-threshold.json'), '--seeds', '8']);
  const m = /^recommended: (strategies\[5\]\.breaker_trip_failures = \d+)/m.exec(text);
  assert.ok(m, text);
  const at = await page.$eval('.sweep-side-b .sweep-recommend', (p) => /** @type {HTMLElement} */ (p).dataset.at);
  assert.equal(at, m[1]);
  assert.match(String(await page.textContent('.sweep-side-b .sweep-recommend')), /not in general/);
  // The Pareto scatter is drawn too, and the form shows the definition's controls.
  assert.ok(await page.$eval('.sweep-pareto-chart', (c) => Number(/** @type {HTMLElement} */ (c).dataset.drawn) > 0));
  // The goal and the thresholds in words, in lists; the CLI's syntax folded under them.
  assert.equal(await page.inputValue('.sweep-goal'), 'max');
  assert.equal(await page.inputValue('.sweep-goal-metric'), 'strategies[5].delivery_pct');
  assert.match(
    String(
      await page.$eval('.sweep-goal-metric', (s) => /** @type {HTMLSelectElement} */ (s).selectedOptions[0]?.text),
    ),
    /S6 .*·/,
  );
  assert.equal(await page.locator('.sweep-threshold').count(), 2);
  assert.equal(await page.inputValue('.sweep-threshold-share >> nth=0'), 'p95');
  assert.equal(await page.inputValue('.sweep-threshold-value >> nth=0'), '2');
  assert.equal(await page.isVisible('.sweep-objective'), false);
  assert.equal(await page.inputValue('.sweep-objective'), 'max:strategies[5].delivery_pct');
  // 40 positions, one per point, each read out with every strategy's line.
  const lines = await readouts(page, '.sweep-chart-b');
  assert.equal(lines.length, 40);
  assert.match(lines[0], /breaker_trip_failures = 50/);
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'sweep-breaker-light.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a two-parameter link reproduces the CLI’s JSONL in the heatmap readout', async () => {
  const def = {
    params: [
      { path: 'capacity', values: [200, 240, 300] },
      { path: 'strategies[*].budget_pct', values: [0, 50, 100] },
    ],
    seeds: 3,
    plot: 'strategies[2].amplification',
  };
  const page = await openSweep(`?s=${link({ classic_sweep: def })}`);
  const lines = await readouts(page, '.sweep-chart-b');
  const file = h.scratch('two.json');
  fs.writeFileSync(file, JSON.stringify(def));
  const native = cli(['grid', '--sweep', file, '--jsonl'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, native.length);
  native.forEach((p, i) => {
    const want = p.metrics['strategies[2].amplification'].median;
    const shown = /strategies\[2\]\.amplification\s*([\d.]+)/.exec(lines[i]);
    assert.ok(shown, lines[i]);
    assert.equal(Number(shown[1]), Number(want.toFixed(3)), `point ${i}: ${lines[i]}`);
    assert.ok(lines[i].includes(`capacity = ${p.params.capacity}`), lines[i]);
  });
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'sweep-heatmap-light.png'), fullPage: true });
  await page.close();
});

test('clicking a point opens its scenario; Enter on a keyboard position does too', async () => {
  const def = { params: [{ path: 'capacity', values: [150, 240, 400] }], seeds: 2 };
  const page = await openSweep(`?s=${link({ classic_sweep: def })}`);
  /** @param {string} href */
  const capacityOf = (href) =>
    page.evaluate(
      (s) => window.wasmBindings.decodeState(String(new URL(s).searchParams.get('s'))).classic.capacity,
      href,
    );
  // The mouse: the third point, where the engine's handle says it is drawn.
  const [x, y] = await page.evaluate(() => {
    const hd = /** @type {any} */ (window.playground.classic.sweep.sides[0].view.handle);
    return [hd.positionX(2), hd.positionY(2)];
  });
  const chart = page.locator('#classic-root .sweep-chart-b');
  await chart.scrollIntoViewIfNeeded();
  const box = /** @type {{x: number, y: number}} */ (await chart.boundingBox());
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.mouse.click(box.x + x, box.y + y)]);
  const href = String(await page.$eval('.sweep-chart-b', (c) => /** @type {HTMLElement} */ (c).dataset.lastPointLink));
  assert.equal(await capacityOf(href), 400);
  await popup.waitForFunction(() => Number(document.body.dataset.runs || 0) >= 1);
  assert.equal(await popup.inputValue('[data-field="capacity"]'), '400');
  await popup.close();
  // The keyboard: Home, then Enter opens the first point.
  await page.focus('.sweep-chart-b');
  await page.keyboard.press('Home');
  const [second] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
  const first = String(await page.$eval('.sweep-chart-b', (c) => /** @type {HTMLElement} */ (c).dataset.lastPointLink));
  assert.equal(await capacityOf(first), 150);
  await second.close();
  await page.close();
});

test('Cancel stops a sweep and leaves the page usable', async () => {
  const page = await h.page(`${h.url}?s=${link({ classic_sweep: BREAKER })}`);
  await page.waitForFunction(() => Number(document.body.dataset.classicSweepFirstMs || 0) > 0, null, {
    timeout: 60_000,
  });
  await page.click('.sweep-cancel');
  await page.waitForFunction(() => document.body.dataset.classicSweep === 'cancelled');
  assert.equal(await page.isHidden('.sweep-cancel'), true);
  // The page still runs edits.
  const runs = await e2e.runCount(page, 'runs');
  await e2e.commitField(page, { field: 'capacity', value: '260', runs: 'runs', commit: 'change' });
  assert.ok((await e2e.runCount(page, 'runs')) > runs);
  // And a new sweep from the form runs to the end.
  await page.selectOption('.sweep-param .sweep-field >> nth=0', 'capacity');
  await page.selectOption('.sweep-param .sweep-mode >> nth=0', 'list');
  await page.fill('.sweep-list >> nth=0', '200, 300');
  await page.fill('.sweep-seeds', '2');
  // No goal, no thresholds (from the lists), no Pareto axes (in the CLI's syntax).
  await page.selectOption('.sweep-goal', '');
  while ((await page.locator('.sweep-remove-threshold').count()) > 0) await page.click('.sweep-remove-threshold');
  await page.click('.sweep-advanced > summary');
  // Opening writes the lists' choices into the texts, on the details' toggle event (a task
  // of its own, which a busy page may run after the click returns).
  await page.waitForFunction(
    () => /** @type {HTMLInputElement} */ (document.querySelector('.sweep-objective')).value === '',
    null,
    {
      timeout: 5000,
    },
  );
  assert.equal(await page.inputValue('.sweep-objective'), '');
  assert.equal(await page.inputValue('.sweep-constraints'), '');
  await page.fill('.sweep-pareto', '');
  await page.click('.sweep-run');
  await page.waitForFunction(() => document.body.dataset.classicSweep === 'done', null, { timeout: 60_000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a goal and a threshold chosen in words recommend what the CLI recommends for them', async () => {
  // The breaker sweep with no goal, no thresholds and no Pareto axes: the reader picks them.
  const def = { params: BREAKER.params, seeds: 4 };
  const page = await openSweep(`?s=${link({ classic_sweep: def })}`);
  assert.equal(await page.inputValue('.sweep-goal'), '');
  assert.equal(await page.locator('.sweep-threshold').count(), 0);
  await page.selectOption('.sweep-goal', 'max');
  await page.selectOption('.sweep-goal-metric', 'strategies[5].delivery_pct');
  await page.click('.sweep-add-threshold');
  await page.selectOption('.sweep-threshold-metric', 'strategies[5].overload_seconds');
  await page.selectOption('.sweep-threshold-op', '<=');
  await page.fill('.sweep-threshold-value', '2');
  await page.selectOption('.sweep-threshold-share', 'p95');
  assert.equal(await page.textContent('.sweep-threshold-symbol'), 's');
  await page.click('.sweep-run');
  await page.waitForFunction(
    () => document.body.dataset.classicSweep === 'running' || document.body.dataset.classicSweep === 'done',
  );
  await page.waitForFunction(() => document.body.dataset.classicSweep === 'done', null, { timeout: 120_000 });
  // The CLI on the same points with the same goal and threshold, in its own syntax.
  const file = path.join(fs.mkdtempSync(path.join(ROOT, 'target', 'sweep-')), 'sweep.json');
  fs.writeFileSync(file, JSON.stringify(def));
  const text = cli([
    'grid',
    '--sweep',
    file,
    '--objective',
    'max:strategies[5].delivery_pct',
    '--constraint',
    'p95(strategies[5].overload_seconds)<=2',
  ]);
  const m = /^recommended: (strategies\[5\]\.breaker_trip_failures = \d+)/m.exec(text);
  assert.ok(m, text);
  const at = await page.$eval('.sweep-side-b .sweep-recommend', (p) => /** @type {HTMLElement} */ (p).dataset.at);
  assert.equal(at, m[1]);
  // The link now carries the choices: opened again, the lists show them.
  const again = await openSweep(new URL(page.url()).search);
  assert.equal(await again.inputValue('.sweep-goal'), 'max');
  assert.equal(await again.inputValue('.sweep-threshold-metric'), 'strategies[5].overload_seconds');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
  await page.close();
  await again.close();
});

test('a bad sweep link falls back with a message naming the field', async () => {
  const cases = [
    [{ params: [{ path: 'nope.x', values: [1] }] }, /params\[0\]\.path/],
    [
      {
        params: [
          { path: 'capacity', range: { from: 1, to: 1000, steps: 200 } },
          { path: 'clients', range: { from: 1, to: 1000, steps: 200 } },
        ],
      },
      /params = 40000 points is out of range: allowed at most 10000 points/,
    ],
    [{ params: [{ path: 'capacity', values: [1] }], seeds: 0 }, /link\.classic_sweep\.seeds/],
  ];
  for (const [def, message] of cases) {
    const page = await h.page(`${h.url}?s=${link({ classic_sweep: def })}`);
    await page.waitForFunction(() => Number(document.body.dataset.runs || 0) >= 1);
    await page.waitForFunction(
      () => document.body.dataset.classicSweep === 'error' || !document.getElementById('banner')?.hidden,
    );
    const shown = `${await page.textContent('#banner')} ${await page.textContent('.sweep-error')}`;
    assert.match(shown, /** @type {RegExp} */ (message));
    // The page falls back: the single run of the scenario shows.
    assert.ok(await page.isVisible('#classic-results'));
    await page.close();
  }
});

test('screenshots: dark, 360 px, and the metastability map side by side', async () => {
  const def = { ...BREAKER, seeds: 4 };
  const dark = await openSweep(`?theme=dark&s=${link({ classic_sweep: def })}`);
  await dark.screenshot({ path: path.join(e2e.ARTIFACTS, 'sweep-breaker-dark.png'), fullPage: true });
  await dark.close();
  const narrow = await openSweep(`?s=${link({ classic_sweep: def })}`);
  await narrow.setViewportSize({ width: 360, height: 800 });
  await narrow.waitForTimeout(300);
  await narrow
    .locator('#classic-root .sweep-panel')
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'sweep-breaker-360.png') });
  // Nothing in the panel reaches past the viewport's right edge.
  const wide = await narrow.$$eval('#classic-root .sweep-panel *', (nodes) =>
    nodes.filter((n) => n.getBoundingClientRect().right > innerWidth + 1).map((n) => `${n.tagName}.${n.className}`),
  );
  assert.deepEqual(wide, []);
  await narrow.close();
  // Embedded: the link's sweep shows its charts and recommendation without the form.
  const embedded = await openSweep(`?embed=both&s=${link({ classic_sweep: def })}`);
  assert.equal(await embedded.isVisible('#classic-root .sweep-chart-b'), true);
  assert.equal(await embedded.isVisible('#classic-root .sweep-form'), false);
  assert.match(String(await embedded.textContent('#classic-root .sweep-recommend')), /breaker_trip_failures = \d+/);
  await embedded.close();
  const read = (/** @type {string} */ f) => JSON.parse(fs.readFileSync(path.join(ROOT, 'scenarios', f), 'utf8'));
  const map = JSON.parse(fs.readFileSync(path.join(ROOT, 'scenarios/sweeps/metastability-map.json'), 'utf8'));
  // A smaller map than the preset's (2 × 2 points, 1 seed), to keep the test short.
  map.params[0].values = [1000, 2500];
  map.params[1].values = [21000, 26000];
  map.seeds = 1;
  const state = {
    model: 'cluster',
    cluster: read('cluster-metastable-budget.json'),
    cluster_a: read('cluster-metastable.json'),
    cluster_sweep: map,
  };
  const page = await openSweep(`?s=${link(state)}`, { key: 'clusterSweep' });
  assert.equal(await page.isVisible('#cluster-root .sweep-side-a'), true);
  const [b, a] = await Promise.all([
    e2e.pixels(page, '#cluster-root .sweep-chart-b'),
    e2e.pixels(page, '#cluster-root .sweep-chart-a'),
  ]);
  assert.notEqual(a, b, 'with and without a budget differ');
  await page
    .locator('#cluster-root .sweep-panel')
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'sweep-metastability.png') });
  await page.close();
});
