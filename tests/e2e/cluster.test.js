// End-to-end tests of the cluster model in the built playground, in headless Chromium,
// against the site served on 127.0.0.1 and the native CLI (see harness.js).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as e2e from './harness.js';
import { serve } from './static-server.js';

const h = new e2e.Harness({ width: 1400, height: 1000 });
before(() => h.start());
after(() => h.stop());

/**
 * Opens a page, collecting its errors; waits for the first classic or cluster run.
 * @param {string} url
 */
async function open(url, { cluster = false } = {}) {
  const page = await h.page(url);
  if (cluster) await waitClusterRuns(page, 1);
  else await page.waitForFunction(() => Number(document.body.dataset.runs || 0) >= 1, null, { timeout: 30_000 });
  return page;
}

/** @param {import('playwright-core').Page} page */
const clusterRuns = (page) => e2e.runCount(page, 'clusterRuns');

/**
 * @param {import('playwright-core').Page} page
 * @param {number} n
 */
const waitClusterRuns = (page, n) => e2e.waitRunCount(page, 'clusterRuns', n);

/** Opens the playground and switches to the cluster model (the first cluster preset). */
async function openCluster() {
  const page = await open(h.url);
  await page.click('input[name="model"][value="cluster"]');
  await waitClusterRuns(page, 1);
  return page;
}

/** Chooses a cluster preset and waits for its run. */
/**
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
async function preset(page, id) {
  const n = await clusterRuns(page);
  await e2e.choosePreset(page, id, 'cluster');
  await waitClusterRuns(page, n + 1);
}

/**
 * Sets a cluster field and commits it (a change event), then waits for the run.
 * @param {import('playwright-core').Page} page
 * @param {string} field
 * @param {string} value
 */
const commit = (page, field, value) => e2e.commitField(page, { field, value, runs: 'clusterRuns', commit: 'change' });

/**
 * A table's rows of cell texts (header first).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function rows(page, id) {
  return e2e.tableRows(page, `#${id}`);
}

/**
 * The summary as {metric: value}.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<Record<string, string>>}
 */
async function summary(page) {
  return Object.fromEntries((await rows(page, 'cluster-summary')).slice(1));
}

/** @param {import('playwright-core').Page} page */
const shown = (page) => page.evaluate(() => window.playground.cluster.shown?.run.toJSON().result);
/** @param {import('playwright-core').Page} page */
const cfg = (page) => page.evaluate(() => window.playground.cluster.cfg);
/** @param {import('playwright-core').Page} page */
const chartPixels = (page) => e2e.pixels(page, '#cluster-chart');

/**
 * The CLI's `run --json` output ({scenario, result}) for a preset id or a scenario object.
 * @param {string | object} what
 */
function cli(what) {
  return h.cli(typeof what === 'string' ? what : { model: 'cluster', ...what });
}

/** Checks the page's summary cells against the CLI's numbers, formatted independently. */
/**
 * @param {Record<string, string>} sum
 * @param {any} result
 */
function assertSummaryMatches(sum, result) {
  const s = result.summary;
  assert.equal(sum.requests, String(s.requests));
  assert.equal(sum.succeeded, String(s.successes));
  assert.equal(sum.failed, String(s.failures));
  assert.equal(sum.goodput, `${s.goodput_per_s.toFixed(1)}/s`);
  assert.equal(sum['success ratio'], `${(s.success_ratio * 100).toFixed(2)}%`);
  assert.equal(sum['amplification end to end'], `${s.amplification.toFixed(2)}x`);
  assert.equal(sum['peak arrivals vs steady state'], `${s.peak_arrival_ratio.toFixed(2)}x`);
  assert.equal(sum['overload duration'], `${(s.overload_duration_ms / 1000).toFixed(1)} s`);
  const recovery =
    s.recovery_time_ms !== null
      ? `${(s.recovery_time_ms / 1000).toFixed(1)} s`
      : s.metastable
        ? 'metastable: did not recover'
        : s.unhealthy_baseline && s.trigger_end_ms !== null
          ? 'unhealthy before the trigger'
          : 'no trigger';
  assert.equal(sum['recovery time (cohorts)'], recovery);
  if (s.goodput_recovery_ms !== null) {
    assert.equal(sum['recovery time (goodput)'], `${(s.goodput_recovery_ms / 1000).toFixed(1)} s`);
  }
  for (const t of result.tiers) {
    assert.equal(sum[`${t.name}: amplification`], `${t.amplification.toFixed(2)}x`);
  }
  /** @param {string} k */
  const total = (k) => result.tiers.reduce((/** @type {number} */ a, /** @type {any} */ t) => a + t.totals[k], 0);
  assert.equal(sum['timeouts (all hops)'], String(total('timeouts')));
  assert.equal(sum['breaker-rejected'], String(total('breaker_rejected')));
}

