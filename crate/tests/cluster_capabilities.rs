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
    let mut v = constant_load(
        rate,
        duration_ms,
        json!([
            {"name": "clients", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0}, "client": client},
            {"name": "server", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 1}}
        ]),
    );
    v["faults"] = json!([{"tier": 1, "start_ms": 0, "duration_ms": outage_ms,
                          "effect": {"kind": "outage"}}]);
    v
}

/// `tiers` fed constant arrivals of `rate` per second for `duration_ms`.
fn constant_load(rate: f64, duration_ms: u64, tiers: Value) -> Value {
    json!({
        "name": "capability",
        "seed": 1,
        "duration_ms": duration_ms,
        "load": {"arrivals": "constant", "rate_per_s": rate},
        "tiers": tiers
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
    let mut v = constant_load(
        rate,
        duration_ms,
        json!([{"name": "server", "instances": 1, "concurrency": concurrency,
                "queue_capacity": 100, "service": {"kind": "constant", "ms": service_ms}}]),
    );
    v["faults"] = faults;
    v["steady"] = json!({"warmup_ms": 0});
    v
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
    let mut v = constant_load(
        1.0,
        1500,
        json!([
            {"name": "clients", "instances": 1, "concurrency": 10, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": (1000 + d) as f64 / 1000.0},
             "client": {"timeout_ms": 1000, "max_attempts": 1}},
            {"name": "server", "instances": 1, "concurrency": 10, "queue_capacity": 10,
             "service": {"kind": "constant", "ms": 10}}
        ]),
    );
    v["faults"] = faults;
    v["steady"] = json!({"warmup_ms": 0});
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

/// One slot taking 30 ms fed constant arrivals at 100/s (10, 20, …, 90 ms) for 100 ms,
/// one bucket, every unanswered request late at once; drained or not.
fn slow_server(drain: bool) -> Value {
    let mut v = one_server(1, 30.0, 100.0, 100, json!([]));
    v["bucket_ms"] = json!(100);
    v["steady"] = json!({"warmup_ms": 0, "late_ms": 0, "drain": drain});
    v
}

/// The drain's figures: drained successes, failures, unfinished (the rest of the requests
/// pending at the end), and its length in ms.
fn drain_of(r: &RunResult) -> (u64, u64, u64, f64) {
    let s = &r.summary;
    let figures = (s.drained_successes, s.drained_failures, s.drain_ms);
    match figures {
        (Some(ok), Some(failed), Some(ms)) => (ok, failed, s.pending_at_end - ok - failed, ms),
        _ => panic!("not drained: {figures:?}"),
    }
}

/// A drained run's result as the undrained run gives it: the drain's own figures taken
/// out, and the success ratio `ratio`.
fn undrained(r: &RunResult, ratio: f64) -> RunResult {
    let mut r = r.clone();
    let s = &mut r.summary;
    (s.drained_successes, s.drained_failures, s.drain_ms) = (None, None, None);
    s.success_ratio = ratio;
    for t in &mut r.tiers {
        t.drained = None;
    }
    r
}

#[test]
fn draining_finishes_the_requests_in_flight_at_the_end_and_counts_them_apart() {
    // By hand: the first request runs 10–40 ms, the second 40–70, the third from 70 to
    // 100, the end, so 2 succeed and 7 are in flight at the end (older than `late_ms`
    // 0: failures of their cohort). Undrained they count against the success ratio
    // (2 / 9) and fail their cohort, though none failed.
    let r = run(slow_server(false), 1);
    let s = &r.summary;
    assert_eq!(
        (s.requests, s.successes, s.failures, s.pending_at_end),
        (9, 2, 0, 7)
    );
    assert!((s.success_ratio - 2.0 / 9.0).abs() < 1e-12);
    assert_eq!(
        (r.buckets[0].cohort.failures, r.buckets[0].cohort.pending),
        (7, 0)
    );
    assert_eq!(s.drain_ms, None);
    assert!(r.tiers.iter().all(|t| t.drained.is_none()));
    // Drained: no new request, and the seven go on, 30 ms each: the third ends at 100,
    // then 130, 160, …, 280 ms; all succeed. The server started six (waits 60, 80, …,
    // 160 ms) and ended seven.
    let d = run(slow_server(true), 1);
    assert_eq!(drain_of(&d), (7, 0, 0, 180.0));
    let server = d.tiers[0].drained.as_ref().expect("the server's drain");
    assert_eq!(
        (
            server.services_started,
            server.services_ended,
            server.successes
        ),
        (6, 7, 7)
    );
    assert_eq!(server.first_attempts, 0);
    assert_eq!(server.wait_us, (60 + 80 + 100 + 120 + 140 + 160) * 1000);
    assert_eq!(d.summary.success_ratio, 1.0);
    // The text report shows them beside the requests pending at the end.
    let text = cluster::report::text(&scenario(slow_server(true)), &d);
    for row in [
        "pending at end",
        "succeeded while draining",
        "failed while draining",
        "unfinished after the drain",
        "then drained for 180 ms",
    ] {
        assert!(text.contains(row), "{row}: {text}");
    }
    let rows = cluster::present::metrics(&d);
    let value = |label: &str| rows.iter().find(|m| m.label == label).and_then(|m| m.value);
    assert_eq!(value("succeeded while draining"), Some(7.0));
    assert_eq!(value("unfinished after the drain"), Some(0.0));
    assert!(cluster::present::metrics(&r)
        .iter()
        .all(|m| !m.label.contains("drain")));
    // Nothing before the end changes: the run's buckets (their cohorts judged as
    // without draining), tiers and figures, but the success ratio and the drain's own.
    assert_eq!(undrained(&d, s.success_ratio), r);
    // `max_events` bounds the drain too: three events more than the run's own, three
    // drained (at 100, 130 and 160 ms), four unfinished; the ratio over the 5 answered.
    let mut v = slow_server(true);
    v["max_events"] = json!(r.events + 3);
    let d = run(v, 1);
    assert_eq!(drain_of(&d), (3, 0, 4, 60.0));
    assert_eq!(d.summary.success_ratio, 1.0);
    assert_eq!(d.buckets, r.buckets);
}

#[test]
fn a_drain_stops_at_its_bound_and_counts_what_is_left_unfinished() {
    // A server that hangs from 50 ms for a day: the requests of 50, 60, …, 90 ms hang
    // until it ends, long after the drain's bound (an hour after the end), where they are
    // counted unfinished, neither succeeded nor failed; the success ratio leaves them out.
    let mut v = one_server(
        10,
        1.0,
        100.0,
        100,
        json!([{"tier": 0, "start_ms": 50,
        "duration_ms": 86_400_000, "effect": {"kind": "hang"}}]),
    );
    v["steady"] = json!({"warmup_ms": 0, "drain": true});
    let r = run(v, 1);
    let s = &r.summary;
    assert_eq!((s.requests, s.successes, s.pending_at_end), (9, 4, 5));
    assert_eq!(drain_of(&r), (0, 0, 5, cluster::DRAIN_LIMIT_MS as f64));
    assert_eq!(s.success_ratio, 1.0);
}

#[test]
fn a_drain_starts_no_new_request_and_times_out_as_the_run_would() {
    // Closed-loop callers (100, thinking 5 ms) into a server with one slot of 20 ms and a
    // 50 ms deadline: at the end 99 wait in its queue. Drained, no caller sends again,
    // and each waiting request ends by its deadline (a timeout: its own outcome, a
    // failure), within 50 ms; the server goes on with the work nobody waits for.
    let mut v = one_server(1, 20.0, 0.0, 1000, json!([]));
    v["load"] = json!({"rate_per_s": 0, "deadline_ms": 50,
        "closed_loop": {"callers": 100, "think": {"kind": "constant", "ms": 5}}});
    let plain = run(v.clone(), 1);
    v["steady"] = json!({"drain": true});
    let r = run(v, 1);
    let s = &r.summary;
    assert_eq!(s.requests, plain.summary.requests);
    assert_eq!(s.pending_at_end, 99, "{s:?}");
    let (ok, failed, unfinished, ms) = drain_of(&r);
    assert_eq!((ok, failed, unfinished), (0, 99, 0));
    assert!(ms <= 50.0, "{ms}");
    let server = r.tiers[0].drained.as_ref().expect("the server's drain");
    assert_eq!((server.first_attempts, server.timeouts), (0, 99));
    assert!(server.wasted > 0, "{server:?}");
    let want = s.successes as f64 / s.requests as f64;
    assert!((s.success_ratio - want).abs() < 1e-12);
}

#[test]
fn draining_never_changes_the_run_before_its_end() {
    // Invariant, on bundled scenarios that end with work in flight: with `drain` the
    // buckets, tiers, routes and every summary figure but the success ratio are those of
    // the run without it, and the requests in flight at the end are drained, failed or
    // left unfinished, each once.
    for id in [
        "cluster-metastable",
        "cluster-call-chain",
        "cluster-routes-shared-budget",
    ] {
        let b = retrystorm::scenario::bundled()
            .into_iter()
            .find(|b| b.id == id)
            .expect("bundled");
        let Ok(retrystorm::AnyScenario::Cluster(sc)) = retrystorm::scenario::parse(b.json) else {
            panic!("{id} is a cluster scenario");
        };
        let mut drained = sc.clone();
        drained.steady.drain = true;
        for seed in [1, 7] {
            let plain = cluster::run(&sc, seed).expect("runs");
            let d = cluster::run(&drained, seed).expect("runs");
            let s = &plain.summary;
            assert_eq!(undrained(&d, s.success_ratio), plain, "{id} seed {seed}");
            let (ok, failed, unfinished, _) = drain_of(&d);
            assert_eq!(
                ok + failed + unfinished,
                s.pending_at_end,
                "{id} seed {seed}"
            );
            let ratio = (s.successes + ok) as f64 / (s.requests - unfinished) as f64;
            assert!(
                (d.summary.success_ratio - ratio).abs() < 1e-12,
                "{id} seed {seed}"
            );
            assert!(
                d.tiers.iter().all(|t| t.drained.is_some()),
                "{id} seed {seed}"
            );
        }
    }
}

#[test]
fn a_share_link_carries_the_new_fields_as_they_are() {
    // The link carries the scenario's JSON as it is (no version needed): the fields come
    // back, are checked by the scenario's rules, and the run is the same.
    let mut v = slow_server(true);
    v["load"]["jitter_ms"] = json!(2.5);
    v["faults"] = json!([slowdown("latency_admitted", 0, 50, 5.0)]);
    let state = retrystorm::ShareState {
        model: retrystorm::share::Model::Cluster,
        cluster: Some(v.clone()),
        ..Default::default()
    };
    let link = retrystorm::share::encode(&state);
    assert!(link.starts_with("v1."), "{link}");
    let back = retrystorm::share::decode_checked(&link).expect("decodes");
    let sc = scenario(back.cluster.expect("a cluster scenario"));
    assert_eq!(sc, scenario(v.clone()));
    assert_eq!(sc.load.jitter_ms, 2.5);
    assert!(sc.steady.drain);
    assert_eq!(cluster::run(&sc, 3).expect("runs"), run(v.clone(), 3));
    // A bad value is named at its place in the link.
    v["load"]["jitter_ms"] = json!(6);
    let state = retrystorm::ShareState {
        cluster: Some(v),
        ..state
    };
    let e = retrystorm::share::decode_checked(&retrystorm::share::encode(&state)).unwrap_err();
    assert_eq!(e.field, "link.cluster.load.jitter_ms");
}

/// A pass-through tier 0 (`client`, service `front_ms`) calling one server of one slot
/// and no queue (service `service_ms`), one request at 1000 ms (constant arrivals at 1/s
/// for 1.5 s); no warm-up, so its latency counts.
fn one_call(client: Value, front_ms: f64, service_ms: f64) -> Value {
    let mut v = constant_load(
        1.0,
        1500,
        json!([
            {"name": "front", "instances": 1, "concurrency": 10, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": front_ms}, "client": client},
            {"name": "server", "instances": 1, "concurrency": 1, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": service_ms}}
        ]),
    );
    v["steady"] = json!({"warmup_ms": 0});
    v
}

/// Constant network legs of `there_ms` and `back_ms`.
fn legs(there_ms: f64, back_ms: f64) -> Value {
    json!({"request": {"kind": "constant", "ms": there_ms},
           "response": {"kind": "constant", "ms": back_ms}})
}

#[test]
fn a_call_over_the_network_takes_both_legs() {
    // By hand: the request arrives at 1000 ms, the front serves 1 ms and sends at 1001;
    // the request leg takes 3 ms (the server starts at 1004), the service 10 ms (it
    // answers at 1014), the response leg 7 ms: the front learns it at 1021, and the
    // user at 1021 (the front adds nothing after its call): latency 21 ms, exactly.
    let client = json!({"timeout_ms": 1000, "network": legs(3.0, 7.0)});
    let r = run(one_call(client, 1.0, 10.0), 1);
    let s = &r.summary;
    assert_eq!((s.requests, s.successes, s.failures), (1, 1, 0), "{s:?}");
    assert_eq!(s.success_latency.mean_ms, 21.0, "{s:?}");
    assert_eq!(r.tiers[1].totals.service_us, 10_000);
    // Without the network the same call takes 11 ms.
    let r = run(one_call(json!({"timeout_ms": 1000}), 1.0, 10.0), 1);
    assert_eq!(r.summary.success_latency.mean_ms, 11.0);
}

#[test]
fn a_refused_retry_pays_the_round_trip_each_time() {
    // By hand: a server in an outage fails every request as it arrives; 4 attempts, no
    // backoff, legs of 2 and 3 ms: each attempt's failure comes back 5 ms after it was
    // sent and the next one leaves then, so the call fails after 4 × 5 = 20 ms (plus the
    // front's 1 ms). Without the network all four are refused in the same microsecond.
    let mut client = json!({"timeout_ms": 1000, "max_attempts": 4, "network": legs(2.0, 3.0)});
    let mut v = one_call(client.clone(), 1.0, 10.0);
    v["faults"] = json!([{"tier": 1, "start_ms": 0, "duration_ms": 1500,
                          "effect": {"kind": "outage"}}]);
    let r = run(v.clone(), 1);
    let s = &r.summary;
    assert_eq!((s.requests, s.successes, s.failures), (1, 0, 1), "{s:?}");
    assert_eq!(s.failure_latency.mean_ms, 21.0, "{s:?}");
    let server = &r.tiers[1].totals;
    assert_eq!(
        (server.first_attempts, server.retries, server.errors),
        (1, 3, 4)
    );
    client.as_object_mut().unwrap().remove("network");
    v["tiers"][0]["client"] = client;
    assert_eq!(run(v, 1).summary.failure_latency.mean_ms, 1.0);
}

#[test]
fn a_timeout_within_the_round_trip_never_succeeds() {
    // Invariant: with constant legs of d ms each way, an attempt's answer comes back
    // 2d + service after it was sent at the earliest, so a timeout of at most 2d (an
    // answer in the timer's own microsecond is too late: the timer was set first) never
    // sees a success, however many retries, seeds or requests; the server still
    // serves them (wasted work). A timeout just above the round trip does succeed.
    for d in [1.0, 2.5, 4.0] {
        for timeout in 1..=(2.0 * d) as u64 {
            for seed in 1..=3 {
                let client = json!({"timeout_ms": timeout, "max_attempts": 3,
                                    "network": legs(d, d)});
                let mut v = one_call(client, 0.0, 0.0);
                v["load"] = json!({"arrivals": "poisson", "rate_per_s": 500});
                v["tiers"][1]["concurrency"] = json!(1000);
                let r = run(v, seed);
                let s = &r.summary;
                assert_eq!(s.successes, 0, "d {d} timeout {timeout}: {s:?}");
                assert!(s.failures > 500, "{s:?}");
                let server = &r.tiers[1].totals;
                assert!(server.wasted > 0 && server.successes == 0, "{server:?}");
            }
        }
        let client = json!({"timeout_ms": (2.0 * d) as u64 + 1, "network": legs(d, d)});
        let r = run(one_call(client, 0.0, 0.0), 1);
        assert_eq!(r.summary.successes, 1, "d {d}");
    }
}

#[test]
fn a_network_is_checked_field_by_field() {
    let mut client = json!({"timeout_ms": 100, "network": legs(1.0, 1.0)});
    client["network"]["response"] = json!({"kind": "exponential", "mean_ms": -1});
    let e = cluster::Scenario::problems(&scenario(one_call(client, 1.0, 1.0)));
    let e = e.first().expect("a problem");
    assert_eq!(e.field, "tiers[0].client.network.response.mean_ms");
    assert_eq!(e.value, "-1");
    assert!(e.allowed.contains("3600000"), "{e:?}");
    // A leg left out is named, as a missing field is anywhere.
    let client = json!({"timeout_ms": 100, "network": {"request": {"kind": "constant", "ms": 1}}});
    let mut doc = one_call(client, 1.0, 1.0);
    doc["model"] = json!("cluster");
    let e = retrystorm::scenario::from_value(doc.clone()).unwrap_err();
    assert_eq!(e.field, "tiers[0].client.network.response", "{e:?}");
    // An unknown field is named with the known ones, a value that is not an object at
    // the network, as a derived reader names them.
    doc["tiers"][0]["client"]["network"]["respons"] = json!({"kind": "constant", "ms": 1});
    let e = retrystorm::scenario::from_value(doc.clone()).unwrap_err();
    assert_eq!(e.field, "tiers[0].client.network.respons", "{e:?}");
    assert!(
        e.allowed.contains("`request`") && e.allowed.contains("`response`"),
        "{e:?}"
    );
    doc["tiers"][0]["client"]["network"] = json!(2);
    let e = retrystorm::scenario::from_value(doc).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("tiers[0].client.network", "2"),
        "{e:?}"
    );
    assert_eq!(e.allowed, "an object", "{e:?}");
}

#[test]
fn a_share_link_carries_a_network() {
    let client = json!({"timeout_ms": 100, "max_attempts": 2, "network": legs(0.25, 4.0)});
    let mut v = one_call(client, 1.0, 3.0);
    let state = retrystorm::ShareState {
        model: retrystorm::share::Model::Cluster,
        cluster: Some(v.clone()),
        ..Default::default()
    };
    let back =
        retrystorm::share::decode_checked(&retrystorm::share::encode(&state)).expect("decodes");
    let sc = scenario(back.cluster.expect("a cluster scenario"));
    assert_eq!(sc, scenario(v.clone()));
    assert!(sc.tiers[0].client.as_ref().unwrap().network.is_some());
    assert_eq!(cluster::run(&sc, 3).expect("runs"), run(v.clone(), 3));
    v["tiers"][0]["client"]["network"]["request"]["ms"] = json!(-0.5);
    let state = retrystorm::ShareState {
        cluster: Some(v),
        ..state
    };
    let e = retrystorm::share::decode_checked(&retrystorm::share::encode(&state)).unwrap_err();
    assert_eq!(e.field, "link.cluster.tiers[0].client.network.request.ms");
}
