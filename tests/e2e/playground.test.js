// End-to-end tests of the classic model in the built playground, in headless Chromium,
// against the site served on 127.0.0.1 and the native CLI (see harness.js).

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';
import { serve } from './static-server.js';

// The article's six-strategy table (seed 4242; crate/tests/golden.rs, SECTION_1), as the results table prints it.
const GOLDEN = [
  ['S1 固定重试3次', '1.30x', '90.0%', '800', '6', '200', '200', '0/[]/0', '600'],
  ['S2 指数退避无抖动', '2.34x', '100.0%', '960', '34', '700', '7700', '0/[]/0', '2560'],
  ['S3 指数退避全抖动', '2.48x', '99.1%', '1057', '32', '205', '9146', '0/[]/0', '3067'],
  ['S4 全抖动+重试预算20%', '1.03x', '90.8%', '273', '4', '200', '366', '0/[]/0', '728'],
  ['S5 预算+deadline', '1.03x', '90.6%', '269', '3', '200', '200', '0/[]/0'],
  ['S6 预算+熔断', '0.94x', '90.0%', '205', '0', '200', '200', '1/[21]/0'],
];

const h = new e2e.Harness({ width: 1280, height: 900 });
/** @type {{url: string, server: import('node:http').Server} | null} */
let subSite = null;

before(async () => {
  await h.start();
  if (e2e.DIST_SUBPATH) subSite = await serve(e2e.DIST_SUBPATH, { prefix: e2e.SUBPATH });
});

after(async () => {
  await h.stop();
  subSite?.server.close();
});

/**
 * Opens a page and waits for its first run unless told not to.
 * @param {string} url
 */
async function open(url, { waitRun = true } = {}) {
  const page = await h.page(url);
  if (waitRun) await waitRuns(page, 1);
  return page;
}

/** @param {import('playwright-core').Page} page */
const runs = (page) => e2e.runCount(page, 'runs');

/**
 * @param {import('playwright-core').Page} page
 * @param {number} n
 */
const waitRuns = (page, n) => e2e.waitRunCount(page, 'runs', n);

/**
 * The results table as rows of cell texts (header first).
 * @param {import('playwright-core').Page} page
 */
function table(page) {
  return e2e.tableRows(page, '#classic-results');
}

/** @param {string[][]} rows */
function assertGolden(rows) {
  // The article's columns first; the endings (and cost, when set) follow them.
  assert.deepEqual(rows[0].slice(0, 9), [
    'strategy',
    'amplification',
    'delivery',
    'peak QPS',
    'overload s',
    'p50 ms',
    'p99 ms',
    'breaker trips/trip s/harmful',
    'recovery window',
  ]);
  assert.ok(rows[0].includes('answered'), rows[0].join(' | '));
  assert.equal(rows.length, 7);
  GOLDEN.forEach((want, i) => {
    assert.deepEqual(rows[i + 1].slice(0, want.length), want, `row ${i + 1}`);
  });
}

/**
 * The CLI's `run --json` for a scenario object and seed.
 * @param {object} scenario
 * @param {number | string} [seed]
 */
const cli = (scenario, seed) => h.cli(scenario, seed);

/**
 * The run on the page, as the CLI's `run --json` prints it.
 * @param {import('playwright-core').Page} page
 */
function pageOutput(page) {
  return page.evaluate(() => window.playground.classic.run?.toJSON());
}

/** @param {import('playwright-core').Page} page */
const chartPixels = (page) => e2e.pixels(page, '#classic-chart');

/** @param {import('playwright-core').Page} page */
const pageCfg = (page) => page.evaluate(() => window.playground.classic.cfg);

/**
 * Edits one input the way a user does: type, then commit (change).
 * @param {import('playwright-core').Page} page
 * @param {string} field
 * @param {string} value
 */
const edit = (page, field, value) => e2e.commitField(page, { field, value, runs: 'runs', commit: 'Tab' });