test('every cluster preset shows the CLI summary, with its description', async () => {
  const page = await openCluster();
  const ids = await page.$$eval('[data-cluster-preset]', (b) => b.map((x) => x.dataset.clusterPreset));
  assert.ok(ids.includes('cluster-gc-stampede-naive') && ids.includes('cluster-gc-stampede-fixed'), ids.join());
  for (const id of ids) {
    await preset(page, id);
    const want = cli(id);
    assert.deepEqual(await shown(page), want.result, `${id}: the page's run equals the CLI's`);
    assertSummaryMatches(await summary(page), want.result);
    // And the table is exactly the engine's formatting of the CLI's result.
    const table = await page.evaluate(
      (text) => window.wasmBindings.ClusterRun.fromJSON(text).table(),
      JSON.stringify(want),
    );
    assert.deepEqual(await rows(page, 'cluster-summary'), [table.columns, ...table.rows]);
    assert.equal(await page.textContent('#cluster-preset-desc'), want.scenario.description);
    assert.match(await page.textContent('#cluster-timing'), /worker run \d+ ms · [\d,]+ events · draw \d+ ms/);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the stampede, naive and fixed: a surge and its absence (screenshots)', async () => {
  const page = await openCluster();
  /** @type {Record<string, number>} */
  const peaks = {};
  for (const [id, name] of [
    ['cluster-gc-stampede-naive', 'naive'],
    ['cluster-gc-stampede-fixed', 'fixed'],
  ]) {
    await preset(page, id);
    const r = await shown(page);
    peaks[name] = r.tiers[1].peak_arrival_ratio;
    await page
      .locator('#cluster-chart')
      .screenshot({ path: path.join(e2e.ARTIFACTS, `cluster-stampede-${name}-chart.png`) });
    await page.screenshot({ path: path.join(e2e.ARTIFACTS, `cluster-stampede-${name}.png`), fullPage: true });
  }
  assert.ok(peaks.naive > 2 * peaks.fixed, JSON.stringify(peaks));
  // The chart is drawn, sharp for the device pixel ratio, and not blank.
  const stats = await page.$eval('#cluster-chart', (/** @type {any} */ c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let nonWhite = 0;
    for (let i = 0; i < data.length; i += 4 * 5)
      if (data[i] < 235 || data[i + 1] < 235 || data[i + 2] < 235) nonWhite++;
    return { nonWhite, w: c.width, cssW: c.clientWidth, dpr: devicePixelRatio };
  });
  assert.ok(stats.nonWhite > 5000, `only ${stats.nonWhite} drawn pixels`);
  assert.equal(stats.w, Math.round(stats.cssW * stats.dpr));
  // Hover readout: the bucket and each panel's values under the mouse.
  const box = await page.locator('#cluster-chart').boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + 80);
  await page.waitForSelector('#cluster-readout:not([hidden])');
  const readout = await page.textContent('#cluster-readout');
  assert.match(readout, /t = [\d.]+–[\d.]+ s/);
  assert.match(readout, /orders attempts/);
  assert.match(readout, /gateway breakers/);
  await page.close();
});

test('editing a tier changes the URL, the chart and the numbers, equal to the CLI; the link reproduces it', async () => {
  const page = await openCluster();
  const before = { url: page.url(), pixels: await chartPixels(page), sum: await summary(page) };
  const n = await clusterRuns(page);
  const input = page.locator('[data-field="tiers[1].instances"]');
  await input.fill('12');
  await input.dispatchEvent('change');
  await waitClusterRuns(page, n + 1);
  assert.notEqual(page.url(), before.url);
  assert.match(page.url(), /[?&]s=v1\.[A-Za-z0-9_-]+/);
  assert.notEqual(await chartPixels(page), before.pixels, 'the chart was redrawn with other pixels');
  const scenario = await cfg(page);
  assert.equal(scenario.tiers[1].instances, 12);
  const want = cli(scenario);
  assert.deepEqual(await shown(page), want.result);
  const sum = await summary(page);
  assert.notDeepEqual(sum, before.sum);
  assertSummaryMatches(sum, want.result);

  // An invalid value is marked at its field with the engine's message; the results stay.
  await input.fill('0');
  await page.waitForSelector('#cluster-root .field-msg');
  assert.equal(await page.textContent('#cluster-root .field-msg'), 'Instances must be between 1 and 10000');
  assert.match(
    String(await page.getAttribute('#cluster-root .field-msg', 'title')),
    /tiers\[1\]\.instances = 0 is out of range: allowed 1\.\.=10000/,
  );
  assert.ok(await page.isVisible('#cluster-stale'));
  assert.deepEqual(await summary(page), sum);
  await input.fill('12');
  await input.dispatchEvent('change');
  await page.waitForSelector('#cluster-root .field-msg', { state: 'detached' });

  // The link, opened in a fresh page, gives the same summary and the same chart.
  await page.click('#copy-link');
  const link = await page.inputValue('#cluster-export-text');
  assert.ok(link.startsWith(h.url) && link.includes('s=v1.'), link);
  const fresh = await open(link, { cluster: true });
  assert.ok(await fresh.isChecked('input[name="model"][value="cluster"]'));
  assert.deepEqual(await summary(fresh), sum);
  assert.equal(await fresh.inputValue('[data-field="tiers[1].instances"]'), '12');
  assert.equal(await chartPixels(fresh), await chartPixels(page), 'the same chart, pixel for pixel');
  assert.deepEqual(fresh.errors, []);
  await fresh.close();
  await page.close();
});

