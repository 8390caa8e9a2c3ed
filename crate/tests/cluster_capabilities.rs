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

/// One server (1 instance, `concurrency` slots, a queue of 100, constant `service_ms`)
/// fed constant arrivals of `rate` per second for `duration_ms`, with `faults`; no
/// warm-up, so every request's latency counts.
fn one_server(
    concurrency: u32,
    service_ms: f64,
    rate: f64,
    duration_ms: u64,
    faults: Value,
) -> Value {
    json!({
        "name": "capability",
        "seed": 1,
        "duration_ms": duration_ms,
        "load": {"arrivals": "constant", "rate_per_s": rate},
        "tiers": [
            {"name": "server", "instances": 1, "concurrency": concurrency, "queue_capacity": 100,
             "service": {"kind": "constant", "ms": service_ms}}
        ],
        "faults": faults,
        "steady": {"warmup_ms": 0}
    })
}

#[test]
fn an_admission_time_slowdown_slows_the_work_queued_in_its_window() {
    // By hand: one slot, 10 ms per request, arrivals at 10, 20, 30, … ms; 20 ms added in
    // [0, 25) ms. Admitted in the window: the requests of 10 and 20 ms. The first runs
    // 10–40 (30 ms); the second, queued at 20, starts at 40 after the window and still
    // takes 30 ms: 40–70 (latency 50); every later one waits for it and takes 10 ms
    // (request k ends at 10k + 50, latency 50). Ends before 200 ms: k ≤ 14.
    let fault = |kind: &str| {
        json!([{"tier": 0, "start_ms": 0, "duration_ms": 25,
                "effect": {"kind": kind, "added_ms": 20}}])
    };
    let r = run(
        one_server(1, 10.0, 100.0, 200, fault("latency_admitted")),
        1,
    );
    let s = &r.summary;
    assert_eq!(s.successes, 14, "{s:?}");
    let mean = (30.0 + 13.0 * 50.0) / 14.0;
    assert!((s.success_latency.mean_ms - mean).abs() < 1e-9, "{s:?}");
    // The same slowdown judged at the start of service (`latency`) slows the first
    // request only: the second starts at 40 and takes 10 ms; everyone's latency is 30.
    let r = run(one_server(1, 10.0, 100.0, 200, fault("latency")), 1);
    let s = &r.summary;
    assert_eq!(s.successes, 16, "{s:?}");
    assert!((s.success_latency.mean_ms - 30.0).abs() < 1e-9, "{s:?}");
}

#[test]
fn an_admission_time_slowdown_ends_exactly_at_its_window_end() {
    // Invariant: a request admitted one microsecond before the window's end is slowed,
    // one admitted at the end (or after) is not. One request arrives at 1000 ms at a
    // pass-through tier that takes 1000 + d µs, so the server admits it at 1001 ms + d µs;
    // the server's window is [0, 1001) ms.
    for d in -3i64..=3 {
        let pass_ms = (1000 + d) as f64 / 1000.0;
        let v = json!({
            "name": "capability",
            "seed": 1,
            "duration_ms": 1500,
            "load": {"arrivals": "constant", "rate_per_s": 1.0},
            "tiers": [
                {"name": "clients", "instances": 1, "concurrency": 10, "queue_capacity": 0,
                 "service": {"kind": "constant", "ms": pass_ms},
                 "client": {"timeout_ms": 1000, "max_attempts": 1}},
                {"name": "server", "instances": 1, "concurrency": 10, "queue_capacity": 10,
                 "service": {"kind": "constant", "ms": 10}}
            ],
            "faults": [{"tier": 1, "start_ms": 0, "duration_ms": 1001,
                        "effect": {"kind": "latency_admitted", "added_ms": 100}}],
            "steady": {"warmup_ms": 0}
        });
        let r = run(v, 1);
        assert_eq!(r.summary.successes, 1, "d = {d}");
        let slowed = d < 0;
        let want = pass_ms + 10.0 + if slowed { 100.0 } else { 0.0 };
        let got = r.summary.success_latency.mean_ms;
        assert!(
            (got - want).abs() < 1e-9,
            "d = {d} µs: {got} ms, want {want}"
        );
    }
}

#[test]
fn without_arrival_jitter_every_seed_is_the_same_run_and_with_it_seeds_differ() {
    // Constant arrivals at 100/s on one slot serving 9 ms: on their slots nobody ever
    // waits, whatever the seed (the same run); jittered by ±5 ms, two arrivals can come
    // closer than 9 ms and the second waits: seeds differ. The arrivals stay the slots'
    // (499 before the end, and the 500th, at the end, when drawn early).
    let server = |jitter_ms: f64| {
        let mut v = one_server(1, 9.0, 100.0, 5000, json!([]));
        v["load"]["jitter_ms"] = json!(jitter_ms);
        v
    };
    let plain = run(server(0.0), 1);
    assert_eq!(plain.tiers[0].totals.wait_us, 0);
    for seed in 2..=4 {
        let r = run(server(0.0), seed);
        assert_eq!(r.summary, plain.summary, "seed {seed}");
        assert_eq!(r.tiers[0].totals, plain.tiers[0].totals, "seed {seed}");
    }
    // Absent and 0 are the same document.
    let mut absent = server(0.0);
    absent["load"].as_object_mut().unwrap().remove("jitter_ms");
    assert_eq!(run(absent, 1).summary, plain.summary);
    let waits: Vec<u64> = (1..=4)
        .map(|seed| {
            let r = run(server(5.0), seed);
            assert!((499..=500).contains(&r.summary.requests), "seed {seed}");
            r.tiers[0].totals.wait_us
        })
        .collect();
    assert!(waits.iter().all(|&w| w > 0), "{waits:?}");
    assert!(waits.windows(2).any(|w| w[0] != w[1]), "{waits:?}");
}

#[test]
fn draining_counts_the_requests_in_flight_at_the_end_apart() {
    // By hand: one slot taking 30 ms, arrivals at 10, 20, …, 90 ms, a 100 ms run. The
    // first runs 10–40, the second 40–70, the third from 70 to 100 (the end: not
    // reached); 2 succeed and 7 are in flight at the end, all older than `late_ms` 0.
    let server = |drain: bool| {
        let mut v = one_server(1, 30.0, 100.0, 100, json!([]));
        v["bucket_ms"] = json!(100);
        v["steady"] = json!({"warmup_ms": 0, "late_ms": 0, "drain": drain});
        v
    };
    // Not drained: the 7 count against the success ratio and fail their cohort.
    let r = run(server(false), 1);
    let s = &r.summary;
    assert_eq!((s.requests, s.successes, s.failures), (9, 2, 0));
    assert_eq!(s.pending_at_end, 7);
    assert_eq!(s.in_flight_at_end, None);
    assert!((s.success_ratio - 2.0 / 9.0).abs() < 1e-12);
    assert_eq!(
        (r.buckets[0].cohort.failures, r.buckets[0].cohort.pending),
        (7, 0)
    );
    // Drained: the same run, the 7 counted apart, no failure anywhere.
    let d = run(server(true), 1);
    let s = &d.summary;
    assert_eq!((s.requests, s.successes, s.failures), (9, 2, 0));
    assert_eq!(s.in_flight_at_end, Some(7));
    assert_eq!(s.success_ratio, 1.0);
    assert_eq!(
        (d.buckets[0].cohort.failures, d.buckets[0].cohort.pending),
        (0, 7)
    );
    assert_eq!(d.tiers, r.tiers);
}
