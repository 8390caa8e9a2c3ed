//! The recovery verdict at any rate and latency: health is judged on arrival
//! cohorts with a noise-aware bound, so a stable system is healthy at 5 requests per
//! second as at 50,000, and slow completions never look like sickness.

use retrystorm::cluster::{self, present, report, verdict, Scenario};
use retrystorm::lang::Lang;
use serde_json::json;

fn scenario(v: serde_json::Value) -> Scenario {
    let s: Scenario = serde_json::from_value(v).expect("scenario");
    s.validate().expect("valid");
    s
}

/// A healthy system that must never be judged sick: one server, 1 s exponential service,
/// Poisson load, a short 1.5× spike that causes no timeout, no retry and no failure.
fn low_rate_spike(rate: f64, bucket_ms: u64) -> Scenario {
    scenario(json!({
        "name": "low-rate spike",
        "seed": 1,
        "duration_ms": 90_000,
        "bucket_ms": bucket_ms,
        "load": {
            "arrivals": "poisson",
            "rate_per_s": rate,
            "schedule": [{"start_ms": 30_000, "end_ms": 33_000, "rate_per_s": rate * 1.5}]
        },
        "tiers": [{
            "name": "server", "instances": 1, "concurrency": 200, "queue_capacity": 100_000,
            "service": {"kind": "exponential", "mean_ms": 1000}
        }]
    }))
}

#[test]
fn a_spike_without_failures_is_recovered_at_low_rates() {
    for rate in [20.0, 60.0] {
        for bucket_ms in [250, 500, 1000, 2000] {
            let s = low_rate_spike(rate, bucket_ms);
            for seed in 1..=8 {
                let r = cluster::run(&s, seed).unwrap();
                let m = &r.summary;
                let tag = format!("rate {rate}, bucket {bucket_ms} ms, seed {seed}: {m:?}");
                // The premise: nothing failed.
                assert_eq!(m.failures, 0, "{tag}");
                assert_eq!(m.trigger_end_ms, Some(33_000), "{tag}");
                assert!(!m.metastable, "{tag}");
                assert!(m.recovery_time_ms.is_some(), "{tag}");
                assert_eq!(m.overload_duration_ms, 0, "{tag}");
                // Text, Markdown and page summary share one recovery row.
                let row = present::recovery(m);
                assert_eq!(row.value, m.recovery_time_ms.map(|t| t as f64), "{tag}");
                let text = report::text(&s, &r);
                assert!(
                    text.contains(&row.text) && !text.contains("metastable"),
                    "{text}"
                );
            }
        }
    }
}

#[test]
fn a_stable_mm1_without_trigger_reports_no_overload() {
    // ρ = 0.5 at rates from 5/s to 5,000/s: no overload, and neither recovery nor
    // metastability claimed, in words that agree.
    for (rate, mean_ms) in [(5.0, 100.0), (50.0, 10.0), (5000.0, 0.1)] {
        let s = scenario(json!({
            "name": "M/M/1", "seed": 1, "duration_ms": 120_000, "bucket_ms": 1000,
            "load": {"arrivals": "poisson", "rate_per_s": rate},
            "tiers": [{
                "name": "server", "instances": 1, "concurrency": 1, "queue_capacity": 100_000,
                "service": {"kind": "exponential", "mean_ms": mean_ms}
            }]
        }));
        for seed in 1..=4 {
            let r = cluster::run(&s, seed).unwrap();
            let m = &r.summary;
            let tag = format!("rate {rate}, seed {seed}: {m:?}");
            assert_eq!(m.overload_duration_ms, 0, "{tag}");
            assert_eq!(m.trigger_end_ms, None, "{tag}");
            assert_eq!(m.recovery_time_ms, None, "{tag}");
            assert!(!m.metastable, "{tag}");
            assert!(m.baseline_success_ratio <= 1.0, "{tag}");
            let text = report::text(&s, &r);
            assert_eq!(present::recovery(m).text, "no trigger");
            assert!(text.contains("no trigger"), "{text}");
            assert!(!text.contains("metastable"), "{text}");
        }
    }
}

