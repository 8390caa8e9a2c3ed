//! Sweeps: grid expansion and parameter paths (good and bad), each point equal to the
//! ensemble of its own scenario, constraints, best point and Pareto front against a
//! direct computation, and shards merging to exactly the unsharded run.

use retrystorm::classic;
use retrystorm::ensemble;
use retrystorm::scenario::AnyScenario;
use retrystorm::sweep::choose::{self, Goal, Op};
use retrystorm::sweep::{self, render, Sweep};

fn article() -> AnyScenario {
    AnyScenario::Classic(classic::Scenario::article())
}

fn sweep(json: &str) -> Sweep {
    Sweep::from_json(json).unwrap()
}

#[test]
fn two_parameters_make_a_grid_first_slowest() {
    let s = sweep(
        r#"{"params": [{"path": "capacity", "values": [200, 300]},
                       {"path": "strategies[*].budget_pct", "range": {"from": 0, "to": 100, "steps": 3}}],
            "seeds": 2}"#,
    );
    let plan = s.plan(&article()).unwrap();
    assert_eq!(
        plan.values,
        vec![vec![200.0, 300.0], vec![0.0, 50.0, 100.0]]
    );
    let at: Vec<Vec<f64>> = plan.points.iter().map(|p| p.0.clone()).collect();
    assert_eq!(
        at,
        vec![
            vec![200.0, 0.0],
            vec![200.0, 50.0],
            vec![200.0, 100.0],
            vec![300.0, 0.0],
            vec![300.0, 50.0],
            vec![300.0, 100.0]
        ]
    );
    // The scenario of point 4: capacity 300 and every strategy's budget at 50.
    let AnyScenario::Classic(c) = &plan.points[4].1 else {
        panic!()
    };
    assert_eq!(c.capacity, 300);
    assert!(c.strategies.iter().all(|s| s.budget_pct == 50));
    assert_eq!(plan.seeds, ensemble::derive_seeds(4242, 2));
    assert_eq!(plan.items(), 12);
}

#[test]
fn integer_fields_round_and_drop_repeats() {
    // Log steps from 1 to 4 over 7 values: 1, 1.26, 1.59, 2, 2.52, 3.17, 4 → 1, 2, 3, 4.
    let s = sweep(
        r#"{"params": [{"path": "strategies[0].max_retry", "range": {"from": 1, "to": 4, "steps": 7, "scale": "log"}}]}"#,
    );
    assert_eq!(
        s.plan(&article()).unwrap().values[0],
        vec![1.0, 2.0, 3.0, 4.0]
    );
    // An absent optional integer field (a per-strategy override) is rounded too.
    let s = sweep(
        r#"{"params": [{"path": "strategies[5].breaker_trip_failures", "values": [99.6, 100.2]}]}"#,
    );
    assert_eq!(s.plan(&article()).unwrap().values[0], vec![100.0]);
}

