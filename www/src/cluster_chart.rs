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
//!   completed in it; a gap, and "no successes" in the readout, where none did).
//!
//! The [`ChartHandle`] it returns maps a mouse position back to a bucket (and to A's
//! bucket at the same time) and gives every panel's values there, formatted here.

use crate::chart::{
    self, box_key, color, css_color, draw_error, font, line_key, ChartHandle, ChartOptions,
    Readout, ReadoutRow, TimeChart,
};
use crate::chart_text::Text;
use crate::legend;
use plotters::coord::Shift;
use plotters::prelude::*;
use retrystorm::cluster::{present, Breaker, Bucket, Percentiles, RunResult, Scenario};
use retrystorm::ensemble::{render::median_range, Band, Ensemble};
use retrystorm::javafmt::fixed;
use retrystorm::lang::Lang;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;

/// What the chart draws: a scenario and the result of running it. The glue's run object
/// implements it, so the chart never depends on the glue.
pub trait Shown {
    /// The scenario as run, with the seed used.
    fn scenario(&self) -> &Scenario;
    /// What the run measured.
    fn result(&self) -> &RunResult;
}

/// Height of a tier's attempts panel, CSS pixels.
const TIER_H: f64 = 170.0;
/// Height of a breaker band, CSS pixels.
const BAND_H: f64 = 58.0;
/// Height of each further route's strip in a band of route breakers, CSS pixels.
const STRIP_H: f64 = 30.0;
/// Height of the queue and latency panels, CSS pixels.
const OTHER_H: f64 = 150.0;

const FIRST: RGBColor = RGBColor(0, 114, 178);
const RETRY: RGBColor = RGBColor(213, 94, 0);
const FAULT: RGBColor = RGBColor(220, 50, 47);
const OPEN: RGBColor = RGBColor(200, 30, 30);
const HALF: RGBColor = RGBColor(230, 159, 0);

fn has_breaker(s: &Scenario, k: usize) -> bool {
    let t = &s.tiers[k];
    t.client
        .iter()
        .chain(t.routes.iter().map(|r| &r.client))
        .any(|c| c.breaker != Breaker::None)
}

/// How many routes of tier `k` have a breaker of their own (its band then shows one
/// strip per route); 0 for a chain's tier or routes sharing one breaker.
fn own_route_breakers(s: &Scenario, k: usize) -> usize {
    let t = &s.tiers[k];
    let with = t
        .routes
        .iter()
        .filter(|r| r.client.breaker != Breaker::None)
        .count();
    if t.route_sharing.breaker || with < 2 {
        0
    } else {
        t.routes.len()
    }
}

/// The height of tier `k`'s breaker band, CSS pixels.
fn band_h(s: &Scenario, k: usize) -> f64 {
    BAND_H + own_route_breakers(s, k).saturating_sub(1) as f64 * STRIP_H
}

/// How tier `k` is called when a route calls it: ` (route gateway → fast, 80% of the
/// calls)`, so a tree's panels read as its per-route breakdown (a route's attempts are
/// its callee tier's); empty for a tier called through a chain's client.
fn route_into(s: &Scenario, k: usize, lang: Lang) -> String {
    s.tiers
        .iter()
        .find_map(|caller| {
            let sum: f64 = caller.routes.iter().map(|r| r.weight).sum();
            let route = caller.routes.iter().find(|r| r.to as usize == k)?;
            Some(Text::RouteInto.fill(
                lang,
                &[
                    &caller.name,
                    &s.tiers[k].name,
                    &format!("{:.0}", 100.0 * route.weight / sum),
                ],
            ))
        })
        .unwrap_or_default()
}

/// The cost per bucket of the route into tier `k` (every tier but the first has one
/// caller), when that route's client has a cost model.
fn route_cost(r: &RunResult, k: usize) -> Option<&[f64]> {
    r.routes
        .iter()
        .find(|x| x.to as usize == k)
        .and_then(|x| x.cost.as_ref())
        .map(|c| c.per_sec.as_slice())
}

/// Whether some route's client has a cost model (the cost/s switch is offered then).
pub fn has_cost(r: &RunResult) -> bool {
    r.routes.iter().any(|x| x.cost.is_some())
}

/// The cost per second of the route into tier `k` in bucket `b` of `r` (its bucket's
/// cost over the bucket's width), 0 without a cost model.
fn cost_per_s(r: &RunResult, b: usize, k: usize) -> f64 {
    route_cost(r, k)
        .and_then(|c| c.get(b))
        .map_or(0.0, |c| c * 1000.0 / r.bucket_ms as f64)
}