test('the default page shows the article table, equal to the CLI', async () => {
  const page = await open(h.url);
  assertGolden(await table(page));
  const scenario = await page.evaluate(() => window.wasmBindings.classicDefaults().scenario);
  assert.deepEqual(await pageOutput(page), cli(scenario, 4242));
  const verdicts = await page.$$eval('#classic-verdicts .badge', (b) => b.map((x) => x.textContent));
  assert.deepEqual(verdicts, ['PASS', 'PASS', 'PASS', 'PASS']);
  assert.match(await page.textContent('#classic-timing'), /run [\d.]+ ms · draw [\d.]+ ms/);
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'default-page.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the canvas is drawn, sharp for the device pixel ratio, and not blank', async () => {
  const page = await open(h.url);
  const stats = await page.$eval('#classic-chart', (/** @type {any} */ c) => {
    const ctx = c.getContext('2d');
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let nonWhite = 0;
    for (let i = 0; i < data.length; i += 4 * 7) {
      colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) nonWhite++;
    }
    return { colours: colours.size, nonWhite, w: c.width, cssW: c.clientWidth, dpr: devicePixelRatio };
  });
  assert.ok(stats.colours > 20, `only ${stats.colours} colours`);
  assert.ok(stats.nonWhite > 1000, `only ${stats.nonWhite} drawn pixels`);
  assert.equal(stats.w, Math.round(stats.cssW * stats.dpr));
  // Hover readout: the second and every strategy's attempts under the mouse (the chart
  // may sit below the fold when the preset list is long).
  await page.locator('#classic-chart').scrollIntoViewIfNeeded();
  const box = await page.locator('#classic-chart').boundingBox();
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2);
  await page.waitForSelector('#classic-readout:not([hidden])');
  assert.match(await page.textContent('#classic-readout'), /second \d+ · capacity 240/);
  await page.close();
});

test('editing a strategy changes the table, the chart and the URL, and matches the CLI', async () => {
  const page = await open(h.url);
  const chartBefore = await chartPixels(page);
  const urlBefore = page.url();
  await edit(page, 'strategies[1].max_retry', '2');
  const rows = await table(page);
  assert.notDeepEqual(rows[2], ['', ...GOLDEN[1]].slice(1));
  assert.notEqual(rows[2][1], '2.34x');
  assert.notEqual(await chartPixels(page), chartBefore, 'the chart was redrawn with other pixels');
  assert.notEqual(page.url(), urlBefore);
  assert.match(page.url(), /[?&]s=v1\.[A-Za-z0-9_-]+/);
  const scenario = await pageCfg(page);
  assert.equal(scenario.strategies[1].max_retry, 2);
  assert.deepEqual(await pageOutput(page), cli(scenario, 4242));

  // An invalid value is marked at the field with the engine's plain words (its technical
  // message, the CLI's, as the title); the last results stay.
  await page.locator('[data-field="strategies[1].max_retry"]').fill('999');
  await page.waitForSelector('.field-msg');
  assert.equal(await page.textContent('.field-msg'), 'Max retry must be between 0 and 30');
  assert.match(
    String(await page.getAttribute('.field-msg', 'title')),
    /strategies\[1\]\.max_retry = 999 is out of range/,
  );
  assert.deepEqual(await table(page), rows);
  assert.ok(await page.isVisible('#classic-stale'));

  // Back and forward step through the committed states.
  const input = page.locator('[data-field="strategies[1].max_retry"]');
  let n = await runs(page);
  await input.fill('3');
  await input.press('Tab');
  await waitRuns(page, n + 1);
  n = await runs(page);
  await page.goBack();
  await waitRuns(page, n + 1);
  assert.deepEqual(await table(page), rows);
  assert.equal(await input.inputValue(), '2');
  n = await runs(page);
  await page.goBack();
  await waitRuns(page, n + 1);
  assertGolden(await table(page));
  n = await runs(page);
  await page.goForward();
  await waitRuns(page, n + 1);
  assert.deepEqual(await table(page), rows);
  await page.close();
});

test('strategy rows can be added, duplicated, moved, deleted and reset', async () => {
  const page = await open(h.url);
  const count = () => page.$$eval('#classic-strategies tbody tr', (r) => r.length);
  let n = await runs(page);
  await page.click('#classic-add-strategy');
  await waitRuns(page, ++n);
  assert.equal(await count(), 7);
  assert.equal((await table(page)).length, 8);
  await page.click('button[data-act="dup"][data-row="0"]');
  await waitRuns(page, ++n);
  assert.equal((await table(page))[2][0], 'S1 固定重试3次 copy');
  await page.click('button[data-act="down"][data-row="0"]');
  await waitRuns(page, ++n);
  assert.equal((await table(page))[1][0], 'S1 固定重试3次 copy');
  await page.click('button[data-act="del"][data-row="0"]');
  await waitRuns(page, ++n);
  await page.click('#classic-reset-strategies');
  await waitRuns(page, ++n);
  assertGolden(await table(page));
  await page.close();
});

test('the copied link opens in a new page with the same table', async () => {
  const page = await open(h.url);
  await edit(page, 'capacity', '300');
  await edit(page, 'strategies[0].name', 'mine');
  const want = await table(page);
  await page.click('#copy-link');
  const link = await page.inputValue('#classic-export-text');
  assert.ok(link.startsWith(h.url) && link.includes('s=v1.'), link);
  const fresh = await open(link);
  assert.deepEqual(await table(fresh), want);
  assert.equal(await fresh.inputValue('[data-field="capacity"]'), '300');
  assert.equal(await chartPixels(fresh), await chartPixels(page), 'the same chart, pixel for pixel');
  await fresh.close();
  await page.close();
});

