//! Seed 004's product, exactly: 4 layers × 3 attempts each, database down, so the
//! database sees 3 × 3 × 3 × 3 = 81 attempts per entry request.

use retrystorm::cluster::{
    self, Breaker, Client, Dist, Fault, FaultEffect, Load, Scenario, Steady, Tier,
};

fn client() -> Client {
    serde_json::from_str(r#"{"timeout_ms": 2000, "max_attempts": 3}"#).unwrap()
}

fn tier(name: &str, last: bool) -> Tier {
    Tier {
        name: name.into(),
        instances: 3,
        concurrency: 100_000,
        queue_capacity: 0,
        queue_timeout_ms: None,
        service: Dist::Constant { ms: 1.0 },
        slowdown_per_in_flight: 0.0,
        error_rate: 0.0,
        balancer: Default::default(),
        client: (!last).then(client),
        ..Tier::default()
    }
}

fn chain(rate: f64, load_ms: u64) -> Scenario {
    Scenario {
        name: "81x".into(),
        description: String::new(),
        seed: 4,
        duration_ms: load_ms + 60_000,
        bucket_ms: 1000,
        max_events: 50_000_000,
        load: serde_json::from_value::<Load>(serde_json::json!({
            "arrivals": "constant",
            "rate_per_s": 0,
            "schedule": [{"start_ms": 0, "end_ms": load_ms, "rate_per_s": rate}]
        }))
        .unwrap(),
        tiers: vec![
            tier("gateway", false),
            tier("a", false),
            tier("b", false),
            tier("c", false),
            tier("database", true),
        ],
        faults: vec![Fault {
            tier: 4,
            start_ms: 0,
            duration_ms: load_ms + 60_000,
            instances: None,
            effect: FaultEffect::Outage,
        }],
        steady: Steady::default(),
    }
}

#[test]
fn database_sees_exactly_81_times_the_entry_load() {
    let s = chain(200.0, 10_000);
    let r = cluster::run(&s, 1).unwrap();
    let entry = r.tiers[0].totals.first_attempts;
    assert_eq!(entry, 2000);
    let db = r.tiers[4].totals.attempts();
    assert_eq!(db, 81 * entry, "database attempts");
    // Layer by layer: 3, 9, 27, 81 attempts per entry request.
    let per: Vec<u64> = r
        .tiers
        .iter()
        .map(|t| t.totals.attempts() / entry)
        .collect();
    assert_eq!(per, vec![1, 3, 9, 27, 81]);
    for t in &r.tiers {
        assert_eq!(t.totals.attempts() % entry, 0);
    }
    assert_eq!(r.summary.failures, entry);
    assert_eq!(r.summary.pending_at_end, 0);
    // Every database attempt failed fast with an error.
    assert_eq!(r.tiers[4].totals.errors, db);
}

#[test]
fn with_a_breaker_at_the_bottom_the_product_collapses() {
    let mut s = chain(200.0, 10_000);
    s.tiers[3].client.as_mut().unwrap().breaker = Breaker::Consecutive {
        failures: 5,
        open_ms: 60_000,
        open_jitter_ms: 0,
        half_open_calls: 1,
        scope: cluster::Scope::Shared,
    };
    let r = cluster::run(&s, 1).unwrap();
    assert_eq!(r.tiers[4].totals.attempts(), 5);
}