test('arrival jitter, draining and an admission-time slowdown: editor fields, off by default, each run as the CLI runs it', async () => {
  const page = await openCluster();
  // Off, each is left out of the scenario and shown at its off value.
  const off = await cfg(page);
  assert.equal('jitter_ms' in off.load, false);
  assert.equal('drain' in off.steady, false);
  assert.equal(await page.inputValue('[data-field="load.jitter_ms"]'), '0');
  // Jitter moves evenly spaced arrivals: on Poisson ones the field says so, in words.
  const jitter = page.locator('[data-field="load.jitter_ms"]');
  await jitter.fill('0.1');
  await jitter.dispatchEvent('change');
  await page.waitForSelector('#cluster-root .field-msg');
  assert.equal(
    await page.textContent('#cluster-root .field-msg'),
    'Jitter (± ms) must be 0 with poisson arrivals (random already)',
  );
  let n = await clusterRuns(page);
  await page.selectOption('[data-field="load.arrivals"]', 'constant');
  await waitClusterRuns(page, n + 1);
  await page.waitForSelector('#cluster-root .field-msg', { state: 'detached' });
  const jittered = await cfg(page);
  assert.equal(jittered.load.jitter_ms, 0.1);
  assert.deepEqual(await shown(page), cli(jittered).result);
  // Draining: a switch in the steady-state panel.
  await page.click('#cluster-root details.panel:has([data-field="steady.drain"]) > summary');
  assert.equal(await page.isChecked('[data-field="steady.drain"]'), false);
  n = await clusterRuns(page);
  await page.check('[data-field="steady.drain"]');
  await waitClusterRuns(page, n + 1);
  // The admission-time slowdown: a fault's effect, chosen in its form.
  await page.locator('#cluster-timeline g.bar.fault .body').first().click();
  n = await clusterRuns(page);
  await page.selectOption('[data-field="faults[0].effect.kind"]', 'latency_admitted');
  await waitClusterRuns(page, n + 1);
  assert.equal(await page.inputValue('[data-field="faults[0].effect.added_ms"]'), '200');
  const scenario = await cfg(page);
  assert.equal(scenario.steady.drain, true);
  assert.deepEqual(scenario.faults[0].effect, { kind: 'latency_admitted', added_ms: 200 });
  const want = cli(scenario);
  assert.deepEqual(await shown(page), want.result);
  const s = want.result.summary;
  assert.ok(s.drained_successes + s.drained_failures > 0, JSON.stringify(s));
  const sum = await summary(page);
  assertSummaryMatches(sum, want.result);
  assert.equal(sum['succeeded while draining'], String(s.drained_successes));
  assert.equal(sum['failed while draining'], String(s.drained_failures));
  assert.equal(sum['unfinished after the drain'], String(s.pending_at_end - s.drained_successes - s.drained_failures));
  await page
    .locator('#cluster-root details.panel')
    .first()
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-capabilities-editor.png') });
  await page
    .locator('#cluster-summary')
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-capabilities-summary.png') });
  // The link carries them; in Chinese the same fields have their labels.
  await page.click('#copy-link');
  const link = await page.inputValue('#cluster-export-text');
  const zh = await open(`${link}&lang=zh`, { cluster: true });
  assert.deepEqual(await cfg(zh), scenario);
  assert.deepEqual(await shown(zh), want.result);
  assert.equal(await zh.textContent('label:has([data-field="load.jitter_ms"]) > span'), '抖动（± 毫秒）');
  await zh.click('#cluster-root details.panel:has([data-field="steady.drain"]) > summary');
  await zh
    .locator('#cluster-root details.panel:has([data-field="steady.drain"])')
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-capabilities-steady-zh.png') });
  assert.deepEqual(zh.errors, []);
  await zh.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a hop's network delay: off by default, switched on in the client form, run as the CLI runs it, carried by a link", async () => {
  const page = await openCluster();
  const net = 'tiers[0].client.network';
  assert.equal('network' in (await cfg(page)).tiers[0].client, false);
  assert.equal(await page.isChecked(`[data-field="${net}"]`), false);
  assert.equal(await page.locator(`[data-field="${net}.request.kind"]`).count(), 0);
  // On: both legs at the engine's default, each a distribution as a service time is.
  let n = await clusterRuns(page);
  await page.check(`[data-field="${net}"]`);
  await waitClusterRuns(page, n + 1);
  assert.deepEqual((await cfg(page)).tiers[0].client.network, {
    request: { kind: 'constant', ms: 1 },
    response: { kind: 'constant', ms: 1 },
  });
  n = await clusterRuns(page);
  await page.selectOption(`[data-field="${net}.response.kind"]`, 'exponential');
  await waitClusterRuns(page, n + 1);
  await commit(page, `${net}.request.ms`, '0.4');
  const scenario = await cfg(page);
  assert.deepEqual(scenario.tiers[0].client.network.request, { kind: 'constant', ms: 0.4 });
  assert.equal(scenario.tiers[0].client.network.response.kind, 'exponential');
  const want = cli(scenario);
  assert.deepEqual(await shown(page), want.result);
  assertSummaryMatches(await summary(page), want.result);
  // A bad leg is named at its field.
  const ms = page.locator(`[data-field="${net}.request.ms"]`);
  await ms.fill('-1');
  await ms.dispatchEvent('change');
  const msg = `#cluster-root .optional:has([data-field="${net}"]) .field-msg`;
  await page.waitForSelector(msg);
  assert.equal(await page.textContent(msg), 'Time (ms) must be between 0 and 3600000');
  await commit(page, `${net}.request.ms`, '0.4');
  await page.waitForSelector('#cluster-root .field-msg', { state: 'detached' });
  await page
    .locator(`#cluster-root .optional:has([data-field="${net}"])`)
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-network-editor.png') });
  // The link carries it; in Chinese the legs have their labels.
  await page.click('#copy-link');
  const link = await page.inputValue('#cluster-export-text');
  const zh = await open(`${link}&lang=zh`, { cluster: true });
  assert.deepEqual(await cfg(zh), scenario);
  assert.deepEqual(await shown(zh), want.result);
  assert.equal(await zh.textContent(`label:has([data-field="${net}.request.kind"]) > span`), '去程（请求）');
  assert.equal(await zh.textContent(`label:has([data-field="${net}.response.kind"]) > span`), '回程（响应）');
  await zh
    .locator(`#cluster-root .optional:has([data-field="${net}"])`)
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-network-editor-zh.png') });
  assert.deepEqual(zh.errors, []);
  await zh.close();
  // Off again: the field leaves the scenario, and the run is the one without it.
  n = await clusterRuns(page);
  await page.uncheck(`[data-field="${net}"]`);
  await waitClusterRuns(page, n + 1);
  const offAgain = await cfg(page);
  assert.equal(offAgain.tiers[0].client.network ?? null, null);
  assert.deepEqual(await shown(page), cli(offAgain).result);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a tier name with markup renders as text everywhere, typed or from a link', async () => {
  const evil = '<img src=x onerror="window.__xss=1">';
  const page = await openCluster();
  const n = await clusterRuns(page);
  const input = page.locator('[data-field="tiers[1].name"]');
  await input.fill(evil);
  await input.dispatchEvent('change');
  await waitClusterRuns(page, n + 1);
  await page.click('#copy-link');
  const fresh = await open(await page.inputValue('#cluster-export-text'), { cluster: true });
  for (const p of [page, fresh]) {
    assert.equal(await p.$$eval('img', (i) => i.length), 0, 'no <img> element was created');
    assert.equal(await p.evaluate(() => window.__xss), undefined, 'no script ran');
    assert.ok((await summary(p))[`${evil}: amplification`], 'the summary names the tier as text');
    assert.ok((await p.textContent('#cluster-timeline')).includes(evil.slice(0, 12)), 'the timeline too');
  }
  const box = await fresh.locator('#cluster-chart').boundingBox();
  await fresh.mouse.move(box.x + box.width * 0.5, box.y + 100);
  await fresh.waitForSelector('#cluster-readout:not([hidden])');
  assert.ok((await fresh.textContent('#cluster-readout')).includes(`${evil} attempts`));
  await fresh.close();
  await page.close();
});

