// The wasm engine's speed against the native one, on the same inputs.
// A benchmark, not a test: it prints numbers and never fails on them (scripts/bench.sh
// runs it; scripts/test.sh does not). In headless Chromium on the release site:
//   - the article's classic table and the 100× table (20,000 clients, capacity 24,000),
//     each through the page's own worker path (lib/runner.js → lib/worker.js → jobs.js:
//     the engine and the run's JSON text in the worker, fromJSON on the page), with a
//     main-thread breakdown (engine, jsonText, fromJSON) of where the time goes;
//   - a 1,000-seed classic ensemble of the article's table and a 40-seed cluster ensemble
//     of `cluster-gc-stampede-naive` (90 s), through the seeds panel (lib/pool.js and
//     its workers), timed from the change of the seed count to the panel's "done";
// and the native engine on the same inputs: the tables in-process, timed as the worker
// times the wasm (engine + JSON text, best of REPS; the `time_run` example next to the
// CLI, target/release/examples/time_run), and for reference the CLI's `run --json` timed
// from outside minus its start-up time (`retrystorm version`), whose noise is a few ms;
// the ensembles as whole CLI commands (`ensemble --json --threads N`), also minus start-up.
//
//   node tests/e2e/bench-wasm.js      (env: DIST, RETRYSTORM_BIN as for the e2e tests;
//                                      REPS, default 25 (the ensembles at most 3 in the page
//                                      and 5 natively); WORKERS, default the machine's cores;
//                                      BENCH_ONLY=tables: the two tables only)

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as e2e from './harness.js';

// Best of 25 for the tables: on a shared 2-core machine a best of 5 still moved by 30%.
const REPS = Math.max(1, Number(process.env.REPS) || 25);
const WORKERS = Math.max(1, Number(process.env.WORKERS) || os.availableParallelism());

/**
 * The best and the median of some timings, ms.
 * @param {number[]} ms
 */
function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { best: sorted[0], median: sorted[Math.floor((sorted.length - 1) / 2)] };
}

/**
 * Wall-clock time of the native CLI with `args`, best of `reps`, ms.
 * @param {string[]} args
 * @param {number} [reps]
 */
