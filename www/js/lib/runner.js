// Runs jobs (lib/jobs.js) in a module Web Worker (./worker.js), one runner per model,
// newest request wins:
// - a request arriving while a run is going waits for it, unless that run has been
//   going for RESTART_AFTER_MS: then its worker is terminated (the only way to stop
//   wasm mid-run) and a fresh one starts the new request, so typing into a large
//   scenario stays responsive;
// - a run longer than SPINNER_MS shows the busy state (a spinner, progress and Cancel);
//   it stays up across a restart, so the Cancel button does not move under the pointer;
// - `cancel()` stops the running job.
// If a worker cannot be started (an old browser, a file:// page), jobs run on the main
// thread in one piece.

import { errorMessage, runJob } from './jobs.js';

/** @typedef {import('./jobs.js').JobRequest} JobRequest */
/** @typedef {import('./jobs.js').Wasm} Wasm */
/** @typedef {{text?: string, value?: unknown, events: number, ms: number}} RunOutcome */
/** @typedef {{cancelled?: boolean, superseded?: boolean}} StopReason */

/**
 * @typedef {object} Job
 * @property {number} id
 * @property {JobRequest} request
 * @property {(r: RunOutcome) => void} resolve
 * @property {(e: unknown) => void} reject
 * @property {number} started
 */

const SPINNER_MS = 100;
const RESTART_AFTER_MS = 150;

export class Runner {
  /**
   * @param {Wasm} wasm the page's bindings, for the main-thread fallback
   * @param {{onBusy: (busy: boolean) => void, onProgress?: (p: {progress: number, events: number}) => void}} hooks
   */
  constructor(wasm, { onBusy, onProgress = () => {} }) {
    this.wasm = wasm;
    this.onBusy = onBusy;
    this.onProgress = onProgress;
    this.nextId = 1;
    /** @type {Job | null} */
    this.current = null;
    /** @type {Job | null} */
    this.pending = null;
    this.spinnerTimer = 0;
    this.busy = false;
    // Spawned on the first run, so a model never shown never loads one.
    /** @type {Worker | null | undefined} */
    this.worker = undefined;
  }

  /** @returns {Worker | null} */
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
        if (this.current) this.runInline(this.current);
      };
      return worker;
    } catch (e) {
      console.warn('no worker, running on the main thread:', e);
      return null;
    }
  }

  /**
   * Runs a job; resolves to its outcome, rejects with the engine's Error (with
   * field/value/allowed) or with {cancelled} / {superseded}.
   * @param {JobRequest} request
   * @returns {Promise<RunOutcome>}
   */
  run(request) {
    return new Promise((resolve, reject) => {
      /** @type {Job} */
      const job = { id: this.nextId++, request, resolve, reject, started: 0 };
      if (!this.current) {
        this.start(job);
        return;
      }
      this.pending?.reject({ superseded: true });
      this.pending = job;
      if (performance.now() - this.current.started > RESTART_AFTER_MS) this.cancel({ superseded: true });
    });
  }

  /** @param {Job} job */
  start(job) {
    this.current = job;
    job.started = performance.now();
    if (!this.busy) {
      clearTimeout(this.spinnerTimer);
      this.spinnerTimer = setTimeout(() => this.setBusy(true), SPINNER_MS);
    }
    if (this.worker === undefined) this.worker = this.spawn();
    if (this.worker) this.worker.postMessage({ id: job.id, ...job.request });
    else this.runInline(job);
  }

  /** @param {Job} job */
  runInline(job) {
    // Yield once so the busy state and the edit paint before a long synchronous run.
    setTimeout(() => {
      if (this.current !== job) return;
      try {
        const t0 = performance.now();
        const out = runJob(this.wasm, job.request, () => {});
        this.receive({ id: job.id, ok: true, ...out, ms: performance.now() - t0 });
      } catch (e) {
        this.receive({ id: job.id, ok: false, error: errorMessage(e) });
      }
    }, 0);
  }

  /** @param {any} message a worker's message (see ./worker.js) */
  receive(message) {
    const job = this.current;
    if (!job || message.id !== job.id) return;
    if (message.ok === undefined) {
      this.onProgress({ progress: message.progress, events: message.events });
      return;
    }
    this.current = null;
    if (message.ok) job.resolve({ text: message.text, value: message.value, events: message.events, ms: message.ms });
    else job.reject(toError(message.error));
    this.next();
  }

  /** Starts the pending job, or ends the busy state. */
  next() {
    const job = this.pending;
    this.pending = null;
    if (job) {
      this.start(job);
      return;
    }
    clearTimeout(this.spinnerTimer);
    this.setBusy(false);
  }

  /** @param {boolean} busy */
  setBusy(busy) {
    this.busy = busy;
    this.onBusy(busy);
  }

  /**
   * Stops the running job and drops the pending one, both rejecting as superseded:
   * newer work replaced them without starting yet (long work waiting for "Run anyway",
   * lib/longwork.js), so neither may start or show.
   */
  drop() {
    this.pending?.reject({ superseded: true });
    this.pending = null;
    this.cancel({ superseded: true });
  }

  /**
   * Stops the running job, which rejects with `reason`. A cancel also drops the pending
   * job; a superseded run gives way to it.
   * @param {StopReason} [reason]
   */
  cancel(reason = { cancelled: true }) {
    const job = this.current;
    if (!reason.superseded) {
      this.pending?.reject(reason);
      this.pending = null;
    }
    if (!job) return;
    this.worker?.terminate();
    this.worker = undefined;
    this.current = null;
    job.reject(reason);
    this.next();
  }
}

/**
 * A real Error (with field/value/allowed/plain/kind) from a worker's plain error object.
 * @param {{message: string, field?: string, value?: string, allowed?: string, plain?: string, kind?: string}} e
 */
function toError(e) {
  const { field, value, allowed, plain, kind } = e;
  return Object.assign(new Error(e.message), { field, value, allowed, plain, kind });
}
