//! Ensembles: seed derivation pinned to a JDK, statistics equal to a direct computation
//! from single runs, counted verdicts equal to per-seed verdicts, and results identical
//! for any thread count.

use retrystorm::classic::{self, checks};
use retrystorm::cluster;
use retrystorm::ensemble::{self, derive_seeds, Spread};
use retrystorm::scenario::{self, AnyScenario};

fn article() -> AnyScenario {
    AnyScenario::Classic(classic::Scenario::article())
}

fn bundled(id: &str) -> scenario::Bundled {
    scenario::bundled()
        .into_iter()
        .find(|b| b.id == id)
        .unwrap()
}

fn preset(id: &str) -> AnyScenario {
    scenario::parse(bundled(id).json).unwrap()
}

/// A cluster preset cut to at most `max_ms` (a shorter run keeps the debug-profile
/// tests quick; the presets' faults are early in them).
fn cluster_preset(id: &str, max_ms: u64) -> cluster::Scenario {
    let mut sc = match preset(id) {
        AnyScenario::Cluster(s) => s,
        _ => unreachable!(),
    };
    sc.duration_ms = sc.duration_ms.min(max_ms);
    sc
}

#[test]
fn derived_seeds_match_the_jdk() {
    // Printed by `new java.util.Random(base)` then four `nextLong()` calls (JDK 17).
    let cases: [[i64; 5]; 3] = [
        [
            4242,
            2047068418989240485,
            612568621229944317,
            8038270475141386939,
            2186190084587471466,
        ],
        [
            -7,
            4964420944606563203,
            -6028743012628894217,
            -8826958116857042465,
            -2732364192705608872,
        ],
        [
            i64::MAX,
            4961115982468162243,
            226341162490527646,
            -6233441030884181172,
            7681931065131779340,
        ],
    ];
    for c in cases {
        assert_eq!(derive_seeds(c[0], 5), c.to_vec());
    }
}

