//! Presentation helpers for front ends: the summary and A/B comparison tables with their
//! numbers formatted here (so every front end shows the same text), default objects for
//! every kind a scenario can hold (so an editor never re-declares a default), a list of
//! every validation problem of a scenario (not just the first), and a few derived
//! figures for charts (service capacity, an in-system time estimate).

use super::metrics::{RunResult, TierSummary};
use super::scenario::*;
use crate::classic::report::Table;
use crate::validate::{in_range, ValidationError};
use serde::Serialize;
use serde_json::Value;

/// How a metric's number is written and how its difference is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A whole count.
    Count,
    /// A ratio 0..=1 written as a percentage (differences in percentage points).
    Percent,
    /// Per second.
    PerSec,
    /// Milliseconds.
    Ms,
    /// A multiplier ("2.50x").
    Times,
    /// Seconds, from a value in milliseconds.
    Seconds,
    /// A mean count, two decimals.
    Count2,
}

/// One row of the summary: a label, its number (if it has one) and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// What the row measures.
    pub label: String,
    /// The number behind the text; `None` when there is none (e.g. "did not recover").
    pub value: Option<f64>,
    /// The formatted value.
    pub text: String,
    /// The unit, for formatting differences.
    pub unit: Unit,
}

fn fmt(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Count => format!("{}", v.round() as i64),
        Unit::Percent => format!("{:.2}%", v * 100.0),
        Unit::PerSec => format!("{v:.1}/s"),
        Unit::Ms => format!("{v:.1} ms"),
        Unit::Times => format!("{v:.2}x"),
        Unit::Seconds => format!("{:.1} s", v / 1000.0),
        Unit::Count2 => format!("{v:.2}"),
    }
}

fn fmt_delta(unit: Unit, d: f64) -> String {
    let sign = if d > 0.0 {
        "+"
    } else if d < 0.0 {
        "−"
    } else {
        "±"
    };
    let a = d.abs();
    let body = match unit {
        Unit::Count => format!("{}", a.round() as i64),
        Unit::Percent => format!("{:.2} pp", a * 100.0),
        Unit::PerSec => format!("{a:.1}/s"),
        Unit::Ms => format!("{a:.1} ms"),
        Unit::Times => format!("{a:.2}x"),
        Unit::Seconds => format!("{:.1} s", a / 1000.0),
        Unit::Count2 => format!("{a:.2}"),
    };
    format!("{sign}{body}")
}

fn metric(label: impl Into<String>, unit: Unit, v: f64) -> Metric {
    Metric {
        label: label.into(),
        value: Some(v),
        text: fmt(unit, v),
        unit,
    }
}

