//! A run's figures and tables for front ends: the one list of whole-run figures
//! ([`metrics`]) that the summary table, the CLI's text report and the Markdown export
//! all render, the per-tier, route and A/B comparison tables (numbers formatted by
//! [`crate::report`], so every front end shows the same text), and a derived figure
//! for charts (service capacity).

use super::metrics::{RunResult, Summary, TierBucket, TierSummary};
use super::scenario::*;
use super::texts::Text;
use crate::lang::{Lang, Texts};
use crate::report::fmt_change;
use crate::report::{fmt, fmt_delta, Table, Unit};

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
    /// Which way the figure is better, so an A/B difference is judged, not only signed.
    pub better: Better,
    /// The figure measured (a per-tier figure's own, not the tier's), so its definition
    /// is found from the row itself ([`super::glossary`]).
    pub(crate) what: Text,
}

/// Which way a figure is better for the system's users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// More is better: deliveries, success ratio, goodput.
    Higher,
    /// Less is better: failures, latency, amplification, overload, recovery time.
    Lower,
    /// Neither: the offered load, utilisation, rejections by a protection, which are a
    /// means and not an outcome.
    Neither,
}

/// How B's figure compares with A's, by the figure's [`Better`] direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// B is better than A.
    Better,
    /// B is worse than A.
    Worse,
    /// The same figure.
    Same,
    /// Not judged: no direction, or a side without a number.
    Unjudged,
}

impl Change {
    /// The class the page gives the row (`""` when not judged).
    pub fn class(self) -> &'static str {
        match self {
            Change::Better => "better",
            Change::Worse => "worse",
            Change::Same => "same",
            Change::Unjudged => "",
        }
    }
}

/// How `b` compares with `a` for a figure that is better in direction `better`.
pub fn judge(better: Better, a: f64, b: f64) -> Change {
    match (better, b.partial_cmp(&a)) {
        (_, Some(std::cmp::Ordering::Equal)) => Change::Same,
        (Better::Higher, Some(std::cmp::Ordering::Greater))
        | (Better::Lower, Some(std::cmp::Ordering::Less)) => Change::Better,
        (Better::Higher, Some(_)) | (Better::Lower, Some(_)) => Change::Worse,
        _ => Change::Unjudged,
    }
}

/// The figure `what`, labelled `label` (its own words, or a tier's figure).
fn metric(what: Text, label: impl Into<String>, unit: Unit, v: f64) -> Metric {
    Metric {
        label: label.into(),
        value: Some(v),
        text: fmt(unit, v),
        unit,
        better: Better::Neither,
        what,
    }
}

impl Metric {
    /// The metric, better when higher.
    fn higher(self) -> Metric {
        Metric {
            better: Better::Higher,
            ..self
        }
    }

    /// The metric, better when lower.
    fn lower(self) -> Metric {
        Metric {
            better: Better::Lower,
            ..self
        }
    }
}

/// The recovery figure, the one place its wording is decided for the text report, the
/// Markdown and the page: the time from the end of the last trigger to lasting recovery
/// ("12.0 s"), "metastable: did not recover", "unhealthy before the trigger" when the
/// steady state already failed too much, or "no trigger" when the scenario has no fault
/// or spike to recover from.
pub fn recovery(s: &Summary) -> Metric {
    recovery_in(s, Lang::En)
}

/// The goodput recovery figure in `lang`: the time from the end of the last trigger
/// until the successes per second are back to the baseline's ("2.0 s"), "goodput not
/// back to baseline", or the recovery figure's words when it is not judged.
pub fn goodput_recovery_in(s: &Summary, lang: Lang) -> Metric {
    let label = Text::GoodputRecoveryTime.get(lang);
    if let Some(ms) = s.goodput_recovery_ms {
        return metric(Text::GoodputRecoveryTime, label, Unit::Seconds, ms as f64).lower();
    }
    let text = if s.trigger_end_ms.is_none() {
        Text::NoTrigger
    } else if s.unhealthy_baseline {
        Text::UnhealthyBaseline
    } else {
        Text::GoodputNotBack
    };
    Metric {
        label: label.into(),
        value: None,
        text: text.get(lang).into(),
        unit: Unit::Seconds,
        better: Better::Lower,
        what: Text::GoodputRecoveryTime,
    }
}

