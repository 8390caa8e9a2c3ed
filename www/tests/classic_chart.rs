//! The classic chart drawn natively, under plain `cargo test`: the drawer is generic over
//! plotters' backends, so it draws to SVG text here, and the tests read what was drawn
//! (lines, shaded zones, legend and axis texts) as well as the plan behind it.
#![cfg(not(target_arch = "wasm32"))]

use plotters::prelude::*;
use retrystorm::classic::{self, Output, Scenario};
use retrystorm::ensemble::{self, Ensemble};
use retrystorm::lang::Lang;
use retrystorm::scenario::AnyScenario;
use retrystorm_web::chart::{css_color, LIGHT, PALETTE};
use retrystorm_web::classic_chart::{self, Look, Shape};

fn look() -> Look {
    Look {
        dpr: 1.0,
        theme: LIGHT,
        lang: Lang::En,
        cost: false,
        hidden: Vec::new(),
    }
}

fn article() -> Output {
    let sc = Scenario::article();
    classic::simulate(&sc, sc.seed).unwrap()
}

/// The chart as SVG text, 900 × 420 CSS pixels.
fn svg(out: &Output, look: &Look, bands: Option<&Ensemble>) -> String {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (900, 420)).into_drawing_area();
        classic_chart::draw_on(&root, out, look, bands).unwrap();
        root.present().unwrap();
    }
    text
}

/// The palette colour of series `i` as the SVG backend writes it.
fn hex(i: usize) -> String {
    let (r, g, b) = PALETTE[i];
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// The elements named `tag` whose attributes include `attr`.
fn elements<'a>(svg: &'a str, tag: &str, attr: &str) -> Vec<&'a str> {
    svg.split('<')
        .filter(|e| e.starts_with(&format!("{tag} ")) && e.contains(attr))
        .collect()
}

/// Every text drawn.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|e| {
            Some(
                e.split_once('>')?
                    .1
                    .split_once("</text")?
                    .0
                    .trim()
                    .to_string(),
            )
        })
        .collect()
}

/// The strategies' lines in the SVG: polylines stroked in a palette colour, 2 px wide
/// (the capacity line is another colour).
fn lines(svg: &str, n: usize) -> Vec<usize> {
    (0..n)
        .filter(|&i| !elements(svg, "polyline", &format!("stroke=\"{}\"", hex(i))).is_empty())
        .collect()
}

#[test]
fn the_article_chart_draws_every_strategy_with_its_legend_and_axes() {
    let out = article();
    let n = out.results.len();
    assert_eq!(n, 6, "the article's six strategies");
    let svg = svg(&out, &look(), None);
    assert_eq!(lines(&svg, n), (0..n).collect::<Vec<_>>());
    let texts = texts(&svg);
    for r in &out.results {
        assert!(
            texts.contains(&r.name),
            "legend entry {:?} in {texts:?}",
            r.name
        );
    }
    let sc = &out.scenario;
    for label in [
        format!("outage [{}, {})", sc.outage.from_s, sc.outage.to_s),
        format!("capacity {}", sc.capacity),
        "second".to_string(),
        "attempts per second".to_string(),
    ] {
        assert!(texts.contains(&label), "{label:?} in {texts:?}");
    }
    // The over-capacity zone (orange) and the outage window (red) are shaded, each
    // with its legend entry and key.
    assert!(texts.contains(&"over capacity".to_string()), "{texts:?}");
    assert_eq!(
        elements(&svg, "rect", "fill=\"#FF8C00\"").len(),
        2,
        "zone + key"
    );
    assert_eq!(
        elements(&svg, "rect", "fill=\"#DC322F\"").len(),
        2,
        "zone + key"
    );
}

#[test]
fn a_hidden_strategy_is_neither_drawn_nor_in_the_legend() {
    let out = article();
    let look = Look {
        hidden: vec![1, 4],
        ..look()
    };
    let svg = svg(&out, &look, None);
    assert_eq!(lines(&svg, 6), vec![0, 2, 3, 5]);
    let texts = texts(&svg);
    assert!(!texts.contains(&out.results[1].name));
    assert!(!texts.contains(&out.results[4].name));
    assert!(texts.contains(&out.results[0].name));
}

