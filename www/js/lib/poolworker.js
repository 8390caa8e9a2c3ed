// One worker of the pool (./pool.js): it builds the engine's Plan from the (scenario,
// sweep) it is sent, once per run, and runs the items it is handed; or, as the pool's
// fold, it keeps a run's samples and summarises them (`Fold`, in ./pool.js).
//
// Protocol: the page posts {run, model, scenario, sweep, from, to}; the worker answers
// {run, samples: [[item, sample], …], ms} for the items from..to (a sample is the
// engine's flat list, a Float64Array moved with the message; ms: the time they took,
// which sizes the next ranges), or {run, error: {message, field, value, allowed}}.
// A message with `fold` is the fold's (see `Fold`).

import init, * as wasm from '../../retrystorm-web.js';
import { errorMessage } from './jobs.js';
import { buffers, Fold } from './pool.js';

const ready = init({ module_or_path: new URL('../../retrystorm-web_bg.wasm', import.meta.url) });
const fold = new Fold(wasm);

/** @type {{run: number, plan: import('../../retrystorm-web.js').Plan} | null} */
let held = null;

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const { run, model, scenario, sweep, from, to } = event.data;
  try {
    await ready;
    if (event.data.fold) {
      const answer = fold.handle(event.data);
      if (answer) self.postMessage(answer);
      return;
    }
    const last = held;
    let plan = last && last.run === run ? last.plan : null;
    if (!plan) {
      last?.plan.free();
      plan = new wasm.Plan(model, scenario, sweep);
      held = { run, plan };
    }
    /** @type {[number, Float64Array][]} */
    const samples = [];
    const t0 = performance.now();
    for (let i = from; i < to; i++) samples.push([i, plan.runItem(i)]);
    self.postMessage({ run, samples, ms: performance.now() - t0 }, { transfer: buffers(samples) });
  } catch (e) {
    self.postMessage({ run, ask: event.data.ask, error: errorMessage(e) });
  }
};
