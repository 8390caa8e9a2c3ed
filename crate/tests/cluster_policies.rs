//! Library policies inside a whole run: what a budget or a breaker does to the traffic
//! when the engine drives it, checked against the library source each one follows.

use retrystorm::cluster::{self, RunResult, Scenario};
use serde_json::{json, Value};

/// A client tier (one instance) calling a server tier (one instance) at a constant
/// `rate` per second for `secs` seconds, with `client` as the policy and `faults` on
/// the server.
fn two_tiers(rate: f64, secs: u64, client: Value, faults: Value) -> Scenario {
    let v = json!({
        "name": "policy",
        "seed": 7,
        "duration_ms": secs * 1000,
        "load": {"arrivals": "constant", "rate_per_s": rate},
        "tiers": [
            {"name": "client", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0}, "client": client},
            {"name": "server", "instances": 1, "concurrency": 1000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 1}}
        ],
        "faults": faults,
    });
    serde_json::from_value(v).expect("a valid scenario")
}

fn run(s: &Scenario) -> RunResult {
    cluster::run(s, s.seed).expect("runs")
}

/// grpc-go `stream.go` (`csAttempt.shouldRetry`) and grpc-js `retrying-call.ts`
/// (`handleProcessedStatus`) charge the throttle only for a status in the policy's
/// `retryableStatusCodes` ("we count this as a failure only if the code matched a
/// retryable code"). Ten seconds of errors the client does not retry leave the bucket
/// full, so the timeouts of the hang that follows are retried at once.
#[test]
fn grpc_throttle_ignores_failures_that_are_not_retried() {
    let client = json!({
        "timeout_ms": 100,
        "max_attempts": 2,
        "retry_on": ["timeout"],
        "budget": {"kind": "grpc_throttle", "max_tokens": 10, "token_ratio": 0.1, "scope": "shared"},
    });
    let faults = json!([
        {"tier": 1, "start_ms": 0, "duration_ms": 10000, "effect": {"kind": "error_rate", "rate": 1.0}},
        {"tier": 1, "start_ms": 10000, "duration_ms": 1000, "effect": {"kind": "hang"}},
    ]);
    let r = run(&two_tiers(100.0, 12, client, faults));
    let first_ten: u64 = r.buckets[..10].iter().map(|b| b.tiers[1].errors).sum();
    assert!(
        first_ten >= 999,
        "every call of the first 10 s failed: {first_ten}"
    );
    let server = &r.tiers[1].totals;
    // Tokens 10 → each timeout takes 1 before the check, and a retry is allowed while
    // tokens > 5: the first four timeouts are retried (9, 8, 7, 6), the fifth leaves 5.
    assert_eq!(server.retries, 4, "{server:?}");
}

/// Envoy's `max_retries` (`resource_manager_impl.h`, with `retry_state_impl.cc`
/// `shouldRetry`/`resetRetry`): a retry holds its slot from when it is scheduled, through
/// its backoff, to its answer. Every call fails at once and waits 1 s before its retry,
/// so 3 slots let 3 retries through per second, not one per failure.
#[test]
fn envoy_max_retries_counts_retries_waiting_in_backoff() {
    let client = json!({
        "timeout_ms": 1000,
        "max_attempts": 2,
        "backoff": {"kind": "constant", "ms": 1000},
        "budget": {"kind": "envoy_max_retries", "max_retries": 3},
    });
    let faults = json!([
        {"tier": 1, "start_ms": 0, "duration_ms": 20000, "effect": {"kind": "error_rate", "rate": 1.0}},
    ]);
    let r = run(&two_tiers(100.0, 10, client, faults));
    let server = &r.tiers[1].totals;
    // Slots taken at 0.01 s, 0.02 s, 0.03 s come back when those retries fail at about
    // 1.01 s …: 3 retries a second over the 9 s that have answers, plus the last ones.
    assert!((27..=30).contains(&server.retries), "{server:?}");
    assert!(server.budget_rejected > 900, "{server:?}");
}

/// Envoy's retry budget: the limit follows the requests in flight, retries included.
/// 200 calls a second of 100 ms each keep 20 first attempts in flight; at 50% up to R
/// retries may be outstanding while R ≤ (20 + R) / 2, so 20: every call's retry (about
/// 200 a second) gets through, where `min_retry_concurrency` alone (1) allows one at a
/// time, about 10 a second.
#[test]
fn envoy_retry_budget_follows_the_requests_in_flight() {
    let client = |pct: f64| {
        json!({
            "timeout_ms": 1000,
            "max_attempts": 2,
            "budget": {"kind": "envoy_retry_budget", "budget_percent": pct, "min_retry_concurrency": 1},
        })
    };
    let faults = json!([
        {"tier": 1, "start_ms": 0, "duration_ms": 20000, "effect": {"kind": "error_rate", "rate": 1.0}},
    ]);
    let mut s = two_tiers(200.0, 10, client(50.0), faults.clone());
    s.tiers[1].service = serde_json::from_value(json!({"kind": "constant", "ms": 100})).unwrap();
    let half = run(&s).tiers[1].totals.retries;
    let mut s = two_tiers(200.0, 10, client(0.0), faults);
    s.tiers[1].service = serde_json::from_value(json!({"kind": "constant", "ms": 100})).unwrap();
    let floor = run(&s).tiers[1].totals.retries;
    assert!(
        (90..=110).contains(&floor),
        "min_retry_concurrency 1: {floor}"
    );
    assert!(
        (1700..=2000).contains(&half),
        "50% of 20 + R in flight: {half}"
    );
}

/// Polly v8's breaker in a run (`CircuitStateController.cs`): after it breaks, one probe
/// per `BreakDuration` reaches the broken server, so a 10 s outage costs the server
/// about one attempt every 2 s instead of 100 a second.
#[test]
fn polly_breaker_sends_one_probe_per_break() {
    let client = json!({
        "timeout_ms": 1000,
        "max_attempts": 1,
        "breaker": {"kind": "polly", "failure_ratio": 0.1, "minimum_throughput": 10,
                    "sampling_duration_ms": 5000, "break_duration_ms": 2000, "scope": "shared"},
    });
    let faults = json!([
        {"tier": 1, "start_ms": 5000, "duration_ms": 10000, "effect": {"kind": "outage"}},
    ]);
    let r = run(&two_tiers(100.0, 20, client, faults));
    // 500 successes in the 5 s window before the outage: 10% is reached after about 56
    // failures, 0.56 s into it. Seconds 6..15: one probe every 2 s.
    let during: u64 = r.buckets[6..15]
        .iter()
        .map(|b| b.tiers[1].first_attempts + b.tiers[1].retries)
        .sum();
    assert!(
        (3..=6).contains(&during),
        "probes during the outage: {during}"
    );
    let rejected: u64 = r.buckets[6..15]
        .iter()
        .map(|b| b.tiers[1].breaker_rejected)
        .sum();
    assert!(rejected > 850, "{rejected}");
    // After the outage the next probe succeeds and closes it: the last seconds flow.
    let last = &r.buckets[19].tiers[1];
    assert!(last.successes >= 99, "{last:?}");
}
