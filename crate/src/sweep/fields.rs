//! The numeric fields of a scenario a sweep can vary, with the range validation allows
//! for each in this scenario: what the page's sweep panel lists, so no range is written
//! twice. Every bound is the named constant validation uses; a bound that depends on
//! another field (`outage.to_s` ≤ `duration_s`, `clients × duration_s` ≤
//! [`classic::MAX_REQUESTS`](crate::classic::scenario::MAX_REQUESTS)) is computed from
//! this scenario's other fields, as validation computes it.

use crate::classic::scenario as cs;
use crate::cluster::scenario as ks;
use crate::scenario::AnyScenario;
use serde::Serialize;

/// One sweepable field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumericField {
    /// Its path, as a sweep parameter names it (`strategies[5].breaker_trip_failures`).
    pub path: String,
    /// What it is, for a list: the field with the strategy's or tier's name.
    pub label: String,
    /// Smallest value validation accepts here.
    pub min: f64,
    /// Largest value validation accepts here.
    pub max: f64,
    /// True when the field takes whole numbers only (swept values are rounded).
    pub integer: bool,
}

fn field(path: String, label: String, (min, max): (f64, f64), integer: bool) -> NumericField {
    NumericField {
        path,
        label,
        min,
        max,
        integer,
    }
}

/// Every numeric field of `s` a sweep may vary, in the order an editor shows them:
/// the scenario's own fields, then per strategy (classic) or tier, fault and load
/// segment (cluster); a field every strategy has also comes as `strategies[*].…`.
pub fn numeric_fields(s: &AnyScenario) -> Vec<NumericField> {
    match s {
        AnyScenario::Classic(c) => classic(c),
        AnyScenario::Cluster(c) => cluster(c),
    }
}

fn classic(c: &cs::Scenario) -> Vec<NumericField> {
    let f = |v: u64| v as f64;
    let top = |p: &str, r: (f64, f64)| field(p.into(), p.into(), r, true);
    let max_clients =
        u64::from(cs::MAX_CLIENTS).min(cs::MAX_REQUESTS / u64::from(c.duration_s.max(1)));
    let max_duration =
        u64::from(cs::MAX_DURATION_S).min(cs::MAX_REQUESTS / u64::from(c.clients.max(1)));
    let mut out = vec![
        top("clients", (1.0, f(max_clients))),
        // The outage must fit in the run.
        top(
            "duration_s",
            (
                f(u64::from(c.outage.to_s.max(c.outage.from_s).max(1))),
                f(max_duration),
            ),
        ),
        top("capacity", (0.0, f(u64::from(cs::MAX_CAPACITY)))),
        top(
            "outage.from_s",
            (0.0, f(u64::from(c.outage.to_s.min(c.duration_s)))),
        ),
        top(
            "outage.to_s",
            (
                f(u64::from(c.outage.from_s.min(c.duration_s))),
                f(u64::from(c.duration_s)),
            ),
        ),
        top(
            "upstream_latency_ms",
            (0.0, f(u64::from(cs::MAX_LATENCY_MS))),
        ),
        top(
            "breaker_trip_failures",
            (0.0, f(u64::from(cs::MAX_TRIP_FAILURES))),
        ),
        top("breaker_open_s", (0.0, f(u64::from(cs::MAX_DURATION_S)))),
    ];
    let per = [
        ("max_retry", f(u64::from(cs::MAX_RETRY))),
        ("base_ms", f(cs::MAX_BASE_MS)),
        ("budget_pct", f(u64::from(cs::MAX_BUDGET_PCT))),
        ("deadline_ms", f(cs::MAX_DEADLINE_MS)),
        ("breaker_trip_failures", f(u64::from(cs::MAX_TRIP_FAILURES))),
        ("breaker_open_s", f(u64::from(cs::MAX_DURATION_S))),
    ];
    for (name, max) in per {
        out.push(field(
            format!("strategies[*].{name}"),
            format!("every strategy: {name}"),
            (0.0, max),
            true,
        ));
    }
    for (i, st) in c.strategies.iter().enumerate() {
        for (name, max) in per {
            out.push(field(
                format!("strategies[{i}].{name}"),
                format!("{}: {name}", st.name),
                (0.0, max),
                true,
            ));
        }
    }
    out
}

