//! The classic model's recovery-window chart: attempts per second for every strategy
//! against the upstream's capacity, with the outage window shaded; or, switched to cost,
//! the cost per second of every strategy with a cost model.
//!
//! Each second is a bucket, so every series is drawn as a step line over `[s, s+1)`;
//! that way the shaded outage `[from_s, to_s)` lines up exactly with the buckets it
//! covers.

use crate::chart::{
    self, area, box_key, color, css_color, draw_error, font, line_key, ChartHandle, ChartOptions,
    Readout, ReadoutRow,
};
use crate::chart_text::Text;
use plotters::prelude::*;
use retrystorm::classic::{Output, StrategyResult};
use retrystorm::ensemble::{render::median_range, Ensemble};
use retrystorm::javafmt::fixed;
use retrystorm::lang::Lang;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;

/// Draws `out` on `canvas` and returns the handle for the hover readout; with `bands`
/// (an ensemble of the same scenario), every strategy's attempts are its median line
/// over its p5–p95 band instead of the single run's line (cost stays the single run's).
pub fn draw(
    canvas: &HtmlCanvasElement,
    out: &Rc<Output>,
    opts: &ChartOptions,
    bands: Option<Rc<Ensemble>>,
) -> Result<ChartHandle, String> {
    let dpr = opts.ratio();
    let css = (
        f64::from(canvas.client_width().max(200)),
        f64::from(canvas.client_height().max(150)),
    );
    let root = area(canvas, css, dpr, opts.theme())?;
    let hidden = &opts.hidden;
    let shown = |i: usize| !hidden.contains(&(i as u32));
    let s = |v: f64| (v * dpr).round() as u32;
    let sc = &out.scenario;
    let duration = f64::from(sc.duration_s.max(1));
    let cost = opts.cost;
    let lang = opts.lang();
    // Attempts are judged against capacity; cost has no capacity line.
    let capacity = if cost { 0.0 } else { f64::from(sc.capacity) };
    let bands = bands.filter(|e| !cost && e.bands.len() == out.results.len());
    let band_peak = bands.as_ref().map_or(0.0, |e| {
        e.bands
            .iter()
            .enumerate()
            .filter(|(i, _)| shown(*i))
            .flat_map(|(_, b)| b.p95.iter().copied())
            .fold(0.0, f64::max)
    });
    let peak = out
        .results
        .iter()
        .enumerate()
        .filter(|(i, _)| shown(*i))
        .filter_map(|(_, r)| series(r, cost))
        .flat_map(|v| v.into_iter())
        .fold(band_peak, f64::max);
    let y_max = (peak.max(capacity) * 1.12).max(if cost { 1e-6 } else { 1.0 });

    let mut chart = ChartBuilder::on(&root)
        .margin(s(10.0))
        .x_label_area_size(s(34.0))
        .y_label_area_size(s(56.0))
        .build_cartesian_2d(0.0..duration, 0.0..y_max)
        .map_err(draw_error)?;
    chart::time_mesh(&mut chart, (12, 8))
        // One light line between labelled ones: a denser grid costs a canvas stroke per
        // line on every redraw and adds nothing a reader uses.
        .max_light_lines(1)
        .x_desc(Text::Second.get(lang))
        .y_desc(if cost {
            Text::CostPerSecond.get(lang)
        } else {
            Text::AttemptsPerSecond.get(lang)
        })
        .x_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(12.0, dpr))
        .axis_desc_style(font(12.0, dpr))
        .draw()
        .map_err(draw_error)?;

    // Overload zone above capacity, then the outage window: background first.
    if !cost && y_max > capacity {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, capacity), (duration, y_max)],
                RGBColor(255, 140, 0).mix(0.06).filled(),
            )))
            .map_err(draw_error)?;
    }
    let (from, to) = (
        f64::from(sc.outage.from_s),
        f64::from(sc.outage.to_s).min(duration),
    );
    if to > from {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(from, 0.0), (to, y_max)],
                RGBColor(220, 50, 47).mix(0.14).filled(),
            )))
            .map_err(draw_error)?
            .label(Text::Outage.fill(lang, &[&sc.outage.from_s, &sc.outage.to_s]))
            .legend(box_key(RGBColor(220, 50, 47).mix(0.3).filled(), 16.0, dpr));
    }
    if !cost {
        chart::capacity_line(
            &mut chart,
            (duration, capacity),
            Text::Capacity.fill(lang, &[&sc.capacity]),
            16.0,
            dpr,
        )?;
    }

    for (i, r) in out.results.iter().enumerate().filter(|(i, _)| shown(*i)) {
        let Some(values) = series(r, cost) else {
            continue;
        };
        let style = ShapeStyle::from(&color(i)).stroke_width(s(2.0));
        if let Some(b) = bands.as_ref().map(|e| &e.bands[i]) {
            let spans = (0..b.median.len()).map(|sec| (sec as f64, sec as f64 + 1.0));
            let values = (0..b.median.len()).map(|x| (b.p5[x], b.median[x], b.p95[x]));
            chart::band(
                &mut chart,
                &chart::step_band(spans, values),
                color(i),
                2.0,
                dpr,
            )?
            .label(r.name.clone())
            .legend(line_key(style, 16.0, dpr));
            continue;
        }
        let steps = values.into_iter().enumerate().flat_map(|(sec, y)| {
            let x = sec as f64;
            [(x, y), (x + 1.0, y)]
        });
        chart
            .draw_series(LineSeries::new(steps, style))
            .map_err(draw_error)?
            .label(r.name.clone())
            .legend(line_key(style, 16.0, dpr));
    }
    chart::legend(&mut chart, 12.0, 8.0, dpr)?;
    root.present().map_err(draw_error)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let out = Rc::clone(out);
    let hidden = hidden.clone();
    // The middle of every second drawn, for the keyboard's positions.
    let duration = f64::from(out.scenario.duration_s.max(1));
    let seconds = out.results.first().map_or(0, |r| r.per_sec.len());
    let centres = (0..seconds).map(|s| (s as f64 + 0.5) / duration).collect();
    let at = move |f: f64| match &bands {
        Some(e) => band_readout(&out, e, &hidden, lang, f),
        None => readout(&out, &hidden, cost, lang, f),
    };
    Ok(ChartHandle::new(
        dpr,
        (xr.start, xr.end),
        (yr.start, yr.end),
        centres,
        Box::new(at),
    ))
}

