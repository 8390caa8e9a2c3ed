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

/// A fault on tier 0 from `start_ms` for `duration_ms` adding `added_ms` of the `kind`.
fn slowdown(kind: &str, start_ms: u64, duration_ms: u64, added_ms: f64) -> Value {
    json!({"tier": 0, "start_ms": start_ms, "duration_ms": duration_ms,
           "effect": {"kind": kind, "added_ms": added_ms}})
}

#[test]
fn an_admission_time_slowdown_slows_the_work_queued_in_its_window() {
    // By hand: one slot, 10 ms per request, arrivals at 10, 20, 30, … ms; 20 ms added to
    // the work admitted in [0, 25) ms: the requests of 10 and 20 ms. The first runs
    // 10–40 (30 ms). The second, queued at 20, starts at 40, after the window, and still
    // takes 30 ms: 40–70 (latency 50). Each later one waits for the one before and takes
    // 10 ms: request k (arrived at 10k ms) ends at 10k + 50, latency 50. Of the arrivals
    // at 10, …, 190 ms, those ending before 200 ms: the first and k = 2..=14, 14 in all.
    let faults = json!([slowdown("latency_admitted", 0, 25, 20.0)]);
    let r = run(one_server(1, 10.0, 100.0, 200, faults), 1);
    let s = &r.summary;
    assert_eq!((s.requests, s.successes, s.failures), (19, 14, 0), "{s:?}");
    let mean = (30.0 + 13.0 * 50.0) / 14.0;
    assert!((s.success_latency.mean_ms - mean).abs() < 1e-9, "{s:?}");
    assert_eq!(r.tiers[0].totals.service_us, 2 * 30_000 + 12 * 10_000);
    // The same slowdown decided at the start of service (`latency`) slows the first
    // request only (the second starts at 40, after the window): every latency is 30 ms,
    // request k ends at 10k + 30, and 16 end before 200 ms.
    let faults = json!([slowdown("latency", 0, 25, 20.0)]);
    let r = run(one_server(1, 10.0, 100.0, 200, faults), 1);
    let s = &r.summary;
    assert_eq!((s.requests, s.successes, s.failures), (19, 16, 0), "{s:?}");
    assert!((s.success_latency.mean_ms - 30.0).abs() < 1e-9, "{s:?}");
}

/// One request, sent at 1000 ms by a pass-through tier that takes 1 ms + `d` µs, so the
/// server admits it at 1001 ms + `d` µs; the server serves 10 ms, with `faults`.
fn admitted_at_1001_ms_plus(d: i64, faults: Value) -> RunResult {
    let v = json!({
        "name": "capability",
        "seed": 1,
        "duration_ms": 1500,
        "load": {"arrivals": "constant", "rate_per_s": 1.0},
        "tiers": [
            {"name": "clients", "instances": 1, "concurrency": 10, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": (1000 + d) as f64 / 1000.0},
             "client": {"timeout_ms": 1000, "max_attempts": 1}},
            {"name": "server", "instances": 1, "concurrency": 10, "queue_capacity": 10,
             "service": {"kind": "constant", "ms": 10}}
        ],
        "faults": faults,
        "steady": {"warmup_ms": 0}
    });
    let r = run(v, 1);
    assert_eq!(r.summary.successes, 1, "d = {d} µs");
    r
}

#[test]
fn an_admission_time_slowdown_is_decided_by_the_admission_instant() {
    // Invariant: a request admitted one microsecond before the window's end is slowed,
    // one admitted at its end or one microsecond after is not. The window is
    // [0, 1001) ms on the server, the slowdown 100 ms.
    let window = |kind: &str| {
        json!({"tier": 1, "start_ms": 0, "duration_ms": 1001,
        "effect": {"kind": kind, "added_ms": 100}})
    };
    // A pause of the server in [1000, 1002) ms: the request waits in its queue and its
    // service starts at 1002 ms, after the window, whatever `d` is.
    let pause = json!({"tier": 1, "start_ms": 1000, "duration_ms": 2, "effect": {"kind": "pause"}});
    for d in [-3i64, -1, 0, 1, 3] {
        let slowed = if d < 0 { 100.0 } else { 0.0 };
        let service = |r: &RunResult| r.tiers[1].totals.service_us as f64 / 1000.0;
        // Started at once: the service takes 10 ms, + 100 when admitted in the window.
        let r = admitted_at_1001_ms_plus(d, json!([window("latency_admitted")]));
        assert_eq!(service(&r), 10.0 + slowed, "d = {d} µs");
        // Queued in the window and started after it: still slowed when admitted in it.
        let r = admitted_at_1001_ms_plus(d, json!([window("latency_admitted"), pause.clone()]));
        assert_eq!(service(&r), 10.0 + slowed, "d = {d} µs, paused");
        // End to end: arrival at 1000 ms, service from 1002 ms.
        let want = 12.0 + slowed;
        assert!(
            (r.summary.success_latency.mean_ms - want).abs() < 1e-9,
            "d = {d} µs"
        );
        // `latency` decides at the start of service: started at once, the same
        // boundary; started at 1002 ms, after the window, never slowed.
        let r = admitted_at_1001_ms_plus(d, json!([window("latency")]));
        assert_eq!(service(&r), 10.0 + slowed, "d = {d} µs, latency");
        let r = admitted_at_1001_ms_plus(d, json!([window("latency"), pause.clone()]));
        assert_eq!(service(&r), 10.0, "d = {d} µs, latency, paused");
    }
}