/// The CSS height the chart of `s` needs, pixels.
pub fn height(s: &Scenario) -> f64 {
    let bands: f64 = (0..s.tiers.len())
        .filter(|&k| has_breaker(s, k))
        .map(|k| band_h(s, k))
        .sum();
    s.tiers.len() as f64 * TIER_H + bands + 2.0 * OTHER_H + 8.0
}

/// A panel caption's font, CSS pixels: the tiers', queue's and latency's, and the
/// breaker bands' (quieter).
const CAPTION_PX: (f64, f64) = (13.0, 11.0);

/// The height of a caption's line at `font_px`, CSS pixels.
fn caption_line(font_px: f64) -> f64 {
    (font_px * 1.3).ceil()
}

/// `text` cut into lines that fit a panel `css_w` CSS pixels wide (its side margins
/// kept) at `font_px`: between words, or between characters in a word wider than a line
/// (a Chinese caption has few spaces). One line when it fits: no caption is cut.
pub fn caption_lines(text: &str, css_w: f64, font_px: f64) -> Vec<String> {
    let room = (css_w - 24.0).max(40.0);
    let fits = |t: &str| legend::text_width(t.trim_end(), font_px) <= room;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_inclusive(' ') {
        if fits(&format!("{line}{word}")) {
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        for c in word.chars() {
            if !line.is_empty() && !fits(&format!("{line}{c}")) {
                lines.push(line.trim_end().to_string());
                line.clear();
            }
            line.push(c);
        }
    }
    if !line.trim().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// Every panel's caption as drawn on a canvas `css_w` CSS pixels wide, in drawing
/// order: each tier's (attempts or cost) with its breaker band's when it has one of
/// its own, then the queue's and the latency's.
pub struct Captions {
    /// Each tier's panel caption, in lines.
    pub tiers: Vec<Vec<String>>,
    /// Each tier's breaker band caption, in lines (none without a band, or for a band of
    /// route breakers, which labels each strip).
    pub bands: Vec<Option<Vec<String>>>,
    /// The queue panel's caption, in lines.
    pub queue: Vec<String>,
    /// The latency panel's caption, in lines.
    pub latency: Vec<String>,
}

/// The captions of `run`'s panels in `look`, wrapped to `css_w` CSS pixels.
pub fn captions<R: Shown>(run: &R, look: Look, css_w: f64) -> Captions {
    let (sc, r, lang) = (run.scenario(), run.result(), look.lang);
    let wrap = |t: &str, px: f64| caption_lines(t, css_w, px);
    let tiers = (0..sc.tiers.len())
        .map(|k| {
            let name = &sc.tiers[k].name;
            let text = if look.cost && route_cost(r, k).is_some() {
                Text::TierCostCaption.fill(lang, &[name, &route_into(sc, k, lang)])
            } else {
                Text::TierCaption.fill(lang, &[name, &route_into(sc, k, lang)])
            };
            wrap(&text, CAPTION_PX.0)
        })
        .collect();
    let bands = (0..sc.tiers.len())
        .map(|k| {
            let own = own_route_breakers(sc, k) > 1
                && r.buckets
                    .first()
                    .is_some_and(|b| !b.route_breakers.is_empty());
            (has_breaker(sc, k) && !own).then(|| {
                let t = &sc.tiers[k];
                wrap(
                    &Text::BreakerBand.fill(lang, &[&t.name, &t.instances]),
                    CAPTION_PX.1,
                )
            })
        })
        .collect();
    Captions {
        tiers,
        bands,
        queue: wrap(Text::QueueCaption.get(lang), CAPTION_PX.0),
        latency: wrap(Text::LatencyCaption.get(lang), CAPTION_PX.0),
    }
}

/// The height a caption's lines beyond the first add, CSS pixels.
fn extra(lines: &[String], font_px: f64) -> f64 {
    lines.len().saturating_sub(1) as f64 * caption_line(font_px)
}

/// The CSS height the chart of `run` needs on a canvas `css_w` CSS pixels wide: the
/// panels' heights, each taller by the caption lines it needs there.
pub fn height_at<R: Shown>(run: &R, look: Look, css_w: f64) -> f64 {
    let c = captions(run, look, css_w);
    let more: f64 = c.tiers.iter().map(|l| extra(l, CAPTION_PX.0)).sum::<f64>()
        + c.bands
            .iter()
            .flatten()
            .map(|l| extra(l, CAPTION_PX.1))
            .sum::<f64>()
        + extra(&c.queue, CAPTION_PX.0)
        + extra(&c.latency, CAPTION_PX.0);
    height(run.scenario()) + more
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

/// The readout at `f` (0..=1 of the time axis) of `run`, with the pinned run `a`, in
/// `lang`; with `cost`, every costed route's cost in the bucket too; with `bands`, each
/// tier's attempts are its median and p5–p95 range over the seeds.
pub fn readout<R: Shown>(
    run: &R,
    a: Option<&R>,
    bands: Option<&Ensemble>,
    cost: bool,
    lang: Lang,
    f: f64,
) -> Option<Readout> {
    let (sc, r) = (run.scenario(), run.result());
    let t_ms = f * r.duration_ms as f64;
    let b = bucket_at(r, t_ms).or_else(|| r.buckets.len().checked_sub(1))?;
    // A's values are read at the same time, in A's own bucket.
    let a_b = a.and_then(|a| bucket_at(a.result(), t_ms).map(|ab| (a.result(), ab)));
    let bucket = &r.buckets[b];
    let per_s = 1000.0 / r.bucket_ms as f64;
    let start = bucket.start_ms as f64 / 1000.0;
    let mut rows = Vec::new();
    for (k, t) in bucket.tiers.iter().enumerate() {
        let name = r.tiers.get(k).map_or("?", |x| x.name.as_str());
        let color = css_color(k);
        let total = attempts_per_s(r, b, k);
        let cap = sc.tiers.get(k).and_then(present::capacity_per_s);
        let mut value = Text::ReadAttemptsValue.fill(
            lang,
            &[
                &format!("{:.0}", t.first_attempts as f64 * per_s),
                &format!("{:.0}", t.retries as f64 * per_s),
                &format!("{total:.0}"),
            ],
        );
        if let Some(c) = cap {
            value.push_str(&Text::ReadCapacity.fill(lang, &[&format!("{c:.0}")]));
        }
        if let Some((ar, ab)) = a_b.filter(|(ar, _)| ar.tiers.len() > k) {
            value.push_str(&format!(" · A {:.0}/s", attempts_per_s(ar, ab, k)));
        }
        if let Some(band) = bands.and_then(|e| e.bands.get(k)) {
            value = band_value(band, b, cap, lang);
        }
        rows.push(ReadoutRow {
            label: Text::ReadAttempts.fill(lang, &[&name]),
            value,
            color: color.clone(),
            alarm: cap.is_some_and(|c| total > c),
        });
        if let Some(c) = route_cost(r, k).filter(|_| cost) {
            let route = r.routes.iter().find(|x| x.to as usize == k);
            let bucket_cost = c.get(b).copied().unwrap_or(0.0);
            rows.push(ReadoutRow {
                label: Text::ReadCost.fill(lang, &[&route.map_or(name, |x| x.name.as_str())]),
                value: Text::ReadCostValue.fill(
                    lang,
                    &[&fixed(bucket_cost, 4), &fixed(cost_per_s(r, b, k), 4)],
                ),
                color: color.clone(),
                alarm: false,
            });
        }
        rows.push(ReadoutRow {
            label: Text::ReadOutcomes.fill(lang, &[&name]),
            value: Text::ReadOutcomesValue.fill(
                lang,
                &[
                    &t.successes,
                    &t.timeouts,
                    &t.overloads,
                    &t.errors,
                    &t.breaker_rejected,
                    &t.budget_rejected,
                ],
            ),
            color: color.clone(),
            alarm: t.failures() > 0,
        });
        rows.push(ReadoutRow {
            label: Text::ReadQueue.fill(lang, &[&name]),
            value: format!("{} / {}", t.queue_depth, t.in_flight),
            color: color.clone(),
            alarm: false,
        });
        // Each route's breakers, when its routes have their own.
        for (i, x) in r
            .routes
            .iter()
            .enumerate()
            .filter(|(_, x)| x.from as usize == k)
        {
            let Some(g) = bucket.route_breakers.get(i) else {
                continue;
            };
            rows.push(ReadoutRow {
                label: Text::ReadRouteBreakers.fill(lang, &[&x.name]),
                value: Text::ReadBreakersValue.fill(lang, &[&g[0], &g[1], &g[2]]),
                color: color.clone(),
                alarm: g[0] > 0,
            });
        }
        if has_breaker(sc, k) {
            rows.push(ReadoutRow {
                label: Text::ReadBreakers.fill(lang, &[&name]),
                value: Text::ReadBreakersValue.fill(
                    lang,
                    &[&t.breakers_open, &t.breakers_half_open, &t.breakers_closed],
                ),
                color,
                alarm: t.breakers_open > 0,
            });
        }
    }
    // A bucket without a success has no latency: saying 0 ms would make a dead system
    // look fast.
    let lat = &bucket.latency_ms;
    let mut value = if succeeded(bucket) {
        format!("{:.1} / {:.1} ms", lat.p50, lat.p99)
    } else {
        Text::NoSuccesses.get(lang).to_string()
    };
    if let Some((ar, ab)) = a_b {
        let ab = &ar.buckets[ab];
        if succeeded(ab) {
            value.push_str(&format!(" · A p99 {:.1} ms", ab.latency_ms.p99));
        } else {
            value.push_str(&format!(" · A {}", Text::NoSuccesses.get(lang)));
        }
    }
    rows.push(ReadoutRow {
        label: Text::ReadLatency.get(lang).into(),
        value,
        color: "rgb(40,40,40)".into(),
        alarm: false,
    });
    let mut title = format!(
        "t = {start:.1}–{:.1} s",
        start + r.bucket_ms as f64 / 1000.0
    );
    if let Some(e) = bands {
        title.push_str(&Text::BandClusterTitle.fill(lang, &[&e.seeds.len(), &r.seed]));
    }
    Some(Readout {
        bucket: b,
        title,
        rows,
    })
}

/// A tier's attempts in bucket `b` of a banded chart: median and p5–p95 range per second.
fn band_value(band: &Band, b: usize, cap: Option<f64>, lang: Lang) -> String {
    let Some(&mid) = band.median.get(b) else {
        return "—".into();
    };
    let range = median_range(mid, band.p5[b], band.p95[b]);
    let mut value = Text::BandAttemptsValue.fill(lang, &[&range]);
    if let Some(c) = cap {
        value.push_str(&Text::ReadCapacity.fill(lang, &[&format!("{c:.0}")]));
    }
    value
}

/// Draws the charts of `run` on `canvas`, with the pinned run `a` (A of an A/B
/// comparison) as a line over B's bars; with `bands` (an ensemble of the same
/// scenario), each tier's attempts are its median line over its p5–p95 band instead of
/// the run's bars. Returns the handle for the hover readout.
pub fn draw<R: Shown + 'static>(
    canvas: &HtmlCanvasElement,
    run: &Rc<R>,
    a: Option<Rc<R>>,
    opts: &ChartOptions,
    bands: Option<Rc<Ensemble>>,
) -> Result<ChartHandle, String> {
    let dpr = opts.ratio();
    let lang = opts.lang();
    // Cost per second only where there is a cost to draw.
    let cost = opts.cost && has_cost(run.result());
    let look = Look { lang, cost, dpr };
    let width = f64::from(canvas.client_width().max(300));
    let css = (width, height_at(&**run, look, width));
    let root = chart::canvas_root(canvas, css, dpr)?;
    let x_px = draw_on(
        root,
        &**run,
        a.as_deref(),
        opts.theme(),
        look,
        bands.as_deref(),
    )?;
    let centres = centres(run.result());
    let run = Rc::clone(run);
    let at = move |f: f64| readout(&*run, a.as_deref(), bands.as_deref(), cost, lang, f);
    // Every panel shares the time axis: the readout answers at any height.
    // The cursor line crosses every panel: they all read out the same bucket.
    let bottom = (css.1 * dpr).round() as i32;
    Ok(ChartHandle::new(dpr, x_px, (0, i32::MAX), centres, Box::new(at)).with_cursor((0, bottom)))
}

/// Draws the panels of `run` (with the pinned run `a` and the ensemble `bands`, as
/// [`draw`] does) on `root`, on any plotters backend (the page's canvas, SVG in the
/// tests), painted in `theme` first and presented at the end; returns the time axis's
/// device-pixel span, which the readout maps the mouse through.
pub fn draw_on<DB: DrawingBackend, R: Shown>(
    root: DrawingArea<DB, Shift>,
    run: &R,
    a: Option<&R>,
    theme: chart::Theme,
    look: Look,
    bands: Option<&Ensemble>,
) -> Result<(i32, i32), String> {
    chart::paint(&root, theme)?;
    let (sc, r) = (run.scenario(), run.result());
    let a_result = a.map(|a| a.result());
    let dpr = look.dpr;
    let px = |v: f64| (v * dpr).round() as i32;
    // The captions wrapped to the canvas, so none is cut on a phone; each panel is as
    // much taller as its caption's further lines.
    let css_w = f64::from(root.dim_in_pixel().0) / dpr;
    let caps = captions(run, look, css_w);
    let mut rest = root;
    let mut x_px = (0, 0);
    for k in 0..sc.tiers.len() {
        let caption = &caps.tiers[k];
        let (top, below) = rest.split_vertically(px(TIER_H + extra(caption, CAPTION_PX.0)));
        let band = bands.and_then(|e| Some((e.bands.get(k)?, e.seeds.len())));
        x_px = tier_panel(&top, sc, r, a_result, band, (k, caption), look)?;
        rest = below;
        if has_breaker(sc, k) {
            let band_caption = caps.bands[k].as_deref();
            let more = band_caption.map_or(0.0, |l| extra(l, CAPTION_PX.1));
            let (band, below) = rest.split_vertically(px(band_h(sc, k) + more));
            match band_caption {
                Some(lines) => breaker_band(&band, r, sc.tiers[k].instances, k, lines, look)?,
                None => route_breaker_band(&band, sc, r, k, look)?,
            }
            rest = below;
        }
    }
    let (queue, below) = rest.split_vertically(px(OTHER_H + extra(&caps.queue, CAPTION_PX.0)));
    queue_panel(&queue, r, &caps.queue, look)?;
    let (lat, _) = below.split_vertically(px(OTHER_H + extra(&caps.latency, CAPTION_PX.0)));
    latency_panel(&lat, r, a_result, &caps.latency, look)?;
    rest.present().map_err(draw_error)?;
    Ok(x_px)
}

/// The middle of every bucket of `r` (the last one may end early, with the run), 0..=1
/// of the time axis: the keyboard's positions.
pub fn centres(r: &RunResult) -> Vec<f64> {
    let duration = r.duration_ms.max(1) as f64;
    (0..r.buckets.len())
        .map(|b| {
            let (s, e) = span(r, b);
            (s + e) / 2.0 * 1000.0 / duration
        })
        .collect()
}

/// A panel's drawing area, on any backend.
type Area<DB> = DrawingArea<DB, Shift>;

/// How every panel is drawn: the page's language, cost per second instead of attempts,
/// the device pixel ratio.
#[derive(Clone, Copy)]
pub struct Look {
    /// The language of every text drawn.
    pub lang: Lang,
    /// Cost per second instead of attempts (only where the result has a cost).
    pub cost: bool,
    /// Device pixels per CSS pixel: fonts and strokes are scaled by it.
    pub dpr: f64,
}

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

/// Whether some entry request succeeded in bucket `b` (its latency is measured then).
fn succeeded(b: &Bucket) -> bool {
    b.success_latency.count > 0
}

/// The step line of `f` over the buckets of `r` in which something succeeded, one
/// segment per run of such buckets: a gap where nothing succeeded (there is no latency
/// to draw there, and 0 ms would make a dead system look fast).
fn latency_steps(r: &RunResult, f: impl Fn(&Percentiles) -> f64) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut open = false;
    for (b, x) in r.buckets.iter().enumerate() {
        if !succeeded(x) {
            open = false;
            continue;
        }
        let (x0, x1) = span(r, b);
        let y = f(&x.latency_ms);
        match runs.last_mut() {
            Some(run) if open => run.extend([(x0, y), (x1, y)]),
            _ => runs.push(vec![(x0, y), (x1, y)]),
        }
        open = true;
    }
    runs
}

/// Draws the `segments` of a latency line in `style`, with one legend entry `label`.
fn latency_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut TimeChart<'a, DB>,
    segments: Vec<Vec<(f64, f64)>>,
    style: ShapeStyle,
    label: &str,
    dpr: f64,
) -> Result<(), String> {
    for points in segments {
        chart
            .draw_series(LineSeries::new(points, style))
            .map_err(draw_error)?;
    }
    // An empty series carries the legend entry, once however many segments there are.
    chart
        .draw_series(LineSeries::new(std::iter::empty(), style))
        .map_err(draw_error)?
        .label(label)
        .legend(line_key(style, 14.0, dpr));
    Ok(())
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

fn tier_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    band: Option<(&Band, usize)>,
    (k, caption): (usize, &[String]),
    look: Look,
) -> Result<(i32, i32), String> {
    if look.cost && route_cost(r, k).is_some() {
        return cost_panel(area, r, a, k, caption, look);
    }
    let (dpr, lang) = (look.dpr, look.lang);
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
    let mut chart = time_panel(area, caption, (duration, y_max), 5, dpr)?;
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
        band_series(&mut chart, r, b, seeds, color(k), dpr, lang)?;
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
            .label(Text::FirstAttempts.get(lang))
            .legend(legend_box(FIRST));
        // An invisible series just for the legend entry of retries.
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(draw_error)?
            .label(Text::Retries.get(lang))
            .legend(legend_box(RETRY));
    }
    if let Some(c) = cap {
        chart::capacity_line(
            &mut chart,
            (duration, c),
            Text::CapacityPerS.fill(lang, &[&format!("{c:.0}")]),
            14.0,
            dpr,
        )?;
    }
    if sc.faults.iter().any(|f| f.tier as usize == k) {
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(draw_error)?
            .label(Text::Fault.get(lang))
            .legend(legend_box(RGBColor(240, 160, 160)));
    }
    if let Some(a) = a.filter(|a| a.tiers.len() > k) {
        let line = clip(step_line(a, |b| attempts_per_s(a, b, k)), duration);
        pinned_line(&mut chart, line, Text::PinnedAttempts.get(lang), dpr)?;
    }
    chart::legend(&mut chart, 11.0, 6.0, dpr)?;
    let (xr, _) = chart.plotting_area().get_pixel_range();
    Ok((xr.start, xr.end))
}

