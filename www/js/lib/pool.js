// A pool of Web Workers (./poolworker.js) that runs the items of an ensemble or sweep
// (the engine's Plan: points × seeds) and summarises them off the main thread.
//
// Every worker builds the engine's Plan from the same (scenario, sweep) as the page's
// and runs the ranges of item indices it is handed. One more worker, the fold (`Fold`,
// below), is sent every sample (the page passes them on as they come, by item index)
// and, when asked, summarises the completed leading items: the ensemble, or the sweep's
// points so far, as what the page shows of them (every figure's spread, one metric's
// per-seed values) in a flat list of numbers, from which the page's Plan draws. So the
// main thread never parses a sample nor summarises one: a 10,000-seed ensemble costs it
// the reading of one metric's values per update. The fold also answers the estimates (`estimate`), which run the
// scenario's prefix. Updates come at most every UPDATE_MS, and the next waits UPDATE_GAP
// times as long as the last took (the fold's summary and the page's drawing), so the
// fold does not summarise all the time. The result depends only on the samples in item
// order, never on which worker ran what: any pool size gives the same numbers. Cancel
// terminates the workers running items (the only way to stop wasm mid-item); the fold
// keeps what came in, for the exports, until the next run. Without workers (an old
// browser, a file:// page) the items and the fold run on the main thread, in slices
// between frames.

import { errorMessage } from './jobs.js';

/** @typedef {import('./jobs.js').Wasm} Wasm */
/** @typedef {import('../../retrystorm-web.js').Plan} Plan */
/** @typedef {import('../../retrystorm-web.js').Estimate} Estimate */
/**
 * What a fold answers, with the run it is of: `flat` a summary (none before there is
 * one) and for an ensemble the metric whose per-seed values it carries; `blob` the
 * per-seed CSV; `estimate`; or `error`.
 * @typedef {{ask?: number, run?: number, flat?: Float64Array, metric?: string, complete?: boolean, blob?: Blob, estimate?: Estimate, error?: ReturnType<typeof errorMessage>}} Answer
 */
/**
 * A run's hooks: `progress(done)` hears how many items are done in order; `want(done)`
 * says what to summarise now (`{fold: 'ensemble', metric}`, `{fold: 'sweep'}`; null:
 * nothing new to show); `show(answer)` shows the fold's answer.
 * @typedef {{progress: (done: number) => void, want: (done: number) => object | null, show: (a: Answer) => void}} Hooks
 */

const UPDATE_MS = 100;
const UPDATE_GAP = 4;
// Items per message: about this much work, so the messages cost little and a point
// still shows as soon as its seeds are in; a heavy item (a cluster run of seconds) goes
// alone. The first ranges are one item each, until a worker says what an item costs.
const TARGET_MS = 100;
const MAX_CHUNK = 25;
const MAX_WORKERS = 16;
// The distribution shows this metric first, when the ensemble has it.
const FIRST_METRIC = /delivery_pct|success_ratio/;

/**
 * The buffers of some samples (`[item, sample]`), to move them with a message.
 * @param {[number, Float64Array][]} samples
 * @returns {ArrayBuffer[]}
 */
export function buffers(samples) {
  return samples.map(([, s]) => /** @type {ArrayBuffer} */ (s.buffer));
}

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

/**
 * The fold: a run's samples by item index, summarised on request. The worker
 * (./poolworker.js) holds one; without workers the page does.
 *
 * Messages, each with `fold` its kind and `ask` (answered with the same `ask`):
 * `start` {run, model, scenario, sweep} (a new run: the samples so far go);
 * `add` {run, samples: [[item, sample], …]} (no answer); `ensemble` {run, metric}
 * → {flat, metric, complete}; `sweep` {run} → {flat}; `csv` {run} → {blob} (every
 * per-seed value, as a text/csv blob: a 10,000-seed ensemble's is about 50 MB, which the
 * page saves without ever holding it as a string); `estimate` {model, scenario, sweep, workers, lang} → {estimate}.
 * Answers carry the run they are of; an error answers {error}.
 */
export class Fold {
  /** @param {Wasm} wasm */
  constructor(wasm) {
    this.wasm = wasm;
    this.run = 0;
    /** @type {Plan | null} */
    this.plan = null;
  }

