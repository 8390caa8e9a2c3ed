// Circuit-breaker transitions from npm's cockatiel, for the engine's conformance test of
// its consecutive-failures breaker (crate/src/cluster/policy_conformance.rs).
//
// Drives the library's own `circuitBreaker(handleAll, { halfOpenAfter, breaker: new
// ConsecutiveBreaker(threshold) })` with calls made one after another, each at a given
// time (Date.now stubbed: cockatiel reads no other clock), each succeeding or failing, and
// prints one line per case:
//
//     cockatiel_<breaker> <settings as JSON> | <calls: ms since start and S or F> | <answers>
//
// An answer per call: the circuit's state after it, `C` closed or `O` open, lowercase `o`
// when the call was refused (BrokenCircuitError) without running.
//
// What the library does (dist/breaker/ConsecutiveBreaker.js, dist/CircuitBreakerPolicy.js):
// a closed circuit counts failures since the last success and opens when the count reaches
// `threshold`; an open one refuses every call until `Date.now() - openedAt >=
// halfOpenAfter`, then the next call runs as the single half-open probe: a success closes
// the circuit (the count back to 0), a failure reopens it from that moment. Calls arriving
// while the probe runs wait for it instead of being refused; calls here never overlap, so
// that case does not arise.
//
// Output: crate/tests/data/policy_vectors_node_cockatiel.txt. Regenerate with
// `npm install --prefix DIR cockatiel@3.2.1 && (cd DIR && node
// /path/to/tests/libraries/gen_node_cockatiel_policies.mjs)`.
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/`);
const { circuitBreaker, handleAll, ConsecutiveBreaker, SamplingBreaker, CircuitState, BrokenCircuitError } =
  require("cockatiel");
const version = require("cockatiel/package.json").version;

// A small deterministic stream (xorshift64*), so every case is reproducible.
let state = 0x2026_1204n;
function nextUnit() {
  state ^= state >> 12n;
  state ^= (state << 25n) & 0xffff_ffff_ffff_ffffn;
  state ^= state >> 27n;
  const x = (state * 0x2545_f491_4f6c_dd1dn) & 0xffff_ffff_ffff_ffffn;
  return Number(x >> 11n) / 2 ** 53;
}
const pick = (xs) => xs[Math.floor(nextUnit() * xs.length)];

let clock = 0;
const realNow = Date.now;
Date.now = () => clock;

console.log(`# cockatiel ${version}`);

/** Runs `calls` ([ms since start, "S" or "F"]) through `policy`: the calls and answers fields. */
async function drive(policy, calls) {
  const start = 1_000_000;
  const answers = [];
  for (const [ms, outcome] of calls) {
    clock = start + ms;
    let refused = false;
    try {
      await policy.execute(() => (outcome === "F" ? Promise.reject(new Error("down")) : Promise.resolve("ok")));
    } catch (e) {
      refused = e instanceof BrokenCircuitError;
    }
    const s = policy.state;
    if (s !== CircuitState.Closed && s !== CircuitState.Open) throw new Error(`state ${s}`);
    const letter = s === CircuitState.Closed ? "C" : "O";
    answers.push(refused ? letter.toLowerCase() : letter);
  }
  return `${calls.map(([ms, o]) => `${ms}${o}`).join(" ")} | ${answers.join("")}`;
}

// SamplingBreaker (dist/breaker/SamplingBreaker.js), the design of Polly's advanced breaker,
// in three hand-made cases that each show one way it parts from Polly v8 (the engine's
// `polly` breaker): it opens only when failures > threshold × calls (Polly: rate ≥ ratio);
// its max(5, ⌈duration / 1 s⌉) windows are a ring that moves one window per call, so
// calls older than the duration still count after a pause (Polly drops them); and a
// half-open probe's success clears the windows and then counts itself (Polly forgets it).
// Duration 10 s gives 10 windows of 1 s, Polly's sub-windows; minimumRps 1 over 10 s asks
// for 10 calls, Polly's minimum_throughput 10.
const sampling = { threshold: 0.5, duration_ms: 10_000, minimum_rps: 1, half_open_after_ms: 1000 };
const every10 = (from, n, outcome) => Array.from({ length: n }, (_, k) => [from + 10 * k, outcome]);
const samplingCases = {
  rate_equal_to_threshold: [...every10(0, 5, "S"), ...every10(50, 5, "F")],
  calls_older_than_the_duration: [...every10(0, 9, "F"), [60_000, "F"]],
  probe_success_counted: [...every10(0, 10, "F"), [1090, "S"], ...every10(1100, 9, "F")],
};
for (const [name, calls] of Object.entries(samplingCases)) {
  const breaker = new SamplingBreaker({
    threshold: sampling.threshold,
    duration: sampling.duration_ms,
    minimumRps: sampling.minimum_rps,
  });
  const policy = circuitBreaker(handleAll, { halfOpenAfter: sampling.half_open_after_ms, breaker });
  console.log(`cockatiel_sampling ${JSON.stringify({ case: name, ...sampling })} | ${await drive(policy, calls)}`);
}
for (let i = 0; i < 120; i++) {
  const threshold = pick([1, 2, 3, 5]);
  const halfOpenAfter = pick([250, 500, 1000]);
  const failP = pick([0.3, 0.6, 0.9]);
  const policy = circuitBreaker(handleAll, { halfOpenAfter, breaker: new ConsecutiveBreaker(threshold) });
  clock = 1_000_000;
  const start = clock;
  const calls = [];
  const answers = [];
  for (let n = 0; n < 80; n++) {
    // Steps that often land exactly on, or one ms either side of, the end of the open time.
    clock += pick([0, 1, 10, halfOpenAfter - 1, halfOpenAfter, halfOpenAfter + 1, Math.floor(halfOpenAfter / 3)]);
    const fail = nextUnit() < failP;
    let refused = false;
    try {
      await policy.execute(() => (fail ? Promise.reject(new Error("down")) : Promise.resolve("ok")));
    } catch (e) {
      refused = e instanceof BrokenCircuitError;
    }
    const s = policy.state;
    if (s !== CircuitState.Closed && s !== CircuitState.Open) throw new Error(`case ${i}: state ${s}`);
    const letter = s === CircuitState.Closed ? "C" : "O";
    calls.push(`${clock - start}${fail ? "F" : "S"}`);
    answers.push(refused ? letter.toLowerCase() : letter);
  }
  const settings = { threshold, half_open_after_ms: halfOpenAfter };
  console.log(`cockatiel_consecutive ${JSON.stringify(settings)} | ${calls.join(" ")} | ${answers.join("")}`);
}
Date.now = realNow;
