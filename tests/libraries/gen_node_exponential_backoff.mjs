// Delay sequences from npm's exponential-backoff, for the engine's conformance test.
//
// Drives the library's own `backOff` with a request that always fails, `delayFirstAttempt`
// false (its default), Math.random replaced by a recorded stream and setTimeout replaced by
// one that records the wait it is given and fires at once. One line per case:
//
//     exponential-backoff <settings as JSON> | <draws> | <waits in ms, as passed to setTimeout>
//
// What the library computes (dist/delay/delay.base.js, skip-first.delay.js, jitter/*.js):
// the first attempt runs undelayed; before retry n (1 = first retry) the delay is
// `min(startingDelay * Math.pow(timeMultiple, n - 1), maxDelay)` ms, the cap applied before
// the jitter; `jitter: 'none'` waits that float as is, `jitter: 'full'` waits
// `Math.round(Math.random() * delay)` ms (whole ms, round half up, one draw per retry).
// maxDelay null in the JSON means its default, Infinity.
//
// Output: crate/tests/data/library_vectors_node_exponential_backoff.txt. Regenerate with
// `npm install --prefix DIR exponential-backoff@3.1.3 && (cd DIR && node
// /path/to/tests/libraries/gen_node_exponential_backoff.mjs)`.
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/`);
const { backOff } = require("exponential-backoff");
const version = require("exponential-backoff/package.json").version;

const RETRIES = 8;
// A small deterministic stream (xorshift64*), so the draws are reproducible.
let state = 0x2026_1203n;
function nextUnit() {
  state ^= state >> 12n;
  state ^= (state << 25n) & 0xffff_ffff_ffff_ffffn;
  state ^= state >> 27n;
  const x = (state * 0x2545_f491_4f6c_dd1dn) & 0xffff_ffff_ffff_ffffn;
  return Number(x >> 11n) / 2 ** 53;
}
const pick = (xs) => xs[Math.floor(nextUnit() * xs.length)];

console.log(`# exponential-backoff ${version}`);
for (let i = 0; i < 160; i++) {
  const startingDelay = pick([1, 7, 50, 100, 250, 1000]);
  const timeMultiple = pick([1, 1.5, 2, 3, 10]);
  const maxDelay = pick([5, 333, 1000, 30_000, Infinity]);
  const jitter = pick(["none", "full"]);
  const draws = [];
  const waits = [];
  const random = Math.random;
  const timeout = globalThis.setTimeout;
  Math.random = () => {
    const u = nextUnit();
    draws.push(u);
    return u;
  };
  globalThis.setTimeout = (fire, ms) => {
    waits.push(ms);
    queueMicrotask(fire);
  };
  let calls = 0;
  try {
    await backOff(
      () => {
        calls++;
        return Promise.reject(new Error("down"));
      },
      { startingDelay, timeMultiple, maxDelay, jitter, numOfAttempts: RETRIES + 1 },
    ).catch(() => {});
  } finally {
    Math.random = random;
    globalThis.setTimeout = timeout;
  }
  if (calls !== RETRIES + 1 || waits.length !== RETRIES) throw new Error(`case ${i}: ${calls} calls`);
  const settings = {
    starting_delay_ms: startingDelay,
    time_multiple: timeMultiple,
    max_delay_ms: Number.isFinite(maxDelay) ? maxDelay : null,
    jitter,
  };
  console.log(`exponential-backoff ${JSON.stringify(settings)} | ${draws.join(" ")} | ${waits.join(" ")}`);
}
