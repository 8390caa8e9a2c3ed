//! The flat lists that cross between the page and its workers (`www/src/flat.rs`),
//! natively, under plain `cargo test`: a run's sample comes back whole (`runItem` /
//! `Plan.add`), and what the page shows of an ensemble or a sweep, written where the
//! samples are and read back on the page (`shownFlat` / `PlanResult.fromFlat`,
//! `sweepFlat` / `Plan.sweepFrom`), gives every table, text, export and chart the page
//! makes byte for byte as the whole result does, while carrying one metric's per-seed
//! values at most.
#![cfg(not(target_arch = "wasm32"))]

mod sweep_fixture;

use plotters::prelude::*;
use retrystorm::ensemble::{render, Ensemble};
use retrystorm::lang::Lang;
use retrystorm::scenario::{AnyScenario, Model};
use retrystorm::sweep::render as sweep_render;
use retrystorm::sweep::{advice, metric_from_cli, SweepResult};
use retrystorm_web::chart::LIGHT;
use retrystorm_web::flat::{Flat, Reader};
use retrystorm_web::strip_chart;
use retrystorm_web::sweep_chart::{self, Axes, Look};
use sweep_fixture::{article, bundled, bundled_sweep, run, Run};

/// The ensemble of `base` over `seeds` seeds (a sweep without parameters: with its bands).
fn ensemble(base: &AnyScenario, seeds: u32) -> Ensemble {
    let r = run(&format!(r#"{{"params": [], "seeds": {seeds}}}"#), base);
    r.result.points[0].ensemble.clone()
}

/// The page's copy of `e` with `metric`'s values, through its list.
fn page_copy(e: &Ensemble, metric: &str) -> Ensemble {
    let mut flat = Flat::default();
    flat.ensemble(e, metric);
    let mut r = Reader::new(&flat.0);
    let copy = r.ensemble();
    assert!(r.done(), "every number read, and no more");
    copy
}

/// The distribution of `metric` as SVG text, 600 CSS pixels wide.
fn distribution(e: &Ensemble, metric: &str) -> String {
    let mut text = String::new();
    {
        let size = (600, strip_chart::height(e, metric).round() as u32);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        strip_chart::draw_on(&root, e, metric, 600.0, 1.0, LIGHT).unwrap();
        root.present().unwrap();
    }
    text
}

/// Everything the page shows of an ensemble, as text: its tables, verdicts, headline,
/// Markdown, plot choices and the distribution of `metric` with its hit test.
fn shown_texts(e: &Ensemble, metric: &str) -> Vec<String> {
    let verdicts = e.verdicts.iter().map(|c| {
        format!(
            "{} {}/{} {}",
            c.name,
            c.pass,
            c.of,
            render::verdict_text(&e.model, c)
        )
    });
    let hits = (0..600).step_by(7).filter_map(|x| {
        let y = (x % 150) as f64;
        strip_chart::seed_at(e, metric, 600.0, x as f64, y).map(|i| e.seeds[i].to_string())
    });
    let mut out = vec![
        serde_json::to_string(&render::tables(e)).unwrap(),
        format!("{:?}", render::recovery_line(e)),
        render::markdown(e),
        format!(
            "{:?}",
            e.groups
                .first()
                .map(|g| g.metrics.iter().map(|m| &m.metric).collect::<Vec<_>>())
        ),
        serde_json::to_string(&e.bands).unwrap(),
        format!("{:?}", e.seeds),
        distribution(e, metric),
    ];
    out.extend(verdicts);
    out.push(hits.collect::<Vec<_>>().join(","));
    out
}

/// Per-seed values the copy carries, over every metric and verdict.
fn values_carried(e: &Ensemble) -> usize {
    let metrics: usize = e
        .groups
        .iter()
        .flat_map(|g| &g.metrics)
        .map(|m| m.values.len())
        .sum();
    metrics + e.verdicts.iter().map(|c| c.per_seed.len()).sum::<usize>()
}

#[test]
fn a_sample_crosses_whole() {
    let AnyScenario::Cluster(mut cluster) =
        bundled(Model::Cluster, "cluster-gc-stampede-naive.json")
    else {
        panic!("a cluster scenario");
    };
    cluster.duration_ms = 30_000;
    // Without its fault nothing triggers: verdicts that cannot be judged.
    let mut calm = cluster.clone();
    calm.faults.clear();
    // Seeds of every sign and size (a derived seed is any i64), with and without curves.
    let mut judged = [false, false];
    for (sc, seed, curves) in [
        (article(), 4242, true),
        (article(), i64::MIN, false),
        (article(), -7_123_456_789_012_345_678, true),
        (AnyScenario::Cluster(cluster), i64::MAX, true),
        (AnyScenario::Cluster(calm), 7, false),
    ] {
        let s = retrystorm::ensemble::sample_with(&sc, seed, curves).unwrap();
        assert_eq!(s.curves.is_empty(), !curves);
        judged[0] |= s.verdicts.iter().any(Option::is_some);
        judged[1] |= s.verdicts.iter().any(Option::is_none);
        let mut flat = Flat::default();
        flat.sample(&s);
        let mut r = Reader::new(&flat.0);
        assert_eq!(r.sample(), s, "seed {seed}");
        assert!(r.done());
    }
    assert_eq!(
        judged,
        [true, true],
        "verdicts held, failed and not judged all cross"
    );
    // A short list reads as one, not as a sample.
    let s = retrystorm::ensemble::sample(&article(), 1).unwrap();
    let mut flat = Flat::default();
    flat.sample(&s);
    let mut r = Reader::new(&flat.0[..flat.0.len() - 1]);
    let _ = r.sample();
    assert!(!r.done());
}

#[test]
fn the_pages_copy_of_a_classic_ensemble_shows_what_the_whole_one_does() {
    let e = ensemble(&article(), 12);
    assert_eq!(e.bands.len(), 6, "the chart's bands cross");
    for metric in ["delivery_pct", "amplification", "no-such-metric"] {
        let copy = page_copy(&e, metric);
        assert_eq!(
            shown_texts(&copy, metric),
            shown_texts(&e, metric),
            "{metric}"
        );
        // One metric's values per group, nothing else per seed.
        let kept = if metric.starts_with("no-") {
            0
        } else {
            e.groups.len() * 12
        };
        assert_eq!(values_carried(&copy), kept, "{metric}");
    }
    // The whole ensemble is what the worker keeps: its CSV has every value.
    assert!(render::csv(&e).lines().count() > values_carried(&e) / 2);
}

#[test]
fn the_pages_copy_of_a_cluster_ensemble_keeps_its_recovery_line() {
    // The GC stampede, shortened to 30 s (its pause starts at 20 s): quick in a debug build.
    let AnyScenario::Cluster(mut sc) = bundled(Model::Cluster, "cluster-gc-stampede-naive.json")
    else {
        panic!("a cluster scenario");
    };
    sc.duration_ms = 30_000;
    let e = ensemble(&AnyScenario::Cluster(sc), 4);
    assert!(render::recovery_line(&e).is_some());
    assert!(!e.bands.is_empty());
    let copy = page_copy(&e, "success_ratio");
    assert_eq!(
        shown_texts(&copy, "success_ratio"),
        shown_texts(&e, "success_ratio")
    );
}

/// Every text and chart the page makes of a sweep's result `r` (of `run`'s plan).
fn sweep_texts(run: &Run, r: &SweepResult) -> Vec<String> {
    let (paths, log) = run.axes();
    let axes = Axes {
        paths: &paths,
        log: &log,
    };
    let look = Look {
        size: (700.0, 340.0),
        dpr: 1.0,
        theme: LIGHT,
    };
    let chart = |metric: &str| {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, (700, 340)).into_drawing_area();
            let m = metric_from_cli(metric);
            if run.plan.values.len() == 2 {
                sweep_chart::draw_heatmap_on(&root, look, r, &axes, &run.plan.values, &m)
            } else {
                sweep_chart::draw_lines_on(&root, look, r, &axes, &m)
            }
            .unwrap();
            root.present().unwrap();
        }
        text
    };
    let pareto = run.plan.sweep.pareto.as_ref().map(|[a, b]| {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, (700, 340)).into_drawing_area();
            sweep_chart::draw_pareto_on(&root, look, r, &axes, (&a.of, &b.of), (a.goal, b.goal))
                .unwrap();
            root.present().unwrap();
        }
        text
    });
    let metrics = r
        .points
        .first()
        .map(sweep_render::metrics)
        .unwrap_or_default();
    let mut out = vec![
        sweep_render::text_in(&run.plan, r, Lang::En),
        sweep_render::text_in(&run.plan, r, Lang::Zh),
        sweep_render::jsonl(r),
        sweep_render::csv(r),
        format!(
            "{:?}",
            advice::advice(&run.plan, r, Lang::En).map(|a| (a.text, a.point))
        ),
        format!("{pareto:?}"),
    ];
    out.extend(metrics.iter().take(12).map(|m| chart(&m.0)));
    out
}

