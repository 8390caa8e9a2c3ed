//! The cluster charts, drawn with plotters-canvas in the classic chart's look, as panels
//! sharing one time axis on one canvas:
//! - per tier, attempts per second split into first attempts and retries (stacked bars
//!   per bucket) against the tier's service capacity, fault windows shaded, and the
//!   pinned run A's attempts as a line when comparing;
//! - under every tier that has a breaker, a band of its instances with the breaker open
//!   and half-open;
//! - queue depth and requests in flight per tier;
//! - the entry requests' end-to-end latency per bucket (p50 and p99 of the successes
//!   completed in it).
//!
//! [`ClusterChartHandle::readout`] maps a mouse position back to a bucket and returns
//! every panel's values there, formatted here.

use crate::chart::{css_color, PALETTE};
use crate::cluster::{result_of, scenario_of};
use crate::{plain_error, to_js};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use retrystorm::cluster::{present, Breaker, RunResult, Scenario};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Height of a tier's attempts panel, CSS pixels.
const TIER_H: f64 = 170.0;
/// Height of a breaker band, CSS pixels.
const BAND_H: f64 = 58.0;
/// Height of the queue and latency panels, CSS pixels.
const OTHER_H: f64 = 150.0;

const FIRST: RGBColor = RGBColor(0, 114, 178);
const RETRY: RGBColor = RGBColor(213, 94, 0);
const FAULT: RGBColor = RGBColor(220, 50, 47);
const OPEN: RGBColor = RGBColor(200, 30, 30);
const HALF: RGBColor = RGBColor(230, 159, 0);

fn has_breaker(s: &Scenario, k: usize) -> bool {
    s.tiers[k]
        .client
        .as_ref()
        .is_some_and(|c| c.breaker != Breaker::None)
}

/// The CSS height the chart of `scenario` needs, pixels (the page sets it on the canvas).
#[wasm_bindgen(js_name = clusterChartHeight)]
pub fn cluster_chart_height(scenario: JsValue) -> Result<f64, JsValue> {
    let s = scenario_of(&scenario)?;
    Ok(height(&s))
}

fn height(s: &Scenario) -> f64 {
    let bands = (0..s.tiers.len()).filter(|&k| has_breaker(s, k)).count();
    s.tiers.len() as f64 * TIER_H + bands as f64 * BAND_H + 2.0 * OTHER_H + 8.0
}

/// A drawn cluster chart: maps mouse positions back to buckets for the hover readout.
#[wasm_bindgen]
pub struct ClusterChartHandle {
    dpr: f64,
    x_px: (i32, i32),
    scenario: Scenario,
    result: RunResult,
    compare: Option<RunResult>,
    capacity: Vec<Option<f64>>,
}

/// The readout at one bucket: a title and labelled, formatted values.
#[derive(Serialize)]
struct Readout {
    bucket: usize,
    title: String,
    rows: Vec<ReadoutRow>,
}

/// One line of the readout.
#[derive(Serialize)]
struct ReadoutRow {
    label: String,
    value: String,
    color: String,
    alarm: bool,
}

#[wasm_bindgen]
impl ClusterChartHandle {
    /// The bucket under a mouse position (CSS pixels relative to the canvas) and every
    /// panel's values in it; `null` left or right of the plotting area.
    pub fn readout(&self, css_x: f64, _css_y: f64) -> Result<JsValue, JsValue> {
        let px = (css_x * self.dpr).round() as i32;
        let (x0, x1) = self.x_px;
        let n = self.result.buckets.len();
        if px < x0 || px > x1 || x1 <= x0 || n == 0 {
            return Ok(JsValue::NULL);
        }
        let t_ms = (px - x0) as f64 / (x1 - x0) as f64 * self.result.duration_ms as f64;
        let b = ((t_ms / self.result.bucket_ms as f64) as usize).min(n - 1);
        to_js(&self.rows_at(b))
    }

    /// The bucket count, for tests.
    pub fn buckets(&self) -> usize {
        self.result.buckets.len()
    }
}

