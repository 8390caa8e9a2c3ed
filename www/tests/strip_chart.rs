//! The distribution plot drawn natively, under plain `cargo test`: it draws to SVG text
//! here, and the tests read a dot per seed in its group's strip, the group names and the
//! range's ends, and check that the hit test finds the dot drawn under the pointer.
#![cfg(not(target_arch = "wasm32"))]

mod sweep_fixture;

use plotters::prelude::*;
use retrystorm::ensemble::render::num;
use retrystorm::ensemble::Ensemble;
use retrystorm_web::chart::{color, LIGHT};
use retrystorm_web::strip_chart::{self, ROW_PX};
use sweep_fixture::{article, elements, run, texts};

/// An ensemble of the article scenario over 12 seeds (the one point of a sweep without
/// parameters).
fn ensemble() -> Ensemble {
    let r = run(r#"{"params": [], "seeds": 12}"#, &article());
    r.result.points[0].ensemble.clone()
}

/// The plot of `metric` as SVG text, `width` CSS pixels wide at `dpr`.
fn svg(e: &Ensemble, metric: &str, width: f64, dpr: f64) -> String {
    let mut text = String::new();
    {
        let h = strip_chart::height(e, metric);
        let size = ((width * dpr) as u32, (h * dpr).round() as u32);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        strip_chart::draw_on(&root, e, metric, width, dpr, LIGHT).unwrap();
        root.present().unwrap();
    }
    text
}

/// The value of attribute `name` of an element's text.
fn attr(element: &str, name: &str) -> f64 {
    let rest = element.split_once(&format!(" {name}=\"")).unwrap().1;
    rest.split_once('"').unwrap().0.parse().unwrap()
}

/// A colour as the SVG backend writes it.
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn every_seed_is_a_dot_in_its_groups_strip_and_the_pointer_finds_it() {
    let e = ensemble();
    let metric = "delivery_pct";
    let width = 600.0;
    let text = svg(&e, metric, width, 1.0);
    assert_eq!(
        strip_chart::height(&e, metric),
        e.groups.len() as f64 * ROW_PX + 22.0
    );
    // A strip per strategy, named; the range's ends under them.
    let drawn = texts(&text);
    let values: Vec<f64> = e
        .groups
        .iter()
        .flat_map(|g| {
            g.metrics
                .iter()
                .find(|m| m.metric == metric)
                .unwrap()
                .values
                .iter()
                .flatten()
                .copied()
        })
        .collect();
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    for g in &e.groups {
        assert!(
            drawn.contains(&g.name.chars().take(22).collect()),
            "{}",
            g.name
        );
    }
    assert!(
        drawn.contains(&num(lo)) && drawn.contains(&num(hi)),
        "{drawn:?}"
    );
    // Per group, a dot per seed with a value, in the group's colour, inside its strip,
    // further right for a larger value.
    for (r, g) in e.groups.iter().enumerate() {
        let dots = elements(&text, "circle", &format!("fill=\"{}\"", hex(color(r))));
        let seeds: Vec<(usize, f64)> = g
            .metrics
            .iter()
            .find(|m| m.metric == metric)
            .unwrap()
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i, v)))
            .collect();
        assert_eq!(dots.len(), seeds.len(), "{}", g.name);
        assert_eq!(seeds.len(), 12);
        let at: Vec<(f64, f64)> = dots
            .iter()
            .map(|d| (attr(d, "cx"), attr(d, "cy")))
            .collect();
        let top = r as f64 * ROW_PX;
        for (k, &(i, v)) in seeds.iter().enumerate() {
            let (x, y) = at[k];
            assert!(y > top && y < top + ROW_PX, "{} seed {i}: y {y}", g.name);
            for (k2, &(_, v2)) in seeds.iter().enumerate() {
                if v < v2 {
                    assert!(x <= at[k2].0, "{} seed {i}", g.name);
                }
            }
            // The pointer on the dot finds a seed drawn exactly there.
            let found = strip_chart::seed_at(&e, metric, width, x, y).unwrap();
            let k_found = seeds.iter().position(|s| s.0 == found).unwrap();
            assert_eq!(at[k_found], (x, y), "{} seed {i}", g.name);
        }
    }
    // Over the names, and below the last strip: no seed.
    assert_eq!(strip_chart::seed_at(&e, metric, width, 2.0, 14.0), None);
    let below = e.groups.len() as f64 * ROW_PX + 10.0;
    assert_eq!(strip_chart::seed_at(&e, metric, width, 300.0, below), None);
}

#[test]
fn a_device_ratio_scales_the_dots_and_a_missing_metric_draws_no_strip() {
    let e = ensemble();
    let one = svg(&e, "amplification", 500.0, 1.0);
    let two = svg(&e, "amplification", 500.0, 2.0);
    let radius = |s: &str| attr(elements(s, "circle", "")[0], "r");
    assert_eq!((radius(&one), radius(&two)), (3.0, 6.0));
    assert_eq!(
        elements(&one, "circle", "").len(),
        elements(&two, "circle", "").len()
    );
    // No group has it: no dot, no name, one empty strip's height.
    let none = svg(&e, "no_such_metric", 500.0, 1.0);
    assert!(elements(&none, "circle", "").is_empty());
    assert!(e.groups.iter().all(|g| !texts(&none).contains(&g.name)));
    assert_eq!(strip_chart::height(&e, "no_such_metric"), ROW_PX + 22.0);
}
