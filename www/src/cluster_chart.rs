//! The cluster charts, drawn with plotters-canvas in the classic chart's look, as panels
//! sharing one time axis on one canvas:
//! - per tier, attempts per second split into first attempts and retries (stacked bars
//!   per bucket) against the tier's service capacity, fault windows shaded, and the
//!   pinned run A's attempts as a line when comparing (each run at its own bucket
//!   width, on B's time axis);
//! - under every tier that has a breaker, a band of its instances with the breaker open
//!   and half-open;
//! - queue depth and requests in flight per tier;
//! - the entry requests' end-to-end latency per bucket (p50 and p99 of the successes
//!   completed in it).
//!
//! The [`ChartHandle`] it returns maps a mouse position back to a bucket (and to A's
//! bucket at the same time) and gives every panel's values there, formatted here.

use crate::chart::{
    self, area, box_key, color, css_color, draw_error, font, line_key, ChartHandle, ChartOptions,
    Readout, ReadoutRow, TimeChart,
};
use crate::cluster::Run;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use retrystorm::cluster::{present, Breaker, RunResult, Scenario};
use retrystorm::ensemble::{render::num, Band, Ensemble};
use std::rc::Rc;
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

/// How tier `k` is called when a route calls it: ` (route gateway → fast, 80% of the
/// calls)`, so a tree's panels read as its per-route breakdown (a route's attempts are
/// its callee tier's); empty for a tier called through a chain's client.
fn route_into(s: &Scenario, k: usize) -> String {
    s.tiers
        .iter()
        .find_map(|caller| {
            let sum: f64 = caller.routes.iter().map(|r| r.weight).sum();
            let route = caller.routes.iter().find(|r| r.to as usize == k)?;
            Some(format!(
                " (route {} → {}, {:.0}% of the calls)",
                caller.name,
                s.tiers[k].name,
                100.0 * route.weight / sum
            ))
        })
        .unwrap_or_default()
}

/// The CSS height the chart of `s` needs, pixels.
pub fn height(s: &Scenario) -> f64 {
    let bands = (0..s.tiers.len()).filter(|&k| has_breaker(s, k)).count();
    s.tiers.len() as f64 * TIER_H + bands as f64 * BAND_H + 2.0 * OTHER_H + 8.0
}

/// Tier `k`'s attempts per second in bucket `b` of `r`, at `r`'s own bucket width (a
/// pinned run A may have another width than B: its rates are its own).
fn attempts_per_s(r: &RunResult, b: usize, k: usize) -> f64 {
    r.buckets
        .get(b)
        .and_then(|x| x.tiers.get(k))
        .map_or(0.0, |t| t.attempts() as f64 * 1000.0 / r.bucket_ms as f64)
}

/// The bucket of `r` holding time `t_ms`, if the run reached it.
fn bucket_at(r: &RunResult, t_ms: f64) -> Option<usize> {
    let b = (t_ms / r.bucket_ms as f64).floor();
    (b >= 0.0 && (b as usize) < r.buckets.len()).then_some(b as usize)
}

