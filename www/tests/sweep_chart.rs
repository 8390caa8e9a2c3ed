//! The sweep charts drawn natively, under plain `cargo test`: the drawers are generic
//! over plotters' backends, so they draw to SVG text here, and the tests read what was
//! drawn (lines, marks, cells, ramp, axis texts, front labels) against the sweep the
//! engine ran, and the readout each keyboard position and pointer gets.
#![cfg(not(target_arch = "wasm32"))]

mod sweep_fixture;

use plotters::coord::Shift;
use plotters::prelude::*;
use retrystorm::ensemble::render::num;
use retrystorm::sweep::choose::{self, Goal, MetricRef};
use retrystorm::sweep::metric_from_cli;
use retrystorm::sweep::render::metric_label;
use retrystorm_web::chart::{color, LIGHT};
use retrystorm_web::sweep_chart::{self, ticks, viridis, Axes, Look, SweepHandle};
use sweep_fixture::{article, bundled_sweep, elements, run, texts, Run};

/// The look every test draws with: 700 × 340 CSS pixels at `dpr`, the light theme.
fn look(dpr: f64) -> Look {
    Look {
        size: (700.0, 340.0),
        dpr,
        theme: LIGHT,
    }
}

/// Draws on an SVG backend the size of `look` and returns the SVG text and the handle.
fn svg(
    look: Look,
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<SweepHandle, String>,
) -> (String, SweepHandle) {
    let mut text = String::new();
    let handle;
    {
        let (w, h) = look.size;
        let size = ((w * look.dpr) as u32, (h * look.dpr) as u32);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        handle = draw(&root).unwrap();
        root.present().unwrap();
    }
    (text, handle)
}

/// A colour as the SVG backend writes it.
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The value of attribute `name` of an element's text.
fn attr(element: &str, name: &str) -> f64 {
    let rest = element.split_once(&format!(" {name}=\"")).unwrap().1;
    rest.split_once('"').unwrap().0.parse().unwrap()
}

/// The vertices of a polyline's text.
fn points(element: &str) -> Vec<(f64, f64)> {
    let list = element.split_once("points=\"").unwrap().1;
    list.split_once('"')
        .unwrap()
        .0
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// Every text drawn with its position: (x, y, text).
fn texts_at(svg: &str) -> Vec<(f64, f64, &str)> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|e| {
            let (head, rest) = e.split_once('>')?;
            let head = format!(" {head}");
            Some((
                attr(&head, "x"),
                attr(&head, "y"),
                rest.split_once("</text")?.0.trim(),
            ))
        })
        .collect()
}

/// The breaker-threshold preset (a log-spaced parameter, 40 values) with 3 seeds.
fn breaker() -> Run {
    run(&bundled_sweep("breaker-threshold", 3), &article())
}

/// The median of `metric` at sweep point `i`, as the engine reads it.
fn value(r: &Run, i: usize, metric: &MetricRef) -> f64 {
    choose::value(&r.result.points[i].ensemble, metric).unwrap()
}

