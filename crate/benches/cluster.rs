//! Events per second of the cluster engine on every bundled cluster preset and on a
//! high-concurrency scenario (`high-concurrency.json`: thousands of requests in flight, with
//! timeouts, backoffs and service times of seconds, which land beyond the calendar's fine
//! ring), plus the wall time of a 10-minute simulation of the seed-002 cluster (the target:
//! "well under a second").
//!
//! Each case first prints its events/s as the median of 5 runs with the fastest and
//! slowest (the figure docs/performance.md quotes), then criterion measures the two
//! seed-002 stampedes and the high-concurrency case.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrystorm::cluster::{self, Scenario};
use retrystorm::scenario::{bundled, parse, AnyScenario};
use std::hint::black_box;
use std::time::Instant;

fn load(text: &str) -> Scenario {
    match parse(text) {
        Ok(AnyScenario::Cluster(s)) => s,
        _ => panic!("a cluster scenario"),
    }
}

/// Median, min and max wall seconds of `n` runs, and the run's events.
fn timed(s: &Scenario, n: usize) -> (f64, f64, f64, u64) {
    let mut times = Vec::with_capacity(n);
    let mut events = 0;
    for _ in 0..n {
        let t = Instant::now();
        let r = cluster::run(black_box(s), s.seed).expect("runs");
        times.push(t.elapsed().as_secs_f64());
        events = r.events;
    }
    times.sort_by(f64::total_cmp);
    (times[n / 2], times[0], times[n - 1], events)
}

fn bench(c: &mut Criterion) {
    let cases = [
        (
            "stampede-naive",
            load(include_str!(
                "../../scenarios/cluster-gc-stampede-naive.json"
            )),
        ),
        (
            "stampede-fixed",
            load(include_str!(
                "../../scenarios/cluster-gc-stampede-fixed.json"
            )),
        ),
    ];
    let high = load(include_str!("high-concurrency.json"));
    let presets: Vec<(&str, Scenario)> = bundled()
        .iter()
        .filter(|b| b.model == "cluster")
        .map(|b| (b.id, load(b.json)))
        .collect();
    for (name, s) in presets
        .iter()
        .chain([("high-concurrency", high.clone())].iter())
    {
        let (med, min, max, events) = timed(s, 5);
        let rate = |t: f64| events as f64 / t / 1e6;
        println!(
            "{name}: {events} events, median {:.1} ms = {:.2} M events/s (runs {:.2}–{:.2}; {} s simulated)",
            med * 1e3,
            rate(med),
            rate(max),
            rate(min),
            s.duration_ms / 1000
        );
    }

    let mut g = c.benchmark_group("cluster");
    g.sample_size(10);
    for (name, s) in cases.iter().chain([("high-concurrency", high)].iter()) {
        let events = cluster::run(s, s.seed).expect("runs").events;
        g.throughput(Throughput::Elements(events));
        g.bench_function(*name, |b| {
            b.iter(|| black_box(cluster::run(black_box(s), s.seed).expect("runs")))
        });
    }
    g.finish();

    // The yardstick of that target: 10 simulated minutes of the seed-002 cluster (best of 3,
    // printed only: criterion would need ten of them per sample).
    for (name, s) in &cases {
        let mut long = s.clone();
        long.duration_ms = 600_000;
        long.max_events = cluster::MAX_EVENTS_LIMIT;
        let mut best = f64::MAX;
        let mut events = 0;
        for _ in 0..3 {
            let t = Instant::now();
            let r = cluster::run(black_box(&long), long.seed).expect("runs");
            best = best.min(t.elapsed().as_secs_f64());
            events = r.events;
        }
        println!(
            "{name}, 600 s simulated: {events} events in {:.0} ms (best of 3) = {:.2} M events/s",
            best * 1e3,
            events as f64 / best / 1e6
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
