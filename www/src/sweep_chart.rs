//! A sweep's three charts, drawn from the engine's [`SweepResult`]: one parameter as a
//! line per strategy or tier with its p5–p95 band, two parameters as a heatmap with a
//! colour legend (viridis: sequential and colour-blind safe), and the Pareto scatter of
//! two metrics with the front joined and the recommended point ringed.
//!
//! Each chart is laid out in CSS pixels by one `Frame` that both the drawing and the
//! hit test use, and returns a [`SweepHandle`]: the readout under the pointer, the same
//! readout by keyboard position (one position per point drawn), and the point under a
//! click, so the page opens that point's scenario.

use crate::chart::{
    self, color, css_color, draw_error, font, BandPoint, Readout, ReadoutRow, Theme,
};
use crate::js::to_js;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use retrystorm::ensemble::render::num;
use retrystorm::ensemble::Spread;
use retrystorm::sweep::choose::{self, Goal, MetricRef};
use retrystorm::sweep::{render::metric_label, Point, SweepResult};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

const LEFT: f64 = 64.0;
const RIGHT: f64 = 18.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 42.0;
/// Width of the heatmap's colour legend, right of the cells.
const LEGEND: f64 = 70.0;

/// Viridis at nine stops (matplotlib's), interpolated linearly between them.
const VIRIDIS: [(u8, u8, u8); 9] = [
    (68, 1, 84),
    (71, 44, 122),
    (59, 81, 139),
    (44, 113, 142),
    (33, 144, 141),
    (39, 173, 129),
    (92, 200, 99),
    (170, 220, 50),
    (253, 231, 37),
];

/// The viridis colour at `t` in 0..=1 (clamped).
pub fn viridis(t: f64) -> RGBColor {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let f = t * (VIRIDIS.len() - 1) as f64;
    let i = (f.floor() as usize).min(VIRIDIS.len() - 2);
    let w = f - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * w).round() as u8;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The plotting box in CSS pixels and the data ranges it shows.
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    xr: (f64, f64),
    yr: (f64, f64),
}

impl Frame {
    fn new(w: f64, h: f64, right: f64, xr: (f64, f64), yr: (f64, f64)) -> Frame {
        Frame {
            x0: LEFT,
            x1: (w - right).max(LEFT + 10.0),
            y0: TOP,
            y1: (h - BOTTOM).max(TOP + 10.0),
            xr: widen(xr),
            yr: widen(yr),
        }
    }

    fn x(&self, v: f64) -> f64 {
        self.x0 + (v - self.xr.0) / (self.xr.1 - self.xr.0) * (self.x1 - self.x0)
    }

    fn y(&self, v: f64) -> f64 {
        self.y1 - (v - self.yr.0) / (self.yr.1 - self.yr.0) * (self.y1 - self.y0)
    }
}

/// How a chart's hit test finds the point under the pointer.
#[derive(Clone, Copy)]
enum Hit {
    /// The nearest point along x (the line chart: every y over it).
    Column,
    /// The cell that contains it (`half` its half width and height).
    Cell(f64, f64),
    /// The nearest point within a few pixels.
    Near,
}

/// One drawn point: where it is (CSS pixels), which sweep point, and its readout.
struct Mark {
    x: f64,
    y: f64,
    point: usize,
    readout: Readout,
}

/// A drawn sweep chart: readouts by pointer and by keyboard position, and the point
/// under a click.
#[wasm_bindgen]
pub struct SweepHandle {
    marks: Vec<Mark>,
    hit: Hit,
    inside: (f64, f64, f64, f64),
}

impl SweepHandle {
    /// The readout at keyboard position `i`: what [`readout_at`](Self::readout_at) sends
    /// the page, as Rust data (for native callers).
    pub fn readout_of(&self, i: usize) -> Option<&Readout> {
        self.marks.get(i).map(|m| &m.readout)
    }

    /// The keyboard position under the CSS point `(x, y)`, if any (the one whose readout
    /// the pointer gets there).
    pub fn position_at(&self, x: f64, y: f64) -> Option<usize> {
        self.at(x, y)
    }

    fn at(&self, x: f64, y: f64) -> Option<usize> {
        let (x0, x1, y0, y1) = self.inside;
        if x < x0 || x > x1 || y < y0 || y > y1 {
            return None;
        }
        let d = |m: &Mark| match self.hit {
            Hit::Column => (m.x - x).abs(),
            Hit::Cell(..) | Hit::Near => (m.x - x).hypot(m.y - y),
        };
        let (i, m) = self
            .marks
            .iter()
            .enumerate()
            .min_by(|a, b| d(a.1).total_cmp(&d(b.1)))?;
        let ok = match self.hit {
            Hit::Column => true,
            Hit::Cell(hw, hh) => (m.x - x).abs() <= hw && (m.y - y).abs() <= hh,
            Hit::Near => d(m) <= 10.0,
        };
        ok.then_some(i)
    }
}

