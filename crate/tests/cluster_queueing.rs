//! The cluster engine against queueing theory: M/M/1, M/M/c (Erlang C), M/D/1
//! (Pollaczek–Khinchine), Erlang B blocking, and Little's law in a closed loop.
//!
//! Each check runs one single-tier scenario over several seeds and asserts that the
//! theoretical value lies within the seeds' mean ± 4 standard errors, plus a small
//! stated bias allowance (the start-up transient after the warm-up, and the ≤ 1.6%
//! bucket width of the latency histogram for percentiles). A queueing system here is
//! ONE instance: an M/M/c is one instance with concurrency c (several instances behind
//! round-robin are several separate queues, not one M/M/c).

use retrystorm::cluster::{self, RunResult, Scenario};
use serde_json::{json, Value};

/// Seeds per check: enough for a standard error, few enough for a debug-build CI.
const SEEDS: i64 = 10;

/// One tier: one instance, `c` slots, a queue of `queue` places, Poisson arrivals.
fn single(rate: f64, c: u32, queue: u32, service: Value, duration_ms: u64) -> Scenario {
    let v = json!({
        "name": "queueing check",
        "seed": 1,
        "duration_ms": duration_ms,
        "bucket_ms": 1000,
        "max_events": 100_000_000u64,
        "steady": { "warmup_ms": duration_ms / 10 },
        "load": { "arrivals": "poisson", "rate_per_s": rate },
        "tiers": [{
            "name": "server",
            "instances": 1,
            "concurrency": c,
            "queue_capacity": queue,
            "service": service
        }]
    });
    let s: Scenario = serde_json::from_value(v).expect("scenario");
    s.validate().expect("valid");
    s
}

fn runs(s: &Scenario) -> Vec<RunResult> {
    (1..=SEEDS)
        .map(|seed| cluster::run(s, seed).expect("runs"))
        .collect()
}

/// [`single`] run over the seeds: its warm-up (ms) and the results.
fn single_runs(rate: f64, c: u32, service: Value, duration_ms: u64) -> (u64, Vec<RunResult>) {
    let s = single(rate, c, 100_000, service, duration_ms);
    (s.steady.warmup_ms, runs(&s))
}

/// One figure per run.
fn col(rs: &[RunResult], f: impl Fn(&RunResult) -> f64) -> Vec<f64> {
    rs.iter().map(f).collect()
}

/// Mean and standard error of the mean.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// Asserts that `theory` lies within mean ± (4 SE + `bias` × |theory|) of the samples.
fn agrees(what: &str, xs: &[f64], theory: f64, bias: f64) {
    let (m, se) = mean_se(xs);
    let tol = 4.0 * se + bias * theory.abs();
    eprintln!("{what}: simulated {m:.5} ± {se:.5}, theory {theory:.5}, tolerance {tol:.5}");
    assert!(
        (m - theory).abs() <= tol,
        "{what}: simulated {m:.5} ± {se:.5} (SE over {} seeds), theory {theory:.5}, tolerance {tol:.5}",
        xs.len()
    );
}

/// Per run, a tier-0 figure over the buckets after the warm-up: Σ f / Σ bucket µs.
fn after_warmup(r: &RunResult, warmup_ms: u64, f: impl Fn(&cluster::TierBucket) -> u64) -> f64 {
    let mut area = 0u64;
    let mut us = 0u64;
    for b in r.buckets.iter().filter(|b| b.start_ms >= warmup_ms) {
        area += f(&b.tiers[0]);
        us += r.bucket_ms.min(r.duration_ms - b.start_ms) * 1000;
    }
    area as f64 / us as f64
}

/// Erlang C: probability that an arrival waits, M/M/c with offered load `a` = λ/μ.
fn erlang_c(c: u32, a: f64) -> f64 {
    let rho = a / f64::from(c);
    let mut term = 1.0; // a^k / k!
    let mut sum = 0.0;
    for k in 0..c {
        sum += term;
        term *= a / f64::from(k + 1);
    }
    let top = term / (1.0 - rho);
    top / (sum + top)
}

/// Erlang B: blocking probability of c servers without a queue, offered load `a`.
fn erlang_b(c: u32, a: f64) -> f64 {
    (1..=c).fold(1.0, |b, k| a * b / (f64::from(k) + a * b))
}

