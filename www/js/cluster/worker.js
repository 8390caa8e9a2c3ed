// Runs the cluster engine off the main thread, in slices: between slices it reports
// progress, so the page can show how far a long run is. Cancelling terminates this
// worker (the page starts a fresh one), which is the only way to stop wasm mid-slice.
// It loads the same wasm-bindgen module as the page (stable names: Trunk's filehash = false).
//
// Protocol: the page posts {id, cfg, seed}; the worker answers any number of
// {id, progress, events}, then {id, ok: true, result, ms, events} or
// {id, ok: false, error: {message, field, value, allowed}}.

import init, * as wasm from '../../retrystorm-web.js';

const ready = init({ module_or_path: new URL('../../retrystorm-web_bg.wasm', import.meta.url) });

// Events per slice: a few milliseconds of work, so progress is smooth.
const SLICE = 100_000;
// Progress messages at most this often.
const REPORT_MS = 50;

self.onmessage = async (event) => {
  const { id, cfg, seed } = event.data;
  let run = null;
  try {
    await ready;
    const t0 = performance.now();
    run = new wasm.ClusterRun(cfg, seed);
    let reported = t0;
    while (!run.advance(SLICE)) {
      const now = performance.now();
      if (now - reported >= REPORT_MS) {
        reported = now;
        self.postMessage({ id, progress: run.progress(), events: run.events() });
      }
    }
    const events = run.events();
    const result = run.finish();
    self.postMessage({ id, ok: true, result, events, ms: performance.now() - t0 });
  } catch (e) {
    const error = { message: String(e && e.message ? e.message : e) };
    for (const key of ['field', 'value', 'allowed']) if (e && typeof e[key] === 'string') error[key] = e[key];
    self.postMessage({ id, ok: false, error });
  } finally {
    if (run) run.free();
  }
};
