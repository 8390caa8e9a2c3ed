// End-to-end tests of the cost model, the time attribution and the routes in the page:
// the classic cost model and its columns, the attribution selector and the comparison of
// the three conventions, the chart's
// attempts/s ↔ cost/s switch, cluster routes in the editor and the route table, and a
// link carrying all of it. Every expected figure comes from the native CLI.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });

before(() => h.start());
after(() => h.stop());

/**
 * The CLI's output for `args` (text, or parsed JSON with `--json`).
 * @param {string[]} args
 */
function cli(args) {
  const out = execFileSync(e2e.CLI, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return args.includes('--json') ? JSON.parse(out) : out;
}

/**
 * The text table that follows the line starting with `header` in a CLI report, as rows of
 * cells (columns are two or more spaces apart).
 * @param {string} text
 * @param {string} header
 */
function textTable(text, header) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(header));
  assert.ok(start >= 0, `no table starting with ${header}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  return lines.slice(start, end).map((l) => l.trim().split(/ {2,}/));
}

/** @param {import('playwright-core').Page} page */
const runs = (page) => e2e.runCount(page, 'runs');

/**
 * Opens the classic page and waits for its first run (and, with `conventions`, for the
 * attribution comparison of that run).
 * @param {string} url
 */
async function open(url) {
  const page = await h.page(url);
  await e2e.waitRunCount(page, 'runs', 1);
  return page;
}

/**
 * Waits until the attribution comparison shows the run on screen.
 * @param {import('playwright-core').Page} page
 */
async function conventionsShown(page) {
  await page.waitForFunction(
    () => {
      const block = document.getElementById('classic-attribution-block');
      return (
        !!block && !block.classList.contains('pending') && !!document.querySelector('#classic-attribution-figures tr')
      );
    },
    null,
    { timeout: 60_000 },
  );
}

/**
 * Chooses a classic preset and waits for its run.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function classicPreset(page, id) {
  const n = await runs(page);
  await e2e.choosePreset(page, id);
  await e2e.waitRunCount(page, 'runs', n + 1);
}

/**
 * The results table as {strategy: {column: cell}}.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 */
async function byRow(page, selector) {
  const [head, ...rows] = await e2e.tableRows(page, selector);
  return Object.fromEntries(rows.map((r) => [r[0], Object.fromEntries(head.map((c, i) => [c, r[i]]))]));
}

test('the model-gateway preset shows the cost columns of the CLI, and the chart switches to cost', async () => {
  const page = await open(h.url);
  // No cost model in the article's scenario: no cost columns, no cost side of the switch.
  assert.ok(!(await e2e.tableRows(page, '#classic-results'))[0].includes('cost'));
  assert.equal(await page.isDisabled('#classic-chart-switch input[value="cost"]'), true);
  await classicPreset(page, 'model-gateway-cost');
  const json = cli(['run', '--preset', 'model-gateway-cost', '--json']);
  const text = textTable(cli(['run', '--preset', 'model-gateway-cost']), 'strategy      ');
  const shown = await byRow(page, '#classic-results');
  const costed = json.results.filter((/** @type {any} */ r) => r.cost);
  assert.ok(costed.length >= 2, 'the preset bills several strategies');
  for (const r of costed) {
    const row = shown[r.name];
    assert.equal(row.cost, r.cost.total.toFixed(2), r.name);
    assert.equal(row['cost/delivered'], r.cost.per_delivered.toFixed(4), r.name);
    assert.equal(row['cost amplification'], `${r.cost.amplification.toFixed(2)}x`, r.name);
    // And cell for cell as the CLI's endings table prints them.
    const cells = text.find((c) => c[0] === r.name);
    assert.ok(cells, r.name);
    assert.deepEqual(cells.slice(-3), [row.cost, row['cost/delivered'], row['cost amplification']]);
  }
  // The chart switch: cost/s redraws the canvas, attempts/s draws the same as before.
  const attempts = await e2e.pixels(page, '#classic-chart');
  await page.check('#classic-chart-switch input[value="cost"]');
  await page.waitForFunction(
    (before) =>
      /** @type {HTMLCanvasElement} */ (document.querySelector('canvas#classic-chart')).toDataURL() !== before,
    attempts,
  );
  const cost = await e2e.pixels(page, '#classic-chart');
  // The readout reads the engine's cost per second of the hovered second.
  await page.locator('#classic-chart').scrollIntoViewIfNeeded();
  const box = /** @type {{x: number, y: number, width: number, height: number}} */ (
    await page.locator('#classic-chart').boundingBox()
  );
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const readout = await page.textContent('#classic-readout');
  const second = Number(/second (\d+)/.exec(String(readout))?.[1]);
  assert.ok(Number.isInteger(second), String(readout));
  assert.ok(
    String(readout).includes(costed[0].cost.per_sec[second].toFixed(4)),
    `${readout} shows ${costed[0].cost.per_sec[second]}`,
  );
  await page.locator('#classic-chart').screenshot({ path: path.join(e2e.ARTIFACTS, 'cost-chart.png') });
  // The PNG export is the cost chart.
  const png = await e2e.downloaded(page, '#classic-export-png');
  assert.deepEqual([...png.subarray(0, 8)], e2e.PNG);
  await page.check('#classic-chart-switch input[value="attempts"]');
  await page.waitForFunction(
    (before) =>
      /** @type {HTMLCanvasElement} */ (document.querySelector('canvas#classic-chart')).toDataURL() !== before,
    cost,
  );
  assert.equal(await e2e.pixels(page, '#classic-chart'), attempts);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a cost model switched on in the editor bills the strategy as the CLI does, with messages at its fields', async () => {
  const page = await open(h.url);
  const n = await runs(page);
  await page.check('input[data-cost-toggle="3"]');
  await e2e.waitRunCount(page, 'runs', n + 1);
  const cfg = await page.evaluate(() => window.playground.classic.cfg);
  assert.deepEqual(
    cfg.strategies[3].cost,
    await page.evaluate(() => window.wasmBindings.classicDefaults().cost),
    "the engine's default cost model",
  );
  assert.equal(cfg.strategies[0].cost, undefined, 'the other strategies stay without one');
  await e2e.commitField(page, {
    field: 'strategies[3].cost.input_price_per_1k',
    value: '0.01',
    runs: 'runs',
    commit: 'change',
  });
  const json = cli([
    'run',
    '--scenario',
    writeScenario(await page.evaluate(() => window.playground.classic.cfg)),
    '--json',
  ]);
  const row = (await byRow(page, '#classic-results'))[json.results[3].name];
  assert.equal(row.cost, json.results[3].cost.total.toFixed(2));
  assert.equal(row['cost amplification'], `${json.results[3].cost.amplification.toFixed(2)}x`);
  assert.equal((await byRow(page, '#classic-results'))[json.results[0].name].cost, '—');
  // A bad price: the engine's message at that field, the last results kept.
  await page.fill('[data-field="strategies[3].cost.output_price_per_1k"]', '5000');
  await page.dispatchEvent('[data-field="strategies[3].cost.output_price_per_1k"]', 'change');
  const msg = page.locator('.cost-row .field-msg');
  await msg.first().waitFor();
  assert.match(String(await msg.first().getAttribute('title')), /output_price_per_1k/);
  assert.match(String(await msg.first().textContent()), /^Output price \/ 1k must be between/);
  // Unticking a billed kind edits the list; removing the model drops the columns.
  await page.fill('[data-field="strategies[3].cost.output_price_per_1k"]', '0.015');
  await page.dispatchEvent('[data-field="strategies[3].cost.output_price_per_1k"]', 'change');
  await page.uncheck('.cost-row input[data-billed="timeout"]');
  await page.waitForFunction(() => String(window.playground.classic.cfg.strategies[3].cost.billed) === 'error', null);
  const m = await runs(page);
  await page.uncheck('input[data-cost-toggle="3"]');
  await e2e.waitRunCount(page, 'runs', m + 1);
  assert.ok(!(await e2e.tableRows(page, '#classic-results'))[0].includes('cost'));
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * Writes a scenario to a scratch file for the CLI.
 * @param {object} cfg
 */
function writeScenario(cfg) {
  const file = h.scratch(`scenario-${process.hrtime.bigint()}.json`);
  // The page's scenario is the CLI's scenario file.
  fs.writeFileSync(file, JSON.stringify(cfg));
  return file;
}

test('switching the attribution changes the table as --attribution does; the comparison shows all three', async () => {
  const page = await open(h.url);
  await conventionsShown(page);
  /** @type {Record<string, any>} */
  const want = {};
  for (const a of ['ceil', 'floor', 'round']) want[a] = cli(['run', '--attribution', a, '--json']);
  // The comparison: every convention's figures, as the CLI computes them.
  const figures = await byRow(page, '#classic-attribution-figures');
  for (const [a, out] of Object.entries(want)) {
    for (const r of out.results) {
      assert.equal(figures[r.name][`amplification ${a}`], `${r.amplification.toFixed(2)}x`, `${r.name} ${a}`);
      assert.equal(figures[r.name][`delivery ${a}`], `${r.delivery_pct.toFixed(1)}%`, `${r.name} ${a}`);
      assert.equal(figures[r.name][`peak QPS ${a}`], String(r.peak), `${r.name} ${a}`);
    }
  }
  const checks = await e2e.tableRows(page, '#classic-attribution-checks');
  assert.deepEqual(checks[0], ['check', 'ceil', 'floor', 'round']);
  assert.deepEqual(
    checks.slice(1).map((r) => r[1]),
    ['PASS', 'PASS', 'PASS', 'PASS'],
    "the article's convention passes the article's checks",
  );
  const floorAmp = want.floor.results.map((/** @type {any} */ r) => `${r.amplification.toFixed(2)}x`);
  assert.notDeepEqual(
    floorAmp,
    want.ceil.results.map((/** @type {any} */ r) => `${r.amplification.toFixed(2)}x`),
    'the convention matters here',
  );
  // The selector: the results table becomes the CLI's --attribution floor.
  const n = await runs(page);
  await page.selectOption('#classic-attribution', 'floor');
  await e2e.waitRunCount(page, 'runs', n + 1);
  const table = await byRow(page, '#classic-results');
  want.floor.results.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
    assert.equal(table[r.name].amplification, floorAmp[i], r.name);
    assert.equal(table[r.name].answered, `${r.answered_pct.toFixed(1)}%`, r.name);
  });
  await conventionsShown(page);
  assert.ok(
    await page.$eval('#classic-attribution-figures thead th.current', (th) => th.textContent === 'amplification floor'),
    'the convention in use is marked',
  );
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'attribution.png'), fullPage: true });
  // Once S4 is no longer the article's, its checks do not apply under any convention
  // (as the page's checks say), rather than failing.
  await e2e.commitField(page, { field: 'strategies[3].budget_pct', value: '100', runs: 'runs', commit: 'change' });
  await page.waitForFunction(
    () => document.querySelector('#classic-attribution-checks tbody td:nth-child(2)')?.textContent !== 'PASS',
  );
  await conventionsShown(page);
  const edited = await e2e.tableRows(page, '#classic-attribution-checks');
  assert.deepEqual(
    edited.slice(1).map((r) => r.slice(1)),
    Array.from({ length: 4 }, () => ['n/a', 'n/a', 'n/a']),
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a routes preset shows the route table of the CLI; a route is added and removed in the editor', async () => {
  const page = await open(h.url);
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  let n = await e2e.runCount(page, 'clusterRuns');
  await e2e.choosePreset(page, 'cluster-routes-shared-budget', 'cluster');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  const text = cli(['run', '--preset', 'cluster-routes-shared-budget']);
  assert.deepEqual(await e2e.tableRows(page, '#cluster-routes'), textTable(text, 'route '));
  // The editor shows the gateway's two routes, each with its client policy form.
  assert.equal(await page.locator('[data-tier="0"] .route').count(), 2);
  assert.equal(await page.inputValue('[data-field="tiers[0].routes[1].to"]'), '2');
  assert.equal(await page.isChecked('[data-field="tiers[0].route_sharing.budget"]'), true);
  await page.locator('#cluster-root').screenshot({ path: path.join(e2e.ARTIFACTS, 'routes.png') });
  // Per route budgets: the shared budget switched off runs the per-route preset's tree.
  await page.uncheck('[data-field="tiers[0].route_sharing.budget"]');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  const cfg = await page.evaluate(() => window.playground.cluster.cfg);
  assert.equal(cfg.tiers[0].route_sharing.budget, false);
  // Adding a route: no tier is free, so the engine appends one for it.
  await page.click('button[data-act="route-add"][data-index="0"]');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  let tiers = await page.evaluate(() => window.playground.cluster.cfg.tiers);
  assert.equal(tiers.length, 4);
  assert.deepEqual(
    tiers[0].routes.map((/** @type {any} */ r) => r.to),
    [1, 2, 3],
  );
  const routeRows = await e2e.tableRows(page, '#cluster-routes');
  assert.equal(routeRows.length, 4, 'three routes and the header');
  assert.ok(routeRows[3][0].startsWith('gateway → '), routeRows[3][0]);
  // The new route's client is the client form; an edit there lands in the route.
  await e2e.commitField(page, {
    field: 'tiers[0].routes[2].client.timeout_ms',
    value: '700',
    runs: 'clusterRuns',
    commit: 'change',
  });
  n++;
  tiers = await page.evaluate(() => window.playground.cluster.cfg.tiers);
  assert.equal(tiers[0].routes[2].client.timeout_ms, 700);
  // Removing it leaves the new tier without a caller: the engine names it in the editor.
  await page.click('button[data-act="route-del"][data-index="0"][data-route="2"]');
  await page.waitForFunction(() => window.playground.cluster.cfg.tiers[0].routes.length === 2);
  const msg = page.locator('[data-tier="3"] .tier-head .field-msg');
  await msg.waitFor();
  assert.match(String(await msg.getAttribute('title')), /tiers\[3\].*called by exactly one tier/);
  // Removing that tier makes the tree valid again, with the routes as they were.
  await page.click('button[data-act="tier-del"][data-index="3"]');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  tiers = await page.evaluate(() => window.playground.cluster.cfg.tiers);
  assert.deepEqual(
    tiers[0].routes.map((/** @type {any} */ r) => r.to),
    [1, 2],
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('two routes to one pool are two caller populations: made in the editor, told apart as the CLI does, kept by a link', async () => {
  const page = await open(h.url);
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  let n = await e2e.runCount(page, 'clusterRuns');
  await e2e.choosePreset(page, 'cluster-routes-per-route-budget', 'cluster');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  // A third route (to a new tier, as none is free), pointed at the fast pool: the new
  // tier is left without a caller, which the engine names, and goes.
  await page.click('button[data-act="route-add"][data-index="0"]');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  await page.selectOption('[data-field="tiers[0].routes[2].to"]', '1');
  const msg = page.locator('[data-tier="3"] .tier-head .field-msg');
  await msg.waitFor();
  assert.match(String(await msg.getAttribute('title')), /tiers\[3\].*called by 0 tiers/);
  await page.click('button[data-act="tier-del"][data-index="3"]');
  await e2e.waitRunCount(page, 'clusterRuns', ++n);
  // The new population gives up sooner.
  await e2e.commitField(page, {
    field: 'tiers[0].routes[2].client.timeout_ms',
    value: '30',
    runs: 'clusterRuns',
    commit: 'change',
  });
  const cfg = await page.evaluate(() => window.playground.cluster.cfg);
  assert.deepEqual(
    cfg.tiers[0].routes.map((/** @type {any} */ r) => r.to),
    [1, 2, 1],
  );
  const rows = await e2e.tableRows(page, '#cluster-routes');
  assert.deepEqual(
    rows.slice(1).map((r) => r[0]),
    ['gateway → fast-pool #1', 'gateway → slow-pool', 'gateway → fast-pool #3'],
  );
  assert.notDeepEqual(rows[1].slice(2), rows[3].slice(2), 'each population its own figures');
  // The CLI prints the same table for the same scenario.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'populations-')), 'scenario.json');
  fs.writeFileSync(file, JSON.stringify({ ...cfg, model: 'cluster' }));
  assert.deepEqual(rows, textTable(cli(['run', '--scenario', file]), 'route '));
  await page.locator('#cluster-root').screenshot({ path: path.join(e2e.ARTIFACTS, 'route-populations.png') });
  // A link brings the three routes and their table into a fresh page.
  await page.click('#copy-link');
  const again = await h.page(await page.inputValue('#cluster-export-text'));
  await e2e.waitRunCount(again, 'clusterRuns', 1);
  assert.deepEqual(await e2e.tableRows(again, '#cluster-routes'), rows);
  assert.equal(await again.inputValue('[data-field="tiers[0].routes[2].to"]'), '1');
  assert.deepEqual(again.errors, []);
  await again.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a link carries the cost model, the attribution, the chart switch and the routes into a fresh page', async () => {
  const page = await open(h.url);
  await classicPreset(page, 'model-gateway-cost');
  let n = await runs(page);
  await page.selectOption('#classic-attribution', 'round');
  await e2e.waitRunCount(page, 'runs', ++n);
  await page.check('#classic-chart-switch input[value="cost"]');
  const table = await e2e.tableRows(page, '#classic-results');
  const chart = await e2e.pixels(page, '#classic-chart');
  await page.click('#copy-link');
  const link = await page.inputValue('#classic-export-text');
  const fresh = await open(link);
  assert.deepEqual(await e2e.tableRows(fresh, '#classic-results'), table);
  assert.equal(await fresh.inputValue('#classic-attribution'), 'round');
  assert.equal(await fresh.isChecked('#classic-chart-switch input[value="cost"]'), true);
  assert.equal(await e2e.pixels(fresh, '#classic-chart'), chart, 'the same cost chart');
  await fresh.close();
  // The cluster model: a tree with a route added in the editor.
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  let c = await e2e.runCount(page, 'clusterRuns');
  await e2e.choosePreset(page, 'cluster-routes-per-route-budget', 'cluster');
  await e2e.waitRunCount(page, 'clusterRuns', ++c);
  await page.click('button[data-act="route-add"][data-index="1"]');
  await e2e.waitRunCount(page, 'clusterRuns', ++c);
  const routes = await e2e.tableRows(page, '#cluster-routes');
  await page.click('#copy-link');
  const clusterLink = await page.inputValue('#cluster-export-text');
  const again = await h.page(clusterLink);
  await e2e.waitRunCount(again, 'clusterRuns', 1);
  assert.deepEqual(await e2e.tableRows(again, '#cluster-routes'), routes);
  assert.equal(await again.locator('[data-tier="1"] .route').count(), 1);
  assert.deepEqual(again.errors, []);
  await again.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * The cost rows of the readout shown: {label: value}.
 * @param {import('playwright-core').Page} page
 * @param {string} selector the readout box
 */
async function readoutRows(page, selector) {
  return page.$$eval(`${selector} div:not(.readout-title)`, (rows) =>
    Object.fromEntries(
      rows.map((r) => [r.querySelector('span:not(.swatch)')?.textContent, r.querySelector('b')?.textContent]),
    ),
  );
}

test('the cluster chart’s cost switch: offered with a cost model, readouts are the engine’s per-bucket cost, a link keeps it on', async () => {
  // The per-pool routes preset with a cost model on both routes (a model gateway's prices).
  const file = JSON.parse(
    fs.readFileSync(new URL('../../scenarios/cluster-routes-per-route-budget.json', import.meta.url), 'utf8'),
  );
  file.duration_ms = 40_000;
  for (const r of file.tiers[0].routes) {
    r.client.cost = {
      input_tokens: 2000,
      output_tokens: 200,
      input_price_per_1k: 0.003,
      output_price_per_1k: 0.015,
      billed: ['error', 'timeout'],
    };
  }
  const scenarioPath = path.join(e2e.ARTIFACTS, 'cluster-cost-scenario.json');
  fs.writeFileSync(scenarioPath, JSON.stringify(file));
  const expected = cli(['run', '--scenario', scenarioPath, '--json']).result;
  const { model: _model, ...cfg } = file;
  // A page without a cost model offers no switch.
  const page = await h.page(`${h.url}?lang=en`);
  await e2e.waitRunCount(page, 'runs', 1);
  await page.click('input[name="model"][value="cluster"]');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  assert.equal(await page.isHidden('#cluster-chart-switch'), true);
  const text = await page.evaluate((c) => window.wasmBindings.encodeState({ model: 'cluster', cluster: c }), cfg);
  await page.goto(`${h.url}?lang=en&s=${text}`);
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  assert.equal(await page.isVisible('#cluster-chart-switch'), true);
  assert.equal(await page.isChecked('#cluster-chart-switch input[value="attempts"]'), true);
  const before = await e2e.pixels(page, '#cluster-chart');
  await page.check('#cluster-chart-switch input[value="cost"]');
  const after = await e2e.pixels(page, '#cluster-chart');
  assert.notEqual(after, before, 'the chart is redrawn with the cost');
  // The keyboard's readout at each of the first buckets: each route's cost in the bucket
  // and per second, as the CLI's run --json has it (per bucket, over the bucket's width).
  await page.focus('#cluster-chart');
  const width = expected.bucket_ms / 1000;
  for (let b = 0; b < 30; b++) {
    if (b > 0) await page.keyboard.press('ArrowRight');
    const rows = await readoutRows(page, '#cluster-readout');
    for (const route of expected.routes) {
      const value = rows[`${route.name} cost`];
      assert.ok(value, `bucket ${b}: no cost row for ${route.name} in ${JSON.stringify(rows)}`);
      const m = /^([\d.]+) in the bucket · ([\d.]+)\/s$/.exec(value);
      assert.ok(m, value);
      const cost = route.cost.per_sec[b];
      assert.ok(Math.abs(Number(m[1]) - cost) <= 5e-5, `bucket ${b} ${route.name}: ${m[1]} vs ${cost}`);
      assert.ok(Math.abs(Number(m[2]) - cost / width) <= 5e-5, `bucket ${b} ${route.name}: ${m[2]}/s`);
    }
  }
  // The costs differ over the run (the slow pool's outage bills its timeouts).
  const slow = expected.routes[1].cost.per_sec;
  assert.ok(Math.max(...slow) > Math.min(...slow));
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-cost-chart.png'), fullPage: true });
  // The link keeps the switch on: a fresh page and an embed open with the cost chart.
  await page.click('#copy-link');
  const link = await page.inputValue('#cluster-export-text');
  assert.match(link, /[?&]s=v\d\./);
  const state = await page.evaluate(
    (l) => window.wasmBindings.decodeState(new URL(l).searchParams.get('s') ?? ''),
    link,
  );
  assert.equal(state.view.cost, true);
  const fresh = await h.page(link);
  await e2e.waitRunCount(fresh, 'clusterRuns', 1);
  assert.equal(await fresh.isChecked('#cluster-chart-switch input[value="cost"]'), true);
  assert.equal(await e2e.pixels(fresh, '#cluster-chart'), after, 'the same cost chart');
  assert.deepEqual(fresh.errors, []);
  await fresh.close();
  // The embed has no switch, but draws what the link says: the readout has the cost rows.
  const embed = await h.page(`${link}&embed=chart`);
  await e2e.waitRunCount(embed, 'clusterRuns', 1);
  await embed.focus('#cluster-chart');
  const embedRows = await readoutRows(embed, '#cluster-readout');
  assert.ok(embedRows[`${expected.routes[0].name} cost`], JSON.stringify(embedRows));
  assert.deepEqual(embed.errors, []);
  await embed.close();
  // Back to attempts: the chart is the attempts chart again.
  await page.check('#cluster-chart-switch input[value="attempts"]');
  assert.equal(await e2e.pixels(page, '#cluster-chart'), before);
  assert.deepEqual(page.errors, []);
  await page.close();
});