#[test]
fn the_line_chart_draws_a_banded_line_per_strategy_and_marks_the_chosen_ones_points() {
    let r = breaker();
    let (paths, log) = r.axes();
    let axes = Axes {
        paths: &paths,
        log: &log,
    };
    let metric = metric_from_cli("strategies[5].delivery_pct");
    let plan = sweep_chart::lines(&r.result, &axes, &metric);
    let n = r.result.points.len();
    // Every strategy has the metric: six lines, the sixth bold, a value at every point.
    let names: Vec<&str> = plan.lines.iter().map(|l| l.name.as_str()).collect();
    let groups = &r.result.points[0].ensemble.groups;
    assert_eq!(
        names,
        groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>()
    );
    assert_eq!(plan.lines.len(), 6);
    assert_eq!(plan.chosen, Some(5));
    assert!(plan.lines.iter().all(|l| l.points.len() == n));
    assert!(plan.log);
    assert_eq!(plan.dots.len(), n);

    let (text, h) = svg(look(1.0), |root| {
        sweep_chart::draw_lines_on(root, look(1.0), &r.result, &axes, &metric)
    });
    // Each line twice (the line, its legend key), the chosen one 3 px wide, the rest 1.
    for (i, _) in names.iter().enumerate() {
        let stroke = format!("stroke=\"{}\"", hex(color(i)));
        let lines = elements(&text, "polyline", &stroke);
        assert_eq!(lines.len(), 2, "strategy {i}");
        let width = if i == 5 { 3.0 } else { 1.0 };
        assert!(
            lines.iter().all(|l| attr(l, "stroke-width") == width),
            "{i}"
        );
    }
    // The chosen line's points: a ring and a fill (solid or paper) each, one ink ring.
    let chosen = hex(color(5));
    let circles = elements(&text, "circle", "");
    let rings = elements(&text, "circle", &format!("stroke=\"{chosen}\""));
    assert_eq!(rings.len(), n);
    let feasible = r.result.points.iter().filter(|p| p.feasible).count();
    assert_eq!(
        elements(&text, "circle", &format!("fill=\"{chosen}\"")).len(),
        feasible
    );
    let best = usize::from(r.result.best.is_some());
    assert_eq!(circles.len(), 2 * n + best);
    // The axes: the parameter's path, the metric's label, the legend's names; the log
    // axis's ticks read the values at three significant digits, inside the range swept.
    let drawn = texts(&text);
    for want in [paths[0].as_str(), "strategies[5].delivery_pct"]
        .into_iter()
        .chain(names.iter().copied())
    {
        assert!(drawn.iter().any(|t| t == want), "{want} in {drawn:?}");
    }
    let params: Vec<f64> = r.result.points.iter().map(|p| p.params[0]).collect();
    let below: Vec<&str> = texts_at(&text)
        .into_iter()
        .filter(|t| t.1 > 296.0 && t.2.parse::<f64>().is_ok())
        .map(|t| t.2)
        .collect();
    // 50..2000 on a log axis: ticks at 10^2, 10^2.5 and 10^3, read at three digits.
    assert_eq!(below, ["100", "316", "1000"]);
    // Every keyboard position reads its point: the parameter, every strategy's value
    // with its band, and the pointer over it finds the same position.
    assert_eq!(h.positions(), n);
    for (i, param) in params.iter().enumerate() {
        let ro = h.readout_of(i).unwrap();
        assert_eq!(ro.bucket, i);
        assert_eq!(
            ro.title,
            format!("{} = {}", paths[0], num(*param)),
            "position {i}"
        );
        assert_eq!(ro.rows.len(), 6);
        let want = num(value(&r, i, &metric));
        assert!(ro.rows[5].value.starts_with(&format!("{want} [")), "{i}");
        assert_eq!(h.point_of(i), Some(i));
        assert_eq!(h.position_at(h.position_x(i), h.position_y(i)), Some(i));
    }
    // Each mark sits on the chosen line's vertex of its point (the line as drawn).
    let chosen_line = elements(&text, "polyline", &format!("stroke=\"{chosen}\""))[0];
    let vertices = points(chosen_line);
    assert_eq!(vertices.len(), n);
    for (i, (x, y)) in vertices.into_iter().enumerate() {
        assert_eq!((h.position_x(i), h.position_y(i)), (x, y), "position {i}");
    }
    // Higher delivery sits higher (smaller y); larger thresholds further right.
    for i in 1..n {
        assert!(h.position_x(i) > h.position_x(i - 1));
        let (a, b) = (value(&r, i - 1, &metric), value(&r, i, &metric));
        if a < b {
            assert!(h.position_y(i) < h.position_y(i - 1), "{i}");
        }
    }
    assert_eq!(h.position_at(1.0, 1.0), None);
}

#[test]
fn a_statistic_and_a_device_ratio_scale_the_drawing_not_the_readout() {
    let r = breaker();
    let (paths, log) = r.axes();
    let axes = Axes {
        paths: &paths,
        log: &log,
    };
    let metric = metric_from_cli("p95(strategies[5].overload_seconds)");
    let (one, h1) = svg(look(1.0), |root| {
        sweep_chart::draw_lines_on(root, look(1.0), &r.result, &axes, &metric)
    });
    let (two, h2) = svg(look(2.0), |root| {
        sweep_chart::draw_lines_on(root, look(2.0), &r.result, &axes, &metric)
    });
    // The y axis is the statistic's label; the readout shows the p95, not the median.
    assert!(texts(&one).iter().any(|t| t == &metric_label(&metric)));
    let p95 = num(value(&r, 0, &metric));
    assert!(h1.readout_of(0).unwrap().rows[5]
        .value
        .starts_with(&format!("{p95} [")));
    // Twice the pixels: the same CSS positions, the marks' radius doubled.
    for i in 0..h1.positions() {
        assert!((h1.position_x(i) - h2.position_x(i)).abs() <= 1.0);
        assert!((h1.position_y(i) - h2.position_y(i)).abs() <= 1.0);
    }
    let radius = |s: &str| attr(elements(s, "circle", "")[0], "r");
    assert_eq!((radius(&one), radius(&two)), (3.0, 6.0));
}

/// Capacity (3 values) × every strategy's budget (3 values), 2 seeds.
const TWO: &str = r#"{"params": [{"path": "capacity", "values": [200, 240, 300]},
    {"path": "strategies[*].budget_pct", "values": [0, 50, 100]}], "seeds": 2,
    "objective": {"metric": "strategies[2].delivery_pct", "goal": "max"},
    "constraints": [{"metric": "strategies[2].amplification", "op": "<=", "value": 1.5}]}"#;

