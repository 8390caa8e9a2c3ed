// Unit tests of the page's runner (www/js/lib/runner.js) in node, without a browser: a
// fake Worker records what the runner posts and answers when the test says so, and the
// clock is node's own (the runner's only timing rules are "a run over 150 ms gives way
// to a newer request at once" and "the busy state shows after 100 ms").

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every fake worker made, in order. */
/** @type {FakeWorker[]} */
let workers = [];

class FakeWorker {
  constructor() {
    /** @type {any[]} */
    this.posted = [];
    this.terminated = false;
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

  terminate() {
    this.terminated = true;
  }

  /**
   * Answers as the real worker does.
   * @param {any} data
   */
  answer(data) {
    this.onmessage?.({ data });
  }
}

/** @type {any} the page's Runner class */
let Runner;
// Imported by a path in a variable: the page's modules are type-checked as page code
// (www/tsconfig.json), not as node code here.
const RUNNER = '../../www/js/lib/runner.js';
/** @type {boolean[]} */
let busy;

beforeEach(async () => {
  workers = [];
  busy = [];
  /** @type {any} */ (globalThis).Worker = FakeWorker;
  ({ Runner } = await import(RUNNER));
});

afterEach(() => {
  delete (/** @type {any} */ (globalThis).Worker);
});

/** A runner whose busy states are recorded in `busy`. */
function runner() {
  return new Runner({}, { onBusy: (/** @type {boolean} */ b) => busy.push(b) });
}

const request = (/** @type {string} */ name) => ({
  model: /** @type {const} */ ('classic'),
  kind: /** @type {const} */ ('run'),
  cfg: { name },
});

/**
 * Settles a promise into {ok, value} or {ok, error} without letting a rejection go unhandled.
 * @param {Promise<any>} p
 * @returns {Promise<any>}
 */
function settle(p) {
  return p.then(
    (value) => ({ ok: true, value }),
    (error) => ({ ok: false, error }),
  );
}

test('a run resolves with the worker answer, and errors come back as real Errors with their field', async () => {
  const r = runner();
  const a = settle(r.run(request('a')));
  const [w] = workers;
  assert.equal(w.posted.length, 1);
  assert.deepEqual(w.posted[0], { id: 1, ...request('a') });
  w.answer({ id: 1, ok: true, text: '{"x":1}', events: 0, ms: 2 });
  assert.deepEqual(await a, { ok: true, value: { text: '{"x":1}', value: undefined, events: 0, ms: 2 } });
  const b = settle(r.run(request('b')));
  w.answer({ id: 2, ok: false, error: { message: 'clients = 0 is out of range', field: 'clients' } });
  const out = await b;
  assert.equal(out.ok, false);
  assert.ok(out.error instanceof Error);
  assert.equal(out.error.message, 'clients = 0 is out of range');
  assert.equal(out.error.field, 'clients');
  assert.equal(workers.length, 1, 'one worker for consecutive runs');
});

test('a request during a young run waits for it; a newer one supersedes the waiting one', async () => {
  const r = runner();
  const a = settle(r.run(request('a')));
  const b = settle(r.run(request('b')));
  const c = settle(r.run(request('c')));
  const [w] = workers;
  assert.equal(w.posted.length, 1, 'b and c wait');
  assert.deepEqual(await b, { ok: false, error: { superseded: true } });
  w.answer({ id: 1, ok: true, text: 'A', events: 0, ms: 1 });
  assert.equal((await a).value.text, 'A');
  assert.deepEqual(w.posted[1].cfg, { name: 'c' }, 'the newest request runs next');
  w.answer({ id: 3, ok: true, text: 'C', events: 0, ms: 1 });
  assert.equal((await c).value.text, 'C');
});

test('a request during a run older than 150 ms restarts the worker with it; the busy state stays up', async () => {
  const r = runner();
  const a = settle(r.run(request('a')));
  await sleep(220);
  assert.deepEqual(busy, [true], 'busy after 100 ms');
  const b = settle(r.run(request('b')));
  assert.deepEqual(await a, { ok: false, error: { superseded: true } });
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 2);
  assert.deepEqual(workers[1].posted[0].cfg, { name: 'b' });
  // A late answer of the terminated worker's run is ignored.
  workers[0].answer({ id: 1, ok: true, text: 'late', events: 0, ms: 1 });
  workers[1].answer({ id: 2, progress: 0.5, events: 10 });
  workers[1].answer({ id: 2, ok: true, text: 'B', events: 20, ms: 1 });
  assert.equal((await b).value.text, 'B');
  assert.deepEqual(busy, [true, false], 'no flicker between the two runs');
});

test('cancel stops the running job and drops the waiting one; the next run gets a fresh worker', async () => {
  const r = runner();
  const a = settle(r.run(request('a')));
  const b = settle(r.run(request('b')));
  r.cancel();
  assert.deepEqual(await a, { ok: false, error: { cancelled: true } });
  assert.deepEqual(await b, { ok: false, error: { cancelled: true } });
  assert.equal(workers[0].terminated, true);
  assert.equal(busy.at(-1) ?? false, false);
  const c = settle(r.run(request('c')));
  assert.equal(workers.length, 2);
  workers[1].answer({ id: 3, ok: true, text: 'C', events: 0, ms: 1 });
  assert.equal((await c).value.text, 'C');
  r.cancel(); // nothing running: nothing happens
  assert.equal(workers[1].terminated, false);
});

test('drop stops the running job and the waiting one as superseded: neither starts later', async () => {
  const r = runner();
  const a = settle(r.run(request('a')));
  const b = settle(r.run(request('b')));
  r.drop();
  assert.deepEqual(await a, { ok: false, error: { superseded: true } });
  assert.deepEqual(await b, { ok: false, error: { superseded: true } });
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 1, 'the waiting job did not start on a fresh worker');
  assert.equal(busy.at(-1) ?? false, false);
  r.drop(); // nothing running: nothing happens
  assert.equal(workers.length, 1);
});

test('progress messages reach onProgress and do not settle the run', async () => {
  /** @type {{progress: number, events: number}[]} */
  const seen = [];
  const r = new Runner({}, { onBusy: () => {}, onProgress: (/** @type {any} */ p) => seen.push(p) });
  const a = settle(r.run({ model: 'cluster', kind: 'run', cfg: {} }));
  workers[0].answer({ id: 1, progress: 0.25, events: 1000 });
  workers[0].answer({ id: 1, progress: 0.75, events: 3000 });
  workers[0].answer({ id: 1, ok: true, text: 'R', events: 4000, ms: 5 });
  assert.deepEqual(seen, [
    { progress: 0.25, events: 1000 },
    { progress: 0.75, events: 3000 },
  ]);
  assert.equal((await a).value.events, 4000);
});