  /**
   * Handles one message; returns its answer (none for `add`).
   * @param {any} m
   * @returns {Answer | undefined}
   */
  handle(m) {
    const { ask } = m;
    try {
      if (m.fold === 'estimate') {
        return { ask, estimate: this.wasm.estimatePlan(m.model, m.scenario, m.sweep, m.workers, m.lang) };
      }
      if (m.fold === 'start') {
        this.plan?.free();
        this.plan = null;
        this.run = m.run;
        this.plan = new this.wasm.Plan(m.model, m.scenario, m.sweep);
        return { ask, run: m.run };
      }
      const plan = this.plan;
      // Another run's message (the page moved on): nothing to add, nothing to say.
      if (!plan || m.run !== this.run) return m.fold === 'add' ? undefined : { ask, run: this.run };
      if (m.fold === 'add') {
        for (const [i, sample] of m.samples) plan.add(i, sample);
        return undefined;
      }
      const run = this.run;
      if (m.fold === 'sweep') return { ask, run, flat: plan.sweepFlat() };
      const result = plan.result();
      if (!result) return { ask, run };
      try {
        if (m.fold === 'csv') return { ask, run, blob: new Blob([result.csv()], { type: 'text/csv' }) };
        const metrics = result.metrics();
        const metric = metrics.includes(m.metric)
          ? m.metric
          : (metrics.find((x) => FIRST_METRIC.test(x)) ?? metrics[0] ?? '');
        return { ask, run, metric, flat: result.shownFlat(metric), complete: result.complete() };
      } finally {
        result.free();
      }
    } catch (e) {
      return { ask, run: this.run, error: errorMessage(e) };
    }
  }
}

export class Pool {
  /**
   * @param {Wasm} wasm
   * @param {number} [size]
   */
  constructor(wasm, size = poolSize()) {
    this.wasm = wasm;
    this.size = size;
    /** @type {Worker[]} the workers running items */
    this.workers = [];
    /** @type {{postMessage: (m: object, options?: StructuredSerializeOptions) => void} | null} the fold: a worker, or the page's own */
    this.fold = null;
    /** @type {Map<number, {resolve: (a: Answer) => void, reject: (e: unknown) => void}>} the fold's questions not yet answered */
    this.asks = new Map();
    this.nextAsk = 1;
    this.runId = 0;
    /** Items done in order in the latest run. */
    this.done = 0;
    /** @type {(() => void) | null} stops the running plan */
    this.stop = null;
  }

  /**
   * Sends `message` to the fold; resolves with its answer, rejects with the engine's Error.
   * @param {object} message
   * @returns {Promise<Answer>}
   */
  ask(message) {
    const fold = this.folder();
    const ask = this.nextAsk++;
    return new Promise((resolve, reject) => {
      this.asks.set(ask, { resolve, reject });
      fold.postMessage({ ...message, ask });
    });
  }

  /**
   * The engine's estimate of `new Plan(model, scenario, sweep)` on this pool, its time
   * in `lang`: made by the fold, so its prefix runs leave the main thread free.
   * @param {'classic' | 'cluster'} model
   * @param {unknown} scenario
   * @param {unknown} sweep
   * @param {string} lang
   * @returns {Promise<Estimate>}
   */
  async estimate(model, scenario, sweep, lang) {
    const a = await this.ask({ fold: 'estimate', model, scenario, sweep, workers: this.size, lang });
    return /** @type {Estimate} */ (a.estimate);
  }

  /** @param {Answer} a the fold's answer */
  answered(a) {
    const waiting = this.asks.get(Number(a.ask));
    if (!waiting) return;
    this.asks.delete(Number(a.ask));
    if (a.error) waiting.reject(Object.assign(new Error(a.error.message), a.error));
    else waiting.resolve(a);
  }

  /** The fold, started on first use: a worker, or the page's own without workers. */
  folder() {
    if (this.fold) return this.fold;
    const w = this.worker((message) => {
      // A fold that failed (it ran out of memory): its questions fail, the next run starts another.
      w?.terminate();
      this.fold = null;
      for (const a of this.asks.values()) a.reject(new Error(message));
      this.asks.clear();
    });
    if (w) {
      w.onmessage = (event) => this.answered(event.data);
      this.fold = w;
    } else {
      const fold = new Fold(this.wasm);
      this.fold = {
        postMessage: (/** @type {object} */ m) =>
          setTimeout(() => {
            const a = fold.handle(m);
            if (a) this.answered(a);
          }, 0),
      };
    }
    return this.fold;
  }