/// A tier's attempts per second over the seeds: its median line over its p5–p95 band,
/// each bucket over the run's span of that bucket.
fn band_series<'a, DB: DrawingBackend + 'a>(
    chart: &mut TimeChart<'a, DB>,
    r: &RunResult,
    b: &Band,
    seeds: usize,
    colour: RGBColor,
    dpr: f64,
    lang: Lang,
) -> Result<(), String> {
    let n = b.median.len().min(r.buckets.len());
    let spans = (0..n).map(|x| span(r, x));
    let values = (0..n).map(|x| (b.p5[x], b.median[x], b.p95[x]));
    let style = ShapeStyle::from(&colour).stroke_width((2.0 * dpr).round() as u32);
    chart::band(chart, &chart::step_band(spans, values), colour, 2.0, dpr)?
        .label(Text::BandLegend.fill(lang, &[&seeds]))
        .legend(line_key(style, 14.0, dpr));
    Ok(())
}

/// Tier `k`'s band of breakers (its `instances`), under its caption's `lines`.
fn breaker_band<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    instances: u32,
    k: usize,
    lines: &[String],
    look: Look,
) -> Result<(), String> {
    breaker_strip(area, Some(lines), r, instances, look.dpr, |b| {
        let t = &r.buckets[b].tiers[k];
        [t.breakers_open, t.breakers_half_open]
    })
}

