// Runs cluster scenarios in their own module Web Worker (./worker.js), newest request
// wins: a request arriving while a run is going terminates that run's worker and starts
// a fresh one. Runs over SPINNER_MS show progress and a Cancel button (onBusy). Without
// worker support, runs fall back to the main thread in one piece.

const SPINNER_MS = 100;

export class ClusterRunner {
  /**
   * @param {object} wasm the page's bindings (main-thread fallback)
   * @param {{onBusy: (busy: boolean) => void, onProgress: (p: {progress: number, events: number}) => void}} hooks
   */
  constructor(wasm, { onBusy, onProgress }) {
    this.wasm = wasm;
    this.onBusy = onBusy;
    this.onProgress = onProgress;
    this.nextId = 1;
    this.current = null;
    this.timer = 0;
    // Spawned on the first run, so a page that never shows this model never loads it.
    this.worker = undefined;
  }

  spawn() {
    try {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = (event) => this.receive(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        console.warn('cluster worker failed, running on the main thread:', event.message);
        worker.terminate();
        this.worker = null;
        if (this.current) this.runInline(this.current);
      };
      return worker;
    } catch (e) {
      console.warn('no worker, running on the main thread:', e);
      return null;
    }
  }

  get busy() { return this.current !== null; }

  /** Runs {cfg, seed}; resolves to {result, ms, events}, rejects with the engine's Error or {cancelled|superseded}. */
  run(request) {
    // A superseded run's spinner stays up (no flicker, and its Cancel button stays
    // where the pointer is); a fresh run shows it after SPINNER_MS.
    const wasBusy = this.current !== null;
    if (wasBusy) this.stop({ superseded: true }, { keepBusy: true });
    return new Promise((resolve, reject) => {
      const job = { id: this.nextId++, request, resolve, reject };
      this.current = job;
      clearTimeout(this.timer);
      if (!wasBusy) this.timer = setTimeout(() => this.onBusy(true), SPINNER_MS);
      if (this.worker === undefined) this.worker = this.spawn();
      if (this.worker) this.worker.postMessage({ id: job.id, ...request });
      else this.runInline(job);
    });
  }

  runInline(job) {
    setTimeout(() => {
      if (this.current !== job) return;
      try {
        const t0 = performance.now();
        const result = this.wasm.clusterRun(job.request.cfg, job.request.seed);
        this.receive({ id: job.id, ok: true, result, events: result.events, ms: performance.now() - t0 });
      } catch (e) {
        this.receive({ id: job.id, ok: false, error: e });
      }
    }, 0);
  }

  receive(message) {
    const job = this.current;
    if (!job || message.id !== job.id) return;
    if (message.progress !== undefined && message.ok === undefined) {
      this.onProgress({ progress: message.progress, events: message.events });
      return;
    }
    this.done();
    if (message.ok) job.resolve(message);
    else job.reject(toError(message.error));
  }

  done({ keepBusy = false } = {}) {
    this.current = null;
    clearTimeout(this.timer);
    if (!keepBusy) this.onBusy(false);
  }

  /** Stops the running job; its promise rejects with `reason`. */
  stop(reason = { cancelled: true }, { keepBusy = false } = {}) {
    const job = this.current;
    if (!job) return;
    if (this.worker) {
      this.worker.terminate();
      this.worker = undefined;
    }
    this.done({ keepBusy });
    job.reject(reason);
  }
}

/** A real Error (with field/value/allowed) from a worker's plain error object. */
function toError(e) {
  if (e instanceof Error) return e;
  const err = new Error(e && e.message ? e.message : String(e));
  for (const key of ['field', 'value', 'allowed']) if (e && e[key] !== undefined) err[key] = e[key];
  return err;
}