/// The readout at `f` (0..=1 of the time axis) of `run`, with the pinned run `a`; with
/// `bands`, each tier's attempts are its median and p5–p95 range over the seeds.
fn readout(run: &Run, a: Option<&Run>, bands: Option<&Ensemble>, f: f64) -> Option<Readout> {
    let (sc, r) = (&run.scenario, &run.result);
    let t_ms = f * r.duration_ms as f64;
    let b = bucket_at(r, t_ms).or_else(|| r.buckets.len().checked_sub(1))?;
    // A's values are read at the same time, in A's own bucket.
    let a_b = a.and_then(|a| bucket_at(&a.result, t_ms).map(|ab| (&a.result, ab)));
    let bucket = &r.buckets[b];
    let per_s = 1000.0 / r.bucket_ms as f64;
    let start = bucket.start_ms as f64 / 1000.0;
    let mut rows = Vec::new();
    for (k, t) in bucket.tiers.iter().enumerate() {
        let name = r.tiers.get(k).map_or("?", |x| x.name.as_str());
        let color = css_color(k);
        let total = attempts_per_s(r, b, k);
        let cap = sc.tiers.get(k).and_then(present::capacity_per_s);
        let mut value = format!(
            "{:.0} first + {:.0} retries = {total:.0}/s",
            t.first_attempts as f64 * per_s,
            t.retries as f64 * per_s,
        );
        if let Some(c) = cap {
            value.push_str(&format!(" (capacity {c:.0})"));
        }
        if let Some((ar, ab)) = a_b.filter(|(ar, _)| ar.tiers.len() > k) {
            value.push_str(&format!(" · A {:.0}/s", attempts_per_s(ar, ab, k)));
        }
        if let Some(band) = bands.and_then(|e| e.bands.get(k)) {
            value = band_value(band, b, cap);
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
        if has_breaker(sc, k) {
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
    let lat = &bucket.latency_ms;
    let mut value = format!("{:.1} / {:.1} ms", lat.p50, lat.p99);
    if let Some((ar, ab)) = a_b {
        value.push_str(&format!(" · A p99 {:.1} ms", ar.buckets[ab].latency_ms.p99));
    }
    rows.push(ReadoutRow {
        label: "entry latency p50 / p99".into(),
        value,
        color: "rgb(40,40,40)".into(),
        alarm: false,
    });
    let mut title = format!(
        "t = {start:.1}–{:.1} s",
        start + r.bucket_ms as f64 / 1000.0
    );
    if let Some(e) = bands {
        title.push_str(&band_title(e, r.seed));
    }
    Some(Readout {
        bucket: b,
        title,
        rows,
    })
}

/// A tier's attempts in bucket `b` of a banded chart: median and p5–p95 range per second.
fn band_value(band: &Band, b: usize, cap: Option<f64>) -> String {
    let Some(&mid) = band.median.get(b) else {
        return "—".into();
    };
    let mut value = format!(
        "median {} [{}–{}]/s",
        num(mid),
        num(band.p5[b]),
        num(band.p95[b])
    );
    if let Some(c) = cap {
        value.push_str(&format!(" (capacity {c:.0})"));
    }
    value
}

/// What a banded readout's title adds: the attempts are over the seeds, the other rows
/// the single run's.
fn band_title(e: &Ensemble, seed: i64) -> String {
    format!(
        " · attempts: median [p5–p95] of {} seeds; the rest: seed {seed}",
        e.seeds.len()
    )
}

/// Draws the charts of `run` on `canvas`, with the pinned run `a` (A of an A/B
/// comparison) as a line over B's bars; with `bands` (an ensemble of the same
/// scenario), each tier's attempts are its median line over its p5–p95 band instead of
/// the run's bars. Returns the handle for the hover readout.
pub fn draw(
    canvas: &HtmlCanvasElement,
    run: &Rc<Run>,
    a: Option<Rc<Run>>,
    opts: &ChartOptions,
    bands: Option<Rc<Ensemble>>,
) -> Result<ChartHandle, String> {
    let dpr = opts.ratio();
    let css = (
        f64::from(canvas.client_width().max(300)),
        height(&run.scenario),
    );
    let root = area(canvas, css, dpr, opts.theme())?;
    let (sc, r) = (&run.scenario, &run.result);
    let a_result = a.as_ref().map(|a| &a.result);
    let px = |v: f64| (v * dpr).round() as i32;
    let mut rest = root;
    let mut x_px = (0, 0);
    for k in 0..sc.tiers.len() {
        let (top, below) = rest.split_vertically(px(TIER_H));
        let band = bands
            .as_ref()
            .and_then(|e| Some((e.bands.get(k)?, e.seeds.len())));
        x_px = tier_panel(&top, sc, r, a_result, band, k, dpr)?;
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
    latency_panel(&lat, r, a_result, dpr)?;
    rest.present().map_err(draw_error)?;
    // The middle of every bucket (the last one may end early, with the run), for the
    // keyboard's positions.
    let duration = r.duration_ms.max(1) as f64;
    let centres = (0..r.buckets.len())
        .map(|b| {
            let (s, e) = span(r, b);
            (s + e) / 2.0 * 1000.0 / duration
        })
        .collect();
    let run = Rc::clone(run);
    let at = move |f: f64| readout(&run, a.as_deref(), bands.as_deref(), f);
    // Every panel shares the time axis: the readout answers at any height.
    Ok(ChartHandle::new(
        dpr,
        x_px,
        (0, i32::MAX),
        centres,
        Box::new(at),
    ))
}

type Area = DrawingArea<CanvasBackend, Shift>;

/// Bucket width, start and end in seconds of bucket `b`.
fn span(r: &RunResult, b: usize) -> (f64, f64) {
    let x0 = r.buckets[b].start_ms as f64 / 1000.0;
    let x1 = ((r.buckets[b].start_ms + r.bucket_ms).min(r.duration_ms)) as f64 / 1000.0;
    (x0, x1)
}

/// The points of a step line up to `duration` s (a pinned run may be longer than B's axis).
fn clip(points: Vec<(f64, f64)>, duration: f64) -> Vec<(f64, f64)> {
    points.into_iter().filter(|(x, _)| *x <= duration).collect()
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

fn tier_panel(
    area: &Area,
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    band: Option<(&Band, usize)>,
    k: usize,
    dpr: f64,
) -> Result<(i32, i32), String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let per_s = 1000.0 / r.bucket_ms as f64;
    let peak_of = |res: &RunResult| {
        (0..res.buckets.len())
            .map(|b| attempts_per_s(res, b, k))
            .fold(0.0, f64::max)
    };
    let band_peak = band.map_or(0.0, |(b, _)| b.p95.iter().copied().fold(0.0, f64::max));
    let peak = a.map_or(0.0, peak_of).max(peak_of(r)).max(band_peak);
    // The capacity line is drawn when it is within reach of the data.
    let cap = present::capacity_per_s(&sc.tiers[k]).filter(|&c| c <= peak.max(1.0) * 3.0);
    let y_max = (peak.max(cap.unwrap_or(0.0)) * 1.12).max(1.0);
    let name = &sc.tiers[k].name;
    let mut chart = time_panel(
        area,
        &format!(
            "{name}{}: attempts per second (first attempts + retries)",
            route_into(sc, k)
        ),
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
            .map_err(draw_error)?;
    }
    if k == 0 {
        for g in &sc.load.schedule {
            let (x0, x1) = (g.start_ms as f64 / 1000.0, g.end_ms as f64 / 1000.0);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x1.min(duration), y_max)],
                    RGBColor(230, 159, 0).mix(0.12).filled(),
                )))
                .map_err(draw_error)?;
        }
    }
    if let Some((b, seeds)) = band {
        band_series(&mut chart, r, b, seeds, color(k), dpr)?;
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
    let legend_box = |c: RGBColor| box_key(c.filled(), 14.0, dpr);
    if band.is_none() {
        chart
            .draw_series(bars)
            .map_err(draw_error)?
            .label("first attempts")
            .legend(legend_box(FIRST));
        // An invisible series just for the legend entry of retries.
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(draw_error)?
            .label("retries")
            .legend(legend_box(RETRY));
    }
    if let Some(c) = cap {
        chart::capacity_line(
            &mut chart,
            (duration, c),
            format!("capacity {c:.0}/s"),
            14.0,
            dpr,
        )?;
    }
    if sc.faults.iter().any(|f| f.tier as usize == k) {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(draw_error)?
            .label("fault")
            .legend(legend_box(RGBColor(240, 160, 160)));
    }
    if let Some(a) = a.filter(|a| a.tiers.len() > k) {
        let style = ShapeStyle::from(&chart::theme().ink).stroke_width(s(1.6));
        chart
            .draw_series(LineSeries::new(
                clip(step_line(a, |b| attempts_per_s(a, b, k)), duration),
                style,
            ))
            .map_err(draw_error)?
            .label("A (pinned): attempts")
            .legend(line_key(style, 14.0, dpr));
    }
    chart::legend(&mut chart, 11.0, 6.0, dpr)?;
    let (xr, _) = chart.plotting_area().get_pixel_range();
    Ok((xr.start, xr.end))
}