/// A strip of breaker gauges over the run's time axis, `caption` above it (and its value
/// axis labelled) if any: per bucket, `gauge(b)`'s `[open, half-open]` instances of
/// `instances`, stacked in red and amber.
fn breaker_strip<DB: DrawingBackend>(
    area: &Area<DB>,
    caption: Option<&[String]>,
    r: &RunResult,
    instances: u32,
    dpr: f64,
    gauge: impl Fn(usize) -> [u32; 2],
) -> Result<(), String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let n = f64::from(instances.max(1));
    let mut builder = ChartBuilder::on(area);
    builder
        .margin_left(s(10.0))
        .margin_right(s(10.0))
        .margin_bottom(s(4.0))
        .x_label_area_size(0)
        .y_label_area_size(s(64.0));
    let labelled = caption.is_some();
    let theme = chart::theme();
    if let Some(lines) = caption {
        let style = font(CAPTION_PX.1, dpr).color(&theme.muted);
        let top = draw_caption(area, lines, CAPTION_PX.1, style, dpr)?;
        builder.margin_top(s(top));
    }
    let mut chart = builder
        .build_cartesian_2d(0.0..duration, 0.0..n)
        .map_err(draw_error)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(if labelled { 2 } else { 0 })
        .axis_style(chart::theme().axis)
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(10.0, dpr))
        .draw()
        .map_err(draw_error)?;
    let bars = (0..r.buckets.len()).flat_map(|b| {
        let (x0, x1) = span(r, b);
        let [o, h] = gauge(b).map(f64::from);
        [
            Rectangle::new([(x0, 0.0), (x1, o)], OPEN.mix(0.8).filled()),
            Rectangle::new([(x0, o), (x1, o + h)], HALF.mix(0.8).filled()),
        ]
    });
    chart.draw_series(bars).map_err(draw_error)?;
    Ok(())
}

