//! Human-readable renderings of a [`RunResult`]: the CLI's text report, a markdown
//! summary and a CSV of the buckets.

use super::metrics::RunResult;
use super::scenario::Scenario;
use std::fmt::Write;

fn opt_ms(v: Option<u64>) -> String {
    v.map_or_else(
        || "never".to_string(),
        |x| format!("{:.1} s", x as f64 / 1000.0),
    )
}

/// The CLI's text report: scenario, whole-run figures, per-tier table, timeline.
pub fn text(scenario: &Scenario, r: &RunResult) -> String {
    let mut o = String::new();
    let s = &r.summary;
    let _ = writeln!(o, "{} (cluster model, seed {})", scenario.name, r.seed);
    let _ = writeln!(
        o,
        "{} ms simulated in {} ms buckets, {} events",
        r.duration_ms, r.bucket_ms, r.events
    );
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "requests {}  ok {}  failed {}  pending {}  success {:.2}%  goodput {:.1}/s",
        s.requests,
        s.successes,
        s.failures,
        s.pending_at_end,
        s.success_ratio * 100.0,
        s.goodput_per_s
    );
    let _ = writeln!(
        o,
        "latency of successes: p50 {:.1} ms  p90 {:.1} ms  p99 {:.1} ms  p99.9 {:.1} ms",
        s.latency_ms.p50, s.latency_ms.p90, s.latency_ms.p99, s.latency_ms.p999
    );
    let _ = writeln!(
        o,
        "amplification end to end {:.2}x  peak arrivals {:.1}x steady state",
        s.amplification, s.peak_arrival_ratio
    );
    let _ = writeln!(
        o,
        "out of steady state {:.1} s  recovery {}  {}",
        s.overload_duration_ms as f64 / 1000.0,
        opt_ms(s.recovery_time_ms),
        if s.metastable {
            "METASTABLE: never recovered"
        } else {
            "recovered"
        }
    );
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "{:<12} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
        "tier",
        "first",
        "retries",
        "ok",
        "timeout",
        "overload",
        "error",
        "breaker",
        "budget",
        "amp",
        "peak"
    );
    for t in &r.tiers {
        let x = &t.totals;
        let _ = writeln!(
            o,
            "{:<12} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6.2}x {:>6.1}x",
            t.name,
            x.first_attempts,
            x.retries,
            x.successes,
            x.timeouts,
            x.overloads,
            x.errors,
            x.breaker_rejected,
            x.budget_rejected,
            t.amplification,
            t.peak_arrival_ratio
        );
    }
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

/// A short markdown summary (a table of the whole-run figures).
pub fn markdown_summary(r: &RunResult) -> String {
    let s = &r.summary;
    let mut o = String::new();
    let _ = writeln!(o, "| metric | value |");
    let _ = writeln!(o, "|---|---|");
    let _ = writeln!(o, "| requests | {} |", s.requests);
    let _ = writeln!(o, "| success ratio | {:.2}% |", s.success_ratio * 100.0);
    let _ = writeln!(o, "| goodput | {:.1}/s |", s.goodput_per_s);
    let _ = writeln!(
        o,
        "| latency p50 / p99 / p99.9 | {:.1} / {:.1} / {:.1} ms |",
        s.latency_ms.p50, s.latency_ms.p99, s.latency_ms.p999
    );
    let _ = writeln!(
        o,
        "| amplification (end to end) | {:.2}x |",
        s.amplification
    );
    let _ = writeln!(
        o,
        "| peak arrivals vs steady state | {:.1}x |",
        s.peak_arrival_ratio
    );
    let _ = writeln!(
        o,
        "| out of steady state | {:.1} s |",
        s.overload_duration_ms as f64 / 1000.0
    );
    let _ = writeln!(o, "| recovery time | {} |", opt_ms(s.recovery_time_ms));
    let _ = writeln!(
        o,
        "| metastable | {} |",
        if s.metastable { "yes" } else { "no" }
    );
    for t in &r.tiers {
        let _ = writeln!(
            o,
            "| {} amplification / peak | {:.2}x / {:.1}x |",
            t.name.replace('|', "/"),
            t.amplification,
            t.peak_arrival_ratio
        );
    }
    o
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

/// Quotes a CSV field when needed (and defuses spreadsheet formulas).
fn csv_field(s: &str) -> String {
    let needs = s.contains([',', '"', '\n', '\r']) || s.starts_with(['=', '+', '-', '@']);
    if needs {
        let t = if s.starts_with(['=', '+', '-', '@']) {
            format!("'{s}")
        } else {
            s.to_string()
        };
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
