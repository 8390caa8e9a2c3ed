//! The shipped cluster scenarios: each loads, validates, and shows what its description says.

use retrystorm::cluster::{self, report, RunResult, Scenario};

fn load(text: &str) -> Scenario {
    let head: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(18)
        .collect();
    assert!(
        head.starts_with("{\"model\":\"cluster\""),
        "model is the first key: {head}"
    );
    let mut v: serde_json::Value = serde_json::from_str(text).expect("scenario JSON");
    let obj = v.as_object_mut().expect("an object");
    assert_eq!(
        obj.remove("model"),
        Some(serde_json::Value::from("cluster"))
    );
    serde_json::from_value(v).expect("a cluster scenario")
}

fn run(text: &str) -> (Scenario, RunResult) {
    let s = load(text);
    let r = cluster::run(&s, s.seed).expect("runs");
    (s, r)
}

const NAIVE: &str = include_str!("../../scenarios/cluster-gc-stampede-naive.json");
const FIXED: &str = include_str!("../../scenarios/cluster-gc-stampede-fixed.json");

const RATIO_FIXED: &str = include_str!("../../scenarios/cluster-ratio-budget-fixed-retry.json");
const RATIO_JITTER: &str = include_str!("../../scenarios/cluster-ratio-budget-jitter.json");
const CHAIN: &str = include_str!("../../scenarios/cluster-call-chain.json");
const META: &str = include_str!("../../scenarios/cluster-metastable.json");
const META_BUDGET: &str = include_str!("../../scenarios/cluster-metastable-budget.json");
const ALL: [&str; 7] = [
    NAIVE,
    FIXED,
    RATIO_FIXED,
    RATIO_JITTER,
    CHAIN,
    META,
    META_BUDGET,
];

#[test]
fn every_scenario_validates_and_round_trips() {
    for t in ALL {
        let s = load(t);
        s.validate().expect("valid");
        assert!(!s.description.is_empty());
        let back: Scenario = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
    }
}

#[test]
fn naive_stampede_surges_and_never_recovers() {
    let (_, r) = run(NAIVE);
    let s = &r.summary;
    let pods = &r.tiers[1];
    assert!(
        pods.peak_arrival_ratio >= 3.0,
        "surge {}",
        pods.peak_arrival_ratio
    );
    assert!(s.metastable, "{s:?}");
    assert!(s.recovery_time_ms.is_none());
    assert!(
        s.overload_duration_ms >= 40_000,
        "{}",
        s.overload_duration_ms
    );
    // The breakers re-trip again and again (re-collapse), not once.
    assert!(
        r.tiers[0].breaker_openings >= 100,
        "{}",
        r.tiers[0].breaker_openings
    );
}

#[test]
fn fixed_stampede_recovers_within_seconds() {
    let (_, r) = run(FIXED);
    let s = &r.summary;
    assert!(!s.metastable, "{s:?}");
    assert!(s.recovery_time_ms.is_some_and(|t| t <= 5_000), "{s:?}");
    assert!(
        r.tiers[1].peak_arrival_ratio < 1.5,
        "{}",
        r.tiers[1].peak_arrival_ratio
    );
    assert!(s.success_ratio > 0.97, "{}", s.success_ratio);
}

#[test]
fn ratio_budget_scenarios() {
    let (_, naive) = run(RATIO_FIXED);
    let (_, fixed) = run(RATIO_JITTER);
    assert!(naive.summary.metastable);
    assert!(!fixed.summary.metastable);
    assert!(fixed.summary.success_ratio > naive.summary.success_ratio + 0.3);
    // The 10% budget (plus its 100-request free sample) bounds retries over the run.
    let db = &fixed.tiers[1].totals;
    assert!(db.retries * 10 <= db.first_attempts + 100 * 80, "{db:?}");
    // 500s are never retried by the fixed client.
    assert!(db.budget_rejected > 0);
}

#[test]
fn call_chain_amplifies_toward_the_bottom_and_recovers() {
    let (_, r) = run(CHAIN);
    let peaks: Vec<f64> = r.tiers.iter().map(|t| t.peak_arrival_ratio).collect();
    // Each layer multiplies: A < B < C during the outage.
    assert!(
        peaks[1] > 2.0 && peaks[2] > 2.0 * peaks[1] * 0.9 && peaks[3] > 2.0 * peaks[2] * 0.9,
        "{peaks:?}"
    );
    // C's breaker shields the database: it rejects most calls during the outage.
    assert!(r.tiers[4].totals.breaker_rejected > r.tiers[4].totals.attempts());
    assert!(r.tiers[3].breaker_openings >= 4);
    assert!(!r.summary.metastable);
}

#[test]
fn metastable_and_its_budget() {
    let (_, m) = run(META);
    let (_, b) = run(META_BUDGET);
    assert!(m.summary.metastable, "{:?}", m.summary);
    assert!(!b.summary.metastable, "{:?}", b.summary);
    assert!(b.summary.recovery_time_ms.is_some_and(|t| t <= 15_000));
    // After the trigger the naive system still offers ~4 attempts per request.
    let tail = &m.buckets[m.buckets.len() - 10..];
    let (a, f): (u64, u64) = tail.iter().fold((0, 0), |(a, f), x| {
        (a + x.tiers[1].attempts(), f + x.tiers[0].first_attempts)
    });
    assert!(a as f64 / f as f64 > 3.5);
}

#[test]
fn reports_render() {
    let (s, r) = run(FIXED);
    let t = report::text(&s, &r);
    assert!(t.contains("GC-pause stampede (fixed)") && t.contains("orders"));
    let m = report::markdown_summary(&r);
    assert!(m.starts_with("| metric | value |"));
    let c = report::csv_buckets(&r);
    assert_eq!(c.lines().count(), 1 + r.buckets.len() * r.tiers.len());
    assert!(c.lines().nth(1).unwrap().starts_with("0,gateway,"));
}