#[wasm_bindgen]
impl SweepHandle {
    /// The readout `{bucket, title, rows}` under the CSS point `(x, y)` (`bucket` is the
    /// keyboard position); `null` where no point is.
    #[wasm_bindgen(unchecked_return_type = "Readout | null")]
    pub fn readout(&self, x: f64, y: f64) -> Result<JsValue, JsValue> {
        match self.at(x, y) {
            Some(i) => to_js(&self.marks[i].readout),
            None => Ok(JsValue::NULL),
        }
    }

    /// How many positions the keyboard steps through: the points drawn.
    pub fn positions(&self) -> usize {
        self.marks.len()
    }

    /// The readout at keyboard position `i`: the one the pointer gets over that point.
    #[wasm_bindgen(js_name = readoutAt, unchecked_return_type = "Readout | null")]
    pub fn readout_at(&self, i: usize) -> Result<JsValue, JsValue> {
        match self.marks.get(i) {
            Some(m) => to_js(&m.readout),
            None => Ok(JsValue::NULL),
        }
    }

    /// The CSS x of position `i`.
    #[wasm_bindgen(js_name = positionX)]
    pub fn position_x(&self, i: usize) -> f64 {
        self.marks.get(i).map_or(0.0, |m| m.x)
    }

    /// The CSS y of position `i`.
    #[wasm_bindgen(js_name = positionY)]
    pub fn position_y(&self, i: usize) -> f64 {
        self.marks.get(i).map_or(0.0, |m| m.y)
    }

    /// The sweep point under the CSS point `(x, y)`, if any (what a click opens).
    #[wasm_bindgen(js_name = pointAt)]
    pub fn point_at(&self, x: f64, y: f64) -> Option<usize> {
        self.at(x, y).map(|i| self.marks[i].point)
    }

    /// The sweep point at keyboard position `i` (Enter opens it).
    #[wasm_bindgen(js_name = pointOf)]
    pub fn point_of(&self, i: usize) -> Option<usize> {
        self.marks.get(i).map(|m| m.point)
    }
}

/// What the charts need of a sweep besides its result.
pub struct Axes<'a> {
    /// The parameter paths.
    pub paths: &'a [String],
    /// Per parameter, whether its values are log-spaced (drawn on a log axis).
    pub log: &'a [bool],
}

fn spread_of(p: &Point, metric: &str) -> Option<Spread> {
    p.ensemble.metric(metric)?.1.spread
}

