// The jobs a run request names, shared by the worker (lib/worker.js) and the runner's
// main-thread fallback (lib/runner.js), so both do exactly the same thing.
//
// A run crosses from the worker to the page once, as the JSON text of the CLI's
// `run --json` (`jsonText()`); the page wraps it once (`ClassicRun.fromJSON`,
// `ClusterRun.fromJSON`) and asks that object for tables, exports and charts.

/** @typedef {import('../../retrystorm-web.js')} Wasm */

/**
 * @typedef {object} JobRequest
 * @property {'classic' | 'cluster'} model
 * @property {'run' | 'verdicts' | 'attribution'} kind "verdicts": the classic model's acceptance
 *   checks; "attribution": its figures and checks under every time-attribution convention
 * @property {unknown} cfg the scenario as the page holds it
 * @property {unknown} [seed] a number, a decimal string, or undefined for the scenario's own
 * @property {string} [lang] the page's language (`zh`, `en`), for texts the engine words
 */

/**
 * @typedef {object} JobResult
 * @property {string} [text] a run's JSON text
 * @property {unknown} [value] any other result (the verdicts)
 * @property {number} events events processed (the cluster model), else 0
 */

// Events per slice of a cluster run: a few milliseconds of work, so progress is smooth.
const SLICE = 100_000;
// Progress reports at most this often.
const REPORT_MS = 50;

/**
 * Runs one job with the wasm bindings `wasm`; `onProgress` hears how far a sliced run is.
 * @param {Wasm} wasm
 * @param {JobRequest} request
 * @param {(p: {progress: number, events: number}) => void} onProgress
 * @returns {JobResult}
 */
export function runJob(wasm, { model, kind, cfg, seed, lang }, onProgress) {
  if (model === 'classic' && kind === 'verdicts') {
    return { value: wasm.classicVerdicts(cfg, seed, lang), events: 0 };
  }
  if (model === 'classic' && kind === 'attribution') {
    return { value: wasm.classicAttribution(cfg, seed), events: 0 };
  }
  if (model === 'classic' && kind === 'run') {
    const run = wasm.ClassicRun.run(cfg, seed);
    try {
      return { text: run.jsonText(), events: 0 };
    } finally {
      run.free();
    }
  }
  if (model === 'cluster' && kind === 'run') {
    const sim = new wasm.ClusterSimulation(cfg, seed);
    try {
      let reported = performance.now();
      while (!sim.advance(SLICE)) {
        const now = performance.now();
        if (now - reported >= REPORT_MS) {
          reported = now;
          onProgress({ progress: sim.progress(), events: sim.events() });
        }
      }
      const events = sim.events();
      const run = sim.finish();
      try {
        return { text: run.jsonText(), events };
      } finally {
        run.free();
      }
    } finally {
      sim.free();
    }
  }
  throw new Error(`model ${JSON.stringify(model)} cannot ${kind} in this version`);
}

/**
 * The plain error object a worker posts: the message and the field it names.
 * @param {unknown} e
 * @returns {{message: string, field?: string, value?: string, allowed?: string, plain?: string, kind?: string}}
 */
export function errorMessage(e) {
  const err =
    /** @type {{message?: unknown, field?: unknown, value?: unknown, allowed?: unknown, plain?: unknown, kind?: unknown}} */ (
      e && typeof e === 'object' ? e : {}
    );
  /** @type {{message: string, field?: string, value?: string, allowed?: string, plain?: string, kind?: string}} */
  const out = { message: String(err.message ?? e) };
  if (typeof err.field === 'string') out.field = err.field;
  if (typeof err.value === 'string') out.value = err.value;
  if (typeof err.allowed === 'string') out.allowed = err.allowed;
  if (typeof err.plain === 'string') out.plain = err.plain;
  if (typeof err.kind === 'string') out.kind = err.kind;
  return out;
}