test('a corrupt, crafted or oversized link shows a message naming the problem and the defaults', async () => {
  /** @type {[string, RegExp][]} */
  const cases = [
    ['v1.%%%not-base64', /link\.payload/],
    ['v7.e30', /link\.version = v7.*newer playground/],
    ['garbage', /v1\.<base64url>/],
  ];
  // A run far above the engine's bound must give the engine's message, not a frozen tab.
  const page0 = await open(h.url);
  const huge = await page0.evaluate(() => {
    const cfg = window.wasmBindings.classicDefaults().scenario;
    cfg.clients = 1000000;
    cfg.duration_s = 3600;
    return window.wasmBindings.encodeState({ model: 'classic', classic: cfg, view: { hidden: [] } });
  });
  await page0.close();
  cases.push([huge, /link\.classic\.clients.*clients × duration_s ≤ 20000000/]);
  for (const [text, message] of cases) {
    const page = await open(`${h.url}?s=${encodeURIComponent(text)}`);
    assert.ok(await page.isVisible('#banner'), text);
    const banner = await page.textContent('#banner');
    assert.match(banner, message);
    assert.match(banner, /defaults/);
    assertGolden(await table(page));
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('a name with markup renders as text and runs no script, typed or from a link', async () => {
  const evil = '<img src=x onerror="window.__xss=1">';
  const page = await open(h.url);
  await edit(page, 'strategies[0].name', evil);
  assert.equal((await table(page))[1][0], evil);
  await page.click('#copy-link');
  const link = await page.inputValue('#classic-export-text');
  const fresh = await open(link);
  for (const p of [page, fresh]) {
    assert.equal(await p.$$eval('img', (i) => i.length), 0, 'no <img> element was created');
    assert.equal(await p.evaluate(() => window.__xss), undefined, 'no script ran');
    assert.equal((await table(p))[1][0], evil);
  }
  // The readout and legend show it as text too.
  assert.ok((await fresh.textContent('#classic-legend')).includes(evil));
  await fresh.close();
  await page.close();
});

test('embed mode shows only the chart and/or the table and an "open in playground" link', async () => {
  // The snippet, its height and the host pages are embed.test.js's.
  const page = await open(`${h.url}?embed=both`);
  for (const hidden of [
    '#classic-scenario-block',
    '#classic-strategies-block',
    '#classic-presets-block',
    '#copy-link',
    '#classic-export-block',
  ]) {
    assert.equal(await page.isVisible(hidden), false, `${hidden} is hidden`);
  }
  assert.ok(await page.isVisible('#classic-chart'));
  assert.ok(await page.isVisible('#classic-results'));
  assertGolden(await table(page));
  const href = await page.getAttribute('#classic-open', 'href');
  assert.ok(href.startsWith(h.url) && !href.includes('embed'), href);
  await page.setViewportSize({ width: 560, height: 700 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(e2e.ARTIFACTS, 'embed-both.png'), fullPage: true });
  const chartOnly = await open(`${h.url}?embed=chart`);
  assert.ok(await chartOnly.isVisible('#classic-chart'));
  assert.equal(await chartOnly.isVisible('#classic-results'), false);
  await chartOnly.screenshot({ path: path.join(e2e.ARTIFACTS, 'embed-chart.png') });
  const tableOnly = await open(`${h.url}?embed=table`);
  assert.equal(await tableOnly.isVisible('#classic-chart'), false);
  assert.ok(await tableOnly.isVisible('#classic-results'));
  for (const p of [page, chartOnly, tableOnly]) await p.close();
});

test('the exports contain what the table shows', async () => {
  const page = await open(h.url);
  const rows = await table(page);
  /** @param {string} button */
  const read = (button) => e2e.downloaded(page, button);
  const md = (await read('#classic-export-md')).toString('utf8');
  // Markdown escapes what would be markup (`[`, `|`, `<`…), as the engine's md_cell does.
  /** @param {string} t */
  const mdCell = (t) =>
    t
      .replace(/[\\|`*_[\]]/g, '\\$&')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;');
  for (const row of rows.slice(1)) {
    assert.ok(md.includes(`| ${row.map(mdCell).join(' | ')} |`), `markdown has the row ${row.join(' | ')}`);
  }
  const csv = (await read('#classic-export-csv')).toString('utf8').trim().split('\n');
  const output = await pageOutput(page);
  assert.equal(csv.length, 1 + output.scenario.duration_s);
  // Second 27 of S3 is the article's peak, 1057.
  assert.ok(csv[28].split(',').includes('1057'), csv[28]);
  const png = await read('#classic-export-png');
  assert.deepEqual([...png.subarray(0, 8)], e2e.PNG);
  const json = JSON.parse((await read('#classic-export-json')).toString('utf8'));
  assert.deepEqual(json, await pageCfg(page));
  await page.close();
});

test('a seed above 2^53 gives the CLI table', async () => {
  const page = await open(h.url);
  for (const seed of ['9223372036854775807', '-9007199254740993']) {
    await edit(page, 'seed', seed);
    const scenario = await pageCfg(page);
    assert.equal(scenario.seed, seed, 'kept as a string, never a rounded number');
    const got = await pageOutput(page);
    assert.equal(got.scenario.seed, seed);
    assert.deepEqual(got, cli(scenario, seed));
  }
  await page.close();
});

test('presets load the bundled scenarios', async () => {
  const page = await open(h.url);
  const ids = await page.$$eval('#classic-presets option[data-preset]', (b) => b.map((x) => x.dataset.preset));
  assert.ok(ids.includes('breaker-groups') && ids.includes('budget-100'), ids.join());
  const n = await runs(page);
  await e2e.choosePreset(page, 'breaker-groups');
  await waitRuns(page, n + 1);
  const rows = await table(page);
  // Group G: threshold 100, trips at 20 and 25, 801 harmful rejections (the article's section 5, crate/tests/golden.rs).
  assert.ok(
    rows.some((r) => r.includes('2/[20, 25]/801')),
    JSON.stringify(rows),
  );
  assert.deepEqual(await pageOutput(page), cli(await pageCfg(page)));
  await page.close();
});

/**
 * Holds the runners' workers' answers while `window.holdRunAnswers` is true (progress
 * messages still pass), so a test can act while a run is known to be unfinished,
 * however fast the machine computes it.
 */
function holdRunAnswers() {
  const Native = window.Worker;
  Object.assign(window, { holdRunAnswers: false });
  window.Worker = class extends Native {
    /** @param {((e: MessageEvent) => void) | null} f */
    set onmessage(f) {
      super.onmessage = (/** @type {MessageEvent} */ e) => {
        if (/** @type {any} */ (window).holdRunAnswers && e.data?.ok !== undefined) return;
        f?.(e);
      };
    }
  };
}

test('a large run stays off the main thread and can be cancelled', async () => {
  const page = await h.page('about:blank');
  await page.addInitScript(holdRunAnswers);
  await page.goto(h.url);
  await waitRuns(page, 1);
  await edit(page, 'duration_s', '30');
  const shown = await table(page);
  // 600000 × 30 s = 18M business requests, six strategies, under the engine's bound. The
  // worker computes it for real; its answer is held so that the Cancel below comes first
  // (a fast machine finishes it in under a second).
  await page.evaluate(() => Object.assign(window, { holdRunAnswers: true }));
  await page.fill('[data-field="clients"]', '600000');
  await page.waitForSelector('#classic-spinner:not([hidden])', { timeout: 5000 });
  // The page answers while the worker computes.
  const t0 = Date.now();
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.ok(Date.now() - t0 < 1000, 'the main thread is free');
  await page.click('#classic-cancel-run');
  await page.waitForSelector('#classic-spinner', { state: 'hidden' });
  await page.evaluate(() => Object.assign(window, { holdRunAnswers: false }));
  assert.ok(await page.isVisible('#classic-stale'));
  // The last results stay (those of the 30 s run before the large one), and nothing restarts.
  await page.waitForTimeout(400);
  assert.equal(await page.isVisible('#classic-spinner'), false);
  assert.deepEqual(await table(page), shown);
  // And the next edit runs normally on a fresh worker.
  await page.fill('[data-field="duration_s"]', '60');
  await edit(page, 'clients', '200');
  assertGolden(await table(page));
  await page.close();
});

test('a clear message when the wasm cannot load', async () => {
  const page = await h.page('about:blank');
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto(h.url);
  await page.waitForSelector('#banner:not([hidden])', { timeout: 30_000 });
  assert.match(await page.textContent('#banner'), /could not be loaded/);
  await page.close();
});

test('the site works under a sub-path', { skip: !e2e.DIST_SUBPATH && 'DIST_SUBPATH not set' }, async () => {
  const page = await open(subSite.url);
  assert.ok(subSite.url.includes(e2e.SUBPATH));
  assertGolden(await table(page));
  await edit(page, 'strategies[0].max_retry', '1');
  assert.ok(page.url().startsWith(subSite.url));
  await page.click('#copy-link');
  const link = await page.inputValue('#classic-export-text');
  assert.ok(link.startsWith(subSite.url), link);
  const fresh = await open(link);
  assert.deepEqual(await table(fresh), await table(page));
  assert.deepEqual(page.errors, []);
  await fresh.close();
  await page.close();
});
