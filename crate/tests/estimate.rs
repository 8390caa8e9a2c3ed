//! The cost estimate (`retrystorm::estimate`) against what the jobs really hold: a
//! spread of jobs (small and large, classic and cluster, single runs, ensembles, a sweep
//! and a shard, each with the output the CLI writes) runs under a counting global
//! allocator, and each estimate of peak heap and output size must be within 0.5×–2× of
//! the measured one. Heap counts are deterministic for one thread, so this is a
//! pass/fail test; time is not measured here (see `docs/performance.md`).
//!
//! The allocator counts a reallocation as a new block allocated before the old one is
//! freed, as `GlobalAlloc::realloc` does by default: an upper bound of what the system
//! allocator needs (which may grow a block in place).

use peak_alloc::PeakAlloc;
use retrystorm::estimate::{self, Estimate, Format};
use retrystorm::lang::Lang;
use retrystorm::scenario::{self, AnyScenario};
use retrystorm::{classic, cluster, ensemble, sweep};
use serde_json::{json, Value};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// Held by every test of this file: the counts are the whole process's, so no other
/// test may allocate while one measures.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The bundled scenario `id` as JSON, with `edit` applied, read back.
fn preset(id: &str, edit: impl FnOnce(&mut Value)) -> AnyScenario {
    let b = scenario::bundled()
        .into_iter()
        .find(|b| b.id == id)
        .unwrap();
    let mut v: Value = serde_json::from_str(b.json).unwrap();
    edit(&mut v);
    scenario::from_value(v).unwrap()
}

/// Peak heap of `job` above what was held before it, and the length of what it wrote.
fn measure(job: impl FnOnce() -> String) -> (u64, u64) {
    HEAP.reset_peak_usage();
    let before = HEAP.current_usage();
    let out = job();
    let peak = HEAP.peak_usage() - before;
    (peak as u64, out.len() as u64)
}

/// [`measure`] of a job that writes as it goes and answers how much it wrote.
fn measure_len(job: impl FnOnce() -> u64) -> (u64, u64) {
    HEAP.reset_peak_usage();
    let before = HEAP.current_usage();
    let out = job();
    let peak = HEAP.peak_usage() - before;
    (peak as u64, out)
}

struct Case {
    name: &'static str,
    estimate: Estimate,
    peak: u64,
    output: u64,
}

fn ratio(est: u64, real: u64) -> f64 {
    est as f64 / real.max(1) as f64
}

fn json_text<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

/// A run as `retrystorm run` makes and writes it.
fn run_case(name: &'static str, sc: &AnyScenario, format: Format) -> Case {
    let estimate = estimate::run(sc, format);
    let (peak, output) = measure(|| match (sc, format) {
        (AnyScenario::Classic(c), Format::Json) => {
            json_text(&classic::simulate(c, c.seed).unwrap())
        }
        (AnyScenario::Classic(c), _) => {
            classic::report::run_report_in(&classic::simulate(c, c.seed).unwrap(), None, Lang::Zh)
        }
        (AnyScenario::Cluster(c), Format::Json) => {
            let r = cluster::run(c, c.seed).unwrap();
            let doc = AnyScenario::Cluster(c.clone()).to_value();
            json_text(&json!({ "scenario": doc, "result": r }))
        }
        (AnyScenario::Cluster(c), _) => cluster::report::text(c, &cluster::run(c, c.seed).unwrap()),
    });
    Case {
        name,
        estimate,
        peak,
        output,
    }
}

/// An ensemble as `retrystorm ensemble --threads 1` makes and writes it.
fn ensemble_case(name: &'static str, sc: &AnyScenario, seeds: usize, format: Format) -> Case {
    let estimate = estimate::ensemble(sc, seeds, Some(1), format);
    let list = ensemble::derive_seeds(sc.seed(), seeds);
    if format == Format::Csv {
        // Streamed as `ensemble --csv` writes it: each seed's rows made, counted, dropped.
        let (names, verdicts) = (ensemble::group_names(sc), ensemble::verdict_names(sc));
        let (peak, output) = measure_len(|| {
            let mut rows = String::from(ensemble::render::CSV_HEADER);
            let mut written = 0;
            let progress = retrystorm::progress::Progress::new();
            ensemble::stream_watched(sc, &list, Some(1), &progress, |s| {
                ensemble::render::csv_seed(&mut rows, &names, &verdicts, &s);
                written += rows.len() as u64;
                rows.clear();
            })
            .unwrap();
            written
        });
        return Case {
            name,
            estimate,
            peak,
            output,
        };
    }
    let (peak, output) = measure(|| {
        let e = ensemble::run(sc, &list, Some(1)).unwrap();
        match format {
            Format::Json | Format::Jsonl => json_text(&e),
            Format::Csv => ensemble::render::csv(&e),
            Format::Text => ensemble::render::text(&"x".repeat(60), &e),
        }
    });
    Case {
        name,
        estimate,
        peak,
        output,
    }
}