#[test]
fn bad_definitions_name_the_field() {
    let cases = [
        (
            r#"{"params": [{"path": "capacity", "values": [1]}, {"path": "clients", "values": [1]}, {"path": "duration_s", "values": [1]}]}"#,
            "params",
        ),
        (
            r#"{"params": [{"path": "a..b", "values": [1]}]}"#,
            "params[0].path",
        ),
        (r#"{"params": [{"path": "capacity"}]}"#, "params[0].values"),
        (
            r#"{"params": [{"path": "capacity", "range": {"from": 1, "to": 2, "steps": 1}}]}"#,
            "params[0].range.steps",
        ),
        (
            r#"{"params": [{"path": "capacity", "range": {"from": 0, "to": 2, "steps": 3, "scale": "log"}}]}"#,
            "params[0].range.from",
        ),
        (
            r#"{"params": [{"path": "strategies[9].max_retry", "values": [1]}]}"#,
            "params[0].path",
        ),
        (
            r#"{"params": [{"path": "capacity", "values": [1]}], "seeds": 0}"#,
            "seeds",
        ),
        (
            r#"{"params": [{"path": "capacity", "values": [1]}], "objective": {"metric": "strategies[0].nope", "goal": "max"}}"#,
            "objective.metric",
        ),
        (
            r#"{"params": [{"path": "capacity", "values": [1]}], "constraints": [{"metric": "run.x", "op": "<=", "value": 1}]}"#,
            "constraints[0].metric",
        ),
        (
            r#"{"params": [{"path": "capacity", "range": {"from": 1, "to": 1000, "steps": 1000}}], "seeds": 1000}"#,
            "seeds",
        ),
    ];
    for (json, field) in cases {
        let e = sweep(json).plan(&article()).unwrap_err();
        assert_eq!(e.field, field, "{json}: {e}");
    }
    // A value the scenario refuses: the scenario's own message, with the point named.
    let e = sweep(r#"{"params": [{"path": "strategies[0].max_retry", "values": [3, 99]}]}"#)
        .plan(&article())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("strategies[0].max_retry = 99") && e.contains("0..=30"),
        "{e}"
    );
    // Unknown fields of the definition are refused.
    assert!(Sweep::from_json(r#"{"params": [], "colour": 1}"#).is_err());
}

#[test]
fn each_point_is_the_ensemble_of_its_scenario() {
    let s = sweep(
        r#"{"params": [{"path": "strategies[3].budget_pct", "values": [10, 40]}], "seeds": 3}"#,
    );
    let plan = s.plan(&article()).unwrap();
    let r = plan.run(Some(2)).unwrap();
    for (p, (_, sc)) in r.points.iter().zip(&plan.points) {
        let mut direct = ensemble::run(sc, &plan.seeds, Some(1)).unwrap();
        // A sweep's points carry no chart bands (nothing draws them): the rest is equal.
        assert!(p.ensemble.bands.is_empty() && !direct.bands.is_empty());
        direct.bands.clear();
        assert_eq!(p.ensemble, direct);
    }
    assert_ne!(
        r.points[0].ensemble.groups[3],
        r.points[1].ensemble.groups[3]
    );
}

#[test]
fn constraints_best_and_front_against_a_direct_computation() {
    let s = sweep(
        r#"{"params": [{"path": "strategies[5].breaker_trip_failures", "values": [50, 100, 300, 400, 500, 800, 2000]}],
            "seeds": 4,
            "objective": {"metric": "strategies[5].delivery_pct", "goal": "max"},
            "constraints": [{"metric": "strategies[5].overload_seconds", "stat": "p95", "op": "<=", "value": 2},
                            {"metric": "strategies[5].breaker_harmful", "stat": "max", "op": "<=", "value": 100}],
            "pareto": [{"metric": "strategies[5].delivery_pct", "goal": "max"},
                       {"metric": "strategies[5].breaker_harmful", "goal": "min"}]}"#,
    );
    let plan = s.plan(&article()).unwrap();
    let r = plan.run(None).unwrap();
    // Recompute from the per-seed values of each point, by hand.
    let per_seed = |p: &sweep::Point, metric: &str| -> Vec<f64> {
        let m = p.ensemble.groups[5]
            .metrics
            .iter()
            .find(|m| m.metric == metric)
            .unwrap();
        m.values.iter().map(|v| v.unwrap()).collect()
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    };
    let mut best: Option<(usize, f64)> = None;
    for p in &r.points {
        let over = per_seed(p, "overload_seconds");
        // p95 of 4 values by type 7: rank 2.85 → x2 + 0.85·(x3 − x2).
        let mut o = over.clone();
        o.sort_by(f64::total_cmp);
        let p95 = o[2] + 0.85 * (o[3] - o[2]);
        let harm_max = per_seed(p, "breaker_harmful")
            .into_iter()
            .fold(f64::MIN, f64::max);
        let feasible = p95 <= 2.0 && harm_max <= 100.0;
        assert_eq!(p.feasible, feasible, "point {}", p.index);
        let d = median(per_seed(p, "delivery_pct"));
        if feasible && best.is_none_or(|(_, b)| d > b) {
            best = Some((p.index, d));
        }
    }
    assert_eq!(r.best, best.map(|b| b.0));
    assert!(
        r.best.is_some(),
        "the article's thresholds include a feasible one"
    );
    // The front by the pairwise definition, among feasible points.
    let pts: Vec<(usize, f64, f64)> = r
        .points
        .iter()
        .filter(|p| p.feasible)
        .map(|p| {
            (
                p.index,
                median(per_seed(p, "delivery_pct")),
                median(per_seed(p, "breaker_harmful")),
            )
        })
        .collect();
    for p in &r.points {
        let dominated = pts.iter().any(|q| {
            let me = pts.iter().find(|x| x.0 == p.index);
            me.is_some_and(|m| q.1 >= m.1 && q.2 <= m.2 && (q.1 > m.1 || q.2 < m.2))
        });
        assert_eq!(p.pareto, p.feasible && !dominated, "point {}", p.index);
    }
    let text = render::text(&plan, &r);
    assert!(
        text.contains("recommended: strategies[5].breaker_trip_failures = "),
        "{text}"
    );
    assert!(text.contains("not in general"));
    // Values read through the chosen statistic.
    let c = &plan.sweep.constraints[0];
    assert_eq!((c.of.stat, c.op), (choose::Stat::P95, Op::AtMost));
    assert_eq!(plan.sweep.objective.as_ref().unwrap().goal, Goal::Max);
}

#[test]
fn shards_merge_to_the_unsharded_result_in_any_order() {
    let s = sweep(r#"{"params": [{"path": "capacity", "values": [200, 240, 300]}], "seeds": 5}"#);
    let plan = s.plan(&article()).unwrap();
    let whole = render::jsonl(&plan.run(Some(1)).unwrap());
    for n in [1, 2, 4, 7, 20] {
        let mut files: Vec<String> = (0..n)
            .map(|k| sweep::shard_jsonl(&plan, k, n, Some(1)).unwrap())
            .collect();
        files.reverse();
        let (p2, samples) = sweep::merge(&files).unwrap();
        assert_eq!(render::jsonl(&p2.summarise(&samples)), whole, "{n} shards");
        if n > 1 {
            let err = sweep::merge(&files[1..]).unwrap_err();
            assert!(err.contains("missing shards"), "{err}");
            let mut twice = files.clone();
            twice.push(files[0].clone());
            assert!(sweep::merge(&twice).unwrap_err().contains("twice"));
        }
    }
}

#[test]
fn no_parameter_is_the_ensemble_of_the_scenario() {
    let plan = sweep(r#"{"seeds": 5}"#).plan(&article()).unwrap();
    assert_eq!(plan.points.len(), 1);
    let r = plan.run(Some(2)).unwrap();
    let direct = ensemble::run(&article(), &ensemble::derive_seeds(4242, 5), Some(1)).unwrap();
    assert_eq!(r.points[0].ensemble, direct);
}

#[test]
fn batched_samples_equal_each_item_run_alone() {
    // Two parameters: S6's threshold (S1–S5 unchanged from point to point, so their runs
    // are kept) and the capacity (every strategy changes); 320 items, so a batch holds
    // several points of a seed; a shard cuts the seeds' batches differently.
    let s = sweep(
        r#"{"params": [{"path": "capacity", "values": [200, 240]},
                       {"path": "strategies[5].breaker_trip_failures",
                        "range": {"from": 50, "to": 2000, "steps": 20, "scale": "log"}}],
            "seeds": 8}"#,
    );
    let plan = s.plan(&article()).unwrap();
    for (k, n) in [(0, 1), (1, 3)] {
        let items = plan.run_shard(k, n, Some(2)).unwrap();
        let want: Vec<usize> = (0..plan.items()).filter(|i| i % n == k).collect();
        assert_eq!(items.iter().map(|x| x.0).collect::<Vec<_>>(), want);
        for (i, sample) in items {
            assert_eq!(
                sample,
                plan.run_item(i).unwrap(),
                "item {i} of shard {k}/{n}"
            );
        }
    }
}
