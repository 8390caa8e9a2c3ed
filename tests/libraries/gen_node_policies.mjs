// Budget and breaker decisions from the real npm libraries, for the engine's conformance
// test of its retry budgets and breakers (crate/src/cluster/policy_conformance.rs).
//
// Each library is driven through its own classes with a recorded sequence of outcomes
// (and, where time matters, a stubbed clock), and one line is printed per case:
//
//     <library> <settings as JSON> | <events> | <answers>
//
// Output: crate/tests/data/policy_vectors_node.txt. Regenerate with
// `npm install @grpc/grpc-js@1.14.7 && node tests/libraries/gen_node_policies.mjs >
// crate/tests/data/policy_vectors_node.txt` (any directory whose node_modules holds the
// packages; set NODE_PATH otherwise).
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/`);
const grpcVersion = require("@grpc/grpc-js/package.json").version;
const { RetryThrottler } = require("@grpc/grpc-js/build/src/retrying-call.js");

// A small deterministic stream (xorshift64*), so every case is reproducible.
let state = 0x2026_1203n;
function nextUnit() {
  state ^= state >> 12n;
  state ^= (state << 25n) & 0xffff_ffff_ffff_ffffn;
  state ^= state >> 27n;
  const x = (state * 0x2545_f491_4f6c_dd1dn) & 0xffff_ffff_ffff_ffffn;
  return Number(x >> 11n) / 2 ** 53;
}
const pick = (xs) => xs[Math.floor(nextUnit() * xs.length)];

// gRPC retry throttling (grpc-js `RetryThrottler`): `F` is a call that failed with a
// retryable status (addCallFailed), `S` a call that succeeded (addCallSucceeded); after
// every event the answer of canRetryCall is printed, 1 or 0. The ratios have at most
// three decimals, as gRFC A6 allows, and the failure share hovers around what keeps the
// bucket near its threshold, where rounding would show.
console.log(`# @grpc/grpc-js ${grpcVersion}`);
for (let i = 0; i < 200; i++) {
  const maxTokens = pick([1, 2, 3, 4, 5, 6, 7, 10, 10, 10, 11, 13, 20, 33, 100, 999, 1000]);
  const ratio = Math.min(maxTokens, (1 + Math.floor(nextUnit() * pick([10, 100, 1000, 3000]))) / 1000);
  const pFail = pick([0.05, 0.1, 0.2, 0.5, 0.8, 0.95]);
  const t = new RetryThrottler(maxTokens, ratio);
  let events = "";
  let answers = "";
  for (let n = 0; n < 400; n++) {
    if (nextUnit() < pFail) {
      t.addCallFailed();
      events += "F";
    } else {
      t.addCallSucceeded();
      events += "S";
    }
    answers += t.canRetryCall() ? "1" : "0";
  }
  const settings = { max_tokens: maxTokens, token_ratio: ratio };
  console.log(`grpc_throttle ${JSON.stringify(settings)} | ${events} | ${answers}`);
}