/// A tier's attempts per second over the seeds: its median line over its p5–p95 band,
/// each bucket over the run's span of that bucket.
fn band_series(
    chart: &mut TimeChart<'_>,
    r: &RunResult,
    b: &Band,
    seeds: usize,
    colour: RGBColor,
    dpr: f64,
) -> Result<(), String> {
    let n = b.median.len().min(r.buckets.len());
    let spans = (0..n).map(|x| span(r, x));
    let values = (0..n).map(|x| (b.p5[x], b.median[x], b.p95[x]));
    let style = ShapeStyle::from(&colour).stroke_width((2.0 * dpr).round() as u32);
    chart::band(chart, &chart::step_band(spans, values), colour, 2.0, dpr)?
        .label(format!("attempts: median, p5–p95 of {seeds} seeds"))
        .legend(line_key(style, 14.0, dpr));
    Ok(())
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
        .caption(label, font(11.0, dpr).color(&chart::theme().muted))
        .x_label_area_size(0)
        .y_label_area_size(s(64.0))
        .build_cartesian_2d(0.0..duration, 0.0..n)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(2)
        .axis_style(chart::theme().axis)
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(10.0, dpr))
        .draw()
        .map_err(draw_error)?;
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
    chart.draw_series(bars).map_err(draw_error)?;
    Ok(())
}

