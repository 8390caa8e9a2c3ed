// A pool of Web Workers (./poolworker.js) that runs the items of an ensemble or sweep
// (the engine's Plan: points × seeds) and streams the results back.
//
// The page holds its own Plan, built from the same (scenario, sweep) as the workers':
// it hands out ranges of item indices, keeps every sample by its index (Plan.add) and
// asks for the result of the completed leading items (Plan.result), at most every
// UPDATE_MS, so the spread tightens while the seeds finish. A result summarises every
// seed so far, so it costs more as they come in: the next one waits UPDATE_GAP times as
// long as the last took, which keeps the main thread mostly free (and the whole job's
// updates from growing with the square of its seeds). The result depends only on
// the samples in item order, never on which worker ran what: any pool size gives the
// same numbers. Cancel terminates the workers (the only way to stop wasm mid-item);
// the next run starts fresh ones. Without workers (an old browser, a file:// page) the
// items run on the main thread in slices between frames.

/** @typedef {import('./jobs.js').Wasm} Wasm */
/** @typedef {import('../../retrystorm-web.js').Plan} Plan */

const UPDATE_MS = 100;
const UPDATE_GAP = 4;
// Items per message: about this much work, so the messages cost little and a point
// still shows as soon as its seeds are in; a heavy item (a cluster run of seconds) goes
// alone. The first ranges are one item each, until a worker says what an item costs.
const TARGET_MS = 100;
const MAX_CHUNK = 25;
const MAX_WORKERS = 16;

/**
 * Items per message when an item takes `ms` of a worker's time.
 * @param {number} ms
 */
export function chunkFor(ms) {
  return Math.max(1, Math.min(MAX_CHUNK, Math.floor(TARGET_MS / Math.max(ms, 0.01))));
}

/** The pool size: the machine's cores, or `?workers=N` in the page's address (tests). */
export function poolSize() {
  const asked = Number(new URLSearchParams(location.search).get('workers'));
  const n = Number.isInteger(asked) && asked > 0 ? asked : navigator.hardwareConcurrency || 2;
  return Math.max(1, Math.min(MAX_WORKERS, n));
}

export class Pool {
  /**
   * @param {Wasm} wasm
   * @param {number} [size]
   */
  constructor(wasm, size = poolSize()) {
    this.wasm = wasm;
    this.size = size;
    /** @type {Worker[]} */
    this.workers = [];
    this.runId = 0;
    /** @type {(() => void) | null} stops the running plan */
    this.stop = null;
  }

  /**
   * Runs `plan` (built by the caller from `model`, `scenario` and `sweep`, so its errors are the
   * caller's to show); `onUpdate(done)` hears progress (items done in order). Resolves
   * when every item is in; rejects with {cancelled} or the engine's Error.
   * @param {Plan} plan
   * @param {'classic' | 'cluster'} model
   * @param {unknown} scenario
   * @param {unknown} sweep
   * @param {(done: number) => void} onUpdate
   * @returns {Promise<void>}
   */
  run(plan, model, scenario, sweep, onUpdate) {
    this.cancel();
    const run = ++this.runId;
    const items = plan.items();
    let chunk = 1;
    let next = 0;
    let lastUpdate = 0;
    let wait = UPDATE_MS;
    let timer = 0;
    return new Promise((resolve, reject) => {
      let finished = false;
      /** @param {(() => void)} f */
      const end = (f) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        this.stop = null;
        f();
      };
      const report = () => {
        clearTimeout(timer);
        timer = 0;
        const t0 = performance.now();
        onUpdate(plan.done());
        lastUpdate = performance.now();
        wait = Math.max(UPDATE_MS, UPDATE_GAP * (lastUpdate - t0));
      };
      /** @param {[number, string][]} samples */
      const take = (samples) => {
        for (const [i, text] of samples) plan.add(i, text);
        if (plan.done() === items) {
          end(() => {
            report();
            resolve();
          });
        } else if (performance.now() - lastUpdate >= wait) report();
        else if (!timer) timer = setTimeout(report, wait - (performance.now() - lastUpdate));
      };
      this.stop = () => end(() => reject({ cancelled: true }));
      const workers = this.spawn(Math.min(this.size, items));
      if (!workers) {
        this.inline(plan, items, take, () => finished);
        return;
      }
      /** @param {Worker} w */
      const feed = (w) => {
        if (next >= items) return;
        const from = next;
        next = Math.min(items, next + chunk);
        w.postMessage({ run, model, scenario, sweep, from, to: next });
      };
      for (const w of workers) {
        w.onmessage = (event) => {
          const m = event.data;
          if (m.run !== run || finished) return;
          if (m.error) {
            end(() => reject(Object.assign(new Error(m.error.message), m.error)));
            return;
          }
          if (m.samples.length) chunk = chunkFor(m.ms / m.samples.length);
          feed(w);
          take(m.samples);
        };
        feed(w);
        // A second range in flight keeps the worker busy while its answer crosses.
        feed(w);
      }
    });
  }

  /**
   * The workers, started on first use; null when workers are unavailable.
   * @param {number} n
   * @returns {Worker[] | null}
   */
  spawn(n) {
    try {
      while (this.workers.length < n) {
        const w = new Worker(new URL('./poolworker.js', import.meta.url), { type: 'module' });
        w.onerror = (event) => {
          event.preventDefault();
          console.warn('pool worker failed:', event.message);
        };
        this.workers.push(w);
      }
      return this.workers.slice(0, n);
    } catch (e) {
      console.warn('no workers, running on the main thread:', e);
      return null;
    }
  }

  /**
   * The main-thread fallback: a slice of items per frame (sized as a worker's message),
   * so the page still paints.
   * @param {Plan} plan
   * @param {number} items
   * @param {(samples: [number, string][]) => void} take
   * @param {() => boolean} stopped
   */
  inline(plan, items, take, stopped) {
    let i = 0;
    let chunk = 1;
    const step = () => {
      if (stopped()) return;
      /** @type {[number, string][]} */
      const samples = [];
      const t0 = performance.now();
      for (const end = Math.min(items, i + chunk); i < end; i++) samples.push([i, plan.runItem(i)]);
      chunk = chunkFor((performance.now() - t0) / samples.length);
      take(samples);
      if (i < items) setTimeout(step, 0);
    };
    setTimeout(step, 0);
  }

  /** Stops the running plan (its promise rejects with {cancelled}); the workers are replaced. */
  cancel() {
    if (!this.stop) return;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.stop();
  }
}