fn params_title(axes: &Axes, p: &Point) -> String {
    axes.paths
        .iter()
        .zip(&p.params)
        .map(|(k, v)| format!("{k} = {}", num(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn text<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    s: &str,
    (x, y): (f64, f64),
    px: f64,
    dpr: f64,
    anchor: f64,
) -> Result<(), String> {
    // Roughly 0.55 em per character: enough to right-align or centre short labels.
    let w = s.chars().count() as f64 * px * 0.55 * anchor;
    root.draw(&Text::new(
        s.to_string(),
        (((x - w) * dpr).round() as i32, (y * dpr).round() as i32),
        font(px, dpr),
    ))
    .map_err(draw_error)
}

fn p(x: f64, y: f64, dpr: f64) -> (i32, i32) {
    ((x * dpr).round() as i32, (y * dpr).round() as i32)
}

/// Round ticks inside `r`: about five, a step of 1, 2 or 5 times a power of ten (so
/// the labels read 84, 86, 88 rather than 83.333, 85.146).
pub fn ticks(r: (f64, f64)) -> Vec<f64> {
    let span = r.1 - r.0;
    if !span.is_finite() || span <= 0.0 {
        return vec![r.0];
    }
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    // Rounded to the step's decimals, so 3 × 0.1 is 0.3 and not 0.30000000000000004.
    let d = 10f64.powi((-step.log10().floor()).max(0.0) as i32);
    let (first, last) = ((r.0 / step).ceil() as i64, (r.1 / step).floor() as i64);
    (first..=last)
        .map(|k| (k as f64 * step * d).round() / d)
        .collect()
}

/// Axes, grid and labels of a line or scatter chart: `fx`/`fy` turn an axis value into
/// its label (the log axis labels the value, not its logarithm).
fn frame_axes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &Frame,
    dpr: f64,
    theme: Theme,
    (fx, fy): (&dyn Fn(f64) -> String, &dyn Fn(f64) -> String),
    (xlabel, ylabel): (&str, &str),
) -> Result<(), String> {
    let grid = theme.grid.0.stroke_width(1);
    for v in ticks(f.yr) {
        let y = f.y(v);
        root.draw(&PathElement::new(
            vec![p(f.x0, y, dpr), p(f.x1, y, dpr)],
            grid,
        ))
        .map_err(draw_error)?;
        text(root, &fy(v), (f.x0 - 6.0, y - 6.0), 11.0, dpr, 1.0)?;
    }
    for v in ticks(f.xr) {
        let x = f.x(v);
        root.draw(&PathElement::new(
            vec![p(x, f.y0, dpr), p(x, f.y1, dpr)],
            grid,
        ))
        .map_err(draw_error)?;
        text(root, &fx(v), (x, f.y1 + 6.0), 11.0, dpr, 0.5)?;
    }
    let axis = theme.axis.stroke_width(1);
    root.draw(&PathElement::new(
        vec![p(f.x0, f.y0, dpr), p(f.x0, f.y1, dpr), p(f.x1, f.y1, dpr)],
        axis,
    ))
    .map_err(draw_error)?;
    text(
        root,
        xlabel,
        ((f.x0 + f.x1) / 2.0, f.y1 + 22.0),
        12.0,
        dpr,
        0.5,
    )?;
    text(root, ylabel, (4.0, 0.0), 12.0, dpr, 0.0)
}

fn axis_value(log: bool) -> impl Fn(f64) -> f64 {
    move |v| if log { v.max(1e-300).log10() } else { v }
}

/// The line chart of one parameter, chosen from the sweep before anything is drawn: its
/// axes, one banded line per group that has the metric's name, and the chosen group's
/// points with their readouts.
pub struct Lines {
    /// The x axis's title (the parameter's path) and the y axis's (the metric's label).
    pub titles: (String, String),
    /// Whether x is the parameter's logarithm (a log-spaced parameter; the labels still
    /// read the values).
    pub log: bool,
    /// The x and y ranges the bands span (widened when empty or flat).
    pub ranges: ((f64, f64), (f64, f64)),
    /// Per group with the metric's name, in the ensemble's order (group `i` in colour `i`).
    pub lines: Vec<Line>,
    /// Which of `lines` is the metric's own group: bold, with its points marked.
    pub chosen: Option<usize>,
    /// Per sweep point with a parameter value, its mark and its readout; the keyboard
    /// steps through them in this order.
    pub dots: Vec<Dot>,
}

/// One group's line in [`Lines`].
pub struct Line {
    /// The metric's path in this group (`<group key>.<name>`).
    pub metric: String,
    /// The group's name: the readout's label, and the legend's (cut to 24 characters).
    pub name: String,
    /// At each point with a value: x, p5, the statistic, p95.
    pub points: Vec<BandPoint>,
}

/// One sweep point's mark on the chosen line of [`Lines`].
pub struct Dot {
    /// The sweep point's index.
    pub point: usize,
    /// Where the mark is, in data coordinates (at the bottom of the y range when the
    /// chosen group has no value there).
    pub at: (f64, f64),
    /// Whether the point meets the constraints (filled; hollow when not).
    pub feasible: bool,
    /// Whether it is the recommended point (ringed).
    pub best: bool,
    /// The readout over it: every line's value with its band.
    pub readout: Readout,
}

/// The ranges a frame shows: `(0, 1)` for none, a flat range opened to 1 wide.
fn widen((lo, hi): (f64, f64)) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        (0.0, 1.0)
    } else if hi - lo < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

/// What [`draw_lines_on`] draws of `metric` over the sweep's one parameter.
pub fn lines(r: &SweepResult, axes: &Axes, metric: &MetricRef) -> Lines {
    let log = axes.log.first().copied().unwrap_or(false);
    let ax = axis_value(log);
    // Every group's line of the chosen metric (each strategy's delivery, say), as the
    // engine names that metric within its group.
    let groups: Vec<(String, String)> = r
        .points
        .first()
        .and_then(|p0| {
            let (_, chosen) = p0.ensemble.metric(&metric.metric)?;
            let bare = chosen.metric.as_str();
            Some(
                p0.ensemble
                    .groups
                    .iter()
                    .filter(|g| g.metrics.iter().any(|m| m.metric == bare))
                    .map(|g| (format!("{}.{bare}", g.key), g.name.clone()))
                    .collect(),
            )
        })
        .unwrap_or_default();
    let stat = |s: &Spread| metric.stat.of(s);
    let lines: Vec<Line> = groups
        .into_iter()
        .map(|(m, name)| {
            let points = r
                .points
                .iter()
                .filter_map(|p| {
                    let s = spread_of(p, &m)?;
                    Some((ax(*p.params.first()?), s.p5, stat(&s), s.p95))
                })
                .collect();
            Line {
                metric: m,
                name,
                points,
            }
        })
        .collect();
    let mut xr = (f64::INFINITY, f64::NEG_INFINITY);
    let mut yr = (f64::INFINITY, f64::NEG_INFINITY);
    for &(x, lo, mid, hi) in lines.iter().flat_map(|l| &l.points) {
        xr = (xr.0.min(x), xr.1.max(x));
        yr = (yr.0.min(lo.min(mid)), yr.1.max(hi.max(mid)));
    }
    let (xr, yr) = (widen(xr), widen(yr));
    let chosen = lines.iter().position(|l| l.metric == metric.metric);
    let mut dots = Vec::new();
    for pt in &r.points {
        let Some(&x) = pt.params.first() else {
            continue;
        };
        let rows: Vec<ReadoutRow> = lines
            .iter()
            .enumerate()
            .filter_map(|(k, l)| {
                let s = spread_of(pt, &l.metric)?;
                Some(ReadoutRow {
                    label: l.name.clone(),
                    value: format!("{} [{}–{}]", num(stat(&s)), num(s.p5), num(s.p95)),
                    color: css_color(k),
                    alarm: !pt.feasible,
                })
            })
            .collect();
        let y = lines
            .get(chosen.unwrap_or(0))
            .and_then(|l| spread_of(pt, &l.metric))
            .map_or(yr.0, |s| stat(&s));
        dots.push(Dot {
            point: pt.index,
            at: (ax(x), y),
            feasible: pt.feasible,
            best: r.best == Some(pt.index),
            readout: Readout {
                bucket: dots.len(),
                title: params_title(axes, pt),
                rows,
            },
        });
    }
    Lines {
        titles: (
            axes.paths.first().cloned().unwrap_or_default(),
            metric_label(metric),
        ),
        log,
        ranges: (xr, yr),
        lines,
        chosen,
        dots,
    }
}

/// One parameter: per group that has `metric`'s name, its `stat` at every point over the
/// p5–p95 band ([`chart::band`], the shared band drawer); the chosen group's line is bold
/// and its points marked (filled: feasible; hollow: not; ringed: the recommended one).
/// The legend takes the corner that hides the least of the lines. Any plotters backend.
pub fn draw_lines_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    look: Look,
    r: &SweepResult,
    axes: &Axes,
    metric: &MetricRef,
) -> Result<SweepHandle, String> {
    let Look { dpr, theme, .. } = look;
    chart::paint(root, theme)?;
    let plan = lines(r, axes, metric);
    let ((x0, x1), (y0, y1)) = plan.ranges;
    let pad = (y1 - y0) * 0.05;
    let s = |px: f64| (px * dpr).round() as u32;
    let mut chart = ChartBuilder::on(root)
        .margin(s(10.0))
        .x_label_area_size(s(34.0))
        .y_label_area_size(s(56.0))
        .build_cartesian_2d(x0..x1, y0 - pad..y1 + pad)
        .map_err(draw_error)?;
    // A log axis's ticks fall between round values: three significant digits.
    let log = plan.log;
    let fx = |v: &f64| num(if log { sig3(10f64.powf(*v)) } else { *v });
    let fy = |v: &f64| num(*v);
    chart::time_mesh(&mut chart, (6, 6))
        .max_light_lines(1)
        .x_desc(plan.titles.0.as_str())
        .y_desc(plan.titles.1.as_str())
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .label_style(font(11.0, dpr))
        .axis_desc_style(font(12.0, dpr))
        .draw()
        .map_err(draw_error)?;
    let mut labels = Vec::new();
    // The lines and their bands' edges in device pixels, to put the legend where it hides least.
    let mut drawn = Vec::new();
    for (gi, line) in plan.lines.iter().enumerate() {
        let pts = &line.points;
        if pts.is_empty() {
            continue;
        }
        let width = if plan.chosen == Some(gi) { 2.5 } else { 1.2 };
        let key = ShapeStyle::from(&color(gi)).stroke_width(s(width));
        let label = line.name.chars().take(24).collect::<String>();
        labels.push(label.clone());
        chart::band(&mut chart, pts, color(gi), width, dpr)?
            .label(label)
            .legend(chart::line_key(key, 16.0, dpr));
        let edges: [fn(&BandPoint) -> f64; 3] = [|p| p.1, |p| p.2, |p| p.3];
        for edge in edges {
            let line: Vec<(i32, i32)> = pts
                .iter()
                .map(|p| chart.backend_coord(&(p.0, edge(p))))
                .collect();
            chart::sample_line(&line, 4.0 * dpr, &mut drawn);
        }
    }
    if !labels.is_empty() {
        let size = chart::legend_size(&labels, 11.0, 4.0, 16.0, dpr);
        let at = chart::quiet_corner(
            chart.plotting_area().get_pixel_range(),
            size,
            s(4.0) as i32,
            &drawn,
        );
        chart::legend_at(&mut chart, at, 11.0, 4.0, dpr)?;
    }
    let c = color(plan.chosen.unwrap_or(0));
    let radius = (3.0 * dpr).round() as i32;
    chart
        .draw_series(plan.dots.iter().flat_map(|d| {
            let fill = if d.feasible {
                c.filled()
            } else {
                theme.paper.filled()
            };
            let mut shapes = vec![
                Circle::new(d.at, radius, fill),
                Circle::new(d.at, radius, c.stroke_width(s(1.0))),
            ];
            if d.best {
                shapes.push(Circle::new(
                    d.at,
                    (8.0 * dpr).round() as i32,
                    theme.ink.stroke_width(s(2.0)),
                ));
            }
            shapes
        }))
        .map_err(draw_error)?;
    let css = |v: i32| f64::from(v) / dpr;
    let marks = plan
        .dots
        .into_iter()
        .map(|d| {
            let (x, y) = chart.backend_coord(&d.at);
            Mark {
                x: css(x),
                y: css(y),
                point: d.point,
                readout: d.readout,
            }
        })
        .collect();
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    Ok(SweepHandle {
        marks,
        hit: Hit::Column,
        inside: (css(xs.start), css(xs.end), css(ys.start), css(ys.end)),
    })
}

