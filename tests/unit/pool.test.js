// Unit tests of the worker pool (www/js/lib/pool.js) in node, without a browser: fake
// workers record what the pool posts. Those running items answer when the test says so,
// with the time the worker says its items took: a heavy item (a cluster run of seconds)
// goes alone, so a sweep's point shows as soon as its own seeds are in; light items
// (classic runs of a few milliseconds) go in batches, so messages cost little. The fold
// (the worker that keeps the samples and summarises them) answers at once, as the real
// one does between its messages: the page's own Plan is never asked to keep a sample or
// to summarise, the newest run wins, and Cancel keeps what the fold has.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every fake worker made, in order. */
/** @type {FakeWorker[]} */
let workers = [];

class FakeWorker {
  constructor() {
    /** @type {any[]} item ranges posted, not answered yet */
    this.posted = [];
    /** @type {any[]} every fold message, in order */
    this.folded = [];
    /** @type {Map<number, Set<number>>} per run, the items the fold was sent */
    this.samples = new Map();
    this.terminated = false;
    /** @type {((e: {data: any}) => void) | null} */
    this.onmessage = null;
    /** @type {((e: any) => void) | null} */
    this.onerror = null;
    workers.push(this);
  }

  /** @param {any} message */
  postMessage(message) {
    if (!message.fold) {
      this.posted.push(message);
      return;
    }
    this.folded.push(message);
    const { fold, ask, run } = message;
    if (fold === 'add') {
      const got = this.samples.get(run) ?? new Set();
      for (const [i] of message.samples) {
        assert.ok(!got.has(i), `item ${i} sent to the fold twice`);
        got.add(i);
      }
      this.samples.set(run, got);
      return;
    }
    /** @type {any} */
    let answer = { ask, run };
    if (fold === 'ensemble' || fold === 'sweep') {
      // The summary of the samples so far: here, how many it was made of.
      answer = { ask, run, flat: new Float64Array([this.samples.get(run)?.size ?? 0]), metric: message.metric };
    } else if (fold === 'csv') {
      answer = { ask, run, blob: new Blob([`${this.samples.get(run)?.size ?? 0} samples`]) };
    } else if (fold === 'estimate') {
      answer = { ask, estimate: { ask: false, seconds: 1, lang: message.lang } };
    }
    setImmediate(() => this.onmessage?.({ data: answer }));
  }

  terminate() {
    this.terminated = true;
  }

  /**
   * Answers the oldest range not answered yet, as the real worker does, saying its items
   * took `msPerItem` each.
   * @param {number} msPerItem
   */
  answerNext(msPerItem) {
    const m = /** @type {{run: number, from: number, to: number}} */ (this.posted.shift());
    /** @type {[number, Float64Array][]} */
    const samples = [];
    for (let i = m.from; i < m.to; i++) samples.push([i, new Float64Array([i])]);
    this.onmessage?.({ data: { run: m.run, samples, ms: msPerItem * samples.length } });
    return m.to - m.from;
  }
}

/**
 * The page's plan: its item count, and the items it runs without workers. It has no
 * `add`, `result` or `sweepFlat`: were the pool to keep or summarise samples on the main
 * thread, the call would throw.
 */
class PagePlan {
  /** @param {number} n */
  constructor(n) {
    this.n = n;
  }
  items() {
    return this.n;
  }
}

/** @type {any} the page's Pool class */
let Pool;
// Imported by a path in a variable: the page's modules are type-checked as page code.
const POOL = '../../www/js/lib/pool.js';

beforeEach(async () => {
  workers = [];
  /** @type {any} */ (globalThis).Worker = FakeWorker;
  ({ Pool } = await import(POOL));
});

afterEach(() => {
  delete (/** @type {any} */ (globalThis).Worker);
});

/** The fold: the worker sent fold messages. */
const theFold = () => {
  const folds = workers.filter((w) => w.folded.length);
  assert.equal(folds.length, 1, 'one fold');
  return folds[0];
};

/** The workers running items. */
const runners = () => workers.filter((w) => !w.folded.length);

/**
 * Starts a plan of `n` items on a pool of two workers, summarised as an ensemble.
 * @param {number} n
 */
function start(n, pool = new Pool({}, 2)) {
  const plan = new PagePlan(n);
  /** @type {number[]} */
  const progress = [];
  /** @type {any[]} */
  const shown = [];
  const done = pool.run(
    plan,
    'cluster',
    {},
    {},
    {
      progress: (/** @type {number} */ d) => progress.push(d),
      want: () => ({ fold: 'ensemble', metric: 'm' }),
      show: (/** @type {any} */ a) => shown.push(a),
    },
  );
  return { pool, plan, done, progress, shown };
}