/// A panel over the run's time axis with the shared look: caption, grid, seconds on x.
fn time_panel<'a>(
    area: &'a Area,
    caption: &str,
    (duration, y_max): (f64, f64),
    y_labels: usize,
    dpr: f64,
) -> Result<TimeChart<'a>, String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let mut chart = ChartBuilder::on(area)
        .margin_left(s(10.0))
        .margin_right(s(10.0))
        .margin_top(s(4.0))
        .caption(caption, font(13.0, dpr))
        .x_label_area_size(s(22.0))
        .y_label_area_size(s(64.0))
        .build_cartesian_2d(0.0..duration, 0.0..y_max)
        .map_err(draw_error)?;
    chart::time_mesh(&mut chart, (12, y_labels))
        .x_label_formatter(&|v| format!("{}s", v.round() as i64))
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(11.0, dpr))
        .draw()
        .map_err(draw_error)?;
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
        let c = color(k);
        let q = ShapeStyle::from(&c).stroke_width(s(2.0));
        let f = ShapeStyle::from(&c.mix(0.6)).stroke_width(s(1.0));
        chart
            .draw_series(LineSeries::new(
                step_line(r, |b| r.buckets[b].tiers[k].queue_depth as f64),
                q,
            ))
            .map_err(draw_error)?
            .label(t.name.clone())
            .legend(line_key(q, 14.0, dpr));
        chart
            .draw_series(LineSeries::new(
                step_line(r, |b| r.buckets[b].tiers[k].in_flight as f64),
                f,
            ))
            .map_err(draw_error)?;
    }
    chart::legend(&mut chart, 11.0, 6.0, dpr)?;
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
        .map_err(draw_error)?
        .label(format!("p99 (run {:.1} ms)", run.p99))
        .legend(line_key(p99, 14.0, dpr));
    chart
        .draw_series(LineSeries::new(
            step_line(r, |b| r.buckets[b].latency_ms.p50),
            p50,
        ))
        .map_err(draw_error)?
        .label(format!("p50 (run {:.1} ms)", run.p50))
        .legend(line_key(p50, 14.0, dpr));
    if let Some(a) = a {
        let st = ShapeStyle::from(&chart::theme().ink).stroke_width(s(1.6));
        chart
            .draw_series(LineSeries::new(
                clip(step_line(a, |b| a.buckets[b].latency_ms.p99), duration),
                st,
            ))
            .map_err(draw_error)?
            .label("A (pinned): p99")
            .legend(line_key(st, 14.0, dpr));
    }
    chart::legend(&mut chart, 11.0, 6.0, dpr)?;
    Ok(())
}
