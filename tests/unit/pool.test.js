// Unit tests of the worker pool (www/js/lib/pool.js) in node, without a browser: fake
// workers record the item ranges the pool hands out and answer when the test says so,
// with the time the worker says its items took. A heavy item (a cluster run of seconds)
// goes alone, so a sweep's point shows as soon as its own seeds are in; light items
// (classic runs of a few milliseconds) go in batches, so messages cost little.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';

/** Every fake worker made, in order. */
/** @type {FakeWorker[]} */
let workers = [];

class FakeWorker {
  constructor() {
    /** @type {{run: number, from: number, to: number}[]} */
    this.posted = [];
    /** @type {((e: {data: any}) => void) | null} */
    this.onmessage = null;
    /** @type {((e: any) => void) | null} */
    this.onerror = null;
    workers.push(this);
  }

  /** @param {any} message */
  postMessage(message) {
    this.posted.push(message);
  }

  terminate() {}

  /**
   * Answers the oldest range not answered yet, as the real worker does, saying its items
   * took `msPerItem` each.
   * @param {number} msPerItem
   */
  answerNext(msPerItem) {
    const m = /** @type {{run: number, from: number, to: number}} */ (this.posted.shift());
    /** @type {[number, string][]} */
    const samples = [];
    for (let i = m.from; i < m.to; i++) samples.push([i, `sample ${i}`]);
    this.onmessage?.({ data: { run: m.run, samples, ms: msPerItem * samples.length } });
    return m.to - m.from;
  }
}

/** A plan of `n` items that keeps the samples it is given, as the engine's Plan does. */
class FakePlan {
  /** @param {number} n */
  constructor(n) {
    this.n = n;
    /** @type {Set<number>} */
    this.got = new Set();
  }
  items() {
    return this.n;
  }
  /** @param {number} i */
  add(i) {
    this.got.add(i);
  }
  done() {
    let k = 0;
    while (this.got.has(k)) k++;
    return k;
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

/**
 * Starts a plan of `n` items on a pool of two workers.
 * @param {number} n
 */
function start(n) {
  const pool = new Pool({}, 2);
  const plan = new FakePlan(n);
  const done = pool.run(plan, 'cluster', {}, {}, () => {});
  return { pool, plan, done };
}

test('heavy items go one per message, so the first point does not wait for a batch', async () => {
  // A cluster sweep: 16 points × 4 seeds, every run taking 1.3 s.
  const { plan, done } = start(64);
  assert.equal(workers.length, 2);
  for (const w of workers) {
    assert.deepEqual(
      w.posted.map((m) => m.to - m.from),
      [1, 1],
      'nothing known of the cost yet: one item each',
    );
  }
  // Every answer says an item took 1.3 s: the next ranges stay one item long.
  for (let k = 0; k < 8; k++) {
    for (const w of workers) assert.equal(w.answerNext(1300), 1);
  }
  assert.equal(plan.done(), 16, 'four points whole after sixteen runs');
  for (const w of workers) assert.ok(w.posted.every((m) => m.to - m.from === 1));
  // The rest, to the end.
  while (workers.some((w) => w.posted.length)) for (const w of workers) if (w.posted.length) w.answerNext(1300);
  await done;
  assert.equal(plan.done(), 64);
});

test('light items go in batches, no larger than 25', async () => {
  // A classic sweep of 4,000 runs of 2 ms each.
  const { plan, done } = start(4000);
  const sizes = [];
  while (workers.some((w) => w.posted.length)) {
    for (const w of workers) if (w.posted.length) sizes.push(w.answerNext(2));
  }
  await done;
  assert.equal(plan.done(), 4000);
  assert.ok(Math.max(...sizes) === 25, `batches of ${Math.max(...sizes)}`);
  assert.ok(sizes.length < 400, `${sizes.length} messages`);
});
