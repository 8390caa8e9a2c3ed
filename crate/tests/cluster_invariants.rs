//! Invariants on random scenarios, determinism, and robustness against bad input.

use proptest::prelude::*;
use retrystorm::cluster::{self, RunResult, Scenario, Simulation};
use retrystorm::rng::JavaRandom;
use serde_json::{json, Value};

/// A random but valid scenario whose load stops early enough that everything drains.
fn random_scenario(seed: u64) -> Value {
    let mut r = JavaRandom::new(seed as i64);
    let mut int = |lo: i32, hi: i32| lo + r.next_int_bounded(hi - lo + 1).unwrap_or(0);
    let n_tiers = int(1, 3) as usize;
    let mut tiers = vec![];
    for k in 0..n_tiers {
        let service = match int(0, 2) {
            0 => json!({"kind": "constant", "ms": int(0, 20)}),
            1 => json!({"kind": "exponential", "mean_ms": int(1, 20)}),
            _ => json!({"kind": "lognormal", "p50_ms": int(1, 10), "p99_ms": int(10, 60)}),
        };
        let mut t = json!({
            "name": format!("t{k}"),
            "instances": int(1, 5),
            "concurrency": int(1, 20),
            "queue_capacity": int(0, 50),
            "service": service,
            "slowdown_per_in_flight": int(0, 10) as f64 / 1000.0,
            "error_rate": int(0, 20) as f64 / 100.0,
            "balancer": if int(0, 1) == 0 { "round_robin" } else { "random" },
        });
        if int(0, 1) == 1 {
            t["queue_timeout_ms"] = json!(int(1, 300));
        }
        if k + 1 < n_tiers {
            let backoff = match int(0, 3) {
                0 => json!({"kind": "none"}),
                1 => json!({"kind": "fixed", "delays_ms": [int(0, 50), int(0, 100)]}),
                2 => json!({"kind": "constant", "ms": int(0, 50)}),
                _ => {
                    json!({"kind": "exponential", "base_ms": int(1, 20), "multiplier": 2.0, "cap_ms": 200})
                }
            };
            let jitter = match int(0, 4) {
                0 => json!({"kind": "none"}),
                1 => json!({"kind": "full"}),
                2 => json!({"kind": "equal"}),
                3 => json!({"kind": "decorrelated"}),
                _ => json!({"kind": "percent", "percent": int(0, 50)}),
            };
            let scope = if int(0, 1) == 0 {
                "per_instance"
            } else {
                "shared"
            };
            let budget = match int(0, 8) {
                0 => json!({"kind": "none"}),
                1 => {
                    json!({"kind": "capacity_percent", "percent": 10, "capacity_per_s": int(0, 500), "scope": scope})
                }
                2 => {
                    json!({"kind": "token_bucket", "percent": 20, "max_tokens": int(1, 10), "scope": scope})
                }
                3 => {
                    json!({"kind": "grpc_throttle", "max_tokens": 10, "token_ratio": 0.1, "scope": scope})
                }
                4 => {
                    json!({"kind": "windowed", "ttl_ms": 2000, "min_retries_per_sec": int(0, 5), "percent_can_retry": 20, "scope": scope})
                }
                5 => {
                    json!({"kind": "ratio", "ratio_percent": 10, "window_ms": int(0, 1) * 1000, "min_requests": int(0, 20), "scope": scope})
                }
                6 => json!({"kind": "aws_quota", "initial_tokens": int(5, 50), "scope": scope}),
                7 => {
                    json!({"kind": "envoy_retry_budget", "budget_percent": int(0, 50), "min_retry_concurrency": int(0, 3), "scope": scope})
                }
                _ => json!({"kind": "envoy_max_retries", "max_retries": int(0, 3), "scope": scope}),
            };
            let breaker = match int(0, 5) {
                0 => json!({"kind": "none"}),
                1 => {
                    json!({"kind": "consecutive", "failures": int(1, 5), "open_ms": int(10, 500), "open_jitter_ms": int(0, 100), "half_open_calls": int(1, 3), "scope": scope})
                }
                2 => {
                    json!({"kind": "resilience4j", "window": "count", "window_size": int(1, 20), "minimum_calls": int(1, 10),
                            "failure_rate_percent": 50, "slow_call_ms": int(1, 100), "slow_call_rate_percent": 80,
                            "wait_open_ms": int(10, 500), "open_jitter_ms": int(0, 100), "half_open_calls": int(1, 3),
                            "ramp_stage_ms": int(10, 300), "scope": scope})
                }
                3 => {
                    json!({"kind": "resilience4j", "window": "time", "window_size": int(1, 3), "minimum_calls": int(1, 10),
                            "failure_rate_percent": 50, "wait_open_ms": int(10, 500), "half_open_calls": int(1, 3), "scope": scope})
                }
                4 => json!({"kind": "sre_adaptive", "k": 2.0, "window_ms": 2000, "scope": scope}),
                _ => {
                    json!({"kind": "polly", "failure_ratio": int(1, 10) as f64 / 10.0, "minimum_throughput": int(2, 10),
                            "sampling_duration_ms": int(500, 3000), "break_duration_ms": int(500, 1000), "scope": scope})
                }
            };
            let all = ["timeout", "overload", "error", "breaker_rejected"];
            let retry_on: Vec<&str> = all.iter().copied().filter(|_| int(0, 1) == 1).collect();
            let mut c = json!({
                "timeout_ms": int(5, 400),
                "deadline_propagation": int(0, 1) == 1,
                "max_attempts": int(1, 4),
                "backoff": backoff,
                "jitter": jitter,
                "retry_on": retry_on,
                "idempotent_only": int(0, 1) == 1,
                "no_retry_while_breaker_open": int(0, 1) == 1,
                "budget": budget,
                "breaker": breaker,
            });
            if int(0, 1) == 1 {
                c["bulkhead"] = json!({"max_concurrent": int(1, 10), "max_queue": int(0, 10), "max_wait_ms": int(0, 100)});
            }
            t["client"] = c;
        }
        tiers.push(t);
    }
    let load_ms = int(200, 3000) as u64;
    let mut faults = vec![];
    for _ in 0..int(0, 3) {
        let effect = match int(0, 5) {
            0 => json!({"kind": "outage"}),
            1 => json!({"kind": "hang"}),
            2 => json!({"kind": "pause"}),
            3 => json!({"kind": "brownout", "factor": 0.3}),
            4 => json!({"kind": "error_rate", "rate": 0.5}),
            _ => json!({"kind": "latency", "added_ms": int(1, 100)}),
        };
        faults.push(
            json!({"tier": int(0, n_tiers as i32 - 1), "start_ms": int(0, load_ms as i32),
                           "duration_ms": int(0, 1000), "effect": effect}),
        );
    }
    let mut load = json!({
        "arrivals": if int(0, 1) == 0 { "poisson" } else { "constant" },
        "rate_per_s": 0,
        "schedule": [{"start_ms": 0, "end_ms": load_ms, "rate_per_s": int(10, 400), "to_rate_per_s": int(10, 400)}],
        "idempotent_fraction": int(0, 10) as f64 / 10.0,
    });
    if int(0, 1) == 1 {
        load["deadline_ms"] = json!(int(20, 2000));
    }
    json!({
        "name": "random",
        "seed": seed as i64,
        "duration_ms": load_ms + 20_000,
        "bucket_ms": if int(0, 1) == 0 { 100 } else { 1000 },
        "max_events": 5_000_000,
        "load": load,
        "tiers": tiers,
        "faults": faults,
    })
}