/// `q` quantile of a distribution given its survival function (bisection), ms.
fn quantile(q: f64, survival: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1e7);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if survival(mid) > 1.0 - q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[test]
fn mm1_queue_length_sojourn_and_percentiles() {
    // λ = 50/s, E[S] = 10 ms: ρ = 0.5.
    let (lambda, es_ms) = (50.0, 10.0);
    let (warm, rs) = single_runs(
        lambda,
        1,
        json!({"kind": "exponential", "mean_ms": es_ms}),
        400_000,
    );
    let rho: f64 = lambda * es_ms / 1000.0;
    let mu_minus_lambda = 1000.0 / es_ms - lambda; // per second
    let w_ms = 1000.0 / mu_minus_lambda;
    agrees(
        "M/M/1 Lq",
        &col(&rs, |r| after_warmup(r, warm, |t| t.queue_us)),
        rho * rho / (1.0 - rho),
        0.01,
    );
    agrees(
        "M/M/1 L",
        &col(&rs, |r| after_warmup(r, warm, |t| t.in_flight_us)),
        rho / (1.0 - rho),
        0.01,
    );
    agrees(
        "M/M/1 utilisation",
        &col(&rs, |r| after_warmup(r, warm, |t| t.busy_us)),
        rho,
        0.005,
    );
    agrees(
        "M/M/1 W",
        &col(&rs, |r| r.summary.success_latency.mean_ms),
        w_ms,
        0.01,
    );
    // Sojourn time is exponential with rate μ − λ: std dev = mean.
    agrees(
        "M/M/1 std dev of W",
        &col(&rs, |r| r.summary.success_latency.std_ms),
        w_ms,
        0.01,
    );
    agrees(
        "M/M/1 Wq",
        &col(&rs, |r| r.tiers[0].mean_wait_ms),
        rho * w_ms,
        0.01,
    );
    agrees(
        "M/M/1 E[S]",
        &col(&rs, |r| r.tiers[0].mean_service_ms),
        es_ms,
        0.002,
    );
    // Percentiles: the histogram reports bucket midpoints (≤ 1.6% off).
    // Per tier: P(Wq > t) = ρ·e^{−(μ−λ)t}, so the 90th percentile of the wait is
    // ln(10ρ)/(μ−λ); the service time's median is ln 2 · E[S].
    agrees(
        "M/M/1 wait p90",
        &col(&rs, |r| r.tiers[0].wait_ms.p90),
        (10.0 * rho).ln() * w_ms,
        0.016,
    );
    agrees(
        "M/M/1 service p50",
        &col(&rs, |r| r.tiers[0].service_ms.p50),
        2f64.ln() * es_ms,
        0.016,
    );
    let p50 = col(&rs, |r| r.summary.latency_ms.p50);
    let p90 = col(&rs, |r| r.summary.latency_ms.p90);
    agrees("M/M/1 sojourn p50", &p50, 2f64.ln() * w_ms, 0.016);
    agrees("M/M/1 sojourn p90", &p90, 10f64.ln() * w_ms, 0.016);
}

#[test]
fn mmc_erlang_c_queue_length_and_sojourn() {
    // One instance with 4 slots: λ = 280/s, E[S] = 10 ms, a = 2.8, ρ = 0.7 (not 0.75,
    // where cμ − λ = μ and the sojourn formula below degenerates to an Erlang-2).
    let (c, lambda, es_ms) = (4u32, 280.0, 10.0);
    let (warm, rs) = single_runs(
        lambda,
        c,
        json!({"kind": "exponential", "mean_ms": es_ms}),
        200_000,
    );
    let a = lambda * es_ms / 1000.0;
    let rho = a / f64::from(c);
    let pw = erlang_c(c, a);
    let lq = pw * rho / (1.0 - rho);
    let wq_ms = lq / lambda * 1000.0;
    agrees(
        "M/M/c Lq",
        &col(&rs, |r| after_warmup(r, warm, |t| t.queue_us)),
        lq,
        0.01,
    );
    agrees(
        "M/M/c utilisation (busy slots / slots)",
        &col(&rs, |r| after_warmup(r, warm, |t| t.busy_us) / f64::from(c)),
        rho,
        0.005,
    );
    agrees(
        "M/M/c Wq",
        &col(&rs, |r| r.tiers[0].mean_wait_ms),
        wq_ms,
        0.01,
    );
    agrees(
        "M/M/c W",
        &col(&rs, |r| r.summary.success_latency.mean_ms),
        wq_ms + es_ms,
        0.01,
    );
    // P(T > t) for T = Wq + S: Wq is 0 with probability 1 − C, else exponential with
    // rate cμ − λ; S is exponential with rate μ.
    let mu = 1.0 / es_ms; // per ms
    let theta = f64::from(c) * mu - lambda / 1000.0;
    let survival = |t: f64| {
        let s_only = (-mu * t).exp();
        let conv = (theta * (-mu * t).exp() - mu * (-theta * t).exp()) / (theta - mu);
        (1.0 - pw) * s_only + pw * conv
    };
    agrees(
        "M/M/c sojourn p90",
        &col(&rs, |r| r.summary.latency_ms.p90),
        quantile(0.9, survival),
        0.016,
    );
}

#[test]
fn md1_pollaczek_khinchine() {
    // Constant 10 ms service, λ = 70/s: ρ = 0.7; Lq = ρ² / (2(1 − ρ)).
    let (lambda, d_ms) = (70.0, 10.0);
    let (warm, rs) = single_runs(lambda, 1, json!({"kind": "constant", "ms": d_ms}), 300_000);
    let rho: f64 = lambda * d_ms / 1000.0;
    let lq = rho * rho / (2.0 * (1.0 - rho));
    agrees(
        "M/D/1 Lq",
        &col(&rs, |r| after_warmup(r, warm, |t| t.queue_us)),
        lq,
        0.01,
    );
    agrees(
        "M/D/1 W",
        &col(&rs, |r| r.summary.success_latency.mean_ms),
        d_ms + lq / lambda * 1000.0,
        0.01,
    );
}