/// [`recovery`] worded in `lang`.
pub fn recovery_in(s: &Summary, lang: Lang) -> Metric {
    let label = Text::RecoveryTime.get(lang);
    match (s.recovery_time_ms, s.metastable) {
        (Some(ms), _) => metric(Text::RecoveryTime, label, Unit::Seconds, ms as f64).lower(),
        (None, metastable) => Metric {
            label: label.into(),
            value: None,
            text: if metastable {
                Text::Metastable
            } else if s.unhealthy_baseline && s.trigger_end_ms.is_some() {
                Text::UnhealthyBaseline
            } else {
                Text::NoTrigger
            }
            .get(lang)
            .into(),
            unit: Unit::Seconds,
            better: Better::Lower,
            what: Text::RecoveryTime,
        },
    }
}

/// Reads one counter of a tier's totals.
type Count = fn(&TierBucket) -> u64;

/// Every whole-run figure of a result, in display order, labelled in English (the CLI's
/// report and the Markdown export).
pub fn metrics(r: &RunResult) -> Vec<Metric> {
    metrics_in(r, Lang::En)
}

/// Every whole-run figure of a result, in display order, labelled in `lang` (the page in
/// Chinese); the numbers and their formats do not depend on the language.
pub fn metrics_in(r: &RunResult, lang: Lang) -> Vec<Metric> {
    let s = &r.summary;
    // A figure of the whole run, labelled by its own words.
    let fig = |t: Text, unit: Unit, v: f64| metric(t, t.get(lang), unit, v);
    // Each figure with the way it is better: what the users get (deliveries, speed) and
    // what the system suffers (failures, amplification, overload) are judged; the load
    // offered, the utilisation and the protections' rejections (a means) are not.
    let mut m = vec![
        fig(Text::Requests, Unit::Count, s.requests as f64),
        fig(Text::Succeeded, Unit::Count, s.successes as f64).higher(),
        fig(Text::Failed, Unit::Count, s.failures as f64).lower(),
        fig(Text::PendingAtEnd, Unit::Count, s.pending_at_end as f64).lower(),
        fig(Text::SuccessRatio, Unit::Percent, s.success_ratio).higher(),
        fig(Text::Goodput, Unit::PerSec, s.goodput_per_s).higher(),
        fig(Text::LatencyP50, Unit::Ms, s.latency_ms.p50).lower(),
        fig(Text::LatencyP90, Unit::Ms, s.latency_ms.p90).lower(),
        fig(Text::LatencyP99, Unit::Ms, s.latency_ms.p99).lower(),
        fig(Text::LatencyP999, Unit::Ms, s.latency_ms.p999).lower(),
        fig(Text::LatencyMean, Unit::Ms, s.success_latency.mean_ms).lower(),
        fig(Text::LatencyStdDev, Unit::Ms, s.success_latency.std_ms).lower(),
        fig(Text::FailureMean, Unit::Ms, s.failure_latency.mean_ms).lower(),
        fig(Text::FailureStdDev, Unit::Ms, s.failure_latency.std_ms).lower(),
        fig(Text::AmplificationEndToEnd, Unit::Times, s.amplification).lower(),
    ];
    // Drained: beside the requests pending at the end, what became of them.
    let ended = s
        .drained_successes
        .zip(s.drained_failures)
        .map(|(a, b)| a + b);
    let drained = [
        (Text::DrainSucceeded, s.drained_successes, Better::Higher),
        (Text::DrainFailed, s.drained_failures, Better::Lower),
        (
            Text::DrainUnfinished,
            ended.map(|n| s.pending_at_end.saturating_sub(n)),
            Better::Lower,
        ),
    ];
    for (k, (what, n, better)) in drained.into_iter().enumerate() {
        if let Some(n) = n {
            let row = fig(what, Unit::Count, n as f64);
            m.insert(4 + k, Metric { better, ..row });
        }
    }
    // One row per tier of a per-tier figure.
    let per_tier = |m: &mut Vec<Metric>,
                    what: Text,
                    (unit, better): (Unit, Better),
                    f: fn(&TierSummary) -> f64| {
        for t in &r.tiers {
            let label = Text::TierFigure.fill(lang, &[&t.name, &what.get(lang)]);
            m.push(Metric {
                better,
                ..metric(what, label, unit, f(t))
            });
        }
    };
    let (lower, neither) = (Better::Lower, Better::Neither);
    per_tier(&mut m, Text::Amplification, (Unit::Times, lower), |t| {
        t.amplification
    });
    per_tier(&mut m, Text::Utilisation, (Unit::Percent, neither), |t| {
        t.utilisation
    });
    per_tier(&mut m, Text::MeanQueueLength, (Unit::Count2, lower), |t| {
        t.mean_queue_length
    });
    per_tier(&mut m, Text::MeanQueueWait, (Unit::Ms, lower), |t| {
        t.mean_wait_ms
    });
    per_tier(&mut m, Text::MeanServiceTime, (Unit::Ms, lower), |t| {
        t.mean_service_ms
    });
    per_tier(&mut m, Text::QueueWaitP99, (Unit::Ms, lower), |t| {
        t.wait_ms.p99
    });
    per_tier(&mut m, Text::ServiceTimeP99, (Unit::Ms, lower), |t| {
        t.service_ms.p99
    });
    m.push(fig(Text::PeakArrivals, Unit::Times, s.peak_arrival_ratio).lower());
    per_tier(&mut m, Text::PeakVsSteady, (Unit::Times, lower), |t| {
        t.peak_arrival_ratio
    });
    m.push(
        fig(
            Text::OverloadDuration,
            Unit::Seconds,
            s.overload_duration_ms as f64,
        )
        .lower(),
    );
    m.push(recovery_in(s, lang));
    m.push(goodput_recovery_in(s, lang));
    // Failure counts summed over every hop: the failures are worse when more, the
    // protections' rejections are not judged.
    let totals: [(Text, Count, Better); 6] = [
        (Text::TimeoutsAllHops, |t| t.timeouts, lower),
        (Text::OverloadsAllHops, |t| t.overloads, lower),
        (Text::ErrorsAllHops, |t| t.errors, lower),
        (Text::BreakerRejected, |t| t.breaker_rejected, neither),
        (Text::BudgetRejected, |t| t.budget_rejected, neither),
        (Text::BulkheadRejected, |t| t.bulkhead_rejected, neither),
    ];
    for (what, count, better) in totals {
        let n: u64 = r.tiers.iter().map(|t| count(&t.totals)).sum();
        m.push(Metric {
            better,
            ..fig(what, Unit::Count, n as f64)
        });
    }
    m.push(fig(
        Text::BreakerOpenings,
        Unit::Count,
        r.tiers.iter().map(|t| t.breaker_openings).sum::<u64>() as f64,
    ));
    m
}