/// Draws a caption's `lines` centred at the top of `area` in `style`; returns the CSS
/// height they take, with the gap under them.
fn draw_caption<DB: DrawingBackend>(
    area: &Area<DB>,
    lines: &[String],
    font_px: f64,
    style: TextStyle,
    dpr: f64,
) -> Result<f64, String> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let px = |v: f64| (v * dpr).round() as i32;
    let centre = f64::from(area.dim_in_pixel().0) / dpr / 2.0;
    let style = style.pos(Pos::new(HPos::Center, VPos::Top));
    let line = caption_line(font_px);
    for (i, text) in lines.iter().enumerate() {
        area.draw(&plotters::element::Text::new(
            text.clone(),
            (px(centre), px(4.0 + i as f64 * line)),
            style.clone(),
        ))
        .map_err(draw_error)?;
    }
    Ok(4.0 + lines.len() as f64 * line + 4.0)
}

/// A panel over the run's time axis with the shared look: caption, grid, seconds on x.
fn time_panel<'a, DB: DrawingBackend + 'a>(
    area: &'a Area<DB>,
    caption: &[String],
    range: (f64, f64),
    y_labels: usize,
    dpr: f64,
) -> Result<TimeChart<'a, DB>, String> {
    time_panel_in(area, caption, range, (y_labels, 0), dpr)
}

