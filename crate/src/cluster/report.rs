//! Human-readable renderings of a [`RunResult`]: the CLI's text report, a Markdown
//! summary and a CSV of the buckets. The whole-run figures are one list
//! ([`present::metrics`]) and the per-tier totals one table ([`present::tier_table`]),
//! rendered here as text or Markdown and on the page as tables, by the shared
//! [`crate::report`] layer.

use super::metrics::RunResult;
use super::present;
use super::scenario::Scenario;
use crate::lang::Lang;
use crate::report::{self as layer, csv_field};
use std::fmt::Write;

/// The CLI's text report: scenario, verdict, whole-run figures, per-tier table, timeline.
pub fn text(scenario: &Scenario, r: &RunResult) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{} (cluster model, seed {})", scenario.name, r.seed);
    let _ = writeln!(
        o,
        "{} ms simulated in {} ms buckets, {} events",
        r.duration_ms, r.bucket_ms, r.events
    );
    if let Some(ms) = r.summary.drain_ms {
        let _ = writeln!(o, "then drained for {ms} ms, with no new request");
    }
    let _ = writeln!(o);
    let _ = writeln!(o, "{}", super::verdict::line(&r.summary, Lang::En));
    let _ = writeln!(o);
    o.push_str(&layer::text(&present::summary_table(r)));
    let _ = writeln!(o);
    o.push_str(&layer::text(&present::tier_table(r)));
    let _ = writeln!(o);
    // A chain's routes are its tiers (the table above); a tree or a cost model gets its own.
    if scenario.tiers.iter().any(|t| !t.routes.is_empty())
        || r.routes.iter().any(|x| x.cost.is_some())
    {
        o.push_str(&layer::text(&present::route_table(r)));
        let _ = writeln!(o);
    }
    let _ = writeln!(
        o,
        "timeline (attempts/s per tier; ok% of the requests arriving; open breakers of tier 0):"
    );
    let step = (r.buckets.len() / 40).max(1);
    for b in r.buckets.iter().step_by(step) {
        let e = &b.tiers[0];
        // Of the requests that arrived in the bucket, however late they ended.
        let judged = b.cohort.successes + b.cohort.failures;
        let ok = if judged > 0 {
            b.cohort.successes as f64 * 100.0 / judged as f64
        } else {
            100.0
        };
        let rates: Vec<String> = b
            .tiers
            .iter()
            .map(|t| format!("{:>8.0}", t.attempts() as f64 * 1000.0 / r.bucket_ms as f64))
            .collect();
        let _ = writeln!(
            o,
            "{:>8.1}s {}  ok {:>5.1}%  open {}",
            b.start_ms as f64 / 1000.0,
            rates.join(" "),
            ok.min(999.9),
            e.breakers_open
        );
    }
    o
}

/// The whole-run figures as a Markdown table, ready to paste into a post (names stay text).
pub fn markdown_summary(r: &RunResult) -> String {
    layer::markdown(&present::summary_table(r))
}

/// The run's verdict in `lang`, then [`markdown_summary`]: the page's Markdown export.
pub fn markdown_in(r: &RunResult, lang: Lang) -> String {
    format!(
        "{}\n\n{}",
        super::verdict::line(&r.summary, lang),
        markdown_summary(r)
    )
}

