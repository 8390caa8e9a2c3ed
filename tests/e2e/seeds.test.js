// End-to-end tests of many seeds in the page (seeds/panel.js over lib/pool.js): the
// ensemble's table and verdict counts against the native CLI's `ensemble --json`, the
// same results for any number of workers, a link that reproduces them in a fresh page,
// Cancel, the exports, bad settings named by field, and the bands on the main charts
// (median [p5–p95] readouts equal to the CLI's) and the ensemble presets; and, by
// structure, that the main thread never keeps nor summarises a sample (the workers do).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';

const h = new e2e.Harness({ width: 1280, height: 900 });

before(() => h.start());
after(() => h.stop());

/**
 * Opens the page and waits for its first single run.
 * @param {string} query
 */
async function open(query = '') {
  const page = await h.page(`${h.url}${query}`);
  await e2e.waitRunCount(page, 'runs', 1);
  return page;
}

/**
 * Types a seed count and waits until the ensemble ends (`done`, `cancelled`, `error`).
 * @param {import('playwright-core').Page} page
 * @param {string} n
 */
async function setSeeds(page, n, { wait = true, root = '#classic-root' } = {}) {
  await page.fill(`${root} .seeds-n`, n);
  await page.locator(`${root} .seeds-n`).dispatchEvent('change');
  const key = root === '#cluster-root' ? 'clusterEnsemble' : 'classicEnsemble';
  if (wait) await page.waitForFunction((k) => document.body.dataset[k] === 'done', key, { timeout: 60_000 });
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string} [root]
 */
async function results(page, root = '#classic-root') {
  return {
    table: await e2e.tableRows(page, `${root} .seeds-tables`),
    verdicts: await page.$$eval(`${root} .seeds-verdicts li`, (lis) => lis.map((li) => String(li.textContent))),
  };
}