/// The summary as `{columns: [metric, value], rows}` of formatted strings, in English.
pub fn summary_table(r: &RunResult) -> Table {
    summary_table_in(r, Lang::En)
}

/// The summary with its labels and titles in `lang`.
pub fn summary_table_in(r: &RunResult, lang: Lang) -> Table {
    Table::new(
        &[Text::Metric.get(lang), Text::Value.get(lang)],
        metrics_in(r, lang)
            .into_iter()
            .map(|m| vec![m.label, m.text])
            .collect(),
    )
}

/// Per-tier totals, titled in English: attempts, outcomes by kind, amplification, peak
/// and breaker openings.
pub fn tier_table(r: &RunResult) -> Table {
    tier_table_in(r, Lang::En)
}

/// Per-tier totals with the column titles in `lang`.
pub fn tier_table_in(r: &RunResult, lang: Lang) -> Table {
    let columns: Vec<&str> = tier_columns().iter().map(|c| c.get(lang)).collect();
    let rows = r
        .tiers
        .iter()
        .map(|t| {
            let mut row = vec![t.name.clone()];
            row.extend(count_cells(&t.totals));
            row.extend([
                fmt(Unit::Times, t.amplification),
                fmt(Unit::Times, t.retry_amplification),
                fmt(Unit::Times, t.peak_arrival_ratio),
                t.breaker_openings.to_string(),
                fmt(Unit::Percent, t.utilisation),
                fmt(Unit::Count2, t.mean_queue_length),
                fmt(Unit::Count2, t.mean_in_flight),
                format!("{:.1}", t.mean_wait_ms),
                format!("{:.1}", t.mean_service_ms),
            ]);
            row
        })
        .collect();
    Table::new(&columns, rows)
}

/// The per-tier table's columns, in its order (the glossary defines the same list).
pub(crate) fn tier_columns() -> Vec<Text> {
    let mut columns = vec![Text::Tier];
    columns.extend(COUNT_COLUMNS);
    columns.extend([
        Text::Amp,
        Text::RetryAmp,
        Text::PeakSteady,
        Text::Openings,
        Text::Util,
        Text::MeanQueue,
        Text::MeanInFlight,
        Text::WaitMs,
        Text::ServiceMs,
    ]);
    columns
}

