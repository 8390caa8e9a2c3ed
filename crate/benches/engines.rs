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

/// The article's table over 1,000 derived seeds (with the four acceptance checks on
/// each), on one thread and on every core.
fn ensembles(c: &mut Criterion) {
    let sc = retrystorm::scenario::AnyScenario::Classic(Scenario::article());
    let seeds = retrystorm::ensemble::derive_seeds(4242, 1000);
    let mut group = c.benchmark_group("ensemble_article_1000_seeds");
    group.sample_size(10);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for threads in [1, cores] {
        let label = format!("{threads}_threads");
        group.bench_function(&label, |b| {
            b.iter(|| retrystorm::ensemble::run(black_box(&sc), &seeds, Some(threads)).unwrap())
        });
        let start = std::time::Instant::now();
        black_box(retrystorm::ensemble::run(&sc, &seeds, Some(threads)).unwrap());
        println!(
            "ensemble of 1000 seeds, {threads} thread(s): {:.3} s",
            start.elapsed().as_secs_f64()
        );
        if cores == 1 {
            break;
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = classic_tables, ensembles
}
criterion_main!(benches);