/// One CSV row per bucket and tier, with a header; with a cost model on some route, a
/// last column `cost`: what the attempts into that tier cost in the bucket (its routes').
pub fn csv_buckets(r: &RunResult) -> String {
    let mut o = String::from(
        "start_ms,tier,first_attempts,retries,successes,timeouts,overloads,errors,breaker_rejected,budget_rejected,bulkhead_rejected,wasted,queue_depth,in_flight,breakers_open,breakers_half_open,breakers_closed,mean_queue,mean_in_flight,utilisation,mean_wait_ms,mean_service_ms",
    );
    // The cost per bucket of the routes into each tier that have a cost model.
    let mut cost_of: Vec<Option<Vec<f64>>> = vec![None; r.tiers.len()];
    for x in &r.routes {
        if let (Some(c), Some(slot)) = (&x.cost, cost_of.get_mut(x.to as usize)) {
            match slot {
                Some(sum) => sum.iter_mut().zip(&c.per_sec).for_each(|(s, v)| *s += v),
                None => *slot = Some(c.per_sec.clone()),
            }
        }
    }
    let costed = cost_of.iter().any(Option::is_some);
    o.push_str(if costed { ",cost\n" } else { "\n" });
    let slots: Vec<f64> = r.tiers.iter().map(|t| t.slots as f64).collect();
    for b in &r.buckets {
        let len_us = (r.duration_ms.saturating_sub(b.start_ms))
            .min(r.bucket_ms)
            .max(1) as f64
            * 1000.0;
        for (k, t) in b.tiers.iter().enumerate() {
            let name = r.tiers.get(k).map_or(String::new(), |x| csv_field(&x.name));
            let _ = write!(
                o,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.3},{:.3}",
                b.start_ms,
                name,
                t.first_attempts,
                t.retries,
                t.successes,
                t.timeouts,
                t.overloads,
                t.errors,
                t.breaker_rejected,
                t.budget_rejected,
                t.bulkhead_rejected,
                t.wasted,
                t.queue_depth,
                t.in_flight,
                t.breakers_open,
                t.breakers_half_open,
                t.breakers_closed,
                t.queue_us as f64 / len_us,
                t.in_flight_us as f64 / len_us,
                t.busy_us as f64 / (len_us * slots.get(k).copied().unwrap_or(1.0).max(1.0)),
                t.mean_wait_ms(),
                t.mean_service_ms()
            );
            if costed {
                let bucket = (b.start_ms / r.bucket_ms.max(1)) as usize;
                let v = cost_of[k]
                    .as_ref()
                    .and_then(|c| c.get(bucket))
                    .copied()
                    .unwrap_or(0.0);
                let _ = write!(o, ",{v}");
            }
            o.push('\n');
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{self, present};

    /// The editor's default scenario, shortened, with its tiers renamed.
    fn run_named(gateway: &str, service: &str, faults: bool) -> (Scenario, RunResult) {
        let mut s = Scenario {
            duration_ms: 10_000,
            ..Scenario::default()
        };
        s.tiers[0].name = gateway.into();
        s.tiers[1].name = service.into();
        if faults {
            s.faults[0].start_ms = 3_000;
        } else {
            s.faults.clear();
        }
        let r = cluster::run(&s, 7).unwrap();
        (s, r)
    }

    #[test]
    fn markdown_keeps_names_as_text() {
        let (_, r) = run_named("<img src=x onerror=alert(1)>|", "db", true);
        let md = markdown_summary(&r);
        assert!(
            md.contains("| &lt;img src=x onerror=alert(1)&gt;\\|: amplification |"),
            "{md}"
        );
        assert!(!md.contains("<img"), "{md}");
        // Every row still has exactly the table's two cells.
        for line in md.lines() {
            assert_eq!(line.matches(" | ").count(), 1, "{line}");
        }
    }

    #[test]
    fn csv_defuses_formula_names() {
        let (_, r) = run_named("=HYPERLINK(\"x\")", "+db", true);
        let csv = csv_buckets(&r);
        let row = csv.lines().nth(1).unwrap();
        assert!(row.starts_with("0,\"'=HYPERLINK(\"\"x\"\")\","), "{row}");
        assert!(
            csv.lines().nth(2).unwrap().starts_with("0,\"'+db\","),
            "{csv:.300}"
        );
    }

    /// The recovery row of each rendering: the page's summary, the Markdown, the text.
    fn recovery_everywhere(s: &Scenario, r: &RunResult) -> [String; 3] {
        let page = present::summary_table(r)
            .rows
            .into_iter()
            .find(|row| row[0] == "recovery time (cohorts)")
            .unwrap()[1]
            .clone();
        let md = markdown_summary(r)
            .lines()
            .find_map(|l| {
                l.strip_prefix("| recovery time (cohorts) | ")
                    .map(|x| x.trim_end_matches(" |").to_string())
            })
            .unwrap();
        let text = text(s, r)
            .lines()
            .find_map(|l| {
                l.strip_prefix("recovery time (cohorts) ")
                    .map(|x| x.trim().to_string())
            })
            .unwrap();
        [page, md, text]
    }

    #[test]
    fn recovery_reads_the_same_in_text_markdown_and_summary() {
        let (s, r) = run_named("gateway", "service", false);
        assert_eq!(r.summary.trigger_end_ms, None);
        assert_eq!(
            recovery_everywhere(&s, &r),
            ["no trigger", "no trigger", "no trigger"].map(String::from)
        );
        let t = text(&s, &r);
        assert!(!t.contains("never") && !t.contains("recovered"), "{t}");
        let (s, mut r) = run_named("gateway", "service", true);
        r.summary.recovery_time_ms = Some(4_000);
        r.summary.metastable = false;
        let want = "4.0 s".to_string();
        assert_eq!(
            recovery_everywhere(&s, &r),
            [want.clone(), want.clone(), want]
        );
        r.summary.recovery_time_ms = None;
        r.summary.metastable = true;
        let want = "metastable: did not recover".to_string();
        assert_eq!(
            recovery_everywhere(&s, &r),
            [want.clone(), want.clone(), want]
        );
        assert!(!text(&s, &r).contains("4.0 s"));
    }
}
