//! The classic engine's speed: the article's six-strategy table at its own size and at
//! 100× the clients and capacity (20,000 clients, capacity 24,000), as the article asks
//! for capacity planning. Prints time per table and ns per attempt.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use retrystorm::classic::{self, Scenario};

fn scaled(factor: u32) -> Scenario {
    let mut sc = Scenario::article();
    sc.clients *= factor;
    sc.capacity *= factor;
    sc
}

fn classic_tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("classic_table");
    for (label, factor) in [("article_200_clients", 1), ("x100_20000_clients", 100)] {
        let sc = scaled(factor);
        let attempts: u64 = classic::run(&sc, sc.seed)
            .unwrap()
            .iter()
            .map(|r| r.attempts)
            .sum();
        // Throughput in attempts, so criterion also reports attempts per second.
        group.throughput(Throughput::Elements(attempts));
        group.bench_function(label, |b| {
            b.iter(|| classic::run(black_box(&sc), black_box(4242)).unwrap())
        });
        let start = std::time::Instant::now();
        let reps = if factor == 1 { 200 } else { 10 };
        for _ in 0..reps {
            black_box(classic::run(&sc, 4242).unwrap());
        }
        let per_table = start.elapsed() / reps;
        println!(
            "{label}: {attempts} attempts per table, {:.3} ms per table, {:.2} ns per attempt",
            per_table.as_secs_f64() * 1e3,
            per_table.as_nanos() as f64 / attempts as f64
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = classic_tables
}
criterion_main!(benches);