/// [`time_panel`] with `decimals` on the value axis (costs are small numbers).
fn time_panel_in<'a, DB: DrawingBackend + 'a>(
    area: &'a Area<DB>,
    caption: &[String],
    (duration, y_max): (f64, f64),
    (y_labels, decimals): (usize, usize),
    dpr: f64,
) -> Result<TimeChart<'a, DB>, String> {
    let s = |v: f64| (v * dpr).round() as u32;
    let top = draw_caption(area, caption, CAPTION_PX.0, font(CAPTION_PX.0, dpr), dpr)?;
    let mut chart = ChartBuilder::on(area)
        .margin_left(s(10.0))
        .margin_right(s(10.0))
        .margin_top(s(top))
        .x_label_area_size(s(22.0))
        .y_label_area_size(s(64.0))
        .build_cartesian_2d(0.0..duration, 0.0..y_max)
        .map_err(draw_error)?;
    chart::time_mesh(&mut chart, (12, y_labels))
        .x_label_formatter(&|v| format!("{}s", v.round() as i64))
        .y_label_formatter(&|v| match decimals {
            0 => format!("{}", v.round() as i64),
            d => fixed(*v, d),
        })
        .label_style(font(11.0, dpr))
        .draw()
        .map_err(draw_error)?;
    Ok(chart)
}