  /**
   * Runs `plan` (built by the caller from `model`, `scenario` and `sweep`, so its errors are the
   * caller's to show), with `hooks` to hear progress and show summaries. Resolves when
   * every item is in and the last summary shows; rejects with {cancelled, done} or the
   * engine's Error.
   * @param {Plan} plan
   * @param {'classic' | 'cluster'} model
   * @param {unknown} scenario
   * @param {unknown} sweep
   * @param {Hooks} hooks
   * @returns {Promise<void>}
   */
  run(plan, model, scenario, sweep, { progress, want, show }) {
    this.cancel();
    const run = ++this.runId;
    const items = plan.items();
    const got = new Uint8Array(items);
    this.done = 0;
    let chunk = 1;
    let next = 0;
    let lastUpdate = 0;
    let wait = UPDATE_MS;
    let timer = 0;
    // A summary asked and not yet shown: the next waits for it.
    let asking = false;
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
      const fail = (/** @type {unknown} */ e) => end(() => reject(e));
      // Progress, and the summary `want` asks for; the last one (every item in) ends the run.
      const report = () => {
        clearTimeout(timer);
        timer = 0;
        if (finished || asking) return;
        const at = this.done;
        progress(at);
        const message = want(at);
        if (!message) {
          if (at === items) end(resolve);
          return;
        }
        asking = true;
        const t0 = performance.now();
        this.ask({ ...message, run }).then((a) => {
          asking = false;
          if (finished) return;
          show(a);
          lastUpdate = performance.now();
          wait = Math.max(UPDATE_MS, UPDATE_GAP * (lastUpdate - t0));
          if (at === items) end(resolve);
          else schedule();
        }, fail);
      };
      const schedule = () => {
        if (finished || asking || timer) return;
        const left = this.done === items ? 0 : wait - (performance.now() - lastUpdate);
        if (left <= 0) report();
        else timer = setTimeout(report, left);
      };
      /** @param {[number, Float64Array][]} samples */
      const take = (samples) => {
        for (const [i] of samples) got[i] = 1;
        while (this.done < items && got[this.done]) this.done++;
        // Passed on, not copied: the page never reads a sample.
        fold.postMessage({ fold: 'add', run, samples }, { transfer: buffers(samples) });
        schedule();
      };
      this.stop = () => end(() => reject({ cancelled: true, done: this.done }));
      const fold = this.folder();
      this.ask({ fold: 'start', run, model, scenario, sweep }).catch(fail);
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
            fail(Object.assign(new Error(m.error.message), m.error));
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
   * One worker of the pool, or null when workers are unavailable.
   * @param {(message: string) => void} [failed] hears the worker's failure
   * @returns {Worker | null}
   */
  worker(failed) {
    try {
      const w = new Worker(new URL('./poolworker.js', import.meta.url), { type: 'module' });
      w.onerror = (event) => {
        event.preventDefault();
        console.warn('pool worker failed:', event.message);
        failed?.(event.message);
      };
      return w;
    } catch (e) {
      console.warn('no workers, running on the main thread:', e);
      return null;
    }
  }

  /**
   * The workers running items, started on first use; null when workers are unavailable.
   * @param {number} n
   * @returns {Worker[] | null}
   */
  spawn(n) {
    while (this.workers.length < n) {
      const w = this.worker();
      if (!w) return null;
      this.workers.push(w);
    }
    return this.workers.slice(0, n);
  }

  /**
   * The main-thread fallback: a slice of items per frame (sized as a worker's message),
   * so the page still paints.
   * @param {Plan} plan
   * @param {number} items
   * @param {(samples: [number, Float64Array][]) => void} take
   * @param {() => boolean} stopped
   */
  inline(plan, items, take, stopped) {
    let i = 0;
    let chunk = 1;
    const step = () => {
      if (stopped()) return;
      /** @type {[number, Float64Array][]} */
      const samples = [];
      const t0 = performance.now();
      for (const end = Math.min(items, i + chunk); i < end; i++) samples.push([i, plan.runItem(i)]);
      chunk = chunkFor((performance.now() - t0) / samples.length);
      take(samples);
      if (i < items) setTimeout(step, 0);
    };
    setTimeout(step, 0);
  }

  /**
   * Stops the running plan (its promise rejects with {cancelled, done}); the workers
   * running items are replaced, the fold keeps what came in.
   */
  cancel() {
    if (!this.stop) return;
    for (const w of this.workers) w.terminate();
    this.workers = [];
    this.stop();
  }
}
