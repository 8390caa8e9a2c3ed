//! Events per second of the cluster engine on the seed-002 GC stampede (naive: the retry
//! storm is where the events are) and on its fixed twin.

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
}

criterion_group!(benches, bench);
criterion_main!(benches);
