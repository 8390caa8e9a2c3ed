//! Events per second of the cluster engine on the seed-002 GC stampede (naive: the retry
//! storm is where the events are) and on its fixed twin, plus the wall time of a
//! 10-minute simulation of the same cluster (the target: "well under a second").

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use retrystorm::cluster::{self, Scenario};
use std::hint::black_box;
use std::time::Instant;

fn load(text: &str) -> Scenario {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("scenario JSON");
    v.as_object_mut().expect("object").remove("model");
    serde_json::from_value(v).expect("cluster scenario")
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
    let mut g = c.benchmark_group("cluster");
    g.sample_size(10);
    for (name, s) in &cases {
        // One timed run first, to print events/s plainly.
        let t = Instant::now();
        let r = cluster::run(s, s.seed).expect("runs");
        let dt = t.elapsed().as_secs_f64();
        println!(
            "{name}: {} events in {:.1} ms = {:.2} M events/s ({} s simulated)",
            r.events,
            dt * 1e3,
            r.events as f64 / dt / 1e6,
            s.duration_ms / 1000
        );
        g.throughput(Throughput::Elements(r.events));
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