fn queue_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    caption: &[String],
    look: Look,
) -> Result<(), String> {
    let dpr = look.dpr;
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let y_max = r
        .buckets
        .iter()
        .flat_map(|b| b.tiers.iter().map(|t| t.queue_depth.max(t.in_flight)))
        .max()
        .unwrap_or(0) as f64;
    let y_max = (y_max * 1.12).max(1.0);
    let mut chart = time_panel(area, caption, (duration, y_max), 4, dpr)?;
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

fn latency_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    a: Option<&RunResult>,
    caption: &[String],
    look: Look,
) -> Result<(), String> {
    let (dpr, lang) = (look.dpr, look.lang);
    let s = |v: f64| (v * dpr).round() as u32;
    let duration = r.duration_ms as f64 / 1000.0;
    let p99_max = |r: &RunResult| {
        r.buckets
            .iter()
            .map(|b| b.latency_ms.p99)
            .fold(0.0, f64::max)
    };
    let y_max = (a.map(p99_max).unwrap_or(0.0).max(p99_max(r)) * 1.12).max(1.0);
    let mut chart = time_panel(area, caption, (duration, y_max), 4, dpr)?;
    let run = &r.summary.latency_ms;
    let p99 = ShapeStyle::from(&RGBColor(204, 121, 167)).stroke_width(s(2.0));
    let p50 = ShapeStyle::from(&FIRST).stroke_width(s(2.0));
    latency_line(
        &mut chart,
        latency_steps(r, |l| l.p99),
        p99,
        &Text::P99Run.fill(lang, &[&format!("{:.1}", run.p99)]),
        dpr,
    )?;
    latency_line(
        &mut chart,
        latency_steps(r, |l| l.p50),
        p50,
        &Text::P50Run.fill(lang, &[&format!("{:.1}", run.p50)]),
        dpr,
    )?;
    if let Some(a) = a {
        let st = ShapeStyle::from(&chart::theme().ink).stroke_width(s(1.6));
        let segments = latency_steps(a, |l| l.p99)
            .into_iter()
            .map(|points| clip(points, duration))
            .filter(|points| !points.is_empty())
            .collect();
        latency_line(&mut chart, segments, st, Text::PinnedP99.get(lang), dpr)?;
    }
    chart::legend(&mut chart, 11.0, 6.0, dpr)?;
    Ok(())
}

