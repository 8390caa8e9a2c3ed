// The page's main-thread long tasks (PerformanceObserver 'longtask', over 50 ms) while it
// opens links and runs what they ask for. A benchmark, not a test: it prints numbers and
// never fails on them. Each case is a fresh page, watched from before its first script
// (an init script), so the boot and the wasm's compile and first calls are counted too.
// The cases: the default page; the bundled sweeps (classic and cluster); a cluster run
// (the GC stampede) and ensemble (its 40 seeds, run to its end); classic ensembles of
// 1,000 and 10,000 seeds of the article's table (run to their end, "Run anyway" where the
// page asks), the latter then saved as its per-seed CSV (about 50 MB); and links to long
// work that only ask (10,000 seeds of the GC stampede).
// Each case runs on RUNS fresh pages: per page its long tasks (ms@start) and the longest,
// then per case the longest task at median with the range over the pages.
//
//   node tests/e2e/bench-longtasks.js   (env: DIST, RETRYSTORM_BIN as for the e2e tests;
//                                        RUNS, default 5; WORKERS, default 2;
//                                        ONLY, a part of the cases' names to run)

import * as e2e from './harness.js';

const RUNS = Math.max(1, Number(process.env.RUNS) || 5);
const WORKERS = Math.max(1, Number(process.env.WORKERS) || 2);
const ONLY = process.env.ONLY ?? '';

/** Watches long tasks from the page's first script on: `window.__longTasks`. */
const WATCH = () => {
  const w = /** @type {any} */ (window);
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      w.__longTasks.push({ at: Math.round(e.startTime), ms: Math.round(e.duration) });
    }
  }).observe({ type: 'longtask', buffered: true });
};

/**
 * The median of some numbers.
 * @param {number[]} xs
 */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

const h = new e2e.Harness({ width: 1280, height: 900 });
await h.start();
/** @type {import('playwright-core').BrowserContext} */ (h.context).addInitScript(WATCH);

/**
 * Opens `query` on a fresh page, waits for `done` (a page function) and a settling
 * second, and returns its long tasks.
 * @param {string} query
 * @param {() => boolean} done
 * @param {{click?: string, timeout?: number, save?: string}} [opts] `save`: a download
 *   button clicked once `done`, its file awaited
 */
async function measure(query, done, opts = {}) {
  const page = await h.page(`${h.url}?lang=en&workers=${WORKERS}${query}`);
  await page.waitForFunction(() => 'playground' in window, undefined, { timeout: 60_000 });
  if (opts.click) {
    await page.locator(opts.click).waitFor({ state: 'visible', timeout: 30_000 });
    await page.click(opts.click);
  }
  await page.waitForFunction(done, undefined, { timeout: opts.timeout ?? 600_000, polling: 250 });
  if (opts.save) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(opts.save)]);
    await download.path();
  }
  await page.waitForTimeout(1000);
  /** @type {{at: number, ms: number}[]} */
  const tasks = await page.evaluate(() => /** @type {any} */ (window).__longTasks);
  if (page.errors.length) console.log(`  page errors: ${page.errors.join(' | ')}`);
  await page.close();
  return tasks;
}

/**
 * Prints a case's long tasks.
 * @param {string} name
 * @param {{at: number, ms: number}[]} tasks
 */
function report(name, tasks) {
  const longest = Math.max(0, ...tasks.map((t) => t.ms));
  const list = tasks.map((t) => `${t.ms}@${t.at}`).join(' ');
  console.log(`${name}: longest ${longest} ms; ${tasks.length} long tasks (ms@start): ${list}`);
}