#[test]
fn erlang_b_blocking_without_a_queue() {
    // 5 slots, no queue, λ = 400/s, E[S] = 10 ms: a = 4. Blocking depends on the
    // service distribution only through its mean (insensitivity): check both kinds.
    let (c, lambda, es_ms) = (5u32, 400.0, 10.0);
    let b = erlang_b(c, lambda * es_ms / 1000.0);
    for service in [
        json!({"kind": "exponential", "mean_ms": es_ms}),
        json!({"kind": "constant", "ms": es_ms}),
    ] {
        let s = single(lambda, c, 0, service.clone(), 100_000);
        let blocked: Vec<f64> = runs(&s)
            .iter()
            .map(|r| {
                let t = &r.tiers[0].totals;
                t.overloads as f64 / t.first_attempts as f64
            })
            .collect();
        agrees(&format!("Erlang B, {service}"), &blocked, b, 0.01);
    }
}

#[test]
fn littles_law_in_a_closed_loop() {
    // 20 callers, exponential think time 50 ms, one instance with 2 slots, 10 ms service.
    let v = json!({
        "name": "closed loop",
        "seed": 1,
        "duration_ms": 200_000,
        "bucket_ms": 1000,
        "steady": { "warmup_ms": 20_000 },
        "load": {
            "rate_per_s": 0,
            "closed_loop": { "callers": 20, "think": {"kind": "exponential", "mean_ms": 50} }
        },
        "tiers": [{
            "name": "server", "instances": 1, "concurrency": 2, "queue_capacity": 1000,
            "service": {"kind": "exponential", "mean_ms": 10}
        }]
    });
    let s: Scenario = serde_json::from_value(v).expect("scenario");
    let warm = s.steady.warmup_ms;
    let rs = runs(&s);
    let mut in_system = Vec::new();
    let mut callers = Vec::new();
    for r in &rs {
        // Throughput after the warm-up, per ms.
        let (done, ms) = r
            .buckets
            .iter()
            .filter(|b| b.start_ms >= warm)
            .fold((0u64, 0u64), |(d, m), b| {
                (d + b.tiers[0].successes, m + r.bucket_ms)
            });
        let x = done as f64 / ms as f64;
        let resp = r.summary.success_latency.mean_ms;
        let l = after_warmup(r, warm, |t| t.in_flight_us);
        // L = X·R (time-averaged requests in the tier) …
        in_system.push(l - x * resp);
        // … and N = X·(R + Z) for the whole loop.
        callers.push(x * (resp + 50.0));
    }
    agrees("Little: L − X·R", &in_system, 0.0, 0.0);
    let (m, _) = mean_se(&in_system);
    assert!(m.abs() < 0.02 * 20.0, "L − X·R = {m}");
    agrees("Little: X·(R + Z)", &callers, 20.0, 0.01);
}

#[test]
fn lognormal_mean_is_what_the_sampler_draws() {
    // present's capacity lines use Dist::mean_ms: it must be the mean of the samples.
    let service = json!({"kind": "lognormal", "p50_ms": 12, "p99_ms": 40});
    let s = single(20.0, 1000, 0, service, 200_000);
    let want = s.tiers[0].service.mean_ms();
    let means: Vec<f64> = runs(&s)
        .iter()
        .map(|r| r.tiers[0].mean_service_ms)
        .collect();
    agrees("lognormal E[S]", &means, want, 0.0);
    assert!(
        (want
            - 12.0
                * (0.5f64 * (40.0f64 / 12.0).ln().powi(2) / 2.326_347_874_040_840_8f64.powi(2))
                    .exp())
        .abs()
            < 1e-9
    );
}

#[test]
fn durations_are_rounded_to_the_microsecond() {
    // 1.001 ms runs as 1001 µs (truncation made it 1000 µs).
    let s = single(
        50.0,
        1,
        1000,
        json!({"kind": "constant", "ms": 1.001}),
        20_000,
    );
    let r = cluster::run(&s, 1).unwrap();
    assert_eq!(
        r.tiers[0].totals.service_us,
        1001 * r.tiers[0].totals.services_ended
    );
    // A 0.1 ms exponential keeps its mean (truncation made it 0.5% short).
    let s = single(
        2000.0,
        1000,
        0,
        json!({"kind": "exponential", "mean_ms": 0.1}),
        100_000,
    );
    let means: Vec<f64> = (1..=4)
        .map(|seed| cluster::run(&s, seed).unwrap().tiers[0].mean_service_ms)
        .collect();
    agrees("0.1 ms exponential", &means, 0.1, 0.0);
    let (m, _) = mean_se(&means);
    assert!((m / 0.1 - 1.0).abs() < 0.0025, "{m}");
}
