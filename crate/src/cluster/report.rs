//! Human-readable renderings of a [`RunResult`]: the CLI's text report, a Markdown
//! summary and a CSV of the buckets. The whole-run figures are one list
//! ([`present::metrics`]) and the per-tier totals one table ([`present::tier_table`]),
//! rendered here as text or Markdown and on the page as tables, by the shared
//! [`crate::report`] layer.

use super::metrics::RunResult;
use super::present;
use super::scenario::Scenario;
use crate::report::{self as layer, csv_field};
use std::fmt::Write;

/// The CLI's text report: scenario, whole-run figures, per-tier table, timeline.
pub fn text(scenario: &Scenario, r: &RunResult) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{} (cluster model, seed {})", scenario.name, r.seed);
    let _ = writeln!(
        o,
        "{} ms simulated in {} ms buckets, {} events",
        r.duration_ms, r.bucket_ms, r.events
    );
    let _ = writeln!(o);
    o.push_str(&layer::text(&present::summary_table(r)));
    let _ = writeln!(o);
    o.push_str(&layer::text(&present::tier_table(r)));
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "timeline (attempts/s per tier; ok% at entry; open breakers of tier 0):"
    );
    let step = (r.buckets.len() / 40).max(1);
    for b in r.buckets.iter().step_by(step) {
        let e = &b.tiers[0];
        let ok = if e.first_attempts > 0 {
            e.successes as f64 * 100.0 / e.first_attempts as f64
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

/// One CSV row per bucket and tier, with a header.
pub fn csv_buckets(r: &RunResult) -> String {
    let mut o = String::from(
        "start_ms,tier,first_attempts,retries,successes,timeouts,overloads,errors,breaker_rejected,budget_rejected,bulkhead_rejected,wasted,queue_depth,in_flight,breakers_open,breakers_half_open,breakers_closed\n",
    );
    for b in &r.buckets {
        for (k, t) in b.tiers.iter().enumerate() {
            let name = r.tiers.get(k).map_or(String::new(), |x| csv_field(&x.name));
            let _ = writeln!(
                o,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
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
                t.breakers_closed
            );
        }
    }
    o
}