#[test]
fn the_heatmap_draws_a_cell_per_point_on_the_ramp_with_its_labels_and_readouts() {
    let r = run(TWO, &article());
    let (paths, log) = r.axes();
    let axes = Axes {
        paths: &paths,
        log: &log,
    };
    let metric = metric_from_cli("strategies[2].amplification");
    let draw = |root: &DrawingArea<SVGBackend, Shift>| {
        sweep_chart::draw_heatmap_on(root, look(1.0), &r.result, &axes, &r.plan.values, &metric)
    };
    let (text, h) = svg(look(1.0), draw);
    let plan = sweep_chart::heatmap(look(1.0), &r.result, &axes, &r.plan.values, &metric);
    let values: Vec<f64> = (0..9).map(|i| value(&r, i, &metric)).collect();
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    assert_eq!(plan.range, (lo, hi));
    // The paper, nine cells, the ramp's 48 steps (filled), the best cell's outline.
    let filled = elements(&text, "rect", "stroke=\"none\"");
    assert_eq!(filled.len(), 1 + 9 + 48);
    let outlines = elements(&text, "rect", "fill=\"none\"");
    assert_eq!(outlines.len(), usize::from(r.result.best.is_some()));
    // Each cell in its value's colour: the lowest at the ramp's bottom, the highest at its top.
    for (i, c) in plan.cells.iter().enumerate() {
        assert_eq!(c.point, i);
        assert_eq!(c.fill, viridis((values[i] - lo) / (hi - lo)));
        let (x, y) = (c.rect.0.round(), c.rect.1.round());
        let cell = filled
            .iter()
            .find(|e| attr(e, "x") == x && attr(e, "y") == y && e.contains(&hex(c.fill)));
        assert!(cell.is_some(), "cell {i} at ({x}, {y}) in {}", hex(c.fill));
    }
    let lowest = values.iter().position(|v| *v == lo).unwrap();
    assert_eq!(plan.cells[lowest].fill, RGBColor(68, 1, 84));
    // A stroke across every point over the constraint.
    let infeasible = r.result.points.iter().filter(|p| !p.feasible).count();
    assert!(infeasible > 0 && infeasible < 9, "{infeasible}");
    assert_eq!(elements(&text, "polyline", "").len(), infeasible);
    // The first parameter across (bottom-left is capacity 200 with no budget), the second up.
    assert!(plan.cells[3].rect.0 > plan.cells[0].rect.0);
    assert!(plan.cells[1].rect.1 < plan.cells[0].rect.1);
    // Every column's and row's value, both paths and the ramp's ends.
    let drawn = texts(&text);
    for want in ["200", "240", "300", "0", "50", "100", "capacity"]
        .map(String::from)
        .into_iter()
        .chain([paths[1].clone(), num(lo), num(hi)])
    {
        assert!(drawn.contains(&want), "{want} in {drawn:?}");
    }
    // A cell's readout: its value in its colour; the pointer anywhere in it finds it.
    assert_eq!(h.positions(), 9);
    for (i, c) in plan.cells.iter().enumerate() {
        let ro = h.readout_of(i).unwrap();
        assert_eq!(ro.rows[0].label, "strategies[2].amplification");
        assert_eq!(ro.rows[0].value, num(values[i]));
        assert_eq!(
            ro.rows[0].color,
            format!("rgb({},{},{})", c.fill.0, c.fill.1, c.fill.2)
        );
        assert_eq!(ro.rows[0].alarm, !r.result.points[i].feasible);
        let (x, y, w, ht) = c.rect;
        assert_eq!(h.position_at(x + 2.0, y + ht - 2.0), Some(i));
        assert_eq!(h.position_at(x + w - 2.0, y + 2.0), Some(i));
        assert_eq!(h.point_at(h.position_x(i), h.position_y(i)), Some(i));
    }
    assert_eq!(h.position_at(plan.plot.1 + 20.0, 100.0), None);
}

