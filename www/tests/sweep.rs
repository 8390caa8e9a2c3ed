//! wasm-bindgen tests of the sweep exports, in headless Chromium: a Plan fed its samples
//! out of order gives the engine's own sweep result, through what a worker sends the
//! page; the heatmap's readout at every keyboard position is the native value
//! of the point drawn there, and a click at that position finds that point; the field
//! list and presets cross as plain objects.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{canvas, get, js, message, rows};
use retrystorm::classic::Scenario;
use retrystorm::ensemble::render::num;
use retrystorm::scenario::AnyScenario;
use retrystorm::sweep::{choose, metric_from_cli, Sweep};
use retrystorm_web::plan::{self, Plan};
use retrystorm_web::sweep_chart::{sig3, viridis};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const TWO: &str = r#"{"params": [{"path": "capacity", "values": [200, 300]},
    {"path": "strategies[*].budget_pct", "values": [0, 50, 100]}], "seeds": 2,
    "objective": {"metric": "strategies[2].delivery_pct", "goal": "max"}}"#;

#[wasm_bindgen_test]
fn heatmap_readouts_are_the_engines_values_and_clicks_find_the_point() {
    let scenario = js(&serde_json::to_string(&Scenario::article()).unwrap());
    let mut p = Plan::new("classic", scenario, js(TWO)).unwrap();
    let n = p.items();
    assert_eq!(n, 12);
    // Out of order: the last items first; nothing shows until the first point is whole.
    for i in (0..n).rev() {
        let s = p.run_item(i).unwrap();
        p.add(i, &s).unwrap();
        if i > 1 {
            assert!(p.sweep_flat().is_none());
        }
    }
    // Summarised where the samples are, shown from what crosses (as a worker and the page).
    let out = p.sweep_from(&p.sweep_flat().unwrap()).unwrap();
    assert_eq!((out.done(), out.total()), (6, 6));
    let native = Sweep::from_json(TWO)
        .unwrap()
        .plan(&AnyScenario::Classic(Scenario::article()))
        .unwrap()
        .run(None)
        .unwrap();
    let metric = "strategies[2].amplification";
    let c = canvas(600, 320.0);
    let h = out.draw(c.clone(), metric, js(r#"{"dpr": 1}"#)).unwrap();
    assert_eq!(h.positions(), 6);
    for i in 0..6 {
        let point = h.point_of(i).unwrap();
        let want = choose::value(&native.points[point].ensemble, &metric_from_cli(metric)).unwrap();
        let r = h.readout_at(i).unwrap();
        assert_eq!(rows(&r), vec![(metric.to_string(), num(want))]);
        assert_eq!(h.point_at(h.position_x(i), h.position_y(i)), Some(point));
    }
    assert_eq!(h.point_at(1.0, 1.0), None);
    // The recommendation is the native best point's.
    let rec = out.recommendation().unwrap();
    assert_eq!(get(&rec, "point").as_f64(), native.best.map(|b| b as f64));
    // In words too (both parameters are settings), in the CLI's text summary.
    assert!(out.text(Some("en".into())).contains("Recommended: "));
    // A point's scenario has its values applied.
    let sc = p.point_scenario(4).unwrap();
    assert_eq!(get(&sc, "capacity").as_f64(), Some(300.0));
    c.remove();
}

#[wasm_bindgen_test]
fn fields_presets_and_choices_cross_as_plain_objects() {
    let scenario = js(&serde_json::to_string(&Scenario::article()).unwrap());
    let fields = plan::sweep_fields("classic", scenario, None).unwrap();
    let first = js_sys::Array::from(&fields).get(0);
    assert!(!first.is_instance_of::<js_sys::Map>());
    assert_eq!(get(&first, "path").as_string().unwrap(), "clients");
    let presets = js_sys::Array::from(&plan::sweep_presets(Some("zh".into())).unwrap());
    assert_eq!(presets.length(), 3);
    let desc = get(&presets.get(0), "description").as_string().unwrap();
    assert!(desc.contains("断路器"), "{desc}");
    // The form's lists: every metric with its label and the symbol after a threshold.
    let article = || js(&serde_json::to_string(&Scenario::article()).unwrap());
    let metrics = js_sys::Array::from(&plan::sweep_metrics("classic", article(), None).unwrap());
    let delivery = metrics
        .iter()
        .find(|m| get(m, "metric").as_string().as_deref() == Some("strategies[5].delivery_pct"))
        .unwrap();
    assert_eq!(
        get(&delivery, "label").as_string().unwrap(),
        "S6 · delivery"
    );
    assert_eq!(get(&delivery, "symbol").as_string().unwrap(), "%");
    let bad = plan::with_sweep_choices(js(TWO), js(r#"{"objective": "best:x"}"#)).unwrap_err();
    assert!(message(&bad).contains("objective"), "{}", message(&bad));
    assert_eq!(get(&bad, "field").as_string().unwrap(), "objective");
}

#[wasm_bindgen_test]
fn colours_and_ticks() {
    use plotters::style::RGBColor;
    assert_eq!(viridis(0.0), RGBColor(68, 1, 84));
    assert_eq!(viridis(1.0), RGBColor(253, 231, 37));
    assert_eq!(viridis(0.5), RGBColor(33, 144, 141));
    assert_eq!(sig3(316.2278), 316.0);
    assert_eq!(sig3(1995.26), 2000.0);
}

/// The sweep chart's legend goes to the corner whose box covers the fewest line points:
/// checked against the four boxes counted by hand on a 200 × 100 plot with a 40 × 20 legend.
#[wasm_bindgen_test]
fn legend_takes_the_quietest_corner() {
    use plotters::chart::SeriesLabelPosition as P;
    use retrystorm_web::chart::{quiet_corner, sample_line};
    let plot = (0..200, 0..100);
    // Nothing drawn: the usual upper right.
    assert_eq!(quiet_corner(plot.clone(), (40, 20), 2, &[]), P::UpperRight);
    // A flat line along the top (y = 10) crosses both upper boxes (y 2..=22): a lower one,
    // the right on a tie.
    let mut top = Vec::new();
    sample_line(&[(0, 10), (199, 10)], 4.0, &mut top);
    assert!(top.len() >= 50, "sampled {} points", top.len());
    assert_eq!(quiet_corner(plot.clone(), (40, 20), 2, &top), P::LowerRight);
    // Add a line rising through the lower right (x 158..=198, y 78..=98): the lower left.
    let mut both = top.clone();
    sample_line(&[(150, 99), (199, 60)], 4.0, &mut both);
    assert_eq!(quiet_corner(plot.clone(), (40, 20), 2, &both), P::LowerLeft);
    // The fewest, not none: boxes at x 158..=198 / 2..=42 and y 2..=22 / 78..=98 holding
    // 3 (upper right), 1 (upper left), 2 (lower right) and 5 (lower left) points.
    let mut counted = vec![
        (160, 5),
        (170, 10),
        (190, 20),
        (20, 10),
        (160, 80),
        (180, 90),
    ];
    counted.extend((0..5).map(|i| (5 + 5 * i, 85)));
    assert_eq!(quiet_corner(plot, (40, 20), 2, &counted), P::UpperLeft);
}

/// The Pareto chart's ticks are round (a 1-2-5 step inside the range, worked by hand) and
/// points at one spot share a label naming the range of their values.
#[wasm_bindgen_test]
fn pareto_ticks_and_labels() {
    use retrystorm_web::sweep_chart::{front_labels, ticks};
    assert_eq!(ticks((83.333, 90.583)), vec![84.0, 86.0, 88.0, 90.0]);
    assert_eq!(
        ticks((-48.06, 849.06)),
        vec![0.0, 200.0, 400.0, 600.0, 800.0]
    );
    assert_eq!(ticks((0.05, 0.75)), vec![0.2, 0.4, 0.6]);
    assert_eq!(ticks((5.0, 5.0)), vec![5.0]);
    let labels: Vec<String> = front_labels(&[
        (500.0, 80.0, &[316.0][..]),
        (501.0, 81.0, &[292.0][..]),
        (500.0, 79.0, &[348.0][..]),
        (700.0, 20.0, &[1000.0, 2.0][..]),
    ])
    .into_iter()
    .map(|l| l.2)
    .collect();
    assert_eq!(labels, vec!["292–348 (3)", "1000, 2"]);
}
