//! Human-readable renderings of a [`RunResult`]: the CLI's text report, a markdown
//! summary and a CSV of the buckets.

use super::metrics::RunResult;
use super::scenario::Scenario;
use std::fmt::Write;

/// The recovery verdict in words that never contradict each other: no trigger, the
/// recovery time, or metastable.
fn verdict(s: &super::metrics::Summary) -> String {
    match (s.trigger_end_ms, s.recovery_time_ms) {
        (None, _) => "no fault or spike: nothing to recover from".to_string(),
        (Some(_), Some(ms)) => format!("recovered {:.1} s after the trigger", ms as f64 / 1000.0),
        (Some(_), None) => "METASTABLE: never recovered".to_string(),
    }
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
        "latency mean {:.1} ms (std dev {:.1} ms) of successes; time to failure mean {:.1} ms (std dev {:.1} ms)",
        s.success_latency.mean_ms,
        s.success_latency.std_ms,
        s.failure_latency.mean_ms,
        s.failure_latency.std_ms
    );
    let _ = writeln!(
        o,
        "amplification end to end {:.2}x  peak arrivals {:.1}x steady state",
        s.amplification, s.peak_arrival_ratio
    );
    let verdict = verdict(s);
    let _ = writeln!(
        o,
        "out of steady state {:.1} s  {verdict}",
        s.overload_duration_ms as f64 / 1000.0,
    );
    let _ = writeln!(o);
    for t in &r.tiers {
        let _ = writeln!(
            o,
            "{:<12} utilisation {:.1}%  mean queue {:.2}  mean in flight {:.2}  wait mean {:.1} / p99 {:.1} ms  service mean {:.1} / p99 {:.1} ms",
            t.name,
            t.utilisation * 100.0,
            t.mean_queue_length,
            t.mean_in_flight,
            t.mean_wait_ms,
            t.wait_ms.p99,
            t.mean_service_ms,
            t.service_ms.p99
        );
    }
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
        "| latency mean (std dev) | {:.1} ms ({:.1} ms) |",
        s.success_latency.mean_ms, s.success_latency.std_ms
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
    let _ = writeln!(o, "| recovery | {} |", verdict(s));
    for t in &r.tiers {
        let _ = writeln!(
            o,
            "| {} amplification / peak | {:.2}x / {:.1}x |",
            t.name.replace('|', "/"),
            t.amplification,
            t.peak_arrival_ratio
        );
        let _ = writeln!(
            o,
            "| {} utilisation / mean queue / wait / service | {:.1}% / {:.2} / {:.1} ms / {:.1} ms |",
            t.name.replace('|', "/"),
            t.utilisation * 100.0,
            t.mean_queue_length,
            t.mean_wait_ms,
            t.mean_service_ms
        );
    }
    o
}

/// One CSV row per bucket and tier, with a header.
pub fn csv_buckets(r: &RunResult) -> String {
    let mut o = String::from(
        "start_ms,tier,first_attempts,retries,successes,timeouts,overloads,errors,breaker_rejected,budget_rejected,bulkhead_rejected,wasted,queue_depth,in_flight,breakers_open,breakers_half_open,breakers_closed,mean_queue,mean_in_flight,utilisation,mean_wait_ms,mean_service_ms\n",
    );
    let slots: Vec<f64> = r.tiers.iter().map(|t| t.slots as f64).collect();
    for b in &r.buckets {
        let len_us = (r.duration_ms.saturating_sub(b.start_ms))
            .min(r.bucket_ms)
            .max(1) as f64
            * 1000.0;
        for (k, t) in b.tiers.iter().enumerate() {
            let name = r.tiers.get(k).map_or(String::new(), |x| csv_field(&x.name));
            let _ = writeln!(
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