#[test]
fn the_heatmap_labels_every_kth_value_when_they_do_not_all_fit() {
    let values: Vec<String> = (0..60).map(|i| (100 + i * 10).to_string()).collect();
    let def = format!(
        r#"{{"params": [{{"path": "capacity", "values": [{}]}},
        {{"path": "strategies[*].budget_pct", "values": [0, 100]}}], "seeds": 1}}"#,
        values.join(",")
    );
    let r = run(&def, &article());
    let (paths, log) = r.axes();
    let axes = Axes {
        paths: &paths,
        log: &log,
    };
    let metric = metric_from_cli("strategies[0].delivery_pct");
    let narrow = Look {
        size: (400.0, 300.0),
        ..look(1.0)
    };
    let plan = sweep_chart::heatmap(narrow, &r.result, &axes, &r.plan.values, &metric);
    // 60 columns in 266 px (64 px of y labels left, the ramp's 70 right) at 12 px a
    // label, in a quarter of the room: every 11th (⌈60 × 12 / 66.5⌉), from the first.
    assert_eq!(plan.plot.1 - plan.plot.0, 266.0);
    let shown: Vec<&str> = plan.columns.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(shown, ["100", "210", "320", "430", "540", "650"]);
    assert_eq!(plan.rows.len(), 2);
    assert_eq!(plan.cells.len(), 120);
}

#[test]
fn the_pareto_scatter_joins_the_front_and_labels_it_without_overlaps() {
    let r = run(&bundled_sweep("budget-percentage", 3), &article());
    let (paths, log) = r.axes();
    let axes = Axes {
        paths: &paths,
        log: &log,
    };
    let [a, b] = r.plan.sweep.pareto.clone().unwrap();
    assert_eq!((a.goal, b.goal), (Goal::Max, Goal::Min));
    let (m, g) = ((&a.of, &b.of), (a.goal, b.goal));
    let (text, h) = svg(look(1.0), |root| {
        sweep_chart::draw_pareto_on(root, look(1.0), &r.result, &axes, m, g)
    });
    let plan = sweep_chart::pareto(look(1.0), &r.result, &axes, m, g);
    let n = r.result.points.len();
    let on_front = r.result.points.iter().filter(|p| p.pareto).count();
    assert!(on_front >= 2, "{on_front}");
    // A mark per point, the front's larger; one ring for the recommendation.
    assert_eq!(plan.dots.len(), n);
    let circles = elements(&text, "circle", "");
    let radii = |r: f64| circles.iter().filter(|c| attr(c, "r") == r).count();
    assert_eq!((radii(5.0), radii(3.0)), (on_front, n - on_front));
    assert_eq!(radii(9.0), usize::from(r.result.best.is_some()));
    // The front: one line through its points, left to right, in the front's colour.
    assert_eq!(plan.front.len(), on_front);
    assert!(plan.front.windows(2).all(|w| w[0].0 <= w[1].0));
    let front = elements(&text, "polyline", &format!("stroke=\"{}\"", hex(color(1))));
    assert_eq!(front.len(), 1);
    let line = points(front[0]);
    assert_eq!(line.len(), on_front);
    assert!(line.windows(2).all(|w| w[0].0 <= w[1].0), "{line:?}");
    // The titles carry the goals' arrows; the ticks are the round ones inside the range.
    let drawn = texts(&text);
    assert!(drawn.contains(&format!("{} ↑", a.of.metric)), "{drawn:?}");
    assert!(drawn.contains(&format!("{} ↓", b.of.metric)), "{drawn:?}");
    let xs: Vec<f64> = (0..n).map(|i| value(&r, i, &a.of)).collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(*v), h.max(*v))
        });
    let pad = (hi - lo) * 0.06;
    for t in ticks((lo - pad, hi + pad)) {
        assert!(drawn.contains(&num(t)), "tick {t} in {drawn:?}");
    }
    // The front's labels that were placed are drawn, none overlapping another.
    assert!(!plan.labels.is_empty());
    for (i, (x, y, l)) in plan.labels.iter().enumerate() {
        assert!(drawn.contains(l), "{l}");
        let w = l.chars().count() as f64 * 6.0;
        for (x2, y2, l2) in &plan.labels[i + 1..] {
            let w2 = l2.chars().count() as f64 * 6.0;
            assert!(x + w < *x2 || x2 + w2 < *x || y + 12.0 < *y2 || y2 + 12.0 < *y);
        }
    }
    // Every point's readout has both values; more delivery is further right; the
    // pointer on a mark finds it.
    for i in 0..n {
        let ro = h.readout_of(i).unwrap();
        let p = h.point_of(i).unwrap();
        let vals: Vec<&str> = ro.rows.iter().map(|r| r.value.as_str()).collect();
        assert_eq!(vals, [num(value(&r, p, &a.of)), num(value(&r, p, &b.of))]);
        let found = h.point_at(h.position_x(i), h.position_y(i)).unwrap();
        assert_eq!(h.position_x(found), h.position_x(i));
        assert_eq!(h.position_y(found), h.position_y(i));
    }
    let (lo_i, hi_i) = (
        xs.iter().position(|v| *v == lo).unwrap(),
        xs.iter().position(|v| *v == hi).unwrap(),
    );
    assert!(h.position_x(hi_i) > h.position_x(lo_i));
}