/// The heatmap of two parameters, laid out in CSS pixels before anything is drawn.
pub struct Heatmap {
    /// The cells' box: left, right, top and bottom.
    pub plot: (f64, f64, f64, f64),
    /// The values the colour ramp spans, lowest to highest (1 wide when flat).
    pub range: (f64, f64),
    /// Every cell's width and height.
    pub cell: (f64, f64),
    /// One cell per sweep point; the keyboard steps through them in this order.
    pub cells: Vec<Cell>,
    /// The first parameter's values under their columns (centre x, text): every one
    /// while they fit, else every k-th.
    pub columns: Vec<(f64, String)>,
    /// The second parameter's values beside their rows (centre y, text), likewise.
    pub rows: Vec<(f64, String)>,
    /// The x axis's title (the first parameter's path) and the y axis's (the second's).
    pub titles: (String, String),
}

/// One sweep point's cell in a [`Heatmap`].
pub struct Cell {
    /// The sweep point's index.
    pub point: usize,
    /// Its box: left, top, width and height.
    pub rect: (f64, f64, f64, f64),
    /// Its colour: the value's on the ramp, the theme's grey without a value.
    pub fill: RGBColor,
    /// Whether the point meets the constraints (struck through when not).
    pub feasible: bool,
    /// Whether it is the recommended point (outlined).
    pub best: bool,
    /// The readout over it: the metric's value in the cell's colour.
    pub readout: Readout,
}

