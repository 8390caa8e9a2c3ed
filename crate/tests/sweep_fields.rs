//! The sweepable fields the page lists (`sweep::numeric_fields`) against validation
//! itself: for every bundled scenario, every listed path parses as a sweep parameter,
//! its range's ends are accepted, and just beyond either end the scenario is refused by
//! validation naming that field. So the page's ranges are validation's, with no second
//! copy to drift. Also the bundled sweeps (`sweep::presets`): each plans on its scenario.

use retrystorm::scenario::{self, AnyScenario};
use retrystorm::sweep::{self, path, Sweep};
use serde_json::Value;

/// The scenario with `value` written at `path`, parsed and validated as a file would be.
fn with(doc: &Value, p: &str, value: f64) -> Result<AnyScenario, retrystorm::ValidationError> {
    let mut d = doc.clone();
    path::set(&mut d, &path::parse(p).unwrap(), value).unwrap();
    scenario::from_value(d)
}

#[test]
fn every_listed_range_is_validations_range() {
    let mut checked = 0;
    for b in scenario::bundled() {
        checked += check_ranges(b.id, &scenario::parse(b.json).unwrap());
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn constant_arrivals_list_their_jitter_with_validations_range() {
    // No bundled preset has constant arrivals: two variants, one whose schedule sets the
    // highest rate (so the bound is half the gap at that rate, not at `rate_per_s`).
    let base: Value =
        serde_json::from_str(include_str!("../../scenarios/cluster-metastable.json")).unwrap();
    let mut constant = base.clone();
    constant["load"]["arrivals"] = "constant".into();
    constant["load"]["schedule"] = serde_json::json!([]);
    let mut scheduled = constant.clone();
    scheduled["load"]["schedule"] =
        serde_json::json!([{"start_ms": 1000, "end_ms": 2000, "rate_per_s": 8000}]);
    for (name, doc) in [("constant", constant), ("scheduled", scheduled)] {
        let sc = scenario::from_value(doc).unwrap();
        let jitter = sweep::numeric_fields(&sc)
            .into_iter()
            .find(|f| f.path == "load.jitter_ms")
            .unwrap_or_else(|| panic!("{name}: no load.jitter_ms"));
        let peak = if name == "scheduled" { 8000.0 } else { 2000.0 };
        assert_eq!((jitter.min, jitter.max), (0.0, 500.0 / peak), "{name}");
        assert!(check_ranges(name, &sc) >= 4);
    }
    // Poisson arrivals take no jitter: not listed.
    let sc = scenario::from_value(base).unwrap();
    assert!(sweep::numeric_fields(&sc)
        .iter()
        .all(|f| f.path != "load.jitter_ms"));
}

/// Checks every listed field of `sc` against validation (see the module doc); returns
/// how many.
fn check_ranges(id: &str, sc: &AnyScenario) -> usize {
    let mut checked = 0;
    {
        let doc = sc.to_value();
        let fields = sweep::numeric_fields(sc);
        assert!(fields.len() >= 4, "{id}: {fields:?}");
        for f in &fields {
            let at = format!("{id} {}", f.path);
            assert!(path::parse(&f.path).is_some(), "{at}: not a path");
            assert!(f.min <= f.max, "{at}: {} > {}", f.min, f.max);
            for end in [f.min, f.max] {
                if let Err(e) = with(&doc, &f.path, end) {
                    panic!("{at}: {end} refused: {e}");
                }
            }
            // Just beyond each end: the next whole number, or a small step for a fraction.
            let step = if f.integer {
                1.0
            } else {
                (f.max - f.min).abs().max(1.0) * 1e-6
            };
            for beyond in [f.min - step, f.max + step] {
                let e = with(&doc, &f.path, beyond).err().unwrap_or_else(|| {
                    panic!("{at}: {beyond} accepted, outside {}..={}", f.min, f.max)
                });
                // The message names this field (the first element for `[*]`), or the field
                // whose bound it broke when the bound is another field's (clients ×
                // duration_s is reported at clients, an outage longer than the run at
                // outage.*; a start past its end at the end, its sibling).
                let concrete = f.path.replace("[*]", "[0]");
                let named = e.field == concrete
                    || e.field.is_empty()
                    || (f.path == "duration_s" && e.field.starts_with("outage."))
                    || (f.path == "duration_s" && e.field == "clients")
                    || sibling(&concrete, &e.field);
                assert!(named, "{at}: {beyond} refused at {:?}: {e}", e.field);
            }
            checked += 1;
        }
    }
    checked
}

/// True when `a` and `b` are fields of the same object (`outage.from_s`, `outage.to_s`).
fn sibling(a: &str, b: &str) -> bool {
    match (a.rsplit_once('.'), b.rsplit_once('.')) {
        (Some((pa, _)), Some((pb, _))) => pa == pb,
        _ => false,
    }
}

#[test]
fn integers_are_the_fields_that_round() {
    // A field listed as integer is exactly one whose fractional value the sweep rounds.
    for text in [
        include_str!("../../scenarios/article.json"),
        include_str!("../../scenarios/cluster-call-chain.json"),
    ] {
        let sc = scenario::parse(text).unwrap();
        integers_round(&sc);
    }
}

fn integers_round(sc: &AnyScenario) {
    for f in sweep::numeric_fields(sc) {
        let mid = (f.min + (f.max - f.min).min(10.0) / 2.0).floor() + 0.5;
        if mid > f.max {
            continue;
        }
        let def: Sweep = Sweep::from_json(&format!(
            r#"{{"params": [{{"path": "{}", "values": [{mid}]}}]}}"#,
            f.path
        ))
        .unwrap();
        let plan = def.plan(sc).unwrap();
        let rounded = plan.values[0][0] != mid;
        assert_eq!(rounded, f.integer, "{} at {mid}", f.path);
    }
}

#[test]
fn bundled_sweeps_plan_on_their_scenarios() {
    let presets = sweep::presets::presets();
    assert_eq!(presets.len(), 3);
    for p in presets {
        let def = Sweep::from_json(p.json).unwrap();
        for id in std::iter::once(p.scenario).chain(p.compare) {
            let b = scenario::bundled()
                .into_iter()
                .find(|b| b.id == id)
                .unwrap();
            assert_eq!(b.model, p.model, "{}", p.id);
            let sc = scenario::parse(b.json).unwrap();
            let plan = def
                .plan(&sc)
                .unwrap_or_else(|e| panic!("{} on {id}: {e}", p.id));
            assert!(plan.points.len() >= 4);
        }
        let plot = sweep::metric_from_cli(def.plot.as_deref().unwrap());
        let sc = scenario::parse(
            scenario::bundled()
                .into_iter()
                .find(|b| b.id == p.scenario)
                .unwrap()
                .json,
        )
        .unwrap();
        let sample = retrystorm::ensemble::sample(&sc, 1).unwrap();
        let e = retrystorm::ensemble::summarise(&sc, &[sample]);
        assert!(
            sweep::choose::value(&e, &plot).is_some(),
            "{}: the plot metric {} is not a metric",
            p.id,
            def.plot.as_deref().unwrap()
        );
        for lang in [retrystorm::lang::Lang::Zh, retrystorm::lang::Lang::En] {
            assert!(p.description(lang).len() > 80 && !p.title(lang).is_empty());
        }
        assert_ne!(
            p.description(retrystorm::lang::Lang::Zh),
            p.description(retrystorm::lang::Lang::En)
        );
    }
}

#[test]
fn choice_texts_round_trip_and_name_the_bad_control() {
    let def = Sweep::from_json(include_str!(
        "../../scenarios/sweeps/breaker-threshold.json"
    ))
    .unwrap();
    let texts = sweep::ChoiceTexts::of(&def);
    assert_eq!(texts.objective, "max:strategies[5].delivery_pct");
    assert_eq!(
        texts.constraints,
        vec![
            "p95(strategies[5].overload_seconds)<=2",
            "p95(strategies[5].breaker_harmful)<=100"
        ]
    );
    let mut back = def.clone();
    back.objective = None;
    back.constraints.clear();
    back.pareto = None;
    texts.apply(&mut back).unwrap();
    assert_eq!(back, def);
    let mut bad = texts.clone();
    bad.constraints.push("p95(x)=<3".into());
    assert_eq!(bad.apply(&mut back).unwrap_err().field, "constraints[2]");
    let bad = sweep::ChoiceTexts {
        pareto: "max:a".into(),
        ..texts
    };
    assert_eq!(bad.apply(&mut back).unwrap_err().field, "pareto");
}
