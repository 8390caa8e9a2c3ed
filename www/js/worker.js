// Runs the engine off the main thread, so a large scenario never freezes the page.
// It loads the same wasm-bindgen module as the page (Trunk builds with filehash = false,
// so the paths are stable, relative to this file and therefore to any sub-path).
//
// Protocol: the page posts {id, model, kind, cfg, seed}; the worker answers
// {id, ok: true, result, ms} or {id, ok: false, error: {message, field, value, allowed}}.
// `model` selects the engine (the cluster model runs in js/cluster/worker.js instead,
// in slices with progress messages) and `kind` the job: "run" (the output) or "verdicts" (the article's checks, which
// cost two more runs, so the page asks for them after the output is on screen).

import init, * as wasm from '../retrystorm-web.js';

const ready = init({ module_or_path: new URL('../retrystorm-web_bg.wasm', import.meta.url) });

const engines = {
  classic: {
    run: (cfg, seed) => wasm.run(cfg, seed),
    verdicts: (cfg, seed) => wasm.verdicts(cfg, seed),
  },
};

self.onmessage = async (event) => {
  const { id, model, kind, cfg, seed } = event.data;
  try {
    await ready;
    const job = engines[model] && engines[model][kind];
    if (!job) throw new Error(`model ${JSON.stringify(model)} cannot ${kind} in this version`);
    const t0 = performance.now();
    const result = job(cfg, seed);
    self.postMessage({ id, ok: true, result, ms: performance.now() - t0 });
  } catch (e) {
    const error = { message: String(e && e.message ? e.message : e) };
    for (const key of ['field', 'value', 'allowed']) if (e && typeof e[key] === 'string') error[key] = e[key];
    self.postMessage({ id, ok: false, error });
  }
};