/// What [`draw_heatmap_on`] draws of `metric` over the grid of `values` (per parameter).
pub fn heatmap(
    look: Look,
    r: &SweepResult,
    axes: &Axes,
    values: &[Vec<f64>],
    metric: &MetricRef,
) -> Heatmap {
    let (w, h) = look.size;
    let (n0, n1) = (
        values.first().map_or(1, Vec::len).max(1),
        values.get(1).map_or(1, Vec::len).max(1),
    );
    let f = Frame::new(w, h, LEGEND, (0.0, n0 as f64), (0.0, n1 as f64));
    let vals: Vec<Option<f64>> = r
        .points
        .iter()
        .map(|pt| choose::value(&pt.ensemble, metric))
        .collect();
    let (lo, hi) = vals
        .iter()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        });
    let (lo, hi) = if lo.is_finite() {
        (lo, if hi > lo { hi } else { lo + 1.0 })
    } else {
        (0.0, 1.0)
    };
    let (cw, ch) = ((f.x1 - f.x0) / n0 as f64, (f.y1 - f.y0) / n1 as f64);
    let mut cells = Vec::new();
    for (pt, v) in r.points.iter().zip(&vals) {
        let (i, j) = (pt.index / n1, pt.index % n1);
        let (x, y) = (f.x0 + i as f64 * cw, f.y1 - (j + 1) as f64 * ch);
        let fill = match v {
            Some(v) => viridis((v - lo) / (hi - lo)),
            None => look.theme.grid.1,
        };
        cells.push(Cell {
            point: pt.index,
            rect: (x, y, cw, ch),
            fill,
            feasible: pt.feasible,
            best: r.best == Some(pt.index),
            readout: Readout {
                bucket: cells.len(),
                title: params_title(axes, pt),
                rows: vec![ReadoutRow {
                    label: metric_label(metric),
                    value: v.map_or("—".into(), num),
                    color: format!("rgb({},{},{})", fill.0, fill.1, fill.2),
                    alarm: !pt.feasible,
                }],
            },
        });
    }
    // Value labels: every column and row while they fit, else every k-th.
    let every = |n: usize, room: f64| ((n as f64 * 12.0 / room).ceil() as usize).max(1);
    let labels = |k: usize, at: &dyn Fn(f64) -> f64| {
        values
            .get(k)
            .into_iter()
            .flatten()
            .enumerate()
            .step_by(if k == 0 {
                every(n0, (f.x1 - f.x0) / 4.0)
            } else {
                every(n1, (f.y1 - f.y0) / 1.4)
            })
            .map(|(i, v)| (at(i as f64 + 0.5), num(*v)))
            .collect()
    };
    Heatmap {
        plot: (f.x0, f.x1, f.y0, f.y1),
        range: (lo, hi),
        cell: (cw, ch),
        cells,
        columns: labels(0, &|c| f.x0 + c * cw),
        rows: labels(1, &|c| f.y1 - c * ch),
        titles: (
            axes.paths.first().cloned().unwrap_or_default(),
            axes.paths.get(1).cloned().unwrap_or_default(),
        ),
    }
}

