// Delay sequences from @grpc/grpc-js's own retry code, for the engine's conformance test.
//
// Calls RetryingCall.prototype.getNextRetryBackoffMs (the function the client uses before
// every retry) on a stand-in call object holding a retryPolicy, with Math.random replaced
// by a recorded stream, and prints one line per case:
//
//     grpc <settings as JSON> | <draws> | <waits in ms, as passed to setTimeout>
//
// Output: crate/tests/data/library_vectors_node.txt. Regenerate with
// `npm install @grpc/grpc-js@1.14.7 && node tests/libraries/gen_node.mjs` (any directory
// whose node_modules holds it; set NODE_PATH otherwise).
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/`);
const { RetryingCall } = require("@grpc/grpc-js/build/src/retrying-call.js");
const version = require("@grpc/grpc-js/package.json").version;

const RETRIES = 8;
// A small deterministic stream (xorshift64*), so the draws are reproducible.
let state = 0x2026_1202n;
function nextUnit() {
  state ^= state >> 12n;
  state ^= (state << 25n) & 0xffff_ffff_ffff_ffffn;
  state ^= state >> 27n;
  const x = (state * 0x2545_f491_4f6c_dd1dn) & 0xffff_ffff_ffff_ffffn;
  return Number(x >> 11n) / 2 ** 53;
}
const pick = (xs) => xs[Math.floor(nextUnit() * xs.length)];

console.log(`# @grpc/grpc-js ${version}`);
for (let i = 0; i < 120; i++) {
  const initial = pick([0.01, 0.05, 0.1, 0.25, 1, 1.5]);
  const multiplier = pick([1, 1.3, 1.5, 2, 3]);
  const max = pick([0.5, 1, 5, 30, 120]);
  const retryPolicy = {
    maxAttempts: 5,
    initialBackoff: `${initial}s`,
    maxBackoff: `${max}s`,
    backoffMultiplier: multiplier,
    retryableStatusCodes: ["UNAVAILABLE"],
  };
  const call = {
    callConfig: { methodConfig: { retryPolicy } },
    nextRetryBackoffSec: initial,
    getNextRetryJitter: RetryingCall.prototype.getNextRetryJitter,
  };
  const draws = [];
  const random = Math.random;
  Math.random = () => {
    const u = nextUnit();
    draws.push(u);
    return u;
  };
  const waits = [];
  try {
    for (let n = 0; n < RETRIES; n++) waits.push(RetryingCall.prototype.getNextRetryBackoffMs.call(call));
  } finally {
    Math.random = random;
  }
  const settings = { initial_s: initial, max_s: max, multiplier };
  console.log(`grpc ${JSON.stringify(settings)} | ${draws.join(" ")} | ${waits.join(" ")}`);
}