fn scenario(v: Value) -> Scenario {
    serde_json::from_value(v).expect("generator builds valid JSON")
}

fn check_invariants(s: &Scenario, r: &RunResult) {
    let sm = &r.summary;
    // Every entry request ended exactly once: successes + failures counted at the end of
    // each request equal the requests sent, nothing pending once the load has drained.
    assert_eq!(sm.pending_at_end, 0, "{sm:?}");
    assert_eq!(sm.successes + sm.failures, sm.requests);
    let t0 = &r.tiers[0].totals;
    assert_eq!(t0.first_attempts, sm.requests);
    assert_eq!(t0.retries, 0);
    assert_eq!(t0.successes, sm.successes);
    assert_eq!(t0.failures(), sm.failures);
    for (k, t) in r.tiers.iter().enumerate() {
        let x = &t.totals;
        // Conservation per tier: attempts in = outcomes out + still pending (counted
        // independently from the live jobs).
        assert_eq!(
            x.attempts(),
            x.successes + x.failures() + t.pending_at_end,
            "tier {k}: {x:?}"
        );
        assert_eq!(t.pending_at_end, 0);
        assert_eq!(x.queue_depth, 0);
        assert_eq!(x.in_flight, 0, "tier {k} holds requests after draining");
        let inst = s.tiers[k].instances;
        for b in &r.buckets {
            let bt = &b.tiers[k];
            assert_eq!(
                bt.breakers_open + bt.breakers_half_open + bt.breakers_closed,
                inst
            );
        }
        if k > 0 {
            // A first attempt is made once per served request of the tier above that
            // reached its call; never more first attempts than the caller tier's attempts.
            assert!(x.first_attempts <= r.tiers[k - 1].totals.attempts());
            // Every call the caller tier wanted to make (sent, or refused by its breaker or
            // bulkhead) belongs to a job that made at most `max_attempts` of them, and each
            // such job's first call was a sent first attempt or a refused one.
            let max_attempts = s.tiers[k - 1].client.as_ref().unwrap().max_attempts as u64;
            let refused = x.breaker_rejected + x.bulkhead_rejected;
            assert!(
                x.attempts() + refused <= (x.first_attempts + refused) * max_attempts,
                "tier {k}: {x:?}"
            );
        }
        // Success of tier k+1 attempts can only feed successes of tier k.
        if k + 1 < r.tiers.len() {
            assert!(r.tiers[k + 1].totals.successes >= x.successes);
        }
    }
    let sum: u64 = r.buckets.iter().map(|b| b.tiers[0].first_attempts).sum();
    assert_eq!(sum, sm.requests);
    // Cohorts: every request is credited once to its arrival bucket, and (drained) ended.
    let ok: u64 = r.buckets.iter().map(|b| b.cohort.successes).sum();
    let failed: u64 = r.buckets.iter().map(|b| b.cohort.failures).sum();
    assert_eq!((ok, failed), (sm.successes, sm.failures));
    // Per-bucket latency moments count every request once, in the bucket it ended in.
    let ended: (u64, u64) = r.buckets.iter().fold((0, 0), |(a, b), x| {
        (a + x.success_latency.count, b + x.failure_latency.count)
    });
    assert_eq!(ended, (sm.successes, sm.failures));
    for (k, t) in r.tiers.iter().enumerate() {
        let x = &t.totals;
        let cohort: u64 = r.buckets.iter().map(|b| b.cohort.attempts[k]).sum();
        assert_eq!(cohort, x.attempts(), "tier {k}: every attempt has a cohort");
        // Queueing figures: a service ends only after it started; the queue is part of
        // what the tier holds; busy slots never exceed the slots.
        assert!(x.services_ended <= x.services_started, "tier {k}: {x:?}");
        assert!(x.queue_us <= x.in_flight_us, "tier {k}: {x:?}");
        assert!(x.busy_us <= x.in_flight_us, "tier {k}: {x:?}");
        assert!(
            (0.0..=1.0).contains(&t.utilisation),
            "tier {k}: {}",
            t.utilisation
        );
        let inst = &s.tiers[k];
        assert_eq!(
            t.slots,
            u64::from(inst.instances) * u64::from(inst.concurrency)
        );
        assert_eq!(
            (x.queue_depth, x.in_flight, x.breakers_open),
            (0, 0, 0),
            "totals carry no snapshots"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_scenarios_keep_the_invariants(seed in any::<u64>()) {
        let s = scenario(random_scenario(seed));
        let r = cluster::run(&s, s.seed).unwrap();
        check_invariants(&s, &r);
    }

    #[test]
    fn time_never_goes_backwards_and_slicing_does_not_matter(seed in any::<u64>(), slice in 1u64..5000) {
        let s = scenario(random_scenario(seed));
        let mut sim = Simulation::new(&s, s.seed).unwrap();
        let mut last = 0;
        loop {
            let done = sim.advance(slice).unwrap();
            prop_assert!(sim.now_us() >= last);
            last = sim.now_us();
            let p = sim.progress();
            prop_assert!((0.0..=1.0).contains(&p));
            if done { break; }
        }
        prop_assert_eq!(sim.progress(), 1.0);
        let sliced = sim.finish();
        let whole = cluster::run(&s, s.seed).unwrap();
        prop_assert_eq!(serde_json::to_string(&sliced).unwrap(), serde_json::to_string(&whole).unwrap());
    }

    #[test]
    fn mutated_json_never_panics(seed in any::<u64>(), path in 0usize..64, val in prop_oneof![
        Just(json!(null)), Just(json!(-1)), Just(json!(0)), Just(json!(1e308)), Just(json!(u64::MAX)),
        Just(json!("x")), Just(json!([])), Just(json!({})), Just(json!(0.5)), Just(json!(4_000_000_000u64)),
    ]) {
        let mut v = random_scenario(seed);
        // Replace the `path`-th scalar (depth-first) by `val`.
        fn walk(v: &mut Value, n: &mut usize, target: usize, val: &Value) {
            match v {
                Value::Object(m) => for (_, x) in m.iter_mut() { walk(x, n, target, val) },
                Value::Array(a) => for x in a.iter_mut() { walk(x, n, target, val) },
                _ => { if *n == target { *v = val.clone(); } *n += 1; }
            }
        }
        let mut n = 0;
        walk(&mut v, &mut n, path, &val);
        if let Ok(s) = serde_json::from_value::<Scenario>(v) {
            if s.validate().is_ok() {
                let mut s = s;
                s.max_events = s.max_events.min(200_000);
                let _ = cluster::run(&s, 1);
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = serde_json::from_str::<Scenario>(&text);
    }
}

#[test]
fn same_seed_same_bytes() {
    let s = scenario(random_scenario(77));
    let a = serde_json::to_string(&cluster::run(&s, 5).unwrap()).unwrap();
    let b = serde_json::to_string(&cluster::run(&s, 5).unwrap()).unwrap();
    assert_eq!(a, b);
    let back: RunResult = serde_json::from_str(&a).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), a);
}

#[test]
fn shipped_scenario_is_deterministic() {
    let text = include_str!("../../scenarios/cluster-metastable.json");
    let mut v: Value = serde_json::from_str(text).unwrap();
    v.as_object_mut().unwrap().remove("model");
    let s: Scenario = serde_json::from_value(v).unwrap();
    let a = cluster::run(&s, s.seed).unwrap();
    let b = cluster::run(&s, s.seed).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, cluster::run(&s, s.seed + 1).unwrap());
}

#[test]
fn event_bound_is_a_clear_error_and_quick() {
    let mut v = random_scenario(3);
    v["duration_ms"] = json!(86_400_000u64);
    v["load"] = json!({"rate_per_s": 10_000_000});
    v["max_events"] = json!(100_000);
    v["bucket_ms"] = json!(1000);
    let s = scenario(v);
    let e = cluster::run(&s, 1).unwrap_err();
    assert_eq!(e.field, "max_events");
    assert!(e.to_string().contains("needs more than max_events"), "{e}");
    // The steppable form reports it too, and keeps reporting it.
    let mut sim = Simulation::new(&s, 1).unwrap();
    let mut err = None;
    for _ in 0..1000 {
        match sim.advance(10_000) {
            Ok(true) => break,
            Ok(false) => {}
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    assert_eq!(err.unwrap().field, "max_events");
    // Quick because it stops at the bound: exactly max_events events were processed.
    assert_eq!(sim.events(), 100_000);
    assert!(sim.advance(1).is_err());
}

#[test]
fn validation_names_fields_and_ranges() {
    let mut v = random_scenario(4);
    v["tiers"] = json!([
        {"name": "a", "instances": 1, "concurrency": 1, "queue_capacity": 0, "service": {"kind": "constant", "ms": 1},
         "client": {"timeout_ms": 0}},
        {"name": "b", "instances": 1, "concurrency": 1, "queue_capacity": 0, "service": {"kind": "constant", "ms": 1}}
    ]);
    v["faults"] = json!([]);
    let e = scenario(v.clone()).validate().unwrap_err();
    assert_eq!(e.field, "tiers[0].client.timeout_ms");
    assert!(e.to_string().contains("1..=3600000"), "{e}");
    v["tiers"][0]["client"]["timeout_ms"] = json!(100);
    v["tiers"][0]["client"]["breaker"] = json!({"kind": "resilience4j", "window_size": 0, "minimum_calls": 1,
        "failure_rate_percent": 50, "wait_open_ms": 1, "half_open_calls": 1});
    assert_eq!(
        scenario(v.clone()).validate().unwrap_err().field,
        "tiers[0].client.breaker.window_size"
    );
    v["tiers"][0]["client"]["breaker"] = json!({"kind": "none"});
    v["max_events"] = json!(200_000_001u64);
    assert_eq!(
        scenario(v.clone()).validate().unwrap_err().field,
        "max_events"
    );
    v["max_events"] = json!(1000);
    v["tiers"][1]["client"] = json!({"timeout_ms": 5});
    assert_eq!(
        scenario(v.clone()).validate().unwrap_err().field,
        "tiers[1].client"
    );
    // Unknown fields are rejected, at the top and deep inside.
    let mut w = random_scenario(4);
    w["model"] = json!("cluster");
    assert!(serde_json::from_value::<Scenario>(w).is_err());
    let mut w = random_scenario(4);
    w["tiers"][0]["service"]["mean"] = json!(3);
    assert!(serde_json::from_value::<Scenario>(w).is_err());
    let mut w = random_scenario(4);
    w["load"]["burst"] = json!(3);
    assert!(serde_json::from_value::<Scenario>(w).is_err());
}

#[test]
fn many_seeds_of_one_scenario_all_drain() {
    let s = scenario(random_scenario(11));
    for seed in 0..20 {
        let r = cluster::run(&s, seed).unwrap();
        check_invariants(&s, &r);
    }
}