test('the topology editor adds, moves and removes tiers, and hides fields of other kinds', async () => {
  const page = await openCluster();
  let n = await clusterRuns(page);
  // Budget kinds: only the chosen kind's fields exist.
  const budget = 'tiers[0].client.budget';
  await page.selectOption(`[data-field="${budget}.kind"]`, 'token_bucket');
  await waitClusterRuns(page, ++n);
  assert.ok(await page.isVisible(`[data-field="${budget}.max_tokens"]`));
  assert.equal(await page.$(`[data-field="${budget}.ttl_ms"]`), null);
  await page.selectOption(`[data-field="${budget}.kind"]`, 'windowed');
  await waitClusterRuns(page, ++n);
  assert.equal(await page.$(`[data-field="${budget}.max_tokens"]`), null);
  const defaults = await page.evaluate(() =>
    window.wasmBindings.clusterDefaults().budget.find((/** @type {any} */ b) => b.kind === 'windowed'),
  );
  assert.equal(
    await page.inputValue(`[data-field="${budget}.ttl_ms"]`),
    String(defaults.ttl_ms),
    'defaults from the engine',
  );
  // Add a tier at the end: the old last tier now calls it through a default client.
  await page.click('button[data-act="tier-add"]');
  await waitClusterRuns(page, ++n);
  let c = await cfg(page);
  assert.equal(c.tiers.length, 3);
  assert.ok(c.tiers[1].client && !c.tiers[2].client);
  assert.equal((await shown(page)).tiers.length, 3);
  // Move it up: hop policies stay with their positions, faults follow their tier.
  await page.click('button[data-act="tier-up"][data-index="2"]');
  await waitClusterRuns(page, ++n);
  c = await cfg(page);
  assert.deepEqual(
    c.tiers.map((/** @type {any} */ t) => t.name),
    ['gateway', 'service', 'orders'],
  );
  assert.equal(c.faults[0].tier, 2, 'the pause stays on orders');
  assert.deepEqual(await shown(page), cli(c).result);
  await page.click('button[data-act="tier-del"][data-index="1"]');
  await waitClusterRuns(page, ++n);
  c = await cfg(page);
  assert.deepEqual(
    c.tiers.map((/** @type {any} */ t) => t.name),
    ['gateway', 'orders'],
  );
  assert.equal(c.faults[0].tier, 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('dragging a fault bar moves the fault and re-runs', async () => {
  const page = await openCluster();
  const before = await cfg(page);
  const sumBefore = await summary(page);
  const bar = page.locator('#cluster-timeline g.bar.fault .body').first();
  const box = await bar.boundingBox();
  const n = await clusterRuns(page);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  await waitClusterRuns(page, n + 1);
  const after = await cfg(page);
  assert.ok(
    after.faults[0].start_ms > before.faults[0].start_ms + 5000,
    `${before.faults[0].start_ms} → ${after.faults[0].start_ms}`,
  );
  assert.equal(after.faults[0].duration_ms, before.faults[0].duration_ms, 'a move keeps the length');
  assert.equal(after.faults[0].start_ms % 100, 0, 'snapped to 100 ms');
  assert.notDeepEqual(await summary(page), sumBefore);
  assert.deepEqual(await shown(page), cli(after).result);
  // Resizing by the right edge lengthens it.
  const box2 = await page.locator('#cluster-timeline g.bar.fault .body').first().boundingBox();
  const m = await clusterRuns(page);
  await page.mouse.move(box2.x + box2.width - 2, box2.y + box2.height / 2);
  await page.mouse.down();
  await page.mouse.move(box2.x + box2.width + 40, box2.y + box2.height / 2, { steps: 5 });
  await page.mouse.up();
  await waitClusterRuns(page, m + 1);
  const resized = await cfg(page);
  assert.equal(resized.faults[0].start_ms, after.faults[0].start_ms);
  assert.ok(resized.faults[0].duration_ms > after.faults[0].duration_ms + 1000, JSON.stringify(resized.faults[0]));
  // A click selects it: its form shows its fields, by path.
  await page.locator('#cluster-timeline g.bar.fault .body').first().click();
  assert.equal(await page.inputValue('[data-field="faults[0].start_ms"]'), String(resized.faults[0].start_ms));
  // The keyboard moves it too: focus, then arrows (100 ms a press).
  const j = await clusterRuns(page);
  await page.locator('#cluster-timeline g.bar.fault').first().focus();
  await page.keyboard.press('ArrowLeft');
  await waitClusterRuns(page, j + 1);
  assert.equal((await cfg(page)).faults[0].start_ms, resized.faults[0].start_ms - 100);
  assert.ok(await page.evaluate(() => document.activeElement.matches('g.bar.fault')), 'focus stays on the bar');
  // + on a row adds a fault to that tier.
  const k = await clusterRuns(page);
  await page.click('#cluster-timeline [data-add="0"]');
  await waitClusterRuns(page, k + 1);
  const added = await cfg(page);
  assert.equal(added.faults.length, 2);
  assert.equal(added.faults[1].tier, 0);
  await page.close();
});

test('a short fault is dragged by its label, where the label runs past its bar', async () => {
  const page = await openCluster();
  // Half a second of a 90 s run: a bar narrower than its label.
  await page.locator('#cluster-timeline g.bar.fault .body').first().click();
  const n = await clusterRuns(page);
  await page.fill('[data-field="faults[0].duration_ms"]', '500');
  await page.press('[data-field="faults[0].duration_ms"]', 'Tab');
  await waitClusterRuns(page, n + 1);
  const before = (await cfg(page)).faults[0];
  const bar = /** @type {{x: number, y: number, width: number, height: number}} */ (
    await page.locator('#cluster-timeline g.bar.fault .body').first().boundingBox()
  );
  const label = /** @type {{x: number, y: number, width: number, height: number}} */ (
    await page.locator('#cluster-timeline g.bar.fault .bar-label').first().boundingBox()
  );
  const x = label.x + label.width - 3;
  assert.ok(
    x > bar.x + bar.width + 4,
    `the label (${label.x}–${x + 3}) runs past the bar (${bar.x}–${bar.x + bar.width})`,
  );
  const m = await clusterRuns(page);
  await page.mouse.move(x, label.y + label.height / 2);
  await page.mouse.down();
  await page.mouse.move(x + 60, label.y + label.height / 2, { steps: 6 });
  await page.mouse.up();
  await waitClusterRuns(page, m + 1);
  const after = (await cfg(page)).faults[0];
  assert.ok(after.start_ms > before.start_ms + 3000, `${before.start_ms} → ${after.start_ms}`);
  assert.equal(after.duration_ms, 500, 'a move keeps the length');
  // The form names the fault's tier by the number its card shows (from 1), not its index.
  const k = after.tier;
  const card = await page.textContent(`#cluster-editor .tier[data-tier="${k}"] .tier-no`);
  const chosen = await page.$eval('[data-field="faults[0].tier"]', (e) => {
    const sel = /** @type {HTMLSelectElement} */ (e);
    return sel.options[sel.selectedIndex].text;
  });
  assert.equal(chosen.split(' ')[0], String(card).trim());
  assert.equal(chosen.split(' ')[0], String(k + 1));
  assert.equal((await cfg(page)).faults.length, 1, 'no fault added on the row under the label');
  await page
    .locator('#cluster-timeline')
    .screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-fault-label-drag.png') });
  await page.close();
});

test('a long run shows progress, can be cancelled, and the page keeps responding', async () => {
  const page = await openCluster();
  const sum = await summary(page);
  // A simulated day with the largest event bound: many seconds of work at any speed.
  const events = page.locator('[data-field="max_events"]');
  await events.fill('200000000');
  await events.dispatchEvent('change');
  const input = page.locator('[data-field="duration_ms"]');
  await input.fill('86400000');
  // Work the engine estimates as long asks first (lib/longwork.js): nothing starts yet.
  const notice = page.locator('[data-long-work="cluster-run"]');
  await notice.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(String(await notice.locator('.long-work-text').textContent()), /about/);
  assert.equal(await page.isHidden('#cluster-progress-box'), true);
  await notice.locator('.long-work-run').click();
  await page.waitForSelector('#cluster-progress-box:not([hidden])', { timeout: 10_000 });
  await page.waitForFunction(
    () => Number(/** @type {HTMLProgressElement} */ (document.getElementById('cluster-progress')).value) > 0,
    null,
    {
      timeout: 10_000,
    },
  );
  // The main thread answers while the worker computes, and input still works.
  const t0 = Date.now();
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.ok(Date.now() - t0 < 1000, 'the main thread is free');
  await page.fill('[data-field="name"]', 'still typing');
  assert.equal(await page.inputValue('[data-field="name"]'), 'still typing');
  // The edit is another long run: it asks again, and the run going gives way to it.
  await notice.waitFor({ state: 'visible', timeout: 10_000 });
  await page.waitForSelector('#cluster-progress-box', { state: 'hidden' });
  await notice.locator('.long-work-run').click();
  await page.waitForSelector('#cluster-progress-box:not([hidden])', { timeout: 10_000 });
  await page.click('#cluster-cancel');
  await page.waitForSelector('#cluster-progress-box', { state: 'hidden' });
  assert.match(await page.textContent('#cluster-run-error'), /cancelled/);
  assert.ok(await page.isVisible('#cluster-stale'));
  assert.deepEqual(await summary(page), sum, 'the last results stay');
  // The next edit runs normally on a fresh worker.
  const n = await clusterRuns(page);
  await events.fill('50000000');
  await input.fill('90000');
  await input.dispatchEvent('change');
  await waitClusterRuns(page, n + 1);
  assert.deepEqual(await summary(page), sum);
  await page.close();
});

test('a run past its event bound gets the engine message, not a frozen tab', async () => {
  const page = await openCluster();
  const input = page.locator('[data-field="max_events"]');
  await input.fill('100000');
  await input.dispatchEvent('change');
  await page.waitForSelector('#cluster-run-error:not([hidden])', { timeout: 30_000 });
  assert.match(
    await page.textContent('#cluster-run-error'),
    /^The run stopped: the run needs more than max_events = 100000 events \(stopped at \d+ ms of 90000 ms\); raise max_events/,
  );
  await page.close();
});

test('A/B: pin naive as A, load fixed as B, see both with correct deltas', async () => {
  const page = await openCluster();
  await preset(page, 'cluster-gc-stampede-naive');
  const pixelsA = await chartPixels(page);
  await page.click('#cluster-pin');
  await page.waitForFunction(
    () => !(/** @type {HTMLButtonElement} */ (document.getElementById('cluster-unpin')).disabled),
  );
  await preset(page, 'cluster-gc-stampede-fixed');
  assert.ok(await page.isVisible('#cluster-compare'));
  const a = cli('cluster-gc-stampede-naive').result;
  const b = cli('cluster-gc-stampede-fixed').result;
  const table = await rows(page, 'cluster-compare');
  assert.deepEqual(table[0], ['metric', 'A (pinned)', 'B (current)', 'Δ (B − A)', 'Δ %']);
  /** @param {string} label */
  const row = (label) => table.find((r) => r[0] === label);
  /** @param {number} d */
  const sign = (d) => (d > 0 ? '+' : d < 0 ? '−' : '±');
  const dReq = b.summary.requests - a.summary.requests;
  assert.deepEqual(row('requests'), [
    'requests',
    String(a.summary.requests),
    String(b.summary.requests),
    `${sign(dReq)}${Math.abs(dReq)}`,
    `${sign(dReq)}${Math.abs((dReq / a.summary.requests) * 100).toFixed(1)}%`,
  ]);
  const g = b.summary.goodput_per_s - a.summary.goodput_per_s;
  assert.deepEqual(row('goodput'), [
    'goodput',
    `${a.summary.goodput_per_s.toFixed(1)}/s`,
    `${b.summary.goodput_per_s.toFixed(1)}/s`,
    `${sign(g)}${Math.abs(g).toFixed(1)}/s`,
    `${sign(g)}${Math.abs((g / a.summary.goodput_per_s) * 100).toFixed(1)}%`,
  ]);
  // Coloured by better or worse, not by sign: B delivers more (+) and is overloaded
  // less (−), both better; the offered load is not judged.
  const classes = Object.fromEntries(
    await page.$$eval('#cluster-compare tbody tr', (trs) =>
      trs.map((tr) => [String(tr.firstElementChild?.textContent), tr.className]),
    ),
  );
  assert.equal(classes['success ratio'], 'better');
  assert.equal(classes['overload duration'], 'better');
  assert.equal(classes.requests, '');
  await page.locator('#cluster-root').screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-ab.png') });
  // The link carries A too (a version-2 state): a fresh page shows the same comparison.
  assert.match(page.url(), /[?&]s=v2\./);
  await page.click('#copy-link');
  const fresh = await open(await page.inputValue('#cluster-export-text'), { cluster: true });
  await fresh.locator('#cluster-compare-block:not([hidden])').waitFor();
  assert.deepEqual(await rows(fresh, 'cluster-compare'), table);
  assert.equal(await chartPixels(fresh), await chartPixels(page), 'A over B, pixel for pixel');
  assert.deepEqual(fresh.errors, []);
  await fresh.close();
  const r = row('recovery time (cohorts)');
  assert.equal(
    r[1],
    a.summary.metastable ? 'metastable: did not recover' : `${(a.summary.recovery_time_ms / 1000).toFixed(1)} s`,
  );
  // Both runs on one chart: B's bars and A's line; unpinning removes A's line.
  const withA = await chartPixels(page);
  await page.click('#cluster-unpin');
  assert.ok(await page.isHidden('#cluster-compare-block'));
  assert.match(page.url(), /[?&]s=v1\./, 'no pin, no version 2');
  assert.notEqual(await chartPixels(page), withA, 'A was drawn over B');
  assert.notEqual(withA, pixelsA);
  await page.close();
});

test('exports: Markdown, CSV per bucket and tier, PNG, and a scenario file the CLI runs', async () => {
  const page = await openCluster();
  const sum = await summary(page);
  /** @param {string} button */
  const read = (button) => e2e.downloaded(page, button);
  const md = (await read('#cluster-export-md')).toString('utf8');
  const result = await shown(page);
  assert.equal(md, await page.evaluate(() => window.playground.cluster.shown?.run.markdown()));
  assert.ok(md.includes(sum.goodput.replace('/s', '')) && md.includes(sum.requests), md);
  const csv = (await read('#cluster-export-csv')).toString('utf8').trim().split('\n');
  assert.equal(csv.length, 1 + result.buckets.length * result.tiers.length);
  assert.match(csv[0], /^start_ms,tier,first_attempts,retries,/);
  const png = await read('#cluster-export-png');
  assert.deepEqual([...png.subarray(0, 8)], e2e.PNG);
  const file = h.scratch('exported.json');
  fs.writeFileSync(file, await read('#cluster-export-json'));
  const out = JSON.parse(
    execFileSync(e2e.CLI, ['run', '--json', '--scenario', file], { encoding: 'utf8', maxBuffer: 1 << 28 }),
  );
  assert.deepEqual(out.result, result);
  await page.close();
});

test('embed mode shows the cluster verdict and charts only', async () => {
  const page = await openCluster();
  const sum = await summary(page);
  // The embed dialog's first view for the cluster model: the verdict and the charts.
  await page.click('#copy-embed');
  const snippet = await page.inputValue('#embed-code');
  const src = /src="([^"]+)"/.exec(snippet)[1].replaceAll('&amp;', '&');
  assert.equal(src, `${page.url()}&embed=chart&lang=en`);
  await page.close();
  const embed = await open(src, { cluster: true });
  for (const hidden of [
    '.cluster-editor',
    '#cluster-timeline',
    '#cluster-pin',
    '#copy-link',
    '#cluster-export-md',
    '#cluster-summary',
    '#cluster-tiers',
  ]) {
    assert.equal(await embed.isVisible(hidden), false, `${hidden} is hidden`);
  }
  assert.ok(await embed.isVisible('#cluster-chart'));
  assert.ok(await embed.isVisible('#cluster-verdict'));
  // The engine's figures behind it are the page's (the tables' view shows them).
  assert.deepEqual(await summary(embed), sum);
  const href = await embed.getAttribute('#cluster-open', 'href');
  assert.ok(href.startsWith(h.url) && !href.includes('embed'), href);
  await embed.setViewportSize({ width: 640, height: 900 });
  await embed.waitForTimeout(300);
  await embed.screenshot({ path: path.join(e2e.ARTIFACTS, 'cluster-embed.png'), fullPage: true });
  assert.deepEqual(embed.errors, []);
  await embed.close();
});

test('the cluster model works under a sub-path', { skip: !e2e.DIST_SUBPATH && 'DIST_SUBPATH not set' }, async () => {
  const sub = await serve(e2e.DIST_SUBPATH, { prefix: e2e.SUBPATH });
  try {
    const page = await open(sub.url);
    await page.click('input[name="model"][value="cluster"]');
    await waitClusterRuns(page, 1);
    assert.ok(page.url().startsWith(sub.url), page.url());
    assert.deepEqual(await shown(page), cli('cluster-gc-stampede-naive').result);
    await page.click('#copy-link');
    const fresh = await open(await page.inputValue('#cluster-export-text'), { cluster: true });
    assert.deepEqual(await summary(fresh), await summary(page));
    assert.deepEqual([...page.errors, ...fresh.errors], []);
    await fresh.close();
    await page.close();
  } finally {
    sub.server.close();
  }
});

test('each model keeps its state; classic links without a cluster scenario still open classic', async () => {
  const page = await open(h.url);
  const classicLink = page.url();
  const cap = page.locator('[data-field="capacity"]');
  await cap.fill('300');
  await cap.dispatchEvent('change');
  await page.click('input[name="model"][value="cluster"]');
  await waitClusterRuns(page, 1);
  await commit(page, 'load.rate_per_s', '2500');
  await page.click('input[name="model"][value="classic"]');
  assert.equal(await page.inputValue('[data-field="capacity"]'), '300');
  assert.ok(await page.isVisible('#classic-results'));
  assert.equal(await page.isVisible('#cluster-chart'), false);
  await page.click('input[name="model"][value="cluster"]');
  assert.equal(await page.inputValue('[data-field="load.rate_per_s"]'), '2500');
  // Back goes to the classic model, with the cluster edit kept in the link.
  await page.goBack();
  await page.waitForFunction(() => !document.body.classList.contains('model-cluster'));
  // A cluster preset in the classic presets switches to the cluster model and runs it.
  await page.click('input[name="model"][value="classic"]');
  const m = await clusterRuns(page);
  await e2e.choosePreset(page, 'cluster-gc-stampede-fixed');
  await waitClusterRuns(page, m + 1);
  assert.ok(await page.isChecked('input[name="model"][value="cluster"]'));
  assert.equal((await cfg(page)).name, 'GC-pause stampede (fixed)');
  // A classic-only link (as written before the cluster page existed) opens classic.
  const state = await page.evaluate(() =>
    window.wasmBindings.encodeState({
      model: 'classic',
      classic: window.wasmBindings.classicDefaults().scenario,
      view: { hidden: [] },
    }),
  );
  const old = await open(`${h.url}?s=${state}`);
  assert.ok(await old.isChecked('input[name="model"][value="classic"]'));
  assert.ok(await old.isVisible('#classic-results'));
  assert.equal(await old.isVisible('#banner'), false);
  assert.ok(classicLink.startsWith(h.url));
  await old.close();
  // A link with an invalid cluster scenario names the problem and shows the defaults.
  const bad = await page.evaluate(() => {
    const c = structuredClone(window.playground.cluster.cfg);
    c.tiers[0].instances = 0;
    return window.wasmBindings.encodeState({ model: 'cluster', cluster: c, view: { hidden: [] } });
  });
  const broken = await open(`${h.url}?s=${bad}`);
  assert.match(await broken.textContent('#banner'), /link\.cluster\.tiers\[0\]\.instances = 0/);
  await broken.close();
  await page.close();
});

test('copy link and the embed dialog give the current state, from the first click', async () => {
  const page = await openCluster();
  await page.click('#copy-link');
  const link = await page.inputValue('#cluster-export-text');
  assert.equal(link, page.url(), 'the link to what is on screen, not the previous copy');
  assert.ok(link.startsWith(h.url) && link.includes('s=v1.'), link);
  // The message follows the clipboard's promise: wait for it rather than read at once.
  await page.waitForFunction(() => (document.getElementById('cluster-copied')?.textContent ?? '') !== '');
  assert.match(await page.textContent('#cluster-copied'), /^Link (copied|is selected)/);
  // After an edit, the next copy is the new state.
  await commit(page, 'tiers[1].instances', '11');
  await page.click('#copy-embed');
  const snippet = await page.inputValue('#embed-code');
  const src = /src="([^"]+)"/.exec(snippet)?.[1].replaceAll('&amp;', '&');
  assert.equal(src, `${page.url()}&embed=chart&lang=en`);
  await page.close();
});