#[test]
fn classic_spreads_equal_a_direct_computation() {
    let sc = classic::Scenario::article();
    let seeds = derive_seeds(sc.seed, 7);
    let e = ensemble::run(&article(), &seeds, Some(2)).unwrap();
    assert_eq!(e.seeds, seeds);
    assert_eq!(e.groups.len(), 6);
    // S3 (full jitter) varies with the seed: recompute its attempts from single runs.
    let direct: Vec<f64> = seeds
        .iter()
        .map(|&s| classic::run(&sc, s).unwrap()[2].attempts as f64)
        .collect();
    let m = e.groups[2]
        .metrics
        .iter()
        .find(|m| m.metric == "attempts")
        .unwrap();
    assert_eq!(
        m.values,
        direct.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
    let mut sorted = direct.clone();
    sorted.sort_by(f64::total_cmp);
    let s = m.spread.unwrap();
    // Seven values: the median is the 4th smallest, min/max the ends, p25 at rank 1.5.
    assert_eq!(s.median, sorted[3]);
    assert_eq!((s.min, s.max), (sorted[0], sorted[6]));
    assert_eq!(s.p25, (sorted[1] + sorted[2]) / 2.0);
    let mean = direct.iter().sum::<f64>() / 7.0;
    assert!((s.mean - mean).abs() < 1e-9);
    assert!(
        s.min < s.max,
        "full jitter should vary over seeds: {direct:?}"
    );
    // S2 has no jitter: the same figures on every seed, so a zero spread.
    let s2 = e.groups[1]
        .metrics
        .iter()
        .find(|m| m.metric == "overload_seconds")
        .unwrap()
        .spread
        .unwrap();
    assert_eq!((s2.min, s2.max, s2.sd), (34.0, 34.0, 0.0));
}

#[test]
fn verdicts_are_counted_seed_by_seed() {
    let sc = classic::Scenario::article();
    let seeds = [4242, 1, 7, 99, 2026, 313131];
    let e = ensemble::run(&article(), &seeds, Some(1)).unwrap();
    for (i, count) in e.verdicts.iter().enumerate() {
        let direct: Vec<Option<bool>> = seeds
            .iter()
            .map(|&s| checks::verdicts(&sc, s).unwrap()[i].pass)
            .collect();
        assert_eq!(count.per_seed, direct, "{}", count.name);
        assert_eq!(
            count.pass,
            direct.iter().filter(|v| **v == Some(true)).count()
        );
        assert_eq!(count.of, 6);
    }
    // Fewer than four strategies: the checks are not applicable, counted as such.
    let mut three = sc.clone();
    three.strategies.truncate(3);
    let e = ensemble::run(&AnyScenario::Classic(three), &seeds[..2], None).unwrap();
    assert!(e.verdicts.iter().all(|v| v.of == 0 && v.pass == 0));
}

#[test]
fn identical_for_any_thread_count() {
    let seeds = derive_seeds(9, 24);
    let one = serde_json::to_string(&ensemble::run(&article(), &seeds, Some(1)).unwrap()).unwrap();
    for t in [2, 3, 5] {
        let many =
            serde_json::to_string(&ensemble::run(&article(), &seeds, Some(t)).unwrap()).unwrap();
        assert_eq!(one, many, "{t} threads");
    }
}

#[test]
fn cluster_recovery_is_counted_and_its_time_summarised() {
    let sc = cluster_preset("cluster-gc-stampede-fixed", 40_000);
    let any = AnyScenario::Cluster(sc.clone());
    let seeds = derive_seeds(sc.seed, 4);
    let e = ensemble::run(&any, &seeds, None).unwrap();
    let runs: Vec<_> = seeds
        .iter()
        .map(|&s| cluster::run(&sc, s).unwrap())
        .collect();
    let recovered: Vec<Option<bool>> = runs
        .iter()
        .map(|r| {
            r.summary
                .trigger_end_ms
                .map(|_| r.summary.recovery_time_ms.is_some())
        })
        .collect();
    let count = e.verdicts.iter().find(|v| v.name == "recovered").unwrap();
    assert_eq!(count.per_seed, recovered);
    let times: Vec<f64> = runs
        .iter()
        .filter_map(|r| r.summary.recovery_time_ms.map(|t| t as f64))
        .collect();
    let m = e.groups[0]
        .metrics
        .iter()
        .find(|m| m.metric == "recovery_time_ms")
        .unwrap();
    assert_eq!(m.spread, Spread::of(&times));
    assert_eq!(e.groups.len(), 1 + sc.tiers.len());
    assert_eq!(e.groups[1].name, sc.tiers[0].name);
}

#[test]
fn bad_seed_counts_name_the_field() {
    let err = ensemble::run(&article(), &[], None).unwrap_err();
    assert_eq!(err.field, "seeds");
    let err = ensemble::check_count("seeds", ensemble::MAX_SEEDS + 1).unwrap_err();
    assert!(err.to_string().contains("1..=10000"), "{err}");
}

/// The p5, median and p95 of five values, by hand: sorted `v[0] ≤ … ≤ v[4]`, type 7 puts
/// p5 at rank 4·0.05 = 0.2 and p95 at rank 3.8; the median is the middle value.
fn five(mut v: Vec<f64>) -> [f64; 3] {
    assert_eq!(v.len(), 5);
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    [v[0] + 0.2 * (v[1] - v[0]), v[2], v[3] + 0.8 * (v[4] - v[3])]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn classic_bands_equal_a_hand_computation_over_five_seeds() {
    let sc = classic::Scenario::article();
    let seeds = derive_seeds(sc.seed, 5);
    let e = ensemble::run(&article(), &seeds, Some(2)).unwrap();
    let runs: Vec<_> = seeds
        .iter()
        .map(|&s| classic::simulate(&sc, s).unwrap())
        .collect();
    assert_eq!(e.bands.len(), sc.strategies.len());
    let (mut low, mut high) = (false, false);
    for (i, band) in e.bands.iter().enumerate() {
        assert_eq!(band.name, sc.strategies[i].name);
        let len = runs[0].results[i].per_sec.len();
        assert_eq!(band.median.len(), len);
        for sec in 0..len {
            let col: Vec<f64> = runs
                .iter()
                .map(|r| f64::from(r.results[i].per_sec[sec]))
                .collect();
            let [p5, med, p95] = five(col.clone());
            assert!(close(band.p5[sec], p5), "{} s{sec}: p5", band.name);
            assert!(close(band.median[sec], med), "{} s{sec}: median", band.name);
            assert!(close(band.p95[sec], p95), "{} s{sec}: p95", band.name);
            // Both ends of the scale are covered: quiet seconds and the storm's peaks
            // above capacity, where the seeds differ most.
            low |= med > 0.0 && med < f64::from(sc.capacity) / 2.0;
            high |= med > f64::from(sc.capacity) && p95 > p5;
        }
    }
    assert!(low && high, "low {low}, high {high}");
}

#[test]
fn cluster_bands_equal_a_hand_computation_over_five_seeds() {
    let sc = cluster_preset("cluster-gc-stampede-naive", 40_000);
    let seeds = derive_seeds(sc.seed, 5);
    let e = ensemble::run(&AnyScenario::Cluster(sc.clone()), &seeds, None).unwrap();
    let runs: Vec<_> = seeds
        .iter()
        .map(|&s| cluster::run(&sc, s).unwrap())
        .collect();
    assert_eq!(e.bands.len(), sc.tiers.len());
    let mut spread = false;
    for (k, band) in e.bands.iter().enumerate() {
        assert_eq!(band.name, sc.tiers[k].name);
        assert_eq!(band.median.len(), runs[0].buckets.len());
        for b in 0..band.median.len() {
            let col: Vec<f64> = runs
                .iter()
                .map(|r| {
                    let t = &r.buckets[b].tiers[k];
                    (t.first_attempts + t.retries) as f64 * 1000.0 / r.bucket_ms as f64
                })
                .collect();
            let [p5, med, p95] = five(col);
            assert!(close(band.p5[b], p5), "{} bucket {b}: p5", band.name);
            assert!(close(band.median[b], med), "{} bucket {b}", band.name);
            assert!(close(band.p95[b], p95), "{} bucket {b}: p95", band.name);
            spread |= p95 > p5;
        }
    }
    assert!(spread, "the seeds differ somewhere");
}

#[test]
fn a_one_seed_band_is_the_single_run() {
    let sc = classic::Scenario::article();
    let e = ensemble::run(&article(), &[77], None).unwrap();
    let run = classic::simulate(&sc, 77).unwrap();
    for (band, r) in e.bands.iter().zip(&run.results) {
        let line: Vec<f64> = r.per_sec.iter().map(|&v| f64::from(v)).collect();
        assert_eq!(band.median, line);
        assert_eq!(band.p5, line);
        assert_eq!(band.p95, line);
    }
    let cl = cluster_preset("cluster-metastable", 30_000);
    let e = ensemble::run(&AnyScenario::Cluster(cl.clone()), &[5], None).unwrap();
    let r = cluster::run(&cl, 5).unwrap();
    for (k, band) in e.bands.iter().enumerate() {
        let line: Vec<f64> = r
            .buckets
            .iter()
            .map(|b| b.tiers[k].attempts() as f64 * 1000.0 / r.bucket_ms as f64)
            .collect();
        assert_eq!(band.median, line, "{}", band.name);
    }
}

#[test]
fn the_article_over_1000_seeds_says_what_its_description_says() {
    let b = bundled("article-1000-seeds");
    assert_eq!(b.seeds, Some(1000));
    let sc = scenario::parse(b.json).unwrap();
    let seeds = derive_seeds(sc.seed(), 1000);
    let e = ensemble::run(&sc, &seeds, None).unwrap();
    let amp = |g: usize| -> Vec<f64> {
        let m = e.groups[g]
            .metrics
            .iter()
            .find(|m| m.metric == "amplification")
            .unwrap();
        m.values.iter().map(|v| v.unwrap()).collect()
    };
    let (s2, s3) = (amp(1), amp(2));
    // "S3 amplifies more than S2 on every one of the 1,000 seeds, by 0.12x to 0.21x".
    let gaps: Vec<f64> = s2.iter().zip(&s3).map(|(a, b)| b - a).collect();
    let min = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    let max = gaps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!(min > 0.12 && max < 0.22, "S3 − S2 in {min}..{max}");
    // "S2 draws no random numbers, so its row has no spread at all."
    assert!(s2.iter().all(|&v| v == s2[0]));
    // "The four acceptance checks pass on 1000 of 1000 seeds."
    for v in &e.verdicts {
        assert_eq!((v.pass, v.of), (1000, 1000), "{}", v.name);
    }
    assert!(b.description.contains("every one of the 1,000 seeds"));
}

/// The metric names read from a scenario's structure are the names a run of it
/// reports, group by group, for every bundled scenario (the presets and the files in
/// `scenarios/`, both models): a sweep checks its metrics against them without running.
#[test]
fn metric_names_are_the_names_a_run_reports() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios");
    let mut all: Vec<(String, AnyScenario)> = scenario::bundled()
        .into_iter()
        .map(|b| (b.id.to_string(), scenario::parse(b.json).unwrap()))
        .collect();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            all.push((path.display().to_string(), scenario::parse(&text).unwrap()));
        }
    }
    let models: std::collections::BTreeSet<&str> = all.iter().map(|(_, s)| s.model()).collect();
    assert_eq!(models.len(), 2, "both models are covered");
    let mut with_cost = 0;
    for (id, mut sc) in all {
        if let AnyScenario::Cluster(c) = &mut sc {
            // Shorter runs keep the debug-profile test quick; the names do not depend
            // on the length (an absent figure is a named `null`).
            c.duration_ms = c.duration_ms.min(3_000);
        }
        let run: Vec<Vec<String>> = ensemble::sample(&sc, sc.seed())
            .unwrap()
            .groups
            .into_iter()
            .map(|g| g.into_iter().map(|(name, _)| name).collect())
            .collect();
        let names = ensemble::metric_names(&sc);
        assert_eq!(names, run, "{id}");
        assert!(names.iter().all(|g| !g.is_empty()), "{id}");
        with_cost += names
            .iter()
            .flatten()
            .filter(|n| n.starts_with("cost."))
            .count();
    }
    // The one shape a scenario decides (a strategy's cost model) is among them.
    assert!(with_cost > 0);
}