fn cluster(c: &ks::Scenario) -> Vec<NumericField> {
    let f = |v: u64| v as f64;
    let max_duration = ks::MAX_DURATION_MS.min(c.bucket_ms.saturating_mul(ks::MAX_BUCKETS));
    let mut out = vec![
        field(
            "duration_ms".into(),
            "duration_ms".into(),
            (1.0, f(max_duration)),
            true,
        ),
        field(
            "load.rate_per_s".into(),
            "load.rate_per_s".into(),
            (0.0, ks::MAX_RATE),
            false,
        ),
    ];
    if c.load.arrivals == ks::Arrivals::Constant {
        // Noise for evenly spaced arrivals; Poisson arrivals take none.
        out.push(field(
            "load.jitter_ms".into(),
            "load.jitter_ms".into(),
            (0.0, c.load.jitter_max_ms().0),
            false,
        ));
    }
    if c.load.deadline_ms.is_some() {
        out.push(field(
            "load.deadline_ms".into(),
            "load.deadline_ms".into(),
            (1.0, f(ks::MAX_TIME_MS)),
            true,
        ));
    }
    for (k, s) in c.load.schedule.iter().enumerate() {
        let at = |n: &str| format!("load.schedule[{k}].{n}");
        out.push(field(
            at("rate_per_s"),
            at("rate_per_s"),
            (0.0, ks::MAX_RATE),
            false,
        ));
        out.push(field(
            at("start_ms"),
            at("start_ms"),
            (0.0, f(s.end_ms.min(ks::MAX_DURATION_MS))),
            true,
        ));
        out.push(field(
            at("end_ms"),
            at("end_ms"),
            (f(s.start_ms), f(ks::MAX_DURATION_MS)),
            true,
        ));
    }
    let total: u64 = c.tiers.iter().map(|t| u64::from(t.instances)).sum();
    for (i, t) in c.tiers.iter().enumerate() {
        let at = |n: &str| format!("tiers[{i}].{n}");
        let label = |n: &str| format!("{}: {n}", t.name);
        // A fault may not hit more instances than its tier has.
        let hit = c
            .faults
            .iter()
            .filter(|x| x.tier as usize == i)
            .filter_map(|x| x.instances)
            .max()
            .unwrap_or(1);
        let others = total - u64::from(t.instances);
        let max_instances = u64::from(ks::MAX_INSTANCES)
            .min(ks::MAX_TOTAL_INSTANCES - others.min(ks::MAX_TOTAL_INSTANCES));
        out.push(field(
            at("instances"),
            label("instances"),
            (f(u64::from(hit.max(1))), f(max_instances)),
            true,
        ));
        out.push(field(
            at("concurrency"),
            label("concurrency"),
            (1.0, f(u64::from(ks::MAX_CONCURRENCY))),
            true,
        ));
        out.push(field(
            at("queue_capacity"),
            label("queue_capacity"),
            (0.0, f(u64::from(ks::MAX_COUNT))),
            true,
        ));
        out.push(field(
            at("error_rate"),
            label("error_rate"),
            (0.0, 1.0),
            false,
        ));
        if t.client.is_some() {
            out.push(field(
                at("client.timeout_ms"),
                label("client.timeout_ms"),
                (1.0, f(ks::MAX_TIME_MS)),
                true,
            ));
            out.push(field(
                at("client.max_attempts"),
                label("client.max_attempts"),
                (1.0, f(u64::from(ks::MAX_ATTEMPTS))),
                true,
            ));
        }
    }
    for (k, _) in c.faults.iter().enumerate() {
        let at = |n: &str| format!("faults[{k}].{n}");
        for n in ["start_ms", "duration_ms"] {
            out.push(field(at(n), at(n), (0.0, f(ks::MAX_DURATION_MS)), true));
        }
    }
    out
}