/** @param {string[]} args */
function cli(args) {
  return JSON.parse(execFileSync(e2e.CLI, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}

test('an ensemble of 50 seeds counts the verdicts as the CLI does, with median [p5–p95] cells', async () => {
  const page = await open();
  await setSeeds(page, '50');
  const { table, verdicts } = await results(page);
  const native = cli(['ensemble', '--seeds', '50', '--json']);
  // One row per strategy, named as the CLI names them.
  assert.deepEqual(
    table.slice(1).map((r) => r[0]),
    native.groups.map((/** @type {{name: string}} */ g) => g.name),
  );
  const col = table[0].indexOf('delivery_pct');
  assert.ok(col > 0, table[0].join(','));
  // S3 (full jitter) varies with the seed: its cell is a range; S1 (no jitter) does not.
  assert.match(table[3][col], /^[\d.]+ \[[\d.]+–[\d.]+\]$/);
  assert.match(table[1][col], /^[\d.]+$/);
  const s3 = native.groups[2].metrics.find((/** @type {{metric: string}} */ m) => m.metric === 'delivery_pct');
  assert.ok(
    table[3][col].startsWith(`${Number(s3.spread.median.toFixed(3))} [`),
    `${table[3][col]} vs ${s3.spread.median}`,
  );
  assert.equal(verdicts.length, native.verdicts.length);
  native.verdicts.forEach((/** @type {{name: string, pass: number, of: number}} */ v, /** @type {number} */ i) => {
    assert.ok(verdicts[i].includes(v.name), verdicts[i]);
    assert.ok(verdicts[i].includes(`PASS on ${v.pass} of ${v.of} seeds`), verdicts[i]);
  });
  // The single-run table gives way to the ensemble's; one seed brings it back.
  assert.equal(await page.isVisible('#classic-results'), false);
  assert.ok(
    (await page.$eval('#classic-root .seeds-dist', (c) => Number(/** @type {HTMLElement} */ (c).dataset.drawn))) >= 1,
  );
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'seeds-classic-50.png'), fullPage: true });
  await setSeeds(page, '1', { wait: false });
  await page.waitForSelector('#classic-results', { state: 'visible' });
  assert.equal(await page.isVisible('#classic-root .seeds-out'), false);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('1 and 3 workers give the same results, and the link reproduces them in a fresh page', async () => {
  const one = await open('?workers=1');
  await setSeeds(one, '40');
  const a = await results(one);
  const link = new URL(one.url());
  assert.match(String(link.searchParams.get('s')), /^v3\./);
  const three = await open(`?workers=3&s=${link.searchParams.get('s')}`);
  await three.waitForFunction(() => document.body.dataset.classicEnsemble === 'done', null, { timeout: 60_000 });
  assert.equal(await three.inputValue('#classic-root .seeds-n'), '40');
  assert.deepEqual(await results(three), a);
  assert.deepEqual([...one.errors, ...three.errors], []);
  await one.close();
  await three.close();
});

test('the exports: Markdown with median [p5–p95] cells and the per-seed CSV', async () => {
  const page = await open();
  await setSeeds(page, '20');
  const md = String(await e2e.downloaded(page, '#classic-root .seeds-md'));
  assert.match(md, /ensemble of 20 seeds \(median \[p5–p95\]\)/);
  assert.match(md, /PASS on \d+ of 20 seeds/);
  const csv = String(await e2e.downloaded(page, '#classic-root .seeds-csv'))
    .trim()
    .split('\n');
  assert.equal(csv[0], 'seed,group,metric,value');
  // The first seed of an ensemble is the scenario's own (4242), then 19 more.
  assert.ok(csv[1].startsWith('4242,'), csv[1]);
  const seeds = new Set(csv.slice(1).map((l) => l.split(',')[0]));
  assert.equal(seeds.size, 20);
  // A short file is also in the export box, to copy by hand where downloads are blocked.
  await page.waitForFunction(() =>
    /** @type {HTMLTextAreaElement} */ (document.querySelector('#classic-export-text')).value.startsWith('seed,'),
  );
  assert.equal((await page.inputValue('#classic-export-text')).trim(), csv.join('\n'));
  await page.close();
});

test('a per-seed CSV too long for the export box is saved whole and the box emptied', async () => {
  const page = await open();
  await setSeeds(page, '300');
  // Something in the box first, which must not be left there as if it were this file.
  await e2e.downloaded(page, '#classic-root .seeds-md');
  assert.ok(await page.inputValue('#classic-export-text'));
  const csv = await e2e.downloaded(page, '#classic-root .seeds-csv');
  assert.ok(csv.length > 1_000_000, `${csv.length} bytes`);
  const lines = String(csv).trim().split('\n');
  assert.equal(new Set(lines.slice(1).map((l) => l.split(',')[0])).size, 300);
  await page.waitForTimeout(500);
  assert.equal(await page.inputValue('#classic-export-text'), '');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the main thread never keeps nor summarises a sample: another metric, a seed and the CSV come from the workers', async () => {
  const page = await open();
  // Every export that keeps or summarises samples, counted whenever the page calls it
  // (the workers have their own module, which this leaves alone).
  await page.evaluate(() => {
    const w = /** @type {any} */ (window).wasmBindings;
    /** @type {string[]} */
    const calls = [];
    /** @type {any} */ (window).__summarised = calls;
    for (const [cls, name] of [
      ['Plan', 'add'],
      ['Plan', 'result'],
      ['Plan', 'sweepFlat'],
      ['PlanResult', 'shownFlat'],
      ['PlanResult', 'csv'],
    ]) {
      const proto = w[cls].prototype;
      const f = proto[name];
      proto[name] = function (/** @type {any[]} */ ...args) {
        calls.push(`${cls}.${name}`);
        return f.apply(this, args);
      };
    }
    window.open = (href) => {
      /** @type {any} */ (window).__opened = href;
      return null;
    };
  });
  await setSeeds(page, '40');
  const dist = '#classic-root .seeds-dist';
  const drawn = Number(await page.$eval(dist, (c) => /** @type {HTMLElement} */ (c).dataset.drawn));
  // Another metric's dots: its per-seed values come from the worker.
  await page.selectOption('#classic-root .seeds-metric', 'amplification');
  await page.waitForFunction(
    ([sel, n]) => Number(/** @type {HTMLElement} */ (document.querySelector(String(sel))).dataset.drawn) > Number(n),
    [dist, drawn],
  );
  // A dot of that plot, found by the page's own hit test, opens its seed's single run.
  await page.locator(dist).scrollIntoViewIfNeeded();
  const dot = await page.evaluate(() => {
    const panel = /** @type {any} */ (window).playground.classic.seeds;
    const r = panel.canvas.getBoundingClientRect();
    // Within the first strip, clear of its edges (a click lands on whole pixels).
    for (let y = 8; y < 20; y += 2) {
      for (let x = 0; x < r.width; x += 2) {
        const seed = panel.result.seedAt('amplification', r.width, x, y);
        if (seed !== undefined) return { x: Math.round(r.left + x), y: Math.round(r.top + y), seed: String(seed) };
      }
    }
    return null;
  });
  assert.ok(dot, 'a dot is drawn');
  await page.mouse.click(dot.x, dot.y);
  const opened = String(await page.evaluate(() => /** @type {any} */ (window).__opened));
  const state = await page.evaluate(
    (href) => /** @type {any} */ (window).wasmBindings.decodeState(new URL(href, location.href).searchParams.get('s')),
    opened,
  );
  assert.equal(String(state.classic.seed), dot.seed);
  // The per-seed CSV has every seed's values, the clicked one's among them.
  const csv = String(await e2e.downloaded(page, '#classic-root .seeds-csv'))
    .trim()
    .split('\n');
  assert.equal(new Set(csv.slice(1).map((l) => l.split(',')[0])).size, 40);
  assert.ok(csv.some((l) => l.startsWith(`${dot.seed},`) && l.includes(',amplification,')));
  // A sweep too: the bundled breaker threshold, 4,000 runs.
  await page.selectOption('#classic-root .sweep-preset', 'breaker-threshold');
  await page.click('#classic-root .sweep-load');
  await page.waitForFunction(() => document.body.dataset.classicSweep === 'done', null, { timeout: 120_000 });
  const at = await page.$eval(
    '#classic-root .sweep-side-b .sweep-recommend',
    (p) => /** @type {HTMLElement} */ (p).dataset.at,
  );
  assert.match(String(at), /^strategies\[5\]\.breaker_trip_failures = \d+$/);
  assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).__summarised), []);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Cancel stops a long ensemble and leaves the page usable', async () => {
  const page = await open();
  await e2e.commitField(page, { field: 'clients', value: '5000', runs: 'runs', commit: 'change' });
  await setSeeds(page, '2000', { wait: false });
  await page.waitForSelector('#classic-root .seeds-cancel', { state: 'visible' });
  await page.click('#classic-root .seeds-cancel');
  await page.waitForFunction(() => document.body.dataset.classicEnsemble === 'cancelled');
  assert.match(await page.textContent('#classic-root .seeds-status'), /cancelled after \d+ of 2000 seeds/);
  // Usable: a small ensemble runs to the end after it.
  await e2e.commitField(page, { field: 'clients', value: '200', runs: 'runs', commit: 'change' });
  await setSeeds(page, '10');
  assert.match((await results(page)).verdicts[0], /of 10 seeds/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('bad seed settings get a message naming the field; a bad link names it too', async () => {
  const page = await open();
  for (const [n, needle] of [
    ['0', /seeds = 0 is out of range: allowed 1\.\.=10000/],
    ['10001', /seeds = 10001 is out of range: allowed 1\.\.=10000/],
    ['abc', /seeds/],
  ]) {
    await setSeeds(page, /** @type {string} */ (n), { wait: false });
    await page.waitForFunction(() => document.querySelector('#classic-root .seeds-error')?.textContent !== '');
    assert.match(String(await page.textContent('#classic-root .seeds-error')), /** @type {RegExp} */ (needle));
    assert.equal(await page.getAttribute('#classic-root .seeds-error', 'data-field'), 'seeds');
  }
  await page.close();
  const bad = Buffer.from(JSON.stringify({ classic_sweep: { seeds: 0 } })).toString('base64url');
  const linked = await h.page(`${h.url}?s=v3.${bad}`);
  await linked.waitForSelector('#banner:not([hidden])');
  assert.match(String(await linked.textContent('#banner')), /link\.classic_sweep\.seeds = 0 is out of range/);
  await linked.close();
});

test('a cluster ensemble says "recovered in k of N seeds" with the recovery times, as the CLI does', async () => {
  const page = await open();
  await e2e.choosePreset(page, 'cluster-gc-stampede-naive');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  await setSeeds(page, '12', { root: '#cluster-root' });
  const native = execFileSync(e2e.CLI, ['ensemble', '--preset', 'cluster-gc-stampede-naive', '--seeds', '12'], {
    encoding: 'utf8',
  });
  const line = native
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith('recovered in'));
  assert.ok(line, native);
  assert.equal(await page.textContent('#cluster-root .seeds-recovery'), line);
  const { table, verdicts } = await results(page, '#cluster-root');
  assert.equal(table[1][0], 'run');
  const metastable = native
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith('metastable in'));
  assert.ok(
    verdicts.some((v) => v.endsWith(String(metastable))),
    `${verdicts.join('; ')} vs ${metastable}`,
  );
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'seeds-cluster-12.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

/**
 * A number as the engine's tables and readouts write it (render::num): up to three
 * decimals, trailing zeros dropped.
 * @param {number} v
 */
const num = (v) => String(Number(v.toFixed(3)));

/**
 * A "median [p5–p95]" cell as the engine writes it (render::median_range): the median
 * alone when the range is one number as written.
 * @param {number} mid
 * @param {number} lo
 * @param {number} hi
 */
const cell = (mid, lo, hi) => (num(lo) === num(hi) ? num(mid) : `${num(mid)} [${num(lo)}–${num(hi)}]`);

/**
 * The keyboard's readout at bucket `i` of a chart (Home, then i steps right), once its
 * title has `needle` (the chart redraws at the next frame after the last seed; a focused
 * chart's readout follows the redraw).
 * @param {import('playwright-core').Page} page
 * @param {string} chart
 * @param {string} readout
 * @param {number} i
 * @param {string} needle
 */
async function readoutAt(page, chart, readout, i, needle) {
  await page.focus(chart);
  await page.keyboard.press('Home');
  for (let k = 0; k < i; k++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    ([sel, text]) => {
      const box = /** @type {HTMLElement | null} */ (document.querySelector(sel));
      return !!box && !box.hidden && String(box.querySelector('.readout-title')?.textContent).includes(text);
    },
    [readout, needle],
  );
  return page.$$eval(`${readout} > div`, (rows) => rows.map((r) => String(r.textContent)));
}

test('a link with 30 seeds opens with bands on the chart whose readout is the CLI ensemble', async () => {
  const state = Buffer.from(JSON.stringify({ classic_sweep: { seeds: 30 } })).toString('base64url');
  for (const theme of ['light', 'dark']) {
    const page = await open(`?theme=${theme}&s=v3.${state}`);
    await page.waitForFunction(() => document.body.dataset.classicEnsemble === 'done', null, { timeout: 60_000 });
    assert.equal(await page.inputValue('#classic-root .seeds-n'), '30');
    const native = cli(['ensemble', '--seeds', '30', '--json']);
    assert.equal(native.bands.length, 6);
    // Second 27, just after the outage: the storm, where the jittered strategies differ by seed.
    const [title, ...rows] = await readoutAt(page, '#classic-chart', '#classic-readout', 27, 'of 30 seeds');
    assert.match(title, /second 27 · capacity 240 · median \[p5–p95\] of 30 seeds/);
    assert.equal(rows.length, 6);
    native.bands.forEach(
      (/** @type {{name: string, p5: number[], median: number[], p95: number[]}} */ b, /** @type {number} */ i) => {
        assert.equal(rows[i], `${b.name}${cell(b.median[27], b.p5[27], b.p95[27])}`);
      },
    );
    // S3 (full jitter) has a real band there; S2 (no jitter) none.
    assert.ok(native.bands[2].p95[27] > native.bands[2].p5[27]);
    assert.equal(native.bands[1].p95[27], native.bands[1].p5[27]);
    // The chart with its readout at second 27, as the reader sees it.
    await page.locator('#classic-chart-block').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(e2e.ARTIFACTS, `seeds-bands-classic-${theme}.png`) });
    // The PNG export is the banded chart.
    const png = await e2e.downloaded(page, '#classic-export-png');
    assert.deepEqual([...png.subarray(0, 8)], e2e.PNG);
    // The Markdown export of an ensemble has "median [p5–p95]" cells.
    const md = String(await e2e.downloaded(page, '#classic-export-md'));
    assert.match(md, /ensemble of 30 seeds \(median \[p5–p95\]\)/);
    // Markdown escapes the brackets of a cell: "30125 \[29841.4–30358.7\]".
    assert.match(md, /\d \\\[[\d.]+–[\d.]+\\\]/);
    // Back to one seed: the single run's line and readout again.
    await setSeeds(page, '1', { wait: false });
    await page.waitForSelector('#classic-results', { state: 'visible' });
    await readoutAt(page, '#classic-chart', '#classic-readout', 27, 'second 27 · capacity 240');
    await page.waitForFunction(
      () => !document.querySelector('#classic-readout .readout-title')?.textContent?.includes('median'),
    );
    const single = await readoutAt(page, '#classic-chart', '#classic-readout', 27, 'second 27');
    assert.equal(single[0], 'second 27 · capacity 240');
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('the tipping-point preset recovers in some seeds and not in others, as the CLI counts', async () => {
  const page = await open();
  await e2e.choosePreset(page, 'cluster-gc-stampede-tipping');
  await e2e.waitRunCount(page, 'clusterRuns', 1);
  // The preset brings its 40 seeds.
  assert.equal(await page.inputValue('#cluster-root .seeds-n'), '40');
  await page.waitForFunction(() => document.body.dataset.clusterEnsemble === 'done', null, { timeout: 300_000 });
  const native = cli(['ensemble', '--preset', 'cluster-gc-stampede-tipping', '--json']);
  assert.equal(native.seeds.length, 40);
  const rec = native.verdicts.find((/** @type {{name: string}} */ v) => v.name === 'recovered');
  assert.ok(rec.pass > 0 && rec.pass < rec.of, `${rec.pass} of ${rec.of}`);
  assert.match(
    String(await page.textContent('#cluster-root .seeds-recovery')),
    new RegExp(`^recovered in ${rec.pass} of ${rec.of} seeds`),
  );
  // The tier charts are bands: the readout gives each tier's median and p5–p95, equal to the CLI's.
  // Read where the orders tier's seeds differ most (after the pause they part).
  const orders = native.bands[1];
  const widths = orders.p95.map((/** @type {number} */ hi, /** @type {number} */ b) => hi - orders.p5[b]);
  const at = widths.indexOf(Math.max(...widths));
  assert.ok(at > 20 && orders.p95[at] > orders.p5[at], `bucket ${at}`);
  const [title, ...rows] = await readoutAt(page, '#cluster-chart', '#cluster-readout', at, 'of 40 seeds');
  assert.match(title, /median \[p5–p95\] of 40 seeds/);
  const row = rows.find((r) => r.startsWith(`${orders.name} attempts`));
  assert.ok(
    row?.includes(`median ${cell(orders.median[at], orders.p5[at], orders.p95[at])}/s`),
    `${row} vs ${orders.median[at]}`,
  );
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'seeds-bands-cluster-page.png'), fullPage: true });
  // The tier charts with the readout, light; then the reader's dark scheme redraws them dark.
  await page.locator('#cluster-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'seeds-bands-cluster-light.png') });
  const drawn = Number(await page.$eval('#cluster-chart', (c) => /** @type {HTMLElement} */ (c).dataset.drawn));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(
    (n) => Number(/** @type {HTMLElement} */ (document.querySelector('#cluster-chart')).dataset.drawn) > n,
    drawn,
  );
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'seeds-bands-cluster-dark.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
