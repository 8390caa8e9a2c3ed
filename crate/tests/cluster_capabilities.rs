//! The cluster model's capabilities that setups of independent simulators need, each
//! off by default: a case computed by hand and an invariant for each.

use retrystorm::cluster::{self, RunResult, Scenario};
use serde_json::{json, Value};

/// A scenario from its JSON value (without the `model` key).
fn scenario(v: Value) -> Scenario {
    serde_json::from_value(v).expect("a cluster scenario")
}

fn run(v: Value, seed: i64) -> RunResult {
    cluster::run(&scenario(v), seed).expect("runs")
}

/// Clients (a pass-through tier 0 whose `client` is given) calling one server that fails
/// every request until `outage_ms` (an outage fault) and never after; constant arrivals
/// of `rate` per second for `duration_ms`.
fn clients_and_server(client: Value, rate: f64, duration_ms: u64, outage_ms: u64) -> Value {
    json!({
        "name": "capability",
        "seed": 1,
        "duration_ms": duration_ms,
        "load": {"arrivals": "constant", "rate_per_s": rate},
        "tiers": [
            {"name": "clients", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0}, "client": client},
            {"name": "server", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 1}}
        ],
        "faults": [{"tier": 1, "start_ms": 0, "duration_ms": outage_ms, "effect": {"kind": "outage"}}]
    })
}

#[test]
fn a_retry_only_breaker_lets_every_first_attempt_through_and_stops_retries() {
    // By hand (Brooker's rule, failures / calls > 100% stops retries, counted for ever):
    // a server that always fails; the first call's attempt fails (1 failure / 1 call,
    // not above 1) and is retried; the retry fails (2 / 1): from then on no call is
    // retried (call n: n + 1 failures / n calls). Constant arrivals at 10/s come at
    // 100, 200, …, 900 ms: 9 calls, 10 attempts.
    let client = json!({"timeout_ms": 1000, "max_attempts": 4,
        "breaker": {"kind": "retry_only", "failure_percent": 100, "window_ms": 0}});
    let r = run(clients_and_server(client, 10.0, 1000, 1000), 1);
    let server = &r.tiers[1].totals;
    assert_eq!(
        (server.first_attempts, server.retries),
        (9, 1),
        "{server:?}"
    );
    assert_eq!(server.breaker_rejected, 0);
    // Every call asked for one more retry and was refused (the first call after its
    // retry): 9 refusals.
    assert_eq!(server.budget_rejected, 9);
    // Its gauge: open (retries stopped) from the first call's retry on.
    assert_eq!(r.buckets[0].tiers[0].breakers_open, 1);
}

#[test]
fn a_retry_only_breaker_never_refuses_a_first_attempt() {
    // Invariant: whatever the failures, the server sees one first attempt per request,
    // and the breaker refuses none; retries stop once failures pass 10% of the calls.
    for seed in 1..=5 {
        let client = json!({"timeout_ms": 1000, "max_attempts": 4,
            "breaker": {"kind": "retry_only", "failure_percent": 10, "window_ms": 1000}});
        let mut v = clients_and_server(client, 200.0, 5000, 2000);
        v["load"]["arrivals"] = json!("poisson");
        v["tiers"][1]["error_rate"] = json!(0.05);
        let r = run(v, seed);
        let server = &r.tiers[1].totals;
        assert_eq!(server.first_attempts, r.summary.requests, "seed {seed}");
        assert_eq!(server.breaker_rejected, 0, "seed {seed}");
        // During the outage every call fails once (failures = calls, 100% > 10%): no
        // retry; after it, 5% of the calls fail and their retries go through again.
        let retries = |b: &[retrystorm::cluster::Bucket]| -> u64 {
            b.iter().map(|b| b.tiers[1].retries).sum()
        };
        assert_eq!(retries(&r.buckets[..2]), 0, "seed {seed}");
        assert!(retries(&r.buckets[3..]) > 0, "seed {seed}");
    }
}

#[test]
fn a_success_bucket_fills_by_successes_only() {
    // By hand: 2 tokens, half a token per success. An outage until 1 s: the first call
    // (at 100 ms) retries twice with both tokens, then is refused; the 8 calls after it
    // in the outage get no retry (8 refusals). After the outage every call succeeds at
    // once and the bucket refills, unused. So 9 + 2 failed attempts, 9 refusals.
    let client = json!({"timeout_ms": 1000, "max_attempts": 4,
        "budget": {"kind": "success_bucket", "percent": 50, "max_tokens": 2}});
    let r = run(clients_and_server(client, 10.0, 2000, 1000), 1);
    let server = &r.tiers[1].totals;
    assert_eq!(
        (server.first_attempts, server.retries),
        (19, 2),
        "{server:?}"
    );
    assert_eq!(server.errors, 11);
    assert_eq!(server.successes, 10);
    assert_eq!(server.budget_rejected, 9);
    // The token bucket fed by first attempts instead (half a token each) keeps
    // retrying through the outage: every second call brings a whole token.
    let client = json!({"timeout_ms": 1000, "max_attempts": 4,
        "budget": {"kind": "token_bucket", "percent": 50, "max_tokens": 2}});
    let r = run(clients_and_server(client, 10.0, 2000, 1000), 1);
    assert!(r.tiers[1].totals.retries > 2, "{:?}", r.tiers[1].totals);
}

#[test]
fn a_success_bucket_spends_no_more_than_it_was_given() {
    // Invariant: retries ≤ the initial tokens + percent/100 × successes, per bucket of
    // tokens (here one shared by the tier).
    for seed in 1..=5 {
        let client = json!({"timeout_ms": 1000, "max_attempts": 4,
            "budget": {"kind": "success_bucket", "percent": 10, "max_tokens": 5, "scope": "shared"}});
        let mut v = clients_and_server(client, 500.0, 4000, 1000);
        v["load"]["arrivals"] = json!("poisson");
        v["tiers"][1]["error_rate"] = json!(0.3);
        let r = run(v, seed);
        let server = &r.tiers[1].totals;
        let allowed = 5.0 + 0.1 * server.successes as f64;
        assert!(
            (server.retries as f64) <= allowed,
            "seed {seed}: {} retries, {allowed} allowed",
            server.retries
        );
        assert!(server.budget_rejected > 0, "seed {seed}");
    }
}