#[test]
fn a_system_that_hangs_is_not_recovered_by_pending_requests() {
    // A hang without a deadline: requests wait as long as it lasts.
    let s = scenario(json!({
        "name": "hang", "seed": 1, "duration_ms": 60_000, "bucket_ms": 1000,
        "load": {"arrivals": "poisson", "rate_per_s": 50},
        "tiers": [{
            "name": "server", "instances": 1, "concurrency": 10, "queue_capacity": 100_000,
            "service": {"kind": "exponential", "mean_ms": 10}
        }],
        "faults": [{"tier": 0, "start_ms": 20_000, "duration_ms": 25_000, "effect": {"kind": "hang"}}]
    }));
    let r = cluster::run(&s, 3).unwrap();
    let m = &r.summary;
    // After the hang the server answers again (the held requests fail when it ends):
    // recovered, at the first bucket after it.
    assert!(!m.metastable, "{m:?}");
    assert_eq!(m.recovery_time_ms, Some(0), "{m:?}");
    // The hang's cohorts were judged unhealthy (their requests failed when the hang
    // ended), 25 s of them.
    assert_eq!(m.overload_duration_ms, 25_000, "{m:?}");
    // The same hang lasting past the end: the cohorts older than late_ms are failures,
    // the rest carry their verdict; metastable.
    let mut long = s.clone();
    long.faults[0].duration_ms = 100_000;
    let r = cluster::run(&long, 3).unwrap();
    assert!(r.summary.pending_at_end > 1000, "{:?}", r.summary);
    assert!(r.summary.metastable, "{:?}", r.summary);
    assert_eq!(r.summary.overload_duration_ms, 40_000, "{:?}", r.summary);
}

#[test]
fn cohorts_credit_outcomes_to_the_arrival_bucket() {
    let s = low_rate_spike(20.0, 1000);
    let r = cluster::run(&s, 5).unwrap();
    let mut ok = 0;
    for b in &r.buckets {
        let c = &b.cohort;
        // Every arrival is accounted for: succeeded, failed, or pending at the end.
        assert_eq!(
            c.successes + c.failures + c.pending,
            b.tiers[0].first_attempts
        );
        assert_eq!(c.attempts[0], b.tiers[0].first_attempts);
        ok += c.successes;
    }
    assert_eq!(ok, r.summary.successes);
}

/// A server that collapses before any trigger: three times the load it can serve, with
/// retries on top, then a short outage at 60 s.
fn collapsed_before_the_trigger() -> Scenario {
    scenario(json!({
        "name": "collapsed", "seed": 1, "duration_ms": 90_000, "bucket_ms": 1000,
        "load": {"arrivals": "poisson", "rate_per_s": 300},
        "tiers": [
            {
                "name": "client", "instances": 1, "concurrency": 10_000, "queue_capacity": 0,
                "service": {"kind": "constant", "ms": 0},
                "client": {
                    "timeout_ms": 500, "max_attempts": 3,
                    "backoff": {"kind": "constant", "ms": 50}, "jitter": {"kind": "none"},
                    "retry_on": ["timeout", "overload", "error"]
                }
            },
            {
                "name": "server", "instances": 1, "concurrency": 1, "queue_capacity": 50,
                "service": {"kind": "constant", "ms": 10}
            }
        ],
        "faults": [{"tier": 1, "start_ms": 60_000, "duration_ms": 2_000, "effect": {"kind": "outage"}}]
    }))
}

#[test]
fn a_steady_state_already_collapsed_is_neither_recovered_nor_metastable() {
    let s = collapsed_before_the_trigger();
    let r = cluster::run(&s, 1).unwrap();
    let m = &r.summary;
    // The premise: most requests fail before the outage.
    assert!(m.baseline_success_ratio < 0.5, "{m:?}");
    assert_eq!(m.recovery_time_ms, None, "{m:?}");
    assert!(!m.metastable, "{m:?}");
    let line = verdict::line(m, Lang::En);
    assert!(line.starts_with("Unhealthy before the trigger: "), "{line}");
    let text = report::text(&s, &r);
    assert!(
        !text.contains("Recovered after") && !text.contains("metastable"),
        "{text}"
    );
    assert_eq!(present::recovery(m).text, "unhealthy before the trigger");
}

/// One server at 200 requests/s and an outage at 20 s of `outage_ms`: requests fail at
/// once while it lasts and succeed as soon as it ends.
fn short_outage(outage_ms: u64) -> Scenario {
    scenario(json!({
        "name": "short outage", "seed": 1, "duration_ms": 40_000, "bucket_ms": 1000,
        "load": {"arrivals": "poisson", "rate_per_s": 200},
        "tiers": [{
            "name": "server", "instances": 1, "concurrency": 50, "queue_capacity": 1000,
            "service": {"kind": "constant", "ms": 5}
        }],
        "faults": [{"tier": 0, "start_ms": 20_000, "duration_ms": outage_ms, "effect": {"kind": "outage"}}]
    }))
}