// The page's own links, made by its encoder.
const home = await h.page(`${h.url}?lang=en&workers=${WORKERS}`);
await e2e.waitRunCount(home, 'runs', 1);
/** @type {Record<string, string>} */
const links = await home.evaluate(() => {
  const w = window.wasmBindings;
  const scenarios = w.bundledScenarios('en');
  /** @param {string} id */
  const scenario = (id) => scenarios.find((/** @type {any} */ p) => p.id === id)?.scenario;
  const view = { hidden: /** @type {number[]} */ ([]) };
  const classic = w.classicDefaults().scenario;
  /** @type {Record<string, string>} */
  const out = {};
  for (const s of w.sweepPresets('en')) {
    out[`sweep ${s.id}`] = w.encodeState({
      model: s.model,
      [s.model]: scenario(s.scenario),
      [`${s.model}_sweep`]: s.sweep,
      view,
    });
  }
  const stampede = scenario('cluster-gc-stampede-naive');
  out['cluster run'] = w.encodeState({ model: 'cluster', cluster: stampede, view });
  out['cluster ensemble 40 seeds'] = w.encodeState({
    model: 'cluster',
    cluster: stampede,
    cluster_sweep: { seeds: 40 },
    view,
  });
  out['cluster ensemble 10,000 seeds (asks)'] = w.encodeState({
    model: 'cluster',
    cluster: stampede,
    cluster_sweep: { seeds: 10_000 },
    view,
  });
  out['classic ensemble 1,000 seeds'] = w.encodeState({
    model: 'classic',
    classic,
    classic_sweep: { seeds: 1000 },
    view,
  });
  out['classic ensemble 10,000 seeds'] = w.encodeState({
    model: 'classic',
    classic,
    classic_sweep: { seeds: 10_000 },
    view,
  });
  return out;
});
await home.close();

/**
 * Measures a case on RUNS fresh pages and prints the longest task at median, with the range.
 * @param {string} name
 * @param {() => Promise<{at: number, ms: number}[]>} once
 */
async function repeat(name, once) {
  if (!name.includes(ONLY)) return;
  /** @type {number[]} */
  const longest = [];
  for (let i = 0; i < RUNS; i++) {
    const tasks = await once();
    report(`${name} #${i + 1}`, tasks);
    longest.push(Math.max(0, ...tasks.map((t) => t.ms)));
  }
  const range = `${Math.min(...longest)}–${Math.max(...longest)}`;
  console.log(`${name}: longest task at median over ${RUNS} fresh pages ${median(longest)} ms (${range})`);
}

await repeat('default page', () => measure('', () => Number(document.body.dataset.runs || 0) >= 1));

for (const [name, s] of Object.entries(links)) {
  if (!name.includes(ONLY)) continue;
  const q = `&s=${encodeURIComponent(s)}`;
  const model = name.includes('classic') || name.includes('breaker') || name.includes('budget') ? 'classic' : 'cluster';
  // An ensemble runs in the seeds panel or, from a link, as a sweep without parameters.
  const finished = ['Sweep', 'Ensemble']
    .map((k) => `['done', 'error'].includes(document.body.dataset.${model}${k})`)
    .join(' || ');
  if (name.includes('asks')) {
    // Only the notice: nothing starts until the reader says so.
    const notice = `[data-long-work="${model}-ensemble"]`;
    const asked = /** @type {() => boolean} */ (
      new Function(`return !!document.querySelector('${notice}:not([hidden])')`)
    );
    await repeat(name, () => measure(q, asked));
    continue;
  }
  if (name === 'cluster run') {
    await repeat(name, () => measure(q, () => Number(document.body.dataset.clusterRuns || 0) >= 1));
    continue;
  }
  // Where the page asks first (an estimate over ~10 s), "Run anyway".
  const page = await h.page(`${h.url}?lang=en&workers=${WORKERS}${q}`);
  await page.waitForFunction(() => 'playground' in window);
  await page.waitForTimeout(1500);
  const asks = await page.locator('[data-long-work]:not([hidden]) .long-work-run').count();
  await page.close();
  const opts = asks ? { click: '[data-long-work]:not([hidden]) .long-work-run' } : {};
  const done = /** @type {() => boolean} */ (new Function(`return ${finished}`));
  await repeat(`${name}${asks ? ' (asked; run anyway)' : ''}`, () => measure(q, done, opts));
  if (name === 'classic ensemble 10,000 seeds') {
    const save = { ...opts, save: '#classic-root .seeds-csv' };
    await repeat(`${name}, then its per-seed CSV`, () => measure(q, done, save));
  }
}
await h.stop();