#[test]
fn an_admission_time_slowdown_covers_only_its_instances_and_adds_up() {
    // Two overlapping windows on instance 0 of two add up; instance 1 is not covered.
    // Constant arrivals at 100/s alternate between the instances (round robin), one slot
    // each, 2 ms of service: nobody waits. In [0, 50) ms instance 0 admits the requests
    // of 10, 30 ms (or 20, 40 ms, by the seeded starting point): each takes 2 + 3 + 4 ms.
    let faults = json!([
        {"tier": 0, "start_ms": 0, "duration_ms": 50, "instances": 1,
         "effect": {"kind": "latency_admitted", "added_ms": 3}},
        {"tier": 0, "start_ms": 0, "duration_ms": 50, "instances": 1,
         "effect": {"kind": "latency_admitted", "added_ms": 4}}
    ]);
    let mut v = one_server(1, 2.0, 100.0, 100, faults);
    v["tiers"][0]["instances"] = json!(2);
    let r = run(v, 1);
    assert_eq!(r.summary.successes, 9);
    assert_eq!(r.tiers[0].totals.service_us, 9 * 2_000 + 2 * 7_000);
}

#[test]
fn without_arrival_jitter_every_seed_is_the_same_run_and_with_it_seeds_differ() {
    // Constant arrivals at 100/s on one slot serving 9 ms: on their slots nobody ever
    // waits, whatever the seed (the same run). Jittered by ±5 ms (half the gap, the
    // most allowed), two arrivals can come closer than 9 ms and the second waits: every
    // seed waits, and seeds differ. 499 or 500 requests (the 500th slot, at the end,
    // comes in when drawn early).
    let server = |jitter_ms: Option<f64>| {
        let mut v = one_server(1, 9.0, 100.0, 5000, json!([]));
        if let Some(j) = jitter_ms {
            v["load"]["jitter_ms"] = json!(j);
        }
        v
    };
    let plain = run(server(None), 1);
    assert_eq!(plain.tiers[0].totals.wait_us, 0);
    assert_eq!(plain.summary.requests, 499);
    for seed in [2, 3, 1 << 40] {
        let mut r = run(server(None), seed);
        r.seed = plain.seed;
        assert_eq!(r, plain, "seed {seed}");
        let mut r = run(server(Some(0.0)), seed);
        r.seed = plain.seed;
        assert_eq!(r, plain, "seed {seed}, jitter 0");
    }
    let waits: Vec<u64> = (1..=4)
        .map(|seed| {
            let r = run(server(Some(5.0)), seed);
            assert!((499..=500).contains(&r.summary.requests), "seed {seed}");
            r.tiers[0].totals.wait_us
        })
        .collect();
    assert!(waits.iter().all(|&w| w > 0), "{waits:?}");
    assert!(waits.windows(2).all(|w| w[0] != w[1]), "{waits:?}");
}

#[test]
fn arrival_jitter_is_bounded_by_half_the_gap_and_needs_constant_arrivals() {
    let load = |load: Value| {
        let mut v = one_server(1, 9.0, 100.0, 5000, json!([]));
        v["load"] = load;
        scenario(v).validate()
    };
    // 100/s: half the gap is 5 ms.
    assert!(load(json!({"arrivals": "constant", "rate_per_s": 100, "jitter_ms": 5})).is_ok());
    let e =
        load(json!({"arrivals": "constant", "rate_per_s": 100, "jitter_ms": 5.001})).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("load.jitter_ms", "5.001")
    );
    assert_eq!(
        e.allowed,
        "0..=5 (half the gap between arrivals at the load's highest rate, 100/s)"
    );
    // The highest rate of the schedule sets it: 1000/s, 0.5 ms.
    let e = load(
        json!({"arrivals": "constant", "rate_per_s": 100, "jitter_ms": 1,
        "schedule": [{"start_ms": 0, "end_ms": 10, "rate_per_s": 10, "to_rate_per_s": 1000}]}),
    )
    .unwrap_err();
    assert_eq!(
        e.allowed,
        "0..=0.5 (half the gap between arrivals at the load's highest rate, 1000/s)"
    );
    assert!(load(json!({"arrivals": "constant", "rate_per_s": 100, "jitter_ms": -1})).is_err());
    // Poisson arrivals are random already.
    let e = load(json!({"arrivals": "poisson", "rate_per_s": 100, "jitter_ms": 1})).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("load.jitter_ms", "1")
    );
    assert_eq!(e.allowed, "0 with poisson arrivals (random already)");
    assert_eq!(
        e.plain(retrystorm::Lang::En),
        "Jitter ms must be 0 with poisson arrivals (random already)"
    );
    assert_eq!(
        e.plain_as("抖动", retrystorm::Lang::Zh),
        "抖动必须是0（泊松到达本身已随机）"
    );
    // The bound is named in the technical form; the plain words say the range.
    let e = load(json!({"arrivals": "constant", "rate_per_s": 100, "jitter_ms": 6})).unwrap_err();
    assert_eq!(
        e.plain_as("抖动", retrystorm::Lang::Zh),
        "抖动必须在 0 到 5 之间"
    );
    assert!(load(json!({"arrivals": "poisson", "rate_per_s": 100, "jitter_ms": 0})).is_ok());
}