/// Two parameters: a cell per point coloured by `metric` (viridis over the points' range,
/// grey for a point without a value), the first parameter across, the second up; the
/// recommended cell outlined; a colour legend on the right. Any plotters backend.
pub fn draw_heatmap_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    look: Look,
    r: &SweepResult,
    axes: &Axes,
    values: &[Vec<f64>],
    metric: &MetricRef,
) -> Result<SweepHandle, String> {
    let Look { dpr, theme, .. } = look;
    chart::paint(root, theme)?;
    let plan = heatmap(look, r, axes, values, metric);
    let (x0, x1, y0, y1) = plan.plot;
    for c in &plan.cells {
        let (x, y, cw, ch) = c.rect;
        root.draw(&Rectangle::new(
            [p(x, y, dpr), p(x + cw, y + ch, dpr)],
            c.fill.filled(),
        ))
        .map_err(draw_error)?;
        if c.best {
            root.draw(&Rectangle::new(
                [p(x + 1.5, y + 1.5, dpr), p(x + cw - 1.5, y + ch - 1.5, dpr)],
                theme.ink.stroke_width((3.0 * dpr).round() as u32),
            ))
            .map_err(draw_error)?;
        }
        if !c.feasible {
            // A diagonal stroke marks a point outside the constraints.
            root.draw(&PathElement::new(
                vec![p(x + 3.0, y + ch - 3.0, dpr), p(x + cw - 3.0, y + 3.0, dpr)],
                theme.paper.mix(0.7).stroke_width(dpr.round() as u32),
            ))
            .map_err(draw_error)?;
        }
    }
    for (x, label) in &plan.columns {
        text(root, label, (*x, y1 + 6.0), 11.0, dpr, 0.5)?;
    }
    for (y, label) in &plan.rows {
        text(root, label, (x0 - 6.0, y - 6.0), 11.0, dpr, 1.0)?;
    }
    let (xt, yt) = &plan.titles;
    text(root, xt, ((x0 + x1) / 2.0, y1 + 22.0), 12.0, dpr, 0.5)?;
    text(root, yt, (4.0, 0.0), 12.0, dpr, 0.0)?;
    // The colour legend: a vertical ramp from the lowest value (bottom) to the highest.
    let (lx, steps) = (x1 + 12.0, 48);
    for k in 0..steps {
        let t0 = k as f64 / steps as f64;
        let y = y1 - (k + 1) as f64 * (y1 - y0) / steps as f64;
        root.draw(&Rectangle::new(
            [
                p(lx, y, dpr),
                p(lx + 12.0, y + (y1 - y0) / steps as f64 + 0.5, dpr),
            ],
            viridis(t0 + 0.5 / steps as f64).filled(),
        ))
        .map_err(draw_error)?;
    }
    let (lo, hi) = plan.range;
    text(root, &num(hi), (lx + 16.0, y0 - 2.0), 11.0, dpr, 0.0)?;
    text(root, &num(lo), (lx + 16.0, y1 - 12.0), 11.0, dpr, 0.0)?;
    let (cw, ch) = plan
        .cells
        .first()
        .map_or((0.0, 0.0), |c| (c.rect.2, c.rect.3));
    let marks = plan
        .cells
        .into_iter()
        .map(|c| Mark {
            x: c.rect.0 + c.rect.2 / 2.0,
            y: c.rect.1 + c.rect.3 / 2.0,
            point: c.point,
            readout: c.readout,
        })
        .collect();
    Ok(SweepHandle {
        marks,
        hit: Hit::Cell(cw / 2.0, ch / 2.0),
        inside: plan.plot,
    })
}

/// The Pareto scatter, laid out in CSS pixels before anything is drawn.
pub struct Pareto {
    /// The plotting box and the metric ranges it shows (6% of room around the points).
    frame: Frame,
    /// The x axis's title (metric `a` and its goal's arrow) and the y axis's (`b`'s).
    pub titles: (String, String),
    /// The front's points left to right, joined by one line.
    pub front: Vec<(f64, f64)>,
    /// Every point with both values; the keyboard steps through them in this order.
    pub dots: Vec<ScatterDot>,
    /// The front's labels that fit (where each text starts, and the text): points at one
    /// spot share one, and one that would overlap a label already placed is left out.
    pub labels: Vec<(f64, f64, String)>,
}

/// One sweep point in a [`Pareto`] scatter.
pub struct ScatterDot {
    /// The sweep point's index.
    pub point: usize,
    /// Where it is.
    pub at: (f64, f64),
    /// Whether it is on the Pareto front (larger, in the front's colour).
    pub pareto: bool,
    /// Whether it meets the constraints (faded when not).
    pub feasible: bool,
    /// Whether it is the recommended point (ringed).
    pub best: bool,
    /// The readout over it: both metrics' values.
    pub readout: Readout,
}

