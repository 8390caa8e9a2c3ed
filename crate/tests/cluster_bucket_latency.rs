//! Per-bucket end-to-end latency percentiles of the cluster model: what the playground's
//! latency-over-time chart draws.

use retrystorm::cluster::{self, Scenario};

fn scenario(faults: &str) -> Scenario {
    let text = format!(
        r#"{{"name":"one tier","seed":1,"duration_ms":20000,
            "load":{{"arrivals":"constant","rate_per_s":1000}},
            "tiers":[{{"name":"svc","instances":2,"concurrency":100,"queue_capacity":5000,
                       "service":{{"kind":"constant","ms":5}}}}],
            "faults":[{faults}]}}"#
    );
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_constant_service_time_gives_it_in_every_bucket() {
    let r = cluster::run(&scenario(""), 1).unwrap();
    let run = &r.summary.latency_ms;
    assert!(run.p50 > 4.9 && run.p50 < 5.1, "{run:?}");
    for b in &r.buckets {
        assert!(b.tiers[0].successes > 0);
        // Every success took the same time, so each bucket's percentiles are the run's.
        assert_eq!(&b.latency_ms, run, "bucket at {} ms", b.start_ms);
    }
}

#[test]
fn a_pause_shows_in_the_buckets_after_it_and_empty_buckets_are_zero() {
    let r = cluster::run(
        &scenario(r#"{"tier":0,"start_ms":10000,"duration_ms":1500,"effect":{"kind":"pause"}}"#),
        1,
    )
    .unwrap();
    let at = |ms: u64| r.buckets.iter().find(|b| b.start_ms == ms).unwrap();
    // Before the pause: the service time. During it nothing completes: all zero.
    assert!(at(5000).latency_ms.p99 < 5.1);
    assert_eq!(at(10000).tiers[0].successes, 0);
    assert_eq!(at(10000).latency_ms, Default::default());
    // The first bucket after the pause holds the requests that waited through it.
    let after = &at(11000).latency_ms;
    assert!(after.p99 > 1000.0 && after.p99 <= 1600.0, "{after:?}");
    assert!(after.p50 <= after.p90 && after.p90 <= after.p99 && after.p99 <= after.p999);
    // And the run's tail includes them.
    assert!(r.summary.latency_ms.p999 >= after.p50);
    // Later the system is back to the service time.
    assert!(at(15000).latency_ms.p99 < 5.1);
}

#[test]
fn bucket_latency_is_deterministic_and_survives_json() {
    let sc = scenario(r#"{"tier":0,"start_ms":3000,"duration_ms":700,"effect":{"kind":"pause"}}"#);
    let a = cluster::run(&sc, 9).unwrap();
    let text = serde_json::to_string(&a).unwrap();
    assert_eq!(
        text,
        serde_json::to_string(&cluster::run(&sc, 9).unwrap()).unwrap()
    );
    let back: cluster::RunResult = serde_json::from_str(&text).unwrap();
    assert_eq!(back, a);
}