#[test]
fn the_plan_scales_to_the_highest_shown_point_and_shades_above_capacity() {
    let out = article();
    let p = classic_chart::plan(&out, &look(), None);
    let peak = out
        .results
        .iter()
        .flat_map(|r| r.per_sec.iter().copied())
        .max()
        .unwrap();
    assert_eq!(p.y_max, f64::from(peak.max(out.scenario.capacity)) * 1.12);
    assert_eq!(p.capacity, Some(f64::from(out.scenario.capacity)));
    assert_eq!(p.overload_zone(), p.capacity);
    assert_eq!(p.series.len(), 6);
    // Every second is a step: two points, held flat over [s, s+1).
    let Shape::Steps(steps) = &p.series[0].shape else {
        panic!("a single run draws step lines");
    };
    assert_eq!(steps.len(), 2 * out.results[0].per_sec.len());
    assert_eq!(steps[2], (1.0, f64::from(out.results[0].per_sec[1])));
    assert_eq!(steps[3], (2.0, f64::from(out.results[0].per_sec[1])));

    // Hiding the tallest line lowers the axis to the highest line still shown.
    let tallest = (0..6)
        .max_by_key(|&i| out.results[i].per_sec.iter().max())
        .unwrap();
    let rest = Look {
        hidden: vec![tallest as u32],
        ..look()
    };
    let lower = (0..6)
        .filter(|&i| i != tallest)
        .flat_map(|i| out.results[i].per_sec.iter().copied())
        .max()
        .unwrap();
    assert_eq!(
        classic_chart::plan(&out, &rest, None).y_max,
        f64::from(lower.max(out.scenario.capacity)) * 1.12
    );
}

#[test]
fn the_cost_chart_has_no_capacity_and_only_strategies_with_a_cost_model() {
    // The bundled scenario that prices its strategies.
    let text = include_str!("../../scenarios/model-gateway-cost.json");
    let mut sc = Scenario::from_json(text).unwrap();
    // One strategy unpriced: it has no cost line.
    sc.strategies[1].cost = None;
    let out = classic::simulate(&sc, sc.seed).unwrap();
    let look = Look {
        cost: true,
        ..look()
    };
    let p = classic_chart::plan(&out, &look, None);
    assert_eq!(p.capacity, None);
    assert_eq!(p.overload_zone(), None);
    let with_cost: Vec<usize> = (0..out.results.len())
        .filter(|&i| out.results[i].cost.is_some())
        .collect();
    assert!(!with_cost.is_empty() && with_cost.len() < out.results.len());
    assert_eq!(
        p.series.iter().map(|s| s.index).collect::<Vec<_>>(),
        with_cost
    );
    let svg = svg(&out, &look, None);
    let texts = texts(&svg);
    assert!(texts.contains(&"cost per second".to_string()));
    assert!(!texts.iter().any(|t| t.starts_with("capacity")));
    assert!(elements(&svg, "rect", "fill=\"#FF8C00\"").is_empty());
}

#[test]
fn the_chart_speaks_the_pages_language() {
    let out = article();
    let look = Look {
        lang: Lang::Zh,
        ..look()
    };
    let texts = texts(&svg(&out, &look, None));
    assert!(texts.contains(&"秒".to_string()), "{texts:?}");
    assert!(texts.contains(&"每秒尝试次数".to_string()), "{texts:?}");
}

#[test]
fn an_ensemble_draws_bands_and_its_readout_gives_the_median_and_range() {
    let out = article();
    let e = ensemble::run(
        &AnyScenario::Classic(out.scenario.clone()),
        &[1, 2, 3],
        Some(1),
    )
    .unwrap();
    assert!(classic_chart::banded(&out, &e, false));
    assert!(
        !classic_chart::banded(&out, &e, true),
        "cost stays the single run's"
    );
    let p = classic_chart::plan(&out, &look(), Some(&e));
    assert!(p.series.iter().all(|s| matches!(s.shape, Shape::Band(_))));
    // Each band is one shaded polygon under its line.
    let svg = svg(&out, &look(), Some(&e));
    for i in 0..6 {
        assert_eq!(
            elements(&svg, "polygon", &format!("fill=\"{}\"", hex(i))).len(),
            1,
            "band {i}"
        );
    }
    let r = classic_chart::readout_of(&out, Some(&e), &look(), 0.5).unwrap();
    assert_eq!(r.rows.len(), 6);
    assert!(r.title.contains("3"), "{}", r.title);
}