/// What [`draw_pareto_on`] draws of the axes `a` (across) and `b` (up).
pub fn pareto(
    look: Look,
    r: &SweepResult,
    axes: &Axes,
    (a, b): (&MetricRef, &MetricRef),
    (ga, gb): (Goal, Goal),
) -> Pareto {
    let (w, h) = look.size;
    let pts: Vec<(&Point, f64, f64)> = r
        .points
        .iter()
        .filter_map(|pt| {
            Some((
                pt,
                choose::value(&pt.ensemble, a)?,
                choose::value(&pt.ensemble, b)?,
            ))
        })
        .collect();
    let fold = |k: fn(&(&Point, f64, f64)) -> f64| {
        pts.iter()
            .map(k)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    // 6% of room around the points, so none sits on an axis; the y axis's title above
    // the plot, clear of its top label.
    let pad = |(lo, hi): (f64, f64)| {
        let m = if hi > lo { (hi - lo) * 0.06 } else { 0.0 };
        (lo - m, hi + m)
    };
    let mut f = Frame::new(w, h, RIGHT, pad(fold(|t| t.1)), pad(fold(|t| t.2)));
    f.y0 += 12.0;
    let goal = |g: Goal| match g {
        Goal::Max => "↑",
        Goal::Min => "↓",
    };
    let mut front: Vec<(f64, f64)> = pts
        .iter()
        .filter(|t| t.0.pareto)
        .map(|t| (f.x(t.1), f.y(t.2)))
        .collect();
    front.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut dots = Vec::new();
    for &(pt, va, vb) in &pts {
        let row = |m: &MetricRef, v: f64, k: usize| ReadoutRow {
            label: metric_label(m),
            value: num(v),
            color: css_color(k),
            alarm: !pt.feasible,
        };
        dots.push(ScatterDot {
            point: pt.index,
            at: (f.x(va), f.y(vb)),
            pareto: pt.pareto,
            feasible: pt.feasible,
            best: r.best == Some(pt.index),
            readout: Readout {
                bucket: dots.len(),
                title: params_title(axes, pt),
                rows: vec![row(a, va, 0), row(b, vb, 1)],
            },
        });
    }
    let front_at: Vec<(f64, f64, &[f64])> = pts
        .iter()
        .filter(|t| t.0.pareto)
        .map(|t| (f.x(t.1), f.y(t.2), t.0.params.as_slice()))
        .collect();
    // The hover readout still names every point whose label is left out.
    let mut placed: Vec<(f64, f64, f64, f64)> = Vec::new();
    let mut labels = Vec::new();
    for (x, y, label) in front_labels(&front_at) {
        let (bx, by, bw, bh) = (x + 6.0, y - 16.0, label.chars().count() as f64 * 6.0, 12.0);
        let clear = placed
            .iter()
            .all(|&(px, py, pw, ph)| bx + bw < px || px + pw < bx || by + bh < py || py + ph < by);
        if clear && bx + bw <= w {
            labels.push((bx, by + 2.0, label));
            placed.push((bx, by, bw, bh));
        }
    }
    Pareto {
        frame: f,
        titles: (
            format!("{} {}", metric_label(a), goal(ga)),
            format!("{} {}", metric_label(b), goal(gb)),
        ),
        front,
        dots,
        labels,
    }
}

/// The Pareto scatter of the axes `a` (across) and `b` (up): every point (faded when
/// infeasible), the front joined and labelled with its parameter values, the
/// recommended point ringed. Any plotters backend.
pub fn draw_pareto_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    look: Look,
    r: &SweepResult,
    axes: &Axes,
    metrics: (&MetricRef, &MetricRef),
    goals: (Goal, Goal),
) -> Result<SweepHandle, String> {
    let Look { dpr, theme, .. } = look;
    chart::paint(root, theme)?;
    let plan = pareto(look, r, axes, metrics, goals);
    let f = &plan.frame;
    frame_axes(
        root,
        f,
        dpr,
        theme,
        (&|v| num(v), &|v| num(v)),
        (&plan.titles.0, &plan.titles.1),
    )?;
    let (plain, front) = (color(0), color(1));
    root.draw(&PathElement::new(
        plan.front
            .iter()
            .map(|&(x, y)| p(x, y, dpr))
            .collect::<Vec<_>>(),
        front.stroke_width((2.0 * dpr).round() as u32),
    ))
    .map_err(draw_error)?;
    for d in &plan.dots {
        let (x, y) = d.at;
        let c = if d.pareto { front } else { plain };
        // Opaque tints over the paper, not transparency: many points at one spot (a
        // threshold past which nothing changes) must not add up to a darker mark.
        let tint = |k: f64| {
            let m = |a: u8, b: u8| (f64::from(a) * k + f64::from(b) * (1.0 - k)).round() as u8;
            RGBColor(
                m(c.0, theme.paper.0),
                m(c.1, theme.paper.1),
                m(c.2, theme.paper.2),
            )
        };
        let style = if d.feasible {
            tint(if d.pareto { 1.0 } else { 0.6 }).filled()
        } else {
            tint(0.25).filled()
        };
        let radius = if d.pareto { 4.5 } else { 3.0 };
        root.draw(&Circle::new(
            p(x, y, dpr),
            (radius * dpr).round() as i32,
            style,
        ))
        .map_err(draw_error)?;
        if d.best {
            root.draw(&Circle::new(
                p(x, y, dpr),
                (9.0 * dpr).round() as i32,
                theme.ink.stroke_width((2.0 * dpr).round() as u32),
            ))
            .map_err(draw_error)?;
        }
    }
    for (x, y, label) in &plan.labels {
        text(root, label, (*x, *y), 10.0, dpr, 0.0)?;
    }
    let inside = (f.x0 - 10.0, f.x1 + 10.0, f.y0 - 10.0, f.y1 + 10.0);
    let marks = plan
        .dots
        .into_iter()
        .map(|d| Mark {
            x: d.at.0,
            y: d.at.1,
            point: d.point,
            readout: d.readout,
        })
        .collect();
    Ok(SweepHandle {
        marks,
        hit: Hit::Near,
        inside,
    })
}