function native(args, reps = REPS) {
  /** @type {number[]} */
  const ms = [];
  for (let i = 0; i < reps; i++) {
    const t0 = process.hrtime.bigint();
    execFileSync(e2e.CLI, args, { stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return stats(ms).best;
}

/**
 * The native engine's best time in-process on the scenario `file`, ms: the `time_run`
 * example built next to the CLI (scripts/bench.sh builds it).
 * @param {string} file
 */
function nativeInProcess(file) {
  const timer = path.join(path.dirname(e2e.CLI), 'examples', 'time_run');
  return Number(execFileSync(timer, [file, String(REPS)], { encoding: 'utf8' }).trim());
}

/** @param {number} ms */
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** @type {string[][]} */
const rows = [];
/**
 * One line of the summary: the case, the wasm time, the native time and their ratio.
 * @param {string} name
 * @param {number} wasm
 * @param {number} nat
 * @param {string} note
 */
function report(name, wasm, nat, note) {
  rows.push([name, fmt(wasm), fmt(nat), (wasm / nat).toFixed(2), note]);
  console.log(`${name}: wasm ${fmt(wasm)}, native ${fmt(nat)}, ratio ${(wasm / nat).toFixed(2)} (${note})`);
}

/** The summary as a Markdown table. */
function printRows() {
  console.log(`\n| run | wasm (browser) | native | ratio | how |\n|---|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log(`\n(tables best of ${REPS}; ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)})`);
}

const h = new e2e.Harness({ width: 1280, height: 900 });
await h.start();
try {
  const startup = native(['version']);
  console.log(`native CLI start-up (retrystorm version): ${fmt(startup)}, subtracted from every native time`);
  const page = await h.page(`${h.url}?workers=${WORKERS}`);
  await e2e.waitRunCount(page, 'runs', 1);

  for (const [name, factor] of /** @type {[string, number][]} */ ([
    ['classic table, article size (200 clients)', 1],
    ['classic table, 100× (20,000 clients, capacity 24,000)', 100],
  ])) {
    const timing = await page.evaluate(
      async ([factor, reps]) => {
        const wasm = window.wasmBindings;
        const cfg = wasm.classicDefaults().scenario;
        cfg.clients *= factor;
        cfg.capacity *= factor;
        // The page's own runner and worker (a fresh pair, so the page's runs do not interfere).
        // A path in the page, not in this directory: imported by the page's module loader.
        const runnerUrl = './js/lib/runner.js';
        const { Runner } = await import(runnerUrl);
        const runner = new Runner(wasm, { onBusy: () => {} });
        const request = { model: 'classic', kind: 'run', cfg, seed: cfg.seed };
        // The first run in a fresh worker: the worker's start, the wasm's compile, and the
        // engine in the browser's baseline code until its optimised code is ready.
        const t0 = performance.now();
        const first = (await runner.run(request)).ms;
        const firstRoundTrip = performance.now() - t0;
        const worker = [];
        const roundTrip = [];
        for (let i = 0; i < reps; i++) {
          const t0 = performance.now();
          const out = await runner.run(request);
          wasm.ClassicRun.fromJSON(out.text).free();
          roundTrip.push(performance.now() - t0);
          worker.push(out.ms);
        }
        runner.worker?.terminate();
        // Where the time goes, on the main thread: the engine, the JSON text, the parse.
        /** @type {{engine: number[], jsonText: number[], fromJSON: number[]}} */
        const parts = { engine: [], jsonText: [], fromJSON: [] };
        for (let i = 0; i < reps; i++) {
          let t = performance.now();
          const run = wasm.ClassicRun.run(cfg, cfg.seed);
          parts.engine.push(performance.now() - t);
          t = performance.now();
          const text = run.jsonText();
          parts.jsonText.push(performance.now() - t);
          t = performance.now();
          wasm.ClassicRun.fromJSON(text).free();
          parts.fromJSON.push(performance.now() - t);
          run.free();
        }
        return { cfg, first, firstRoundTrip, worker, roundTrip, parts };
      },
      [factor, REPS],
    );
    const file = h.scratch(`bench-${factor}.json`);
    fs.writeFileSync(file, JSON.stringify(timing.cfg));
    const nat = nativeInProcess(file);
    const cli = native(['run', '--json', '--scenario', file]) - startup;
    const w = stats(timing.worker);
    const rt = stats(timing.roundTrip);
    const parts = Object.entries(timing.parts)
      .map(([k, v]) => `${k} ${fmt(stats(/** @type {number[]} */ (v)).best)}`)
      .join(', ');
    console.log(
      `${name}: first run in a fresh worker ${fmt(timing.first)} (round trip ${fmt(timing.firstRoundTrip)}); ` +
        `then worker (engine + jsonText) best ${fmt(w.best)}, median ${fmt(w.median)}; ` +
        `round trip to the page best ${fmt(rt.best)}; main thread: ${parts}; ` +
        `native CLI run --json minus start-up ${fmt(cli)}`,
    );
    report(name, w.best, nat, 'both in-process: engine + JSON text (wasm in the worker)');
  }

  // BENCH_ONLY=tables: the two tables only (a quick before/after of the engine).
  if (process.env.BENCH_ONLY !== 'tables') {
    /**
     * Times the seeds panel of `root` over `n` seeds: the first run (workers start,
     * wasm compiles) and the best of the following ones, ms.
     * @param {string} root
     * @param {string} key the body's dataset key the panel sets to "done"
     * @param {string} n
     */
    async function ensemble(root, key, n) {
      /** @type {number[]} */
      const ms = [];
      for (let i = 0; i <= Math.min(REPS, 3); i++) {
        // Back to one seed (no ensemble), then N: each round is a fresh ensemble.
        await page.fill(`${root} .seeds-n`, '1');
        await page.locator(`${root} .seeds-n`).dispatchEvent('change');
        await page.fill(`${root} .seeds-n`, n);
        await page.evaluate(() => {
          /** @type {any} */ (window).__benchT0 = performance.now();
        });
        await page.locator(`${root} .seeds-n`).dispatchEvent('change');
        await page.waitForFunction((k) => document.body.dataset[k] === 'done', key, { timeout: 600_000 });
        ms.push(await page.evaluate(() => performance.now() - /** @type {any} */ (window).__benchT0));
      }
      const [first, ...warm] = ms;
      return { first, warm: stats(warm) };
    }

    /**
     * Times an ensemble in the page and natively (`retrystorm ensemble` with `args`).
     * @param {string} name
     * @param {string} root
     * @param {string} key
     * @param {string[]} args
     */
    async function ensembleCase(name, root, key, args) {
      const seeds = args[args.indexOf('--seeds') + 1];
      const inPage = await ensemble(root, key, seeds);
      const nat = native(['ensemble', ...args, '--json', '--threads', String(WORKERS)], Math.min(REPS, 5)) - startup;
      console.log(`${name}, first run (workers start): ${fmt(inPage.first)}`);
      report(
        name,
        inPage.warm.best,
        nat,
        `page: ${WORKERS} workers, seeds panel; native: ensemble --threads ${WORKERS}`,
      );
    }

    await ensembleCase('classic ensemble, 1,000 seeds, article size', '#classic-root', 'classicEnsemble', [
      '--seeds',
      '1000',
    ]);
    await e2e.choosePreset(page, 'cluster-gc-stampede-naive');
    await e2e.waitRunCount(page, 'clusterRuns', 1);
    await ensembleCase(
      'cluster ensemble, 40 seeds, cluster-gc-stampede-naive (90 s)',
      '#cluster-root',
      'clusterEnsemble',
      ['--preset', 'cluster-gc-stampede-naive', '--seeds', '40'],
    );
  }
  if (page.errors.length) console.log(`page errors: ${page.errors.join('; ')}`);
  await page.close();

  printRows();
} finally {
  await h.stop();
}