/// A sweep as `retrystorm grid --threads 1` makes and writes it.
fn sweep_case(name: &'static str, plan: &sweep::Plan, format: Format) -> Case {
    let estimate = estimate::sweep(plan, Some(1), format);
    let (peak, output) = measure(|| {
        let r = plan.run(Some(1)).unwrap();
        match format {
            Format::Jsonl | Format::Json => sweep::render::jsonl(&r),
            Format::Csv => sweep::render::csv(&r),
            Format::Text => sweep::render::text(plan, &r),
        }
    });
    Case {
        name,
        estimate,
        peak,
        output,
    }
}

fn plan(sweep_id: &str, seeds: usize) -> sweep::Plan {
    let p = sweep::presets::preset(sweep_id).unwrap();
    let mut sw = sweep::Sweep::from_json(p.json).unwrap();
    sw.seeds = Some(seeds);
    sw.seed_list = None;
    let sc = preset(p.scenario, |_| {});
    sw.plan(&sc).unwrap()
}

#[test]
fn estimates_are_within_a_factor_of_two_of_the_measured_heap() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // A long classic run: an hour of seconds, a wide latency histogram.
    let long_classic = preset("article", |v| {
        v["clients"] = json!(20);
        v["duration_s"] = json!(3600);
        v["outage"] = json!({ "from_s": 600, "to_s": 660 });
    });
    // A cluster run with many narrow buckets and little traffic: memory without work.
    let wide_cluster = preset("cluster-call-chain", |v| {
        v["duration_ms"] = json!(600_000);
        v["bucket_ms"] = json!(100);
        v["load"]["rate_per_s"] = json!(10);
    });
    // Two caller populations of one pool over many buckets: counters per route too.
    let populations = preset("cluster-routes-per-route-budget", |v| {
        v["tiers"].as_array_mut().unwrap().pop();
        v["tiers"][0]["routes"][1]["to"] = json!(1);
        v["faults"][0]["tier"] = json!(1);
        v["duration_ms"] = json!(600_000);
        v["bucket_ms"] = json!(100);
        v["load"]["rate_per_s"] = json!(10);
    });
    // Network legs of ten seconds each way and a 30 s timeout: most of the requests in
    // flight are in transit, held by no instance, and the heap is four times the plain
    // stampede's (18.6 MB against 4.8 MB measured).
    let network = preset("cluster-gc-stampede-naive", |v| {
        v["tiers"][0]["client"]["timeout_ms"] = json!(30_000);
        v["tiers"][0]["client"]["network"] = json!({
            "request": { "kind": "exponential", "mean_ms": 10000 },
            "response": { "kind": "constant", "ms": 10000 }
        });
    });
    let article = preset("article", |_| {});
    let stampede = preset("cluster-gc-stampede-naive", |_| {});
    let small_cluster = preset("cluster-call-chain", |v| {
        v["duration_ms"] = json!(40_000);
        v["load"]["rate_per_s"] = json!(20);
    });
    let mut shard_plan = plan("budget-percentage", 4);
    shard_plan.sweep.params.truncate(1);
    let cases = vec![
        run_case("classic article, run (text)", &article, Format::Text),
        run_case("classic article, run --json", &article, Format::Json),
        run_case("classic 3600 s, run --json", &long_classic, Format::Json),
        run_case("cluster gc-stampede, run (text)", &stampede, Format::Text),
        run_case("cluster gc-stampede, run --json", &stampede, Format::Json),
        run_case(
            "cluster 6000 buckets, run --json",
            &wide_cluster,
            Format::Json,
        ),
        run_case(
            "cluster two routes to one pool, 6000 buckets, run --json",
            &populations,
            Format::Json,
        ),
        run_case(
            "cluster gc-stampede, network legs of 10 s, run --json",
            &network,
            Format::Json,
        ),
        ensemble_case(
            "classic article, 200 seeds --json",
            &article,
            200,
            Format::Json,
        ),
        ensemble_case(
            "classic 3600 s, 100 seeds (text)",
            &long_classic,
            100,
            Format::Text,
        ),
        ensemble_case(
            "classic article, 300 seeds --csv",
            &article,
            300,
            Format::Csv,
        ),
        ensemble_case(
            "cluster 6000 buckets, 6 seeds (text)",
            &wide_cluster,
            6,
            Format::Text,
        ),
        ensemble_case(
            "cluster call chain 40 s, 30 seeds --json",
            &small_cluster,
            30,
            Format::Json,
        ),
        {
            let estimate = estimate::ensemble(&small_cluster, 30, Some(2), Format::Text);
            let list = ensemble::derive_seeds(small_cluster.seed(), 30);
            let (peak, output) = measure(|| {
                let e = ensemble::run(&small_cluster, &list, Some(2)).unwrap();
                ensemble::render::text(&"x".repeat(60), &e)
            });
            Case {
                name: "cluster call chain 40 s, 30 seeds, 2 threads (text)",
                estimate,
                peak,
                output,
            }
        },
        sweep_case(
            "classic budget sweep, 21 × 20 seeds (text)",
            &plan("budget-percentage", 20),
            Format::Text,
        ),
        sweep_case(
            "classic breaker sweep, 40 × 10 seeds --jsonl",
            &plan("breaker-threshold", 10),
            Format::Jsonl,
        ),
        sweep_case(
            "classic breaker sweep, 40 × 10 seeds --csv",
            &plan("breaker-threshold", 10),
            Format::Csv,
        ),
        {
            let estimate = estimate::shard(&shard_plan, 1, 3, Some(1));
            let (peak, output) =
                measure(|| sweep::shard_jsonl(&shard_plan, 1, 3, Some(1)).unwrap());
            Case {
                name: "classic budget sweep, shard 1/3",
                estimate,
                peak,
                output,
            }
        },
    ];
    let mut bad = Vec::new();
    eprintln!(
        "| job | estimated peak | measured peak | ratio | estimated output | output | ratio |"
    );
    eprintln!("|---|---|---|---|---|---|---|");
    for c in &cases {
        let (m, o) = (
            ratio(c.estimate.peak_bytes, c.peak),
            ratio(c.estimate.output_bytes, c.output),
        );
        eprintln!(
            "| {} | {} | {} | {m:.2} | {} | {} | {o:.2} |",
            c.name, c.estimate.peak_bytes, c.peak, c.estimate.output_bytes, c.output
        );
        if !(0.5..=2.0).contains(&m) || !(0.5..=2.0).contains(&o) {
            bad.push(c.name);
        }
    }
    assert!(
        bad.is_empty(),
        "estimates beyond 0.5×–2× of the measured: {bad:?}"
    );
}

#[test]
fn cluster_events_come_from_a_prefix_of_the_run() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    // Without a fault the event rate of the first seconds holds for the whole run; with
    // one, the storm adds events the prefix has not seen, up to `max_events`.
    for (id, faults) in [
        ("cluster-call-chain", false),
        ("cluster-gc-stampede-naive", true),
    ] {
        let sc = preset(id, |v| {
            v["duration_ms"] = json!(40_000);
            if !faults {
                v["faults"] = json!([]);
            }
        });
        let AnyScenario::Cluster(c) = &sc else {
            unreachable!()
        };
        let e = estimate::run(&sc, Format::Text);
        let real = cluster::run(c, c.seed).unwrap().events;
        eprintln!(
            "{id} (faults: {faults}): estimated {} events, ran {real}",
            e.work
        );
        assert!(
            real <= e.work_bound,
            "{id}: {real} events beyond the bound {}",
            e.work_bound
        );
        if !faults {
            let r = ratio(e.work, real);
            assert!(
                (0.5..=2.0).contains(&r),
                "{id}: estimated {} events, ran {real}",
                e.work
            );
        }
    }
}