/// The labels of the Pareto front's points (CSS-pixel position and parameter values):
/// points within 3 px of each other share one label, "a–b (n)" over the first
/// parameter's values when there are several, else the values joined by ", ".
pub fn front_labels(points: &[(f64, f64, &[f64])]) -> Vec<(f64, f64, String)> {
    let mut groups: Vec<(f64, f64, Vec<&[f64]>)> = Vec::new();
    for &(x, y, params) in points {
        match groups
            .iter_mut()
            .find(|g| (g.0 - x).abs() <= 3.0 && (g.1 - y).abs() <= 3.0)
        {
            Some(g) => g.2.push(params),
            None => groups.push((x, y, vec![params])),
        }
    }
    groups
        .into_iter()
        .map(|(x, y, ps)| {
            let label = if ps.len() == 1 {
                ps[0].iter().map(|v| num(*v)).collect::<Vec<_>>().join(", ")
            } else {
                let first = ps.iter().filter_map(|p| p.first().copied());
                let (lo, hi) = first.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                });
                format!("{}–{} ({})", num(lo), num(hi), ps.len())
            };
            (x, y, label)
        })
        .collect()
}

/// `v` rounded to three significant digits.
pub fn sig3(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let k = 10f64.powi(2 - v.abs().log10().floor() as i32);
    (v * k).round() / k
}

/// How a sweep chart is drawn: its size in CSS pixels, the device pixel ratio and the
/// theme.
#[derive(Clone, Copy)]
pub struct Look {
    /// Width and height in CSS pixels (the backend's are these times `dpr`).
    pub size: (f64, f64),
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// Paper and ink colours.
    pub theme: Theme,
}

/// [`draw_lines_on`] the page's canvas (sized by its CSS box).
pub fn draw_lines(
    canvas: &HtmlCanvasElement,
    r: &SweepResult,
    axes: &Axes,
    metric: &MetricRef,
    dpr: f64,
    theme: Theme,
) -> Result<SweepHandle, String> {
    on_canvas(canvas, dpr, theme, |root, look| {
        draw_lines_on(root, look, r, axes, metric)
    })
}

/// [`draw_heatmap_on`] the page's canvas (sized by its CSS box).
pub fn draw_heatmap(
    canvas: &HtmlCanvasElement,
    r: &SweepResult,
    axes: &Axes,
    values: &[Vec<f64>],
    metric: &MetricRef,
    dpr: f64,
    theme: Theme,
) -> Result<SweepHandle, String> {
    on_canvas(canvas, dpr, theme, |root, look| {
        draw_heatmap_on(root, look, r, axes, values, metric)
    })
}

/// [`draw_pareto_on`] the page's canvas (sized by its CSS box).
#[allow(clippy::too_many_arguments)] // the page's call, spelt out as the other drawers'
pub fn draw_pareto(
    canvas: &HtmlCanvasElement,
    r: &SweepResult,
    axes: &Axes,
    metrics: (&MetricRef, &MetricRef),
    goals: (Goal, Goal),
    dpr: f64,
    theme: Theme,
) -> Result<SweepHandle, String> {
    on_canvas(canvas, dpr, theme, |root, look| {
        draw_pareto_on(root, look, r, axes, metrics, goals)
    })
}

/// Sizes `canvas`'s backing store for its CSS box (at least 300 × 200) at `dpr`, draws
/// on it and presents the drawing.
fn on_canvas(
    canvas: &HtmlCanvasElement,
    dpr: f64,
    theme: Theme,
    draw: impl FnOnce(&DrawingArea<CanvasBackend, Shift>, Look) -> Result<SweepHandle, String>,
) -> Result<SweepHandle, String> {
    let size = (
        f64::from(canvas.client_width().max(300)),
        f64::from(canvas.client_height().max(200)),
    );
    let root = chart::canvas_root(canvas, size, dpr)?;
    let handle = draw(&root, Look { size, dpr, theme })?;
    root.present().map_err(draw_error)?;
    Ok(handle)
}
