// Runs scenarios in a Web Worker, newest request wins. A run that takes longer than
// SPINNER_MS shows a spinner with a Cancel button; cancelling terminates the worker (the
// only way to stop wasm mid-run) and starts a fresh one. If a worker cannot be started
// (an old browser, a file:// page), runs fall back to the main thread.

const SPINNER_MS = 100;
// A request arriving while a run has been going this long restarts the worker instead
// of queueing behind it, so typing into a large scenario stays responsive.
const RESTART_AFTER_MS = 150;

export class Runner {
  /**
   * @param {object} wasm the page's wasm bindings, for the main-thread fallback
   * @param {(busy: boolean) => void} onBusy shows/hides the spinner
   */
  constructor(wasm, onBusy) {
    this.wasm = wasm;
    this.onBusy = onBusy;
    this.nextId = 1;
    this.current = null; // {id, started, resolve, reject, request}
    this.pending = null;
    this.spinnerTimer = null;
    this.worker = this.spawn();
  }

  spawn() {
    try {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = (event) => this.receive(event.data);
      worker.onerror = (event) => {
        // A worker that cannot load (e.g. module workers unsupported) degrades to the main thread.
        event.preventDefault();
        console.warn('worker failed, running on the main thread:', event.message);
        worker.terminate();
        this.worker = null;
        if (this.current) {
          const job = this.current;
          this.current = null;
          this.runInline(job);
        }
      };
      return worker;
    } catch (e) {
      console.warn('no worker, running on the main thread:', e);
      return null;
    }
  }

  /** Runs {model, kind, cfg, seed}; resolves to {result, ms} or rejects with the engine's error. */
  run(request) {
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, request, resolve, reject, started: 0 };
      if (this.current) {
        if (this.pending) this.pending.reject({ superseded: true });
        this.pending = job;
        if (performance.now() - this.current.started > RESTART_AFTER_MS) this.cancel({ superseded: true });
        return;
      }
      this.start(job);
    });
  }

  start(job) {
    this.current = job;
    job.started = performance.now();
    clearTimeout(this.spinnerTimer);
    this.spinnerTimer = setTimeout(() => this.onBusy(true), SPINNER_MS);
    if (this.worker) this.worker.postMessage({ id: job.id, ...job.request });
    else this.runInline(job);
  }

  runInline(job) {
    this.current = job;
    // Yield once so the spinner and the edit paint before a long synchronous run.
    setTimeout(() => {
      try {
        const t0 = performance.now();
        const { kind, cfg, seed } = job.request;
        const result = kind === 'verdicts' ? this.wasm.verdicts(cfg, seed) : this.wasm.run(cfg, seed);
        this.receive({ id: job.id, ok: true, result, ms: performance.now() - t0 });
      } catch (e) {
        this.receive({ id: job.id, ok: false, error: e });
      }
    }, 0);
  }

  receive(message) {
    const job = this.current;
    if (!job || message.id !== job.id) return;
    this.finish();
    if (message.ok) job.resolve(message);
    else job.reject(toError(message.error));
    this.startPending();
  }

  finish() {
    this.current = null;
    clearTimeout(this.spinnerTimer);
    this.onBusy(false);
  }

  startPending() {
    const next = this.pending;
    this.pending = null;
    if (next) this.start(next);
  }

  /** Stops the running job (its promise rejects with {cancelled: true}). */
  cancel(reason = { cancelled: true }) {
    const job = this.current;
    if (!job) return;
    if (this.worker) {
      this.worker.terminate();
      this.worker = this.spawn();
    }
    this.finish();
    job.reject(reason);
    if (reason.superseded) this.startPending();
    else if (this.pending) {
      this.pending.reject({ cancelled: true });
      this.pending = null;
    }
  }
}

/** Rebuilds a real Error (with field/value/allowed) from a worker's plain error object. */
function toError(e) {
  if (e instanceof Error) return e;
  const err = new Error(e && e.message ? e.message : String(e));
  for (const key of ['field', 'value', 'allowed']) if (e && e[key] !== undefined) err[key] = e[key];
  return err;
}