#[test]
fn the_readout_at_a_position_is_the_second_under_it() {
    let out = article();
    let look = Look {
        hidden: vec![2],
        ..look()
    };
    let centres = classic_chart::centres(&out);
    assert_eq!(centres.len(), out.results[0].per_sec.len());
    let second = out.scenario.outage.from_s as usize + 2;
    let r = classic_chart::readout_of(&out, None, &look, centres[second]).unwrap();
    assert_eq!(r.bucket, second);
    assert_eq!(r.rows.len(), 5, "the hidden strategy has no row");
    let capacity = out.scenario.capacity;
    for (row, i) in r.rows.iter().zip([0, 1, 3, 4, 5]) {
        let v = out.results[i].per_sec[second];
        assert_eq!(row.label, out.results[i].name);
        assert_eq!(row.value, v.to_string());
        assert_eq!(row.color, css_color(i));
        assert_eq!(row.alarm, v > capacity);
    }
    // Past the end, the last second.
    let last = classic_chart::readout_of(&out, None, &look, 1.0).unwrap();
    assert_eq!(last.bucket, centres.len() - 1);
}

#[test]
fn a_line_that_runs_on_an_earlier_one_is_dashed_so_both_show() {
    // S4, S5 and S6 run on S1 (and S5 on S4) over most of the article's run: drawn
    // solid, each later line hides the earlier one. Each gets its own dash, so two
    // dashed lines on each other still both show.
    let out = article();
    let p = classic_chart::plan(&out, &look(), None);
    let dashes: Vec<_> = p.series.iter().map(|s| s.dash).collect();
    assert_eq!(dashes[..3], [None, None, None]);
    assert!(dashes[3..].iter().all(Option::is_some), "{dashes:?}");
    assert!(dashes[3] != dashes[4] && dashes[4] != dashes[5] && dashes[3] != dashes[5]);
    // Alone, S5 hides nothing and is solid.
    let alone = Look {
        hidden: vec![0, 1, 2, 3, 5],
        ..look()
    };
    let p = classic_chart::plan(&out, &alone, None);
    assert_eq!(p.series[0].dash, None);
    // Dashed, a line is drawn as many short strokes rather than one polyline.
    let svg = svg(&out, &look(), None);
    assert!(elements(&svg, "polyline", &format!("stroke=\"{}\"", hex(4))).len() > 10);
    assert_eq!(
        elements(&svg, "polyline", &format!("stroke=\"{}\"", hex(0))).len(),
        2,
        "S1: its line and its legend key"
    );
}

/// The chart as SVG text, `w × h` CSS pixels, with the plotting area's device-pixel
/// ranges it returned.
fn svg_sized(
    out: &Output,
    look: &Look,
    (w, h): (u32, u32),
) -> (String, std::ops::Range<i32>, std::ops::Range<i32>) {
    let mut text = String::new();
    let (xr, yr) = {
        let root = SVGBackend::with_string(&mut text, (w, h)).into_drawing_area();
        let r = classic_chart::draw_on(&root, out, look, None).unwrap();
        root.present().unwrap();
        r
    };
    (text, xr, yr)
}

/// Every text drawn with its position (the SVG's `x` and `y`).
fn placed_texts(svg: &str) -> Vec<(String, f64, f64)> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|e| {
            let (attrs, rest) = e.split_once('>')?;
            let attrs = format!(" {attrs}");
            let attr = |name: &str| -> Option<f64> {
                let v = attrs.split_once(&format!(" {name}=\""))?.1;
                v.split_once('"')?.0.parse().ok()
            };
            let text = rest.split_once("</text")?.0.trim().to_string();
            Some((text, attr("x")?, attr("y")?))
        })
        .collect()
}