impl ClusterChartHandle {
    fn rows_at(&self, b: usize) -> Readout {
        let r = &self.result;
        let bucket = &r.buckets[b];
        let per_s = 1000.0 / r.bucket_ms as f64;
        let start = bucket.start_ms as f64 / 1000.0;
        let mut rows = Vec::new();
        for (k, t) in bucket.tiers.iter().enumerate() {
            let name = r.tiers.get(k).map_or("?", |x| x.name.as_str());
            let color = css_color(k);
            let total = t.attempts() as f64 * per_s;
            let cap = self.capacity.get(k).copied().flatten();
            let mut value = format!(
                "{:.0} first + {:.0} retries = {:.0}/s",
                t.first_attempts as f64 * per_s,
                t.retries as f64 * per_s,
                total
            );
            if let Some(c) = cap {
                value.push_str(&format!(" (capacity {c:.0})"));
            }
            if let Some(a) = self.compare.as_ref().and_then(|a| a.buckets.get(b)) {
                if let Some(at) = a.tiers.get(k) {
                    value.push_str(&format!(" · A {:.0}/s", at.attempts() as f64 * per_s));
                }
            }
            rows.push(ReadoutRow {
                label: format!("{name} attempts"),
                value,
                color: color.clone(),
                alarm: cap.is_some_and(|c| total > c),
            });
            rows.push(ReadoutRow {
                label: format!("{name} outcomes"),
                value: format!(
                    "ok {} · timeout {} · 503 {} · 500 {} · breaker {} · budget {}",
                    t.successes,
                    t.timeouts,
                    t.overloads,
                    t.errors,
                    t.breaker_rejected,
                    t.budget_rejected
                ),
                color: color.clone(),
                alarm: t.failures() > 0,
            });
            rows.push(ReadoutRow {
                label: format!("{name} queue / in flight"),
                value: format!("{} / {}", t.queue_depth, t.in_flight),
                color: color.clone(),
                alarm: false,
            });
            if has_breaker(&self.scenario, k) {
                rows.push(ReadoutRow {
                    label: format!("{name} breakers"),
                    value: format!(
                        "{} open · {} half-open · {} closed",
                        t.breakers_open, t.breakers_half_open, t.breakers_closed
                    ),
                    color,
                    alarm: t.breakers_open > 0,
                });
            }
        }
        let lat = &r.buckets[b].latency_ms;
        rows.push(ReadoutRow {
            label: "entry latency p50 / p99".into(),
            value: format!("{:.1} / {:.1} ms", lat.p50, lat.p99),
            color: "rgb(40,40,40)".into(),
            alarm: false,
        });
        Readout {
            bucket: b,
            title: format!(
                "t = {start:.1}–{:.1} s",
                start + r.bucket_ms as f64 / 1000.0
            ),
            rows,
        }
    }
}

/// Draws the charts of `result` (a run of `scenario`) on `canvas`; `compare` is the
/// pinned run A (or `null`), drawn as a line over B's bars. Options: `{dpr}`.
#[wasm_bindgen(js_name = drawClusterChart)]
pub fn draw_cluster_chart(
    canvas: HtmlCanvasElement,
    scenario: JsValue,
    result: JsValue,
    compare: JsValue,
    options: JsValue,
) -> Result<ClusterChartHandle, JsValue> {
    let scenario = scenario_of(&scenario)?;
    let result = result_of(&result)?;
    if result.tiers.len() != scenario.tiers.len() {
        return Err(plain_error("the result is not a run of this scenario"));
    }
    let compare = if compare.is_undefined() || compare.is_null() {
        None
    } else {
        Some(result_of(&compare)?)
    };
    let dpr = if options.is_undefined() || options.is_null() {
        None
    } else {
        js_sys::Reflect::get(&options, &JsValue::from_str("dpr"))
            .ok()
            .and_then(|v| v.as_f64())
    };
    let dpr = dpr
        .or_else(|| web_sys::window().map(|w| w.device_pixel_ratio()))
        .filter(|d| d.is_finite() && *d > 0.0)
        .unwrap_or(1.0)
        .clamp(1.0, 4.0);
    let css_w = f64::from(canvas.client_width().max(300));
    let css_h = height(&scenario);
    canvas.set_width((css_w * dpr).round() as u32);
    canvas.set_height((css_h * dpr).round() as u32);
    let capacity: Vec<Option<f64>> = scenario.tiers.iter().map(present::capacity_per_s).collect();
    let x_px = draw(
        &canvas,
        &scenario,
        &result,
        compare.as_ref(),
        &capacity,
        dpr,
    )
    .map_err(plain_error)?;
    Ok(ClusterChartHandle {
        dpr,
        x_px,
        scenario,
        result,
        compare,
        capacity,
    })
}