#[test]
fn recovery_is_measured_at_the_resolution_of_events_not_buckets() {
    // Buckets of 1 s: the outage ends mid-bucket, and nothing fails once it has ended, so
    // the recovery is immediate whatever its length (bucket starts would say 500 ms for
    // the 500 ms outage and 160 ms for the longer 840 ms one).
    for outage_ms in [500, 840] {
        let r = cluster::run(&short_outage(outage_ms), 1).unwrap();
        let m = &r.summary;
        assert!(m.failures > 50, "{outage_ms}: {m:?}");
        assert_eq!(m.trigger_end_ms, Some(20_000 + outage_ms), "{m:?}");
        assert_eq!(m.recovery_time_ms, Some(0), "{outage_ms}: {m:?}");
    }
}

#[test]
fn the_goodput_recovery_is_reported_beside_the_cohorts_and_named() {
    // Every request takes 2 s: the first ones that arrive after the outage succeed, so
    // the cohorts recover at once, but no success completes for 2 s after it ends: a
    // reader comparing with a successes-per-second chart needs both figures, named.
    let s = scenario(json!({
        "name": "slow service outage", "seed": 1, "duration_ms": 60_000, "bucket_ms": 1000,
        "load": {"arrivals": "poisson", "rate_per_s": 100},
        "tiers": [{
            "name": "server", "instances": 1, "concurrency": 1000, "queue_capacity": 1000,
            "service": {"kind": "constant", "ms": 2000}
        }],
        "faults": [{"tier": 0, "start_ms": 20_000, "duration_ms": 5_000, "effect": {"kind": "outage"}}]
    }));
    let r = cluster::run(&s, 1).unwrap();
    let m = &r.summary;
    assert_eq!(m.recovery_time_ms, Some(0), "{m:?}");
    let rows = present::metrics(&r);
    let row = |label: &str| {
        rows.iter()
            .find(|x| x.label == label)
            .unwrap_or_else(|| panic!("{label}: {rows:?}"))
            .text
            .clone()
    };
    assert_eq!(row("recovery time (cohorts)"), "0.0 s");
    assert_eq!(row("recovery time (goodput)"), "2.0 s");
    let text = report::text(&s, &r);
    assert!(text.contains("recovery time (goodput)"), "{text}");
}

#[test]
fn goodput_that_never_comes_back_is_not_recovered_at_low_rates() {
    // DesCartes' M/M/1 storm (9.3 requests a second, 1 s buckets): after the spike the
    // queue stays full and successes stay near zero to the end. At this rate a single
    // bucket's expected successes (about 9) are within three standard deviations of 0, so
    // no one bucket can be judged low; the rule must judge windows of buckets instead of
    // calling such a run recovered at once.
    let s = scenario(json!({
        "name": "low-rate storm", "seed": 1, "duration_ms": 400_000,
        "load": {"arrivals": "poisson", "rate_per_s": 9.3,
            "schedule": [{"start_ms": 120_000, "end_ms": 125_000, "rate_per_s": 30}]},
        "tiers": [
            {"name": "clients", "instances": 1, "concurrency": 100_000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0},
             "client": {"timeout_ms": 4000, "max_attempts": 4, "backoff": {"kind": "none"},
                "jitter": {"kind": "none"}, "retry_on": ["timeout"]}},
            {"name": "server", "instances": 1, "concurrency": 1, "queue_capacity": 100,
             "service": {"kind": "exponential", "mean_ms": 100}}
        ],
        "steady": {"warmup_ms": 0}
    }));
    for seed in [1, 2, 3, 6] {
        let r = cluster::run(&s, seed).unwrap();
        let m = &r.summary;
        assert!(m.metastable, "seed {seed}: {m:?}");
        assert_eq!(m.goodput_recovery_ms, None, "seed {seed}: {m:?}");
    }
    // The same rate without the spike's storm is judged, and recovered: the windows do
    // not make a healthy low-rate run unrecoverable.
    let mut calm = s.clone();
    calm.load.schedule[0].rate_per_s = 12.0;
    let r = cluster::run(&calm, 1).unwrap();
    assert!(!r.summary.metastable, "{:?}", r.summary);
    assert!(r.summary.goodput_recovery_ms.is_some(), "{:?}", r.summary);
}