/// The per-route table's columns before its cost columns, in its order.
pub(crate) fn route_columns() -> Vec<Text> {
    let mut columns = vec![Text::Route, Text::Share];
    columns.extend(COUNT_COLUMNS);
    columns.push(Text::RetryAmp);
    columns
}

/// Whether the per-route table has its cost columns: some route's client has a cost model.
pub(crate) fn routes_have_cost(r: &RunResult) -> bool {
    r.routes.iter().any(|x| x.cost.is_some())
}

/// The titles of [`count_cells`] (a route's first attempts are the calls made on it).
const COUNT_COLUMNS: [Text; 9] = [
    Text::First,
    Text::Retries,
    Text::Ok,
    Text::Timeout,
    Text::Overload,
    Text::Error,
    Text::Breaker,
    Text::Budget,
    Text::Bulkhead,
];

/// The attempt and refusal counts both the tier and the route tables show, in the
/// order of [`COUNT_COLUMNS`].
fn count_cells(x: &TierBucket) -> [String; 9] {
    [
        x.first_attempts,
        x.retries,
        x.successes,
        x.timeouts,
        x.overloads,
        x.errors,
        x.breaker_rejected,
        x.budget_rejected,
        x.bulkhead_rejected,
    ]
    .map(|v| v.to_string())
}

/// The per-route table: every route of every tier's client (a chain's tier has one),
/// its share of the calls and how its attempts ended, and the cost columns when some
/// route's client has a cost model; titled in English.
pub fn route_table(r: &RunResult) -> Table {
    route_table_in(r, Lang::En)
}

/// The per-route table with its column titles in `lang`.
pub fn route_table_in(r: &RunResult, lang: Lang) -> Table {
    let mut columns: Vec<&str> = route_columns().iter().map(|c| c.get(lang)).collect();
    let cost = routes_have_cost(r);
    if cost {
        columns.extend(crate::cost::columns(lang));
    }
    let rows = r
        .routes
        .iter()
        .map(|x| {
            let mut row = vec![x.name.clone(), fmt(Unit::Percent, x.share)];
            row.extend(count_cells(&x.totals));
            row.push(fmt(Unit::Times, x.retry_amplification));
            if cost {
                row.extend(crate::cost::cells(x.cost.as_ref()));
            }
            row
        })
        .collect();
    Table::new(&columns, rows)
}

/// A and B side by side: `[metric, A, B, Δ (B − A), Δ %]`. Metrics are matched by
/// label and, when a label repeats, by its occurrence (the second row of a label in A
/// meets the second in B), so a tier present in only one run shows "—" on the other side.
pub fn compare(a: &RunResult, b: &RunResult) -> Table {
    compare_in(a, b, Lang::En)
}

/// [`compare`] with the labels and titles in `lang`.
pub fn compare_in(a: &RunResult, b: &RunResult, lang: Lang) -> Table {
    compare_judged(a, b, lang).0
}

/// [`compare_in`] with each row's [`Change`]: B against A by the figure's direction, so
/// the page colours a difference by better or worse, not by its sign.
pub fn compare_judged(a: &RunResult, b: &RunResult, lang: Lang) -> (Table, Vec<Change>) {
    let ma = keyed(metrics_in(a, lang));
    let mb = keyed(metrics_in(b, lang));
    let mut rows_of: Vec<&(String, usize, Metric)> = ma.iter().collect();
    rows_of.extend(mb.iter().filter(|m| !ma.iter().any(|x| same(x, m))));
    let (rows, changes): (Vec<Vec<String>>, Vec<Change>) = rows_of
        .into_iter()
        .map(|k| {
            let x = ma.iter().find(|x| same(x, k)).map(|x| &x.2);
            let y = mb.iter().find(|y| same(y, k)).map(|y| &y.2);
            let text = |v: Option<&Metric>| v.map_or("—".to_string(), |v| v.text.clone());
            let (delta, pct, change) = match (x.and_then(|x| x.value), y.and_then(|y| y.value)) {
                (Some(va), Some(vb)) => (
                    fmt_delta(k.2.unit, vb - va),
                    fmt_change(va, vb),
                    judge(k.2.better, va, vb),
                ),
                _ if text(x) == text(y) => ("±0".to_string(), "±0.0%".to_string(), Change::Same),
                _ => ("—".to_string(), "—".to_string(), Change::Unjudged),
            };
            (vec![k.0.clone(), text(x), text(y), delta, pct], change)
        })
        .unzip();
    let table = Table::new(
        &[
            Text::Metric.get(lang),
            Text::PinnedA.get(lang),
            Text::CurrentB.get(lang),
            "Δ (B − A)",
            "Δ %",
        ],
        rows,
    );
    (table, changes)
}