type Area = DrawingArea<CanvasBackend, Shift>;

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing the cluster chart failed: {e:?}")
}

/// Draws every panel; returns the plotting area's x pixel range.
fn draw(
    canvas: &HtmlCanvasElement,
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    capacity: &[Option<f64>],
    dpr: f64,
) -> Result<(i32, i32), String> {
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let px = |v: f64| (v * dpr).round() as i32;
    let mut rest = root;
    let mut x_px = (0, 0);
    for k in 0..sc.tiers.len() {
        let (top, below) = rest.split_vertically(px(TIER_H));
        x_px = tier_panel(&top, sc, r, a, capacity, k, dpr)?;
        rest = below;
        if has_breaker(sc, k) {
            let (band, below) = rest.split_vertically(px(BAND_H));
            breaker_band(&band, sc, r, k, dpr)?;
            rest = below;
        }
    }
    let (queue, below) = rest.split_vertically(px(OTHER_H));
    queue_panel(&queue, r, dpr)?;
    let (lat, _) = below.split_vertically(px(OTHER_H));
    latency_panel(&lat, r, a, dpr)?;
    rest.present().map_err(err)?;
    Ok(x_px)
}

/// Bucket width, start and end in seconds of bucket `b`.
fn span(r: &RunResult, b: usize) -> (f64, f64) {
    let x0 = r.buckets[b].start_ms as f64 / 1000.0;
    let x1 = ((r.buckets[b].start_ms + r.bucket_ms).min(r.duration_ms)) as f64 / 1000.0;
    (x0, x1)
}

fn font(px: f64, dpr: f64) -> FontDesc<'static> {
    ("sans-serif", px * dpr).into_font()
}