/// Every whole-run figure of a result, in display order.
pub fn metrics(r: &RunResult) -> Vec<Metric> {
    let s = &r.summary;
    let mut m = vec![
        metric("requests", Unit::Count, s.requests as f64),
        metric("succeeded", Unit::Count, s.successes as f64),
        metric("failed", Unit::Count, s.failures as f64),
        metric("success ratio", Unit::Percent, s.success_ratio),
        metric("goodput", Unit::PerSec, s.goodput_per_s),
        metric("latency p50", Unit::Ms, s.latency_ms.p50),
        metric("latency p99", Unit::Ms, s.latency_ms.p99),
        metric("latency p99.9", Unit::Ms, s.latency_ms.p999),
        metric("latency mean", Unit::Ms, s.success_latency.mean_ms),
        metric("latency std dev", Unit::Ms, s.success_latency.std_ms),
        metric("time to failure mean", Unit::Ms, s.failure_latency.mean_ms),
        metric(
            "time to failure std dev",
            Unit::Ms,
            s.failure_latency.std_ms,
        ),
        metric("amplification end to end", Unit::Times, s.amplification),
    ];
    // One row per tier of a per-tier figure.
    let per_tier = |m: &mut Vec<Metric>, what: &str, unit: Unit, f: fn(&TierSummary) -> f64| {
        for t in &r.tiers {
            m.push(metric(format!("{}: {what}", t.name), unit, f(t)));
        }
    };
    per_tier(&mut m, "amplification", Unit::Times, |t| t.amplification);
    per_tier(&mut m, "utilisation", Unit::Percent, |t| t.utilisation);
    per_tier(&mut m, "mean queue length", Unit::Count2, |t| {
        t.mean_queue_length
    });
    per_tier(&mut m, "mean queue wait", Unit::Ms, |t| t.mean_wait_ms);
    per_tier(&mut m, "mean service time", Unit::Ms, |t| t.mean_service_ms);
    m.push(metric(
        "peak arrivals vs steady state",
        Unit::Times,
        s.peak_arrival_ratio,
    ));
    per_tier(&mut m, "peak vs steady", Unit::Times, |t| {
        t.peak_arrival_ratio
    });
    m.push(metric(
        "overload duration",
        Unit::Seconds,
        s.overload_duration_ms as f64,
    ));
    m.push(match (s.recovery_time_ms, s.metastable, s.trigger_end_ms) {
        (Some(ms), _, _) => metric("recovery time", Unit::Seconds, ms as f64),
        (None, true, _) => Metric {
            label: "recovery time".into(),
            value: None,
            text: "metastable: did not recover".into(),
            unit: Unit::Seconds,
        },
        (None, false, _) => Metric {
            label: "recovery time".into(),
            value: None,
            text: "no trigger".into(),
            unit: Unit::Seconds,
        },
    });
    let sum = |f: fn(&super::metrics::TierBucket) -> u64| -> f64 {
        r.tiers.iter().map(|t| f(&t.totals)).sum::<u64>() as f64
    };
    m.push(metric(
        "timeouts (all hops)",
        Unit::Count,
        sum(|t| t.timeouts),
    ));
    m.push(metric(
        "overloads / 503 (all hops)",
        Unit::Count,
        sum(|t| t.overloads),
    ));
    m.push(metric(
        "errors / 500 (all hops)",
        Unit::Count,
        sum(|t| t.errors),
    ));
    m.push(metric(
        "breaker-rejected",
        Unit::Count,
        sum(|t| t.breaker_rejected),
    ));
    m.push(metric(
        "budget-rejected",
        Unit::Count,
        sum(|t| t.budget_rejected),
    ));
    m.push(metric(
        "bulkhead-rejected",
        Unit::Count,
        sum(|t| t.bulkhead_rejected),
    ));
    m.push(metric(
        "breaker openings",
        Unit::Count,
        r.tiers.iter().map(|t| t.breaker_openings).sum::<u64>() as f64,
    ));
    m
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The summary as `{columns: [metric, value], rows}` of formatted strings.
pub fn summary_table(r: &RunResult) -> Table {
    Table {
        columns: strings(&["metric", "value"]),
        rows: metrics(r)
            .into_iter()
            .map(|m| vec![m.label, m.text])
            .collect(),
    }
}

/// Per-tier totals: attempts, outcomes by kind, amplification, peak and breaker openings.
pub fn tier_table(r: &RunResult) -> Table {
    let columns = strings(&[
        "tier",
        "first",
        "retries",
        "ok",
        "timeout",
        "overload",
        "error",
        "breaker",
        "budget",
        "bulkhead",
        "amp",
        "retry amp",
        "peak/steady",
        "openings",
        "util",
        "mean queue",
        "mean in flight",
        "wait ms",
        "service ms",
    ]);
    let rows = r
        .tiers
        .iter()
        .map(|t| {
            let x = &t.totals;
            vec![
                t.name.clone(),
                x.first_attempts.to_string(),
                x.retries.to_string(),
                x.successes.to_string(),
                x.timeouts.to_string(),
                x.overloads.to_string(),
                x.errors.to_string(),
                x.breaker_rejected.to_string(),
                x.budget_rejected.to_string(),
                x.bulkhead_rejected.to_string(),
                fmt(Unit::Times, t.amplification),
                fmt(Unit::Times, t.retry_amplification),
                fmt(Unit::Times, t.peak_arrival_ratio),
                t.breaker_openings.to_string(),
                fmt(Unit::Percent, t.utilisation),
                fmt(Unit::Count2, t.mean_queue_length),
                fmt(Unit::Count2, t.mean_in_flight),
                format!("{:.1}", t.mean_wait_ms),
                format!("{:.1}", t.mean_service_ms),
            ]
        })
        .collect();
    Table { columns, rows }
}

/// A and B side by side: `[metric, A, B, Δ (B − A), Δ %]`. Metrics are matched by
/// label, so a tier present in only one run shows "—" on the other side.
pub fn compare(a: &RunResult, b: &RunResult) -> Table {
    let ma = metrics(a);
    let mb = metrics(b);
    let mut labels: Vec<&Metric> = ma.iter().collect();
    for m in &mb {
        if !ma.iter().any(|x| x.label == m.label) {
            labels.push(m);
        }
    }
    let rows = labels
        .into_iter()
        .map(|m| {
            let x = ma.iter().find(|x| x.label == m.label);
            let y = mb.iter().find(|y| y.label == m.label);
            let text = |v: Option<&Metric>| v.map_or("—".to_string(), |v| v.text.clone());
            let (delta, pct) = match (x.and_then(|x| x.value), y.and_then(|y| y.value)) {
                (Some(va), Some(vb)) => {
                    let d = vb - va;
                    let pct = if va != 0.0 {
                        let p = d / va.abs() * 100.0;
                        let sign = if p > 0.0 {
                            "+"
                        } else if p < 0.0 {
                            "−"
                        } else {
                            "±"
                        };
                        format!("{sign}{:.1}%", p.abs())
                    } else if vb == 0.0 {
                        "±0.0%".to_string()
                    } else {
                        "new".to_string()
                    };
                    (fmt_delta(m.unit, d), pct)
                }
                _ if text(x) == text(y) => ("±0".to_string(), "±0.0%".to_string()),
                _ => ("—".to_string(), "—".to_string()),
            };
            vec![m.label.clone(), text(x), text(y), delta, pct]
        })
        .collect();
    Table {
        columns: strings(&["metric", "A (pinned)", "B (current)", "Δ (B − A)", "Δ %"]),
        rows,
    }
}

/// Mean of a service-time distribution, ms.
pub fn mean_ms(d: &Dist) -> f64 {
    d.mean_ms()
}

/// A tier's service capacity, requests per second: instances × concurrency / mean local
/// service time (`None` when the service time is 0). It ignores the time spent waiting
/// on the next tier, so it is the real capacity of the last tier only.
pub fn capacity_per_s(t: &Tier) -> Option<f64> {
    let m = mean_ms(&t.service);
    (m > 0.0).then(|| f64::from(t.instances) * f64::from(t.concurrency) * 1000.0 / m)
}

/// Default objects for everything an editor can add or switch to, each kind with its
/// own defaults, plus the values of every enumerated field.
#[derive(Debug, Clone, Serialize)]
pub struct Defaults {
    /// A small complete scenario (two tiers, a pause fault).
    pub scenario: Scenario,
    /// A new tier (the last of a chain: no client).
    pub tier: Tier,
    /// The client policy a tier gets when it starts calling a next tier.
    pub client: Client,
    /// One default per service/think-time distribution kind.
    pub dist: Vec<Dist>,
    /// One default per backoff kind.
    pub backoff: Vec<Backoff>,
    /// One default per jitter kind.
    pub jitter: Vec<Jitter>,
    /// One default per retry-budget kind.
    pub budget: Vec<Budget>,
    /// One default per breaker kind.
    pub breaker: Vec<Breaker>,
    /// A bulkhead when one is switched on.
    pub bulkhead: Bulkhead,
    /// Closed-loop callers when switched on.
    pub closed_loop: ClosedLoop,
    /// A new rate-schedule segment (a spike).
    pub segment: RateSegment,
    /// A new fault (its tier and start are set by the editor).
    pub fault: Fault,
    /// One default per fault effect kind.
    pub effect: Vec<FaultEffect>,
    /// Allowed values of enumerated fields, by field name.
    pub enums: Enums,
}

/// Allowed values of the enumerated fields.
#[derive(Debug, Clone, Serialize)]
pub struct Enums {
    /// `load.arrivals`.
    pub arrivals: Vec<Arrivals>,
    /// `tiers[].balancer`.
    pub balancer: Vec<Balancer>,
    /// `scope` of budgets and breakers.
    pub scope: Vec<Scope>,
    /// `window` of Resilience4j breakers.
    pub window: Vec<WindowKind>,
    /// `client.retry_on` entries.
    pub retry_on: Vec<RetryOn>,
}

fn lognormal() -> Dist {
    Dist::Lognormal {
        p50_ms: 12.0,
        p99_ms: 40.0,
    }
}

/// The defaults of [`Defaults`].
pub fn defaults() -> Defaults {
    let client = Client {
        timeout_ms: 500,
        deadline_propagation: false,
        max_attempts: 3,
        backoff: Backoff::Exponential {
            base_ms: 100,
            multiplier: 2.0,
            cap_ms: 2000,
        },
        jitter: Jitter::Full,
        retry_on: vec![RetryOn::Timeout, RetryOn::Overload, RetryOn::Error],
        idempotent_only: false,
        no_retry_while_breaker_open: false,
        budget: Budget::None,
        breaker: Breaker::None,
        bulkhead: None,
    };
    let tier = Tier {
        name: "service".into(),
        instances: 4,
        concurrency: 10,
        queue_capacity: 100,
        queue_timeout_ms: None,
        service: lognormal(),
        slowdown_per_in_flight: 0.0,
        error_rate: 0.0,
        balancer: Balancer::RoundRobin,
        client: None,
    };
    let fault = Fault {
        tier: 0,
        start_ms: 10_000,
        duration_ms: 2_000,
        instances: None,
        effect: FaultEffect::Pause,
    };
    let scenario = Scenario {
        name: "My cluster".into(),
        description: String::new(),
        seed: 1,
        duration_ms: 60_000,
        bucket_ms: 1000,
        max_events: 50_000_000,
        load: Load {
            arrivals: Arrivals::Poisson,
            rate_per_s: 1000.0,
            schedule: vec![],
            closed_loop: None,
            deadline_ms: None,
            idempotent_fraction: 1.0,
        },
        tiers: vec![
            Tier {
                name: "gateway".into(),
                instances: 4,
                concurrency: 1000,
                queue_capacity: 1000,
                service: Dist::Constant { ms: 0.2 },
                client: Some(client.clone()),
                ..tier.clone()
            },
            tier.clone(),
        ],
        faults: vec![Fault {
            tier: 1,
            start_ms: 20_000,
            ..fault.clone()
        }],
        steady: Steady::default(),
    };
    let scope = Scope::PerInstance;
    Defaults {
        scenario,
        client,
        dist: vec![
            Dist::Constant { ms: 10.0 },
            Dist::Exponential { mean_ms: 10.0 },
            lognormal(),
        ],
        backoff: vec![
            Backoff::None,
            Backoff::Fixed {
                delays_ms: vec![200, 400, 800],
            },
            Backoff::Constant { ms: 100 },
            Backoff::Exponential {
                base_ms: 100,
                multiplier: 2.0,
                cap_ms: 2000,
            },
        ],
        jitter: vec![
            Jitter::None,
            Jitter::Full,
            Jitter::Equal,
            Jitter::Decorrelated,
            Jitter::Percent { percent: 20.0 },
        ],
        budget: vec![
            Budget::None,
            Budget::CapacityPercent {
                percent: 20.0,
                capacity_per_s: 1000.0,
                scope,
            },
            Budget::TokenBucket {
                percent: 20.0,
                max_tokens: 10,
                scope,
            },
            Budget::GrpcThrottle {
                max_tokens: 10,
                token_ratio: 0.1,
                scope,
            },
            Budget::Windowed {
                ttl_ms: 10_000,
                min_retries_per_sec: 10,
                percent_can_retry: 20.0,
                scope,
            },
            Budget::Ratio {
                ratio_percent: 10.0,
                window_ms: 10_000,
                min_requests: 20,
                scope,
            },
            Budget::AwsQuota {
                initial_tokens: 500,
                retry_cost: 5,
                timeout_cost: 10,
                no_retry_increment: 1,
                scope,
            },
        ],
        breaker: vec![
            Breaker::None,
            Breaker::Consecutive {
                failures: 5,
                open_ms: 5000,
                open_jitter_ms: 0,
                half_open_calls: 1,
                scope,
            },
            Breaker::Resilience4j {
                window: WindowKind::Count,
                window_size: 100,
                minimum_calls: 20,
                failure_rate_percent: 50.0,
                slow_call_ms: None,
                slow_call_rate_percent: 100.0,
                wait_open_ms: 10_000,
                open_jitter_ms: 0,
                half_open_calls: 10,
                ramp_stage_ms: None,
                scope,
            },
            Breaker::SreAdaptive {
                k: 2.0,
                window_ms: 120_000,
                scope,
            },
        ],
        bulkhead: Bulkhead {
            max_concurrent: 100,
            max_queue: 0,
            max_wait_ms: 0,
        },
        closed_loop: ClosedLoop {
            callers: 100,
            think: Dist::Exponential { mean_ms: 100.0 },
        },
        segment: RateSegment {
            start_ms: 20_000,
            end_ms: 30_000,
            rate_per_s: 2000.0,
            to_rate_per_s: None,
        },
        fault,
        effect: vec![
            FaultEffect::Outage,
            FaultEffect::Hang,
            FaultEffect::Pause,
            FaultEffect::Brownout { factor: 0.5 },
            FaultEffect::ErrorRate { rate: 0.5 },
            FaultEffect::Latency { added_ms: 200.0 },
        ],
        enums: Enums {
            arrivals: vec![Arrivals::Poisson, Arrivals::Constant],
            balancer: vec![Balancer::RoundRobin, Balancer::Random],
            scope: vec![Scope::PerInstance, Scope::Shared],
            window: vec![WindowKind::Count, WindowKind::Time],
            retry_on: vec![
                RetryOn::Timeout,
                RetryOn::Overload,
                RetryOn::Error,
                RetryOn::BreakerRejected,
            ],
        },
        tier,
    }
}

/// A valid stand-in for tier `i` of `n`, so one tier can be checked on its own.
fn filler(d: &Defaults, i: usize, n: usize, instances: u32) -> Tier {
    Tier {
        name: "t".into(),
        instances: instances.clamp(1, MAX_INSTANCES),
        client: (i + 1 < n).then(|| d.client.clone()),
        ..d.tier.clone()
    }
}

/// Every validation problem of a scenario, not just the first: the scenario-wide fields,
/// each tier on its own, each fault on its own, then whatever the whole check still
/// finds (such as the total instance count). Empty when the scenario is valid. Each
/// error names its field by its full path (`tiers[1].client.budget.percent`).
pub fn problems(s: &Scenario) -> Vec<ValidationError> {
    let d = defaults();
    let mut out: Vec<ValidationError> = Vec::new();
    let mut push = |e: ValidationError| {
        if !out.iter().any(|x| x.field == e.field) {
            out.push(e);
        }
    };
    // Scenario-wide fields, with the tiers and faults of the default scenario.
    let top = Scenario {
        tiers: d.scenario.tiers.clone(),
        faults: vec![],
        ..s.clone()
    };
    if let Err(e) = top.validate() {
        push(e);
    }
    let n = s.tiers.len();
    if let Err(e) = in_range("tiers.len()", n, 1, MAX_TIERS) {
        push(e);
        return out;
    }
    // Each tier on its own, amid valid stand-ins.
    let mut ok_tiers = Vec::with_capacity(n);
    for (i, t) in s.tiers.iter().enumerate() {
        let mut tiers: Vec<Tier> = (0..n).map(|j| filler(&d, j, n, 1)).collect();
        tiers[i] = t.clone();
        let alone = Scenario {
            tiers,
            faults: vec![],
            ..d.scenario.clone()
        };
        match alone.validate() {
            Ok(()) => ok_tiers.push(t.clone()),
            Err(e) => {
                push(e);
                ok_tiers.push(filler(&d, i, n, t.instances));
            }
        }
    }
    // Each fault on its own, against the tiers (invalid ones replaced by stand-ins).
    for (j, f) in s.faults.iter().enumerate() {
        let alone = Scenario {
            tiers: ok_tiers.clone(),
            faults: vec![f.clone()],
            ..d.scenario.clone()
        };
        if let Err(mut e) = alone.validate() {
            if let Some(rest) = e.field.strip_prefix("faults[0]") {
                e.field = format!("faults[{j}]{rest}");
            }
            push(e);
        }
    }
    if let Err(e) = s.validate() {
        push(e);
    }
    out
}

/// Parses a cluster scenario from JSON (with or without `"model": "cluster"`), without
/// validating it; the error names the problem as the scenario parser does.
pub fn parse_unchecked(mut v: Value) -> Result<Scenario, ValidationError> {
    if let Value::Object(map) = &mut v {
        match map.remove("model") {
            None => {}
            Some(Value::String(m)) if m == "cluster" => {}
            Some(other) => return Err(ValidationError::new("model", other, "\"cluster\"")),
        }
    }
    serde_json::from_value(v).map_err(|e| crate::validate::from_json_error(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster;
    use crate::scenario::{bundled, parse, AnyScenario};

    fn stampede() -> Scenario {
        match parse(include_str!(
            "../../../scenarios/cluster-gc-stampede-naive.json"
        )) {
            Ok(AnyScenario::Cluster(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_are_valid_in_every_kind() {
        let d = defaults();
        d.scenario.validate().unwrap();
        assert!(problems(&d.scenario).is_empty());
        let base = d.scenario.clone();
        let check = |f: &dyn Fn(&mut Scenario)| {
            let mut s = base.clone();
            f(&mut s);
            assert!(problems(&s).is_empty(), "{:?}", problems(&s));
        };
        for b in &d.budget {
            check(&|s| s.tiers[0].client.as_mut().unwrap().budget = b.clone());
        }
        for b in &d.breaker {
            check(&|s| s.tiers[0].client.as_mut().unwrap().breaker = b.clone());
        }
        for b in &d.backoff {
            check(&|s| s.tiers[0].client.as_mut().unwrap().backoff = b.clone());
        }
        for j in &d.jitter {
            check(&|s| s.tiers[0].client.as_mut().unwrap().jitter = j.clone());
        }
        for x in &d.dist {
            check(&|s| s.tiers[1].service = x.clone());
        }
        for e in &d.effect {
            check(&|s| s.faults[0].effect = e.clone());
        }
        check(&|s| s.tiers[0].client.as_mut().unwrap().bulkhead = Some(d.bulkhead.clone()));
        check(&|s| s.load.closed_loop = Some(d.closed_loop.clone()));
        check(&|s| s.load.schedule = vec![d.segment.clone()]);
        check(&|s| {
            s.tiers.insert(
                1,
                Tier {
                    client: Some(d.client.clone()),
                    ..d.tier.clone()
                },
            )
        });
    }

    #[test]
    fn problems_lists_each_bad_field_by_path() {
        let mut s = stampede();
        s.duration_ms = 0;
        s.tiers[0].client.as_mut().unwrap().timeout_ms = 0;
        s.tiers[1].concurrency = 0;
        s.faults[0].tier = 7;
        let fields: Vec<String> = problems(&s).into_iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            [
                "duration_ms",
                "tiers[0].client.timeout_ms",
                "tiers[1].concurrency",
                "faults[0].tier"
            ]
        );
        assert!(problems(&stampede()).is_empty());
        // The first problem is the one the engine reports.
        let mut s = stampede();
        s.tiers[1].concurrency = 0;
        assert_eq!(problems(&s)[0], s.validate().unwrap_err());
    }

    #[test]
    fn summary_and_compare_format_the_numbers() {
        let a = cluster::run(&stampede(), 2002).unwrap();
        let t = summary_table(&a);
        assert_eq!(t.columns, ["metric", "value"]);
        let row = |t: &Table, l: &str| t.rows.iter().find(|r| r[0] == l).unwrap().clone();
        assert_eq!(
            row(&t, "goodput")[1],
            format!("{:.1}/s", a.summary.goodput_per_s)
        );
        assert_eq!(row(&t, "requests")[1], a.summary.requests.to_string());
        let c = compare(&a, &a);
        assert!(c.rows.iter().all(|r| r[3].starts_with('±')), "{c:?}");
        let mut b = a.clone();
        b.summary.goodput_per_s = a.summary.goodput_per_s * 1.5;
        b.summary.requests = a.summary.requests - 10;
        let c = compare(&a, &b);
        assert_eq!(row(&c, "goodput")[4], "+50.0%");
        assert_eq!(row(&c, "requests")[3], "−10");
        assert_eq!(tier_table(&a).rows.len(), 2);
    }

    #[test]
    fn recovery_reads_metastable_when_it_never_recovers() {
        let mut r = cluster::run(&stampede(), 2002).unwrap();
        r.summary.recovery_time_ms = None;
        r.summary.metastable = true;
        let t = summary_table(&r);
        assert!(t.rows.iter().any(|x| x[1] == "metastable: did not recover"));
    }

    #[test]
    fn capacity_of_the_stampede_pods() {
        let s = stampede();
        let c = capacity_per_s(&s.tiers[1]).unwrap();
        // 8 pods × 10 threads / ~13.2 ms mean ≈ 6000/s.
        assert!((5000.0..7000.0).contains(&c), "{c}");
        assert!(bundled().iter().any(|b| b.model == "cluster"));
    }
}