/// Each metric with its label and the occurrence of that label before it.
fn keyed(ms: Vec<Metric>) -> Vec<(String, usize, Metric)> {
    let mut out: Vec<(String, usize, Metric)> = Vec::with_capacity(ms.len());
    for m in ms {
        let n = out.iter().filter(|k| k.0 == m.label).count();
        out.push((m.label.clone(), n, m));
    }
    out
}

fn same(a: &(String, usize, Metric), b: &(String, usize, Metric)) -> bool {
    a.0 == b.0 && a.1 == b.1
}

/// A tier's service capacity, requests per second: instances × concurrency / mean local
/// service time (`None` when the service time is 0). It ignores the time spent waiting
/// on the next tier, so it is the real capacity of the last tier only.
pub fn capacity_per_s(t: &Tier) -> Option<f64> {
    let m = t.service.mean_ms();
    (m > 0.0).then(|| f64::from(t.instances) * f64::from(t.concurrency) * 1000.0 / m)
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
    fn compare_matches_a_repeated_label_by_its_occurrence() {
        // Two tiers of the same name: each row must show its own tier's figures.
        let mut s = stampede();
        s.tiers[1].name = s.tiers[0].name.clone();
        s.duration_ms = 20_000;
        let a = cluster::run(&s, 2002).unwrap();
        // Utilisation differs between the gateways and the pods in any run.
        assert_ne!(a.tiers[0].utilisation, a.tiers[1].utilisation);
        let label = format!("{}: utilisation", s.tiers[0].name);
        let rows: Vec<Vec<String>> = compare(&a, &a)
            .rows
            .into_iter()
            .filter(|r| r[0] == label)
            .collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0][1], fmt(Unit::Percent, a.tiers[0].utilisation));
        assert_eq!(rows[1][1], fmt(Unit::Percent, a.tiers[1].utilisation));
        assert_eq!(rows[1][2], rows[1][1]);
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
        assert_eq!(
            row(&c, "recovery time (cohorts)")[1],
            row(&t, "recovery time (cohorts)")[1]
        );
        let mut b = a.clone();
        b.summary.goodput_per_s = a.summary.goodput_per_s * 1.5;
        b.summary.requests = a.summary.requests - 10;
        let c = compare(&a, &b);
        assert_eq!(row(&c, "goodput")[4], "+50.0%");
        assert_eq!(row(&c, "requests")[3], "−10");
        assert_eq!(tier_table(&a).rows.len(), 2);
    }

    /// Whether `s` has a Chinese character (CJK Unified Ideographs).
    fn has_han(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    #[test]
    fn every_figure_label_and_title_exists_in_chinese() {
        let r = cluster::run(&stampede(), 2002).unwrap();
        let (en, zh) = (metrics_in(&r, Lang::En), metrics_in(&r, Lang::Zh));
        assert_eq!(en, metrics(&r));
        assert_eq!(en.len(), zh.len());
        for (e, z) in en.iter().zip(&zh) {
            // The same figure, the same text; only the label's words change.
            assert_eq!((e.value, &e.text, e.unit), (z.value, &z.text, z.unit));
            assert!(
                has_han(&z.label),
                "{:?} has no Chinese label: {:?}",
                e.label,
                z.label
            );
            assert!(!has_han(&e.label), "{:?}", e.label);
        }
        // No two figures share a label in one language but not in the other (compare
        // matches figures by label).
        let distinct = |m: &[Metric]| {
            let mut l: Vec<&str> = m.iter().map(|m| m.label.as_str()).collect();
            l.sort_unstable();
            l.dedup();
            l.len()
        };
        assert_eq!(distinct(&en), distinct(&zh));
        for t in [
            tier_table_in(&r, Lang::Zh),
            route_table_in(&r, Lang::Zh),
            summary_table_in(&r, Lang::Zh),
            compare_in(&r, &r, Lang::Zh),
        ] {
            let titled = t.columns.iter().filter(|c| has_han(c)).count();
            // Every title but the Δ columns, which are symbols.
            assert!(
                titled + 2 >= t.columns.len() && titled >= 2,
                "{:?}",
                t.columns
            );
        }
        assert_eq!(tier_table_in(&r, Lang::Zh).rows, tier_table(&r).rows);
        assert_eq!(route_table_in(&r, Lang::Zh).rows, route_table(&r).rows);
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