fn step_line(r: &RunResult, f: impl Fn(usize) -> f64) -> Vec<(f64, f64)> {
    (0..r.buckets.len())
        .flat_map(|b| {
            let (x0, x1) = span(r, b);
            let y = f(b);
            [(x0, y), (x1, y)]
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn tier_panel(
    area: &Area,
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    capacity: &[Option<f64>],
    k: usize,
    dpr: f64,
) -> Result<(i32, i32), String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let per_s = 1000.0 / r.bucket_ms as f64;
    let rate = |res: &RunResult, b: usize| {
        res.buckets
            .get(b)
            .and_then(|x| x.tiers.get(k))
            .map_or(0.0, |t| t.attempts() as f64 * per_s)
    };
    let mut peak = (0..r.buckets.len()).map(|b| rate(r, b)).fold(0.0, f64::max);
    if let Some(a) = a {
        peak = (0..a.buckets.len())
            .map(|b| rate(a, b))
            .fold(peak, f64::max);
    }
    // The capacity line is drawn when it is within reach of the data.
    let cap = capacity[k].filter(|&c| c <= peak.max(1.0) * 3.0);
    let y_max = (peak.max(cap.unwrap_or(0.0)) * 1.12).max(1.0);
    let name = &sc.tiers[k].name;
    let mut chart = time_panel(
        area,
        &format!("{name}: attempts per second (first attempts + retries)"),
        (duration, y_max),
        5,
        dpr,
    )?;
    // Faults: this tier's strongly, the others' faintly; spikes of the load on tier 0.
    for f in &sc.faults {
        let (x0, x1) = (
            f.start_ms as f64 / 1000.0,
            (f.start_ms.saturating_add(f.duration_ms) as f64 / 1000.0).min(duration),
        );
        let mine = f.tier as usize == k;
        let alpha = if mine { 0.2 } else { 0.06 };
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x1.max(x0 + duration / 800.0), y_max)],
                FAULT.mix(alpha).filled(),
            )))
            .map_err(err)?;
    }
    if k == 0 {
        for g in &sc.load.schedule {
            let (x0, x1) = (g.start_ms as f64 / 1000.0, g.end_ms as f64 / 1000.0);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x1.min(duration), y_max)],
                    RGBColor(230, 159, 0).mix(0.12).filled(),
                )))
                .map_err(err)?;
        }
    }
    let bars = (0..r.buckets.len()).flat_map(|b| {
        let t = &r.buckets[b].tiers[k];
        let (x0, x1) = span(r, b);
        let f = t.first_attempts as f64 * per_s;
        let y = t.retries as f64 * per_s;
        [
            Rectangle::new([(x0, 0.0), (x1, f)], FIRST.mix(0.85).filled()),
            Rectangle::new([(x0, f), (x1, f + y)], RETRY.mix(0.85).filled()),
        ]
    });
    let legend_box = move |c: RGBColor| {
        move |(x, y): (i32, i32)| {
            Rectangle::new(
                [
                    (x, y - s(5.0) as i32),
                    (x + s(14.0) as i32, y + s(5.0) as i32),
                ],
                c.filled(),
            )
        }
    };
    chart
        .draw_series(bars)
        .map_err(err)?
        .label("first attempts")
        .legend(legend_box(FIRST));
    // An invisible series just for the legend entry of retries.
    chart
        .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
        .map_err(err)?
        .label("retries")
        .legend(legend_box(RETRY));
    if let Some(c) = cap {
        let style = ShapeStyle::from(&RGBColor(40, 40, 40)).stroke_width(s(1.5));
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, c), (duration, c)],
                style,
            )))
            .map_err(err)?
            .label(format!("capacity {c:.0}/s"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(14.0) as i32, y)], style));
    }
    if sc.faults.iter().any(|f| f.tier as usize == k) {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(err)?
            .label("fault")
            .legend(legend_box(RGBColor(240, 160, 160)));
    }
    if let Some(a) = a.filter(|a| a.tiers.len() > k) {
        let style = ShapeStyle::from(&RGBColor(20, 20, 20)).stroke_width(s(1.6));
        chart
            .draw_series(LineSeries::new(step_line(a, |b| rate(a, b)), style))
            .map_err(err)?
            .label("A (pinned): attempts")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(14.0) as i32, y)], style));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font(font(11.0, dpr))
        .margin(s(6.0))
        .draw()
        .map_err(err)?;
    let (xr, _) = chart.plotting_area().get_pixel_range();
    Ok((xr.start, xr.end))
}

fn breaker_band(
    area: &Area,
    sc: &Scenario,
    r: &RunResult,
    k: usize,
    dpr: f64,
) -> Result<(), String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let n = f64::from(sc.tiers[k].instances.max(1));
    let label = format!(
        "{}: instances with their breaker open (red) and half-open (amber), of {}",
        sc.tiers[k].name, sc.tiers[k].instances
    );
    let mut chart = ChartBuilder::on(area)
        .margin_left(s(10.0))
        .margin_right(s(10.0))
        .margin_bottom(s(4.0))
        .caption(label, font(11.0, dpr).color(&RGBColor(70, 70, 70)))
        .x_label_area_size(0)
        .y_label_area_size(s(64.0))
        .build_cartesian_2d(0.0..duration, 0.0..n)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(2)
        .axis_style(RGBColor(160, 160, 160))
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(10.0, dpr))
        .draw()
        .map_err(err)?;
    let bars = (0..r.buckets.len()).flat_map(|b| {
        let t = &r.buckets[b].tiers[k];
        let (x0, x1) = span(r, b);
        let o = f64::from(t.breakers_open);
        let h = f64::from(t.breakers_half_open);
        [
            Rectangle::new([(x0, 0.0), (x1, o)], OPEN.mix(0.8).filled()),
            Rectangle::new([(x0, o), (x1, o + h)], HALF.mix(0.8).filled()),
        ]
    });
    chart.draw_series(bars).map_err(err)?;
    Ok(())
}

fn tier_color(k: usize) -> RGBColor {
    let (r, g, b) = PALETTE[k % PALETTE.len()];
    RGBColor(r, g, b)
}