#[test]
fn the_pages_copy_of_a_sweep_shows_what_the_whole_result_does() {
    let cluster = {
        let AnyScenario::Cluster(mut sc) = bundled(Model::Cluster, "cluster-metastable.json")
        else {
            panic!("a cluster scenario");
        };
        sc.duration_ms = 30_000;
        AnyScenario::Cluster(sc)
    };
    let two = r#"{"params": [{"path": "capacity", "values": [200, 300]},
        {"path": "strategies[*].budget_pct", "values": [0, 50, 100]}], "seeds": 3,
        "objective": {"metric": "strategies[2].delivery_pct", "goal": "max"},
        "pareto": [{"metric": "strategies[2].delivery_pct", "goal": "max"},
                   {"metric": "strategies[2].amplification", "goal": "min"}]}"#;
    for (sweep, base) in [
        (bundled_sweep("breaker-threshold", 3), article()),
        (two.to_string(), article()),
        (
            r#"{"params": [{"path": "load.rate_per_s", "values": [800, 1600]}], "seeds": 2}"#
                .to_string(),
            cluster,
        ),
    ] {
        let r = run(&sweep, &base);
        let mut flat = Flat::default();
        flat.sweep(&r.result);
        let mut reader = Reader::new(&flat.0);
        let copy = reader.sweep();
        assert!(reader.done());
        assert_eq!(
            sweep_texts(&r, &copy),
            sweep_texts(&r, &r.result),
            "{sweep}"
        );
        let carried: usize = copy
            .points
            .iter()
            .map(|p| values_carried(&p.ensemble))
            .sum();
        assert_eq!(carried, 0, "no per-seed value crosses: {sweep}");
    }
}