/// Tier `k`'s panel in cost mode: the cost per second of the route calling it (each
/// bucket's cost over its width), the pinned run A's as a line when it has one.
fn cost_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    a: Option<&RunResult>,
    k: usize,
    caption: &[String],
    look: Look,
) -> Result<(i32, i32), String> {
    let (dpr, lang) = (look.dpr, look.lang);
    let duration = r.duration_ms as f64 / 1000.0;
    let peak_of = |res: &RunResult| {
        (0..res.buckets.len())
            .map(|b| cost_per_s(res, b, k))
            .fold(0.0, f64::max)
    };
    let a = a.filter(|a| route_cost(a, k).is_some());
    let peak = a.map_or(0.0, peak_of).max(peak_of(r));
    let y_max = (peak * 1.12).max(1e-6);
    // Costs are small numbers: the value axis keeps its decimals.
    let mut chart = time_panel_in(area, caption, (duration, y_max), (5, 4), dpr)?;
    let route = r.routes.iter().find(|x| x.to as usize == k);
    let fill = color(k);
    let bars = (0..r.buckets.len()).map(|b| {
        let (x0, x1) = span(r, b);
        Rectangle::new(
            [(x0, 0.0), (x1, cost_per_s(r, b, k))],
            fill.mix(0.8).filled(),
        )
    });
    chart
        .draw_series(bars)
        .map_err(draw_error)?
        .label(Text::RouteCost.fill(lang, &[&route.map_or("", |x| x.name.as_str())]))
        .legend(box_key(fill.filled(), 14.0, dpr));
    if let Some(a) = a {
        let line = clip(step_line(a, |b| cost_per_s(a, b, k)), duration);
        pinned_line(&mut chart, line, Text::PinnedCost.get(lang), dpr)?;
    }
    chart::legend(&mut chart, 11.0, 6.0, dpr)?;
    let (xr, _) = chart.plotting_area().get_pixel_range();
    Ok((xr.start, xr.end))
}

/// Tier `k`'s breaker band when its routes have breakers of their own: under one
/// caption, a strip per route (named by the pool it calls) with the instances whose
/// breaker on that route is open (red) and half-open (amber).
fn route_breaker_band<DB: DrawingBackend>(
    area: &Area<DB>,
    sc: &Scenario,
    r: &RunResult,
    k: usize,
    look: Look,
) -> Result<(), String> {
    let dpr = look.dpr;
    let px = |v: f64| (v * dpr).round() as i32;
    let inst = sc.tiers[k].instances;
    let caption = Text::RouteBreakerBand.fill(look.lang, &[&sc.tiers[k].name, &inst]);
    let theme = chart::theme();
    let muted = font(11.0, dpr).color(&theme.muted);
    area.draw(&plotters::element::Text::new(
        caption,
        (px(74.0), px(3.0)),
        muted,
    ))
    .map_err(draw_error)?;
    // The caption's line, then a strip per route (the first one as tall as the others).
    let (_, mut rest) = area.split_vertically(px(BAND_H - STRIP_H));
    for (i, x) in r
        .routes
        .iter()
        .enumerate()
        .filter(|(_, x)| x.from as usize == k)
    {
        let (strip, below) = rest.split_vertically(px(STRIP_H));
        rest = below;
        breaker_strip(&strip, None, r, inst, dpr, |b| {
            let g = r.buckets[b]
                .route_breakers
                .get(i)
                .copied()
                .unwrap_or_default();
            [g[0], g[1]]
        })?;
        // The pool's name where the value axis's labels would be.
        let name = sc.tiers.get(x.to as usize).map_or("?", |t| t.name.as_str());
        let label: String = name.chars().take(10).collect();
        strip
            .draw(&plotters::element::Text::new(
                label,
                (px(12.0), px(STRIP_H / 2.0 - 7.0)),
                font(10.0, dpr),
            ))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// Draws the pinned run A's `points` as the reference line, with its legend `label`.
fn pinned_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut TimeChart<'a, DB>,
    points: Vec<(f64, f64)>,
    label: &str,
    dpr: f64,
) -> Result<(), String> {
    let style = ShapeStyle::from(&chart::theme().ink).stroke_width((1.6 * dpr).round() as u32);
    chart
        .draw_series(LineSeries::new(points, style))
        .map_err(draw_error)?
        .label(label)
        .legend(line_key(style, 14.0, dpr));
    Ok(())
}