/// A panel over the run's time axis with the shared look: caption, grid, seconds on x.
fn time_panel<'a>(
    area: &'a Area,
    caption: &str,
    (duration, y_max): (f64, f64),
    y_labels: usize,
    dpr: f64,
) -> Result<ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let mut chart = ChartBuilder::on(area)
        .margin_left(s(10.0))
        .margin_right(s(10.0))
        .margin_top(s(4.0))
        .caption(caption, font(13.0, dpr))
        .x_label_area_size(s(22.0))
        .y_label_area_size(s(64.0))
        .build_cartesian_2d(0.0..duration, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(220, 220, 220))
        .axis_style(RGBColor(120, 120, 120))
        .x_labels(12)
        .y_labels(y_labels)
        .x_label_formatter(&|v| format!("{}s", v.round() as i64))
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(11.0, dpr))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

fn queue_panel(area: &Area, r: &RunResult, dpr: f64) -> Result<(), String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let y_max = r
        .buckets
        .iter()
        .flat_map(|b| b.tiers.iter().map(|t| t.queue_depth.max(t.in_flight)))
        .max()
        .unwrap_or(0) as f64;
    let y_max = (y_max * 1.12).max(1.0);
    let mut chart = time_panel(
        area,
        "queue depth (solid) and requests in flight (thin) per tier, end of bucket",
        (duration, y_max),
        4,
        dpr,
    )?;
    for (k, t) in r.tiers.iter().enumerate() {
        let c = tier_color(k);
        let q = ShapeStyle::from(&c).stroke_width(s(2.0));
        let f = ShapeStyle::from(&c.mix(0.6)).stroke_width(s(1.0));
        chart
            .draw_series(LineSeries::new(
                step_line(r, |b| r.buckets[b].tiers[k].queue_depth as f64),
                q,
            ))
            .map_err(err)?
            .label(t.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(14.0) as i32, y)], q));
        chart
            .draw_series(LineSeries::new(
                step_line(r, |b| r.buckets[b].tiers[k].in_flight as f64),
                f,
            ))
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font(font(11.0, dpr))
        .margin(s(6.0))
        .draw()
        .map_err(err)?;
    Ok(())
}

fn latency_panel(
    area: &Area,
    r: &RunResult,
    a: Option<&RunResult>,
    dpr: f64,
) -> Result<(), String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let p99_max = |r: &RunResult| {
        r.buckets
            .iter()
            .map(|b| b.latency_ms.p99)
            .fold(0.0, f64::max)
    };
    let y_max = (a.map(p99_max).unwrap_or(0.0).max(p99_max(r)) * 1.12).max(1.0);
    let mut chart = time_panel(
        area,
        "entry requests: end-to-end latency of the successes in each bucket, ms",
        (duration, y_max),
        4,
        dpr,
    )?;
    let run = &r.summary.latency_ms;
    let p99 = ShapeStyle::from(&RGBColor(204, 121, 167)).stroke_width(s(2.0));
    let p50 = ShapeStyle::from(&FIRST).stroke_width(s(2.0));
    chart
        .draw_series(LineSeries::new(
            step_line(r, |b| r.buckets[b].latency_ms.p99),
            p99,
        ))
        .map_err(err)?
        .label(format!("p99 (run {:.1} ms)", run.p99))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(14.0) as i32, y)], p99));
    chart
        .draw_series(LineSeries::new(
            step_line(r, |b| r.buckets[b].latency_ms.p50),
            p50,
        ))
        .map_err(err)?
        .label(format!("p50 (run {:.1} ms)", run.p50))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(14.0) as i32, y)], p50));
    if let Some(a) = a {
        let st = ShapeStyle::from(&RGBColor(20, 20, 20)).stroke_width(s(1.6));
        chart
            .draw_series(LineSeries::new(
                step_line(a, |b| a.buckets[b].latency_ms.p99),
                st,
            ))
            .map_err(err)?
            .label("A (pinned): p99")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(14.0) as i32, y)], st));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font(font(11.0, dpr))
        .margin(s(6.0))
        .draw()
        .map_err(err)?;
    Ok(())
}