/** Answers every range in flight, to the end. */
async function answerAll(ms = 2) {
  /** @type {number[]} */
  const sizes = [];
  while (runners().some((w) => w.posted.length)) {
    for (const w of runners()) if (w.posted.length) sizes.push(w.answerNext(ms));
    await sleep(0);
  }
  return sizes;
}

test('heavy items go one per message, so the first point does not wait for a batch', async () => {
  // A cluster sweep: 16 points × 4 seeds, every run taking 1.3 s.
  const { pool, done } = start(64);
  assert.equal(runners().length, 2);
  for (const w of runners()) {
    assert.deepEqual(
      w.posted.map((m) => m.to - m.from),
      [1, 1],
      'nothing known of the cost yet: one item each',
    );
  }
  // Every answer says an item took 1.3 s: the next ranges stay one item long.
  for (let k = 0; k < 8; k++) {
    for (const w of runners()) assert.equal(w.answerNext(1300), 1);
  }
  assert.equal(pool.done, 16, 'four points whole after sixteen runs');
  for (const w of runners()) assert.ok(w.posted.every((m) => m.to - m.from === 1));
  await answerAll(1300);
  await done;
  assert.equal(pool.done, 64);
});

test('light items go in batches, no larger than 25', async () => {
  // A classic sweep of 4,000 runs of 2 ms each.
  const { pool, done } = start(4000);
  const sizes = await answerAll(2);
  await done;
  assert.equal(pool.done, 4000);
  assert.ok(Math.max(...sizes) === 25, `batches of ${Math.max(...sizes)}`);
  assert.ok(sizes.length < 400, `${sizes.length} messages`);
});

test('the page never keeps nor summarises a sample: the fold does, and its last summary shows every item', async () => {
  const { done, shown, progress } = start(300);
  await answerAll(2);
  await done;
  const fold = theFold();
  const run = fold.folded[0].run;
  assert.equal(fold.folded[0].fold, 'start', 'the fold learns the run first');
  assert.equal(fold.samples.get(run)?.size, 300, 'every sample went to the fold, once');
  // The summaries were asked of the fold, after the samples they cover; the last of all.
  const asks = fold.folded.filter((m) => m.fold === 'ensemble');
  assert.ok(asks.length >= 1);
  assert.equal(fold.folded.at(-1).fold, 'ensemble', 'the last message asks the final summary');
  assert.equal(shown.at(-1).flat[0], 300, 'the last summary shown is of all 300 items');
  assert.equal(shown.at(-1).metric, 'm');
  assert.equal(progress.at(-1), 300);
  // The runners are not the fold, and are kept for the next run.
  assert.ok(runners().every((w) => !w.terminated));
});

test('a newer run wins: the older one is cancelled, its late answers never show', async () => {
  const pool = new Pool({}, 2);
  const first = start(50, pool);
  const old = runners();
  // Some items in, then the reader asks for something else.
  old[0].answerNext(2);
  const second = start(20, pool);
  await assert.rejects(first.done, (/** @type {any} */ e) => e.cancelled === true && e.done === 1);
  assert.ok(
    old.every((w) => w.terminated),
    'the workers running the old items stop',
  );
  // A late answer of an old worker is ignored.
  old[1].answerNext(2);
  await answerAll(2);
  await second.done;
  const fold = theFold();
  const [a, b] = fold.folded.filter((m) => m.fold === 'start').map((m) => m.run);
  assert.ok(b > a, 'the same fold starts the newer run');
  assert.ok(!fold.terminated);
  assert.equal(fold.samples.get(b)?.size, 20);
  assert.ok(
    second.shown.every((s) => s.run === b),
    'only the newer run is shown',
  );
  assert.equal(first.shown.length, 0);
});

test('Cancel stops the runners but keeps the fold, which still answers for what came in', async () => {
  const { pool, done } = start(100);
  // The first worker's two ranges: items 0 and 1.
  const [w] = runners();
  w.answerNext(2);
  w.answerNext(2);
  pool.cancel();
  await assert.rejects(done, (/** @type {any} */ e) => e.cancelled && e.done === 2);
  const fold = theFold();
  assert.ok(!fold.terminated);
  const run = pool.runId;
  const csv = await pool.ask({ fold: 'csv', run });
  assert.equal(await csv.blob?.text(), '2 samples');
});

test('the estimate is the fold’s, in the language asked', async () => {
  const pool = new Pool({}, 2);
  const e = await pool.estimate('classic', {}, { seeds: 10 }, 'zh');
  assert.equal(e.lang, 'zh');
  assert.equal(theFold().folded[0].fold, 'estimate');
  assert.equal(runners().length, 0, 'no runner starts for an estimate');
});