/// An ensemble streamed seed by seed: the sink has seed 1's sample long before the last
/// seed is run, gets every seed once in seed order, and the CSV written from what it
/// gets is byte for byte the CSV of the whole ensemble; a stop hands on the first seeds
/// only, exactly those a stopped `run_watched` keeps.
#[test]
fn an_ensemble_streams_its_seeds_in_order() {
    use retrystorm::progress::Progress;
    let sc = article();
    let seeds = derive_seeds(sc.seed(), 256);
    let names = ensemble::group_names(&sc);
    let verdicts = ensemble::verdict_names(&sc);
    for threads in [1, 2] {
        let progress = Progress::new();
        let mut csv = String::from(ensemble::render::CSV_HEADER);
        let mut got = Vec::new();
        let mut done_at_first = None;
        let handed = ensemble::stream_watched(&sc, &seeds, Some(threads), &progress, |s| {
            done_at_first.get_or_insert(progress.done());
            got.push(s.seed);
            ensemble::render::csv_seed(&mut csv, &names, &verdicts, &s);
        })
        .unwrap();
        assert_eq!(handed, seeds.len());
        assert_eq!(
            got, seeds,
            "every seed once, in seed order ({threads} threads)"
        );
        // Runs finished when the first seed reached the sink: a batch or a few, never all.
        let first = done_at_first.unwrap();
        assert!(
            first < seeds.len() / 2,
            "{first} of {} seeds run first",
            seeds.len()
        );
        let whole = ensemble::run(&sc, &seeds, Some(threads)).unwrap();
        assert_eq!(csv, ensemble::render::csv(&whole));
    }

    // Stopped from the sink once a seed is in: only the first seeds, in order.
    let progress = Progress::new();
    let mut got = Vec::new();
    let handed = ensemble::stream_watched(&sc, &seeds, Some(2), &progress, |s| {
        progress.stop();
        got.push(s.seed);
    })
    .unwrap();
    assert_eq!(handed, got.len());
    assert!(handed > 0 && handed < seeds.len(), "{handed}");
    assert_eq!(got, seeds[..handed]);
}