#[test]
fn the_legend_stands_outside_the_plot_right_of_it_when_wide_and_under_it_when_narrow() {
    let out = article();
    let p = classic_chart::plan(&out, &look(), None);
    let labels: Vec<String> = classic_chart::legend_entries(&p, 1.0)
        .into_iter()
        .map(|e| e.label)
        .collect();
    // Every drawn zone and line is in the legend, the over-capacity tint first.
    assert_eq!(labels[0], "over capacity");
    assert_eq!(labels.len(), 3 + out.results.len(), "{labels:?}");
    for (w, h, below) in [(900, 420, false), (360, 380, true)] {
        let (svg, xr, yr) = svg_sized(&out, &look(), (w, h));
        let placed = placed_texts(&svg);
        for label in &labels {
            let &(_, x, y) = placed
                .iter()
                .find(|(t, _, _)| t == label)
                .unwrap_or_else(|| panic!("{label:?} drawn at {w} px"));
            if below {
                assert!(
                    y > f64::from(yr.end),
                    "{label:?} at y {y} under the plot {yr:?}"
                );
                assert!(x < f64::from(w) - 10.0, "{label:?} at x {x} on the canvas");
            } else {
                assert!(
                    x > f64::from(xr.end),
                    "{label:?} at x {x} right of the plot {xr:?}"
                );
            }
        }
        // The plot keeps most of the canvas.
        assert!(xr.end - xr.start > (w as i32) / 2, "{xr:?} at {w} px");
        assert!(yr.end - yr.start > (h as i32) / 2, "{yr:?} at {w} px");
    }
}

#[test]
fn the_legend_layout_puts_a_column_right_on_wide_canvases_and_rows_below_on_narrow_ones() {
    use retrystorm_web::legend::{self, Side};
    let labels: Vec<String> = ["over capacity", "outage [20, 26)", "capacity 240"]
        .iter()
        .map(|s| s.to_string())
        .chain((1..=6).map(|i| format!("S{i} 指数退避全抖动")))
        .collect();
    let wide = legend::layout(1100.0, 66.0, &labels, 12.0);
    assert_eq!(wide.side, Side::Right);
    assert!(wide.size.0 < 1100.0 * 0.34);
    assert!(wide.cells.windows(2).all(|c| c[1].1 > c[0].1), "one column");
    let narrow = legend::layout(360.0, 66.0, &labels, 12.0);
    assert_eq!(narrow.side, Side::Below);
    // Rows: entries on one row never overlap and every entry ends on the canvas.
    for (i, (l, &(x, y))) in labels.iter().zip(&narrow.cells).enumerate() {
        let end = x + 21.0 + legend::text_width(l, 12.0);
        assert!(end <= 360.0, "{l:?} ends at {end}");
        if let Some(&(nx, ny)) = narrow.cells.get(i + 1) {
            assert!(ny > y || nx > end, "{l:?} and the next overlap");
        }
    }
    assert!(
        narrow.cells.iter().any(|c| c.1 > narrow.cells[0].1),
        "more than one row"
    );
    assert!(narrow.size.1 >= narrow.cells.last().unwrap().1 + narrow.row);
    // A canvas wide enough but with labels too long for a third of it: under the plot.
    let long = vec!["a label long enough to take more than a third of the canvas".to_string()];
    assert_eq!(legend::layout(700.0, 66.0, &long, 12.0).side, Side::Below);
    assert_eq!(legend::layout(900.0, 66.0, &[], 12.0).size, (0.0, 0.0));
}

#[test]
fn a_dashed_line_has_a_dashed_key_in_the_legend() {
    // S5 is dashed on the article's chart: its key shows the dash (several strokes in
    // the legend's column), so the reader can tell it from S4 there as on the plot.
    let out = article();
    let (svg, xr, _) = svg_sized(&out, &look(), (900, 420));
    let keys = |i: usize| {
        elements(&svg, "polyline", &format!("stroke=\"{}\"", hex(i)))
            .into_iter()
            .filter(|e| {
                let p = e.split_once("points=\"").unwrap().1;
                let x: f64 = p.split(',').next().unwrap().trim().parse().unwrap();
                x > f64::from(xr.end)
            })
            .count()
    };
    assert_eq!(keys(0), 1, "S1 is solid: one stroke");
    assert!(keys(4) >= 2, "S5's key is dashed: {}", keys(4));
}
