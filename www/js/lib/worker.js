// Runs the engines off the main thread, so a large scenario never freezes the page. It
// loads the same wasm-bindgen module as the page (Trunk builds with filehash = false, so
// the paths are stable, relative to this file and therefore to any sub-path). Cancelling
// terminates this worker (the page starts a fresh one): the only way to stop wasm mid-run.
//
// Protocol: the page posts {id, model, kind, cfg, seed} (a JobRequest, lib/jobs.js);
// the worker answers any number of {id, progress, events}, then
// {id, ok: true, text | value, events, ms} or {id, ok: false, error: {message, field, value, allowed}}.

import init, * as wasm from '../../retrystorm-web.js';
import { errorMessage, runJob } from './jobs.js';

const ready = init({ module_or_path: new URL('../../retrystorm-web_bg.wasm', import.meta.url) });

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const { id, ...request } = event.data;
  try {
    await ready;
    const t0 = performance.now();
    const out = runJob(wasm, request, (p) => self.postMessage({ id, ...p }));
    self.postMessage({ id, ok: true, ...out, ms: performance.now() - t0 });
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorMessage(e) });
  }
};