/// A strategy's line: attempts per second, or its cost per second (`None` without a
/// cost model).
fn series(r: &StrategyResult, cost: bool) -> Option<Vec<f64>> {
    if cost {
        r.cost.as_ref().map(|c| c.per_sec.clone())
    } else {
        Some(r.per_sec.iter().map(|&v| f64::from(v)).collect())
    }
}

/// The readout at `f` (0..=1 of the time axis): the second and every shown strategy's
/// attempts in it, marked when over capacity (or its cost in it, to 4 decimals); titled
/// in `lang`.
fn readout(out: &Output, hidden: &[u32], cost: bool, lang: Lang, f: f64) -> Option<Readout> {
    let len = out.results.first().map_or(0, |r| r.per_sec.len());
    if len == 0 {
        return None;
    }
    let duration = f64::from(out.scenario.duration_s.max(1));
    let second = ((f * duration).floor() as usize).min(len - 1);
    let capacity = out.scenario.capacity;
    let rows = out
        .results
        .iter()
        .enumerate()
        .filter(|(i, _)| !hidden.contains(&(*i as u32)))
        .filter_map(|(i, r)| {
            let value = if cost {
                fixed(*r.cost.as_ref()?.per_sec.get(second)?, 4)
            } else {
                r.per_sec[second].to_string()
            };
            Some(ReadoutRow {
                label: r.name.clone(),
                value,
                color: css_color(i),
                alarm: !cost && r.per_sec[second] > capacity,
            })
        })
        .collect();
    Some(Readout {
        bucket: second,
        title: if cost {
            Text::SecondCost.fill(lang, &[&second])
        } else {
            Text::SecondCapacity.fill(lang, &[&second, &capacity])
        },
        rows,
    })
}

/// The readout at `f` of a banded chart: every shown strategy's median attempts in the
/// second with its p5–p95 range, marked when the median is over capacity.
fn band_readout(out: &Output, e: &Ensemble, hidden: &[u32], lang: Lang, f: f64) -> Option<Readout> {
    let len = e.bands.first().map_or(0, |b| b.median.len());
    if len == 0 {
        return None;
    }
    let duration = f64::from(out.scenario.duration_s.max(1));
    let second = ((f * duration).floor() as usize).min(len - 1);
    let capacity = f64::from(out.scenario.capacity);
    let rows = e
        .bands
        .iter()
        .enumerate()
        .filter(|(i, _)| !hidden.contains(&(*i as u32)))
        .map(|(i, b)| ReadoutRow {
            label: b.name.clone(),
            value: median_range(b.median[second], b.p5[second], b.p95[second]),
            color: css_color(i),
            alarm: b.median[second] > capacity,
        })
        .collect();
    Some(Readout {
        bucket: second,
        title: Text::BandSecondCapacity.fill(lang, &[&second, &capacity, &e.seeds.len()]),
        rows,
    })
}
