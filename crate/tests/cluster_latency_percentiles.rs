//! The latency percentiles read off the log-linear histogram: exact for a constant
//! latency and for small samples, within a stated relative error otherwise.

use retrystorm::cluster::{self, metrics::Histogram, Scenario};
use serde_json::json;

/// One server with room for every request, a constant service of `ms`: every latency
/// is exactly `ms`.
fn constant_service(ms: f64) -> Scenario {
    let s: Scenario = serde_json::from_value(json!({
        "name": "constant", "seed": 1, "duration_ms": 20_000, "bucket_ms": 1000,
        "load": {"arrivals": "poisson", "rate_per_s": 100},
        "tiers": [{
            "name": "server", "instances": 1, "concurrency": 1000, "queue_capacity": 1000,
            "service": {"kind": "constant", "ms": ms}
        }]
    }))
    .expect("scenario");
    s.validate().expect("valid");
    s
}

#[test]
fn a_constant_latency_reads_exactly() {
    for ms in [25.0, 100.0, 5.0, 2000.0] {
        let r = cluster::run(&constant_service(ms), 1).unwrap();
        let p = &r.summary.latency_ms;
        assert!(r.summary.successes > 1000, "{ms}");
        assert_eq!([p.p50, p.p90, p.p99, p.p999], [ms; 4], "{ms} ms");
        assert_eq!(r.tiers[0].service_ms.p99, ms, "{ms} ms");
        // Every bucket with successes, by the same rule.
        for b in r.buckets.iter().filter(|b| b.success_latency.count > 0) {
            assert_eq!(b.latency_ms.p50, ms, "{ms} ms at {}", b.start_ms);
        }
    }
}

/// The nearest-rank quantile of `v` (sorted): what the histogram approximates.
fn exact(v: &[u64], q: f64) -> f64 {
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1] as f64
}

/// Deterministic spread-out latencies, µs (a linear congruential generator).
fn latencies(n: usize) -> Vec<u64> {
    let mut x: u64 = 12345;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            1000 + (x >> 33) % 5_000_000
        })
        .collect()
}

#[test]
fn a_small_sample_reads_exactly() {
    for n in [1, 2, 7, 50, 200] {
        let mut v = latencies(n);
        let mut h = Histogram::default();
        for &x in &v {
            h.record(x);
        }
        v.sort_unstable();
        for q in [0.5, 0.9, 0.99, 0.999] {
            assert_eq!(h.quantile(q), exact(&v, q), "n {n}, q {q}");
        }
    }
}

#[test]
fn a_large_sample_reads_within_the_stated_error() {
    let mut v = latencies(20_000);
    let mut h = Histogram::default();
    for &x in &v {
        h.record(x);
    }
    v.sort_unstable();
    for q in [0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
        let want = exact(&v, q);
        let err = (h.quantile(q) - want).abs() / want;
        assert!(err <= Histogram::MAX_RELATIVE_ERROR, "q {q}: {err}");
    }
    // The bound is the half-width of a sub-bucket: 1/128.
    assert_eq!(Histogram::MAX_RELATIVE_ERROR, 1.0 / 128.0);
}