test("the classic editor's problem display leaves the cluster editor's field messages alone, and back", async () => {
  const page = await openCluster();
  const tier = page.locator('[data-field="tiers[1].instances"]');
  await tier.fill('0');
  await page.waitForSelector('#cluster-root .field-msg');
  const clusterMsg = /tiers\[1\]\.instances = 0 is out of range/;
  // The classic editor validates after an edit there: with a valid value (no problems)…
  await page.click('input[name="model"][value="classic"]');
  const n = await page.evaluate(() => Number(document.body.dataset.runs || 0));
  const cap = page.locator('[data-field="capacity"]');
  await cap.fill('300');
  await cap.press('Tab');
  await page.waitForFunction((k) => Number(document.body.dataset.runs || 0) > k, n);
  // …and with an invalid one, marked at its own field.
  await cap.fill('100000001');
  await page.waitForSelector('#classic-root .field-msg');
  await page.click('input[name="model"][value="cluster"]');
  assert.match(String(await page.getAttribute('#cluster-root .field-msg', 'title')), clusterMsg);
  assert.equal(await tier.getAttribute('aria-invalid'), 'true');
  // The cluster editor's own validation leaves the classic marks alone too.
  await commit(page, 'tiers[1].instances', '12');
  assert.equal(await page.$('#cluster-root .field-msg'), null);
  await page.click('input[name="model"][value="classic"]');
  assert.match(
    String(await page.getAttribute('#classic-root .field-msg', 'title')),
    /capacity = 100000001 is out of range/,
  );
  await page.close();
});