test('a fold answering an error rejects the run with the engine’s Error', async () => {
  const pool = new Pool({}, 2);
  const { done } = start(10, pool);
  const fold = theFold();
  fold.onmessage?.({ data: { ask: 1, error: { message: 'seeds = 0 is out of range', field: 'seeds' } } });
  await assert.rejects(done, (/** @type {any} */ e) => e instanceof Error && /** @type {any} */ (e).field === 'seeds');
});

test('the fold keeps one run’s samples, answers for that run only, and picks the distribution’s metric', async () => {
  const { Fold } = await import(POOL);
  /** @type {string[]} */
  const calls = [];
  class Plan {
    /** @param {string} model */
    constructor(model) {
      if (model === 'bad') throw Object.assign(new Error('model = "bad"'), { field: 'model' });
      /** @type {number[]} */
      this.got = [];
    }
    /** @param {number} i */
    add(i) {
      this.got.push(i);
    }
    result() {
      const n = this.got.length;
      return {
        metrics: () => ['amplification', 'delivery_pct'],
        shownFlat: (/** @type {string} */ m) => {
          calls.push(`shown ${m} of ${n}`);
          return new Float64Array([n]);
        },
        complete: () => false,
        csv: () => `seed,group,metric,value\n${n} rows\n`,
        free: () => calls.push('free'),
      };
    }
    free() {}
  }
  const fold = new Fold({ Plan });
  assert.deepEqual(fold.handle({ fold: 'start', ask: 1, run: 7, model: 'classic' }), { ask: 1, run: 7 });
  const sample = new Float64Array([0]);
  const samples = [
    [1, sample],
    [0, sample],
  ];
  assert.equal(fold.handle({ fold: 'add', run: 7, samples }), undefined);
  // An older run's samples and questions: nothing kept, nothing summarised.
  fold.handle({ fold: 'add', run: 6, samples: [[2, sample]] });
  assert.deepEqual(fold.handle({ fold: 'ensemble', ask: 2, run: 6, metric: '' }), { ask: 2, run: 7 });
  // No metric chosen yet: the delivery share first; a chosen one is kept.
  const a = /** @type {any} */ (fold.handle({ fold: 'ensemble', ask: 3, run: 7, metric: '' }));
  assert.equal(a.metric, 'delivery_pct');
  assert.deepEqual([...a.flat], [2]);
  const b = /** @type {any} */ (fold.handle({ fold: 'ensemble', ask: 4, run: 7, metric: 'amplification' }));
  assert.equal(b.metric, 'amplification');
  assert.deepEqual(calls, ['shown delivery_pct of 2', 'free', 'shown amplification of 2', 'free']);
  // The per-seed CSV as a text/csv blob, so the page never holds it as a string.
  const csv = /** @type {any} */ (fold.handle({ fold: 'csv', ask: 5, run: 7 }));
  assert.ok(csv.blob instanceof Blob);
  assert.equal(csv.blob.type, 'text/csv');
  assert.equal(await csv.blob.text(), 'seed,group,metric,value\n2 rows\n');
  // The engine's error, named at its field.
  const e = /** @type {any} */ (fold.handle({ fold: 'start', ask: 6, run: 8, model: 'bad' }));
  assert.equal(e.error.field, 'model');
});

test('without workers the items and the fold run on the page, a slice per task', async () => {
  delete (/** @type {any} */ (globalThis).Worker);
  /** @type {number[]} */
  const kept = [];
  class Plan {
    /** @param {number} i */
    add(i) {
      kept.push(i);
    }
    result() {
      const n = kept.length;
      return {
        metrics: () => ['delivery_pct'],
        shownFlat: () => new Float64Array([n]),
        complete: () => n === 30,
        free: () => {},
      };
    }
    free() {}
  }
  const pool = new Pool({ Plan }, 2);
  /** @type {number[]} */
  const ran = [];
  const plan = {
    items: () => 30,
    /** @param {number} i */
    runItem: (i) => {
      ran.push(i);
      return new Float64Array([i]);
    },
  };
  /** @type {any[]} */
  const shown = [];
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  await pool.run(
    plan,
    'classic',
    {},
    { seeds: 30 },
    {
      progress: () => {},
      want: () => ({ fold: 'ensemble', metric: '' }),
      show: (/** @type {any} */ a) => shown.push(a),
    },
  );
  clearInterval(timer);
  assert.equal(workers.length, 0);
  assert.deepEqual(ran, [...Array(30).keys()]);
  assert.deepEqual(kept, ran, 'the fold on the page kept every sample, in order');
  assert.equal(shown.at(-1).flat[0], 30);
  assert.ok(shown.at(-1).complete);
  assert.ok(ticks > 1, 'the page got the main thread back between slices');
});
