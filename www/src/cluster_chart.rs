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
    self, color, css_color, draw_error, font, ChartHandle, ChartOptions, Readout, ReadoutRow,
    TimeChart,
};
use crate::chart_text::Text;
use crate::cluster_legend::{self, Legends, PanelLegend};
use crate::cluster_look::{
    attempts_per_s, band_of, p50_style, p99_style, pinned_attempts, pinned_cost, pinned_style,
    queue_style, route_cost, route_into_name, shows_cost, tier_scale, FIRST, LINE_W, RETRY,
};
pub use crate::cluster_look::{Look, Shown};
use crate::legend;
use plotters::coord::Shift;
use plotters::prelude::*;
use retrystorm::cluster::{present, Breaker, Bucket, Percentiles, RunResult, Scenario};
use retrystorm::ensemble::{render::median_range, Band, Ensemble};
use retrystorm::javafmt::fixed;
use retrystorm::lang::Lang;
use std::ops::Range;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;

/// Height of a tier's attempts panel, CSS pixels.
const TIER_H: f64 = 170.0;
/// Height of a breaker band, CSS pixels.
const BAND_H: f64 = 58.0;
/// Height of each further route's strip in a band of route breakers, CSS pixels.
const STRIP_H: f64 = 30.0;
/// Height of the queue and latency panels, CSS pixels.
const OTHER_H: f64 = 150.0;

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
/// calls)`, so a tree's panels read as its per-route breakdown (the share of all the
/// caller's routes into the tier: several may call it); empty for a tier called
/// through a chain's client.
fn route_into(s: &Scenario, k: usize, lang: Lang) -> String {
    s.tiers
        .iter()
        .find_map(|caller| {
            let sum: f64 = caller.routes.iter().map(|r| r.weight).sum();
            let into = caller.routes.iter().filter(|r| r.to as usize == k);
            let weight: f64 = into.map(|r| r.weight).sum();
            (weight > 0.0).then(|| {
                Text::RouteInto.fill(
                    lang,
                    &[
                        &caller.name,
                        &s.tiers[k].name,
                        &format!("{:.0}", 100.0 * weight / sum),
                    ],
                )
            })
        })
        .unwrap_or_default()
}

/// Whether some route's client has a cost model (the cost/s switch is offered then).
pub fn has_cost(r: &RunResult) -> bool {
    r.routes.iter().any(|x| x.cost.is_some())
}

/// The cost per second of the routes into tier `k` in bucket `b` of `r` (its bucket's
/// cost over the bucket's width), 0 without a cost model.
fn cost_per_s(r: &RunResult, b: usize, k: usize) -> f64 {
    route_cost(r, k, b).map_or(0.0, |c| c * 1000.0 / r.bucket_ms as f64)
}

/// The CSS height the chart of `s` needs on a wide canvas, pixels (every caption on one
/// line, every legend in the column beside its plot).
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

/// The CSS height a caption's `lines` at `font_px` take at the top of a panel, with the
/// gaps above and under them: where the panel's plot starts.
fn caption_h(lines: &[String], font_px: f64) -> f64 {
    4.0 + lines.len() as f64 * caption_line(font_px) + 4.0
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
            let text = if shows_cost(r, k, look) {
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

/// Every panel's caption, legend and CSS height on a canvas of one width, in drawing
/// order: what the canvas's height is summed from and what is drawn, computed once for
/// both.
struct Frame {
    /// The captions, wrapped to the plots' side of the canvas.
    caps: Captions,
    /// The legends and the column they share.
    legends: Legends,
    /// Each tier's panel's height.
    tiers: Vec<f64>,
    /// Each tier's breaker band's height, for a tier with one.
    bands: Vec<Option<f64>>,
    /// The queue panel's height.
    queue: f64,
    /// The latency panel's height.
    latency: f64,
}

impl Frame {
    /// The chart of `run` (with the pinned run `a` and the ensemble `bands`) on a canvas
    /// `css_w` CSS pixels wide: each panel taller by the caption lines it needs there
    /// and by its legend's rows on a narrow canvas.
    fn of<R: Shown>(
        run: &R,
        a: Option<&R>,
        bands: Option<&Ensemble>,
        look: Look,
        css_w: f64,
    ) -> Frame {
        let sc = run.scenario();
        let legends = cluster_legend::legends(run, a, bands, look, css_w);
        // The captions centre over the plots, beside the legends' column.
        let caps = captions(run, look, css_w - legends.column);
        let panel = |base: f64, lines: &[String], legend: &PanelLegend| {
            let px = CAPTION_PX.0;
            legend.panel_height(base + extra(lines, px), caption_h(lines, px))
        };
        let tiers = (0..sc.tiers.len())
            .map(|k| panel(TIER_H, &caps.tiers[k], &legends.tiers[k]))
            .collect();
        let bands = (0..sc.tiers.len())
            .map(|k| {
                let more = caps.bands[k]
                    .as_deref()
                    .map_or(0.0, |l| extra(l, CAPTION_PX.1));
                has_breaker(sc, k).then(|| band_h(sc, k) + more)
            })
            .collect();
        Frame {
            tiers,
            bands,
            queue: panel(OTHER_H, &caps.queue, &legends.queue),
            latency: panel(OTHER_H, &caps.latency, &legends.latency),
            caps,
            legends,
        }
    }

    /// The whole chart's CSS height.
    fn height(&self) -> f64 {
        self.tiers.iter().sum::<f64>()
            + self.bands.iter().flatten().sum::<f64>()
            + self.queue
            + self.latency
            + 8.0
    }
}

/// The CSS height the chart of `run` (with the pinned run `a` and the ensemble `bands`,
/// whose legends it names) needs on a canvas `css_w` CSS pixels wide: the panels'
/// heights, each taller by the caption lines it needs there and, on a narrow canvas, by
/// its legend's rows.
pub fn height_at<R: Shown>(
    run: &R,
    a: Option<&R>,
    bands: Option<&Ensemble>,
    look: Look,
    css_w: f64,
) -> f64 {
    Frame::of(run, a, bands, look, css_w).height()
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
        if let Some(bucket_cost) = route_cost(r, k, b).filter(|_| cost) {
            let route = route_into_name(r, k);
            rows.push(ReadoutRow {
                label: Text::ReadCost.fill(lang, &[&route.as_deref().unwrap_or(name)]),
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
    let css = (
        width,
        height_at(&**run, a.as_deref(), bands.as_deref(), look, width),
    );
    let root = chart::canvas_root(canvas, css, dpr)?;
    let plots = draw_on(
        root,
        &**run,
        a.as_deref(),
        opts.theme(),
        look,
        bands.as_deref(),
    )?;
    // Every panel's plot spans the same columns: the first tier's stands for all.
    let x_px = plots.first().map_or((0, 0), |(x, _)| (x.start, x.end));
    let centres = centres(run.result());
    let run = Rc::clone(run);
    let at = move |f: f64| readout(&*run, a.as_deref(), bands.as_deref(), cost, lang, f);
    // Every panel shares the time axis: the readout answers at any height.
    // The cursor line crosses every panel: they all read out the same bucket.
    let bottom = (css.1 * dpr).round() as i32;
    Ok(ChartHandle::new(dpr, x_px, (0, i32::MAX), centres, Box::new(at)).with_cursor((0, bottom)))
}

/// A plot's device-pixel columns and rows.
pub type PlotArea = (Range<i32>, Range<i32>);

/// Draws the panels of `run` (with the pinned run `a` and the ensemble `bands`, as
/// [`draw`] does) on `root`, on any plotters backend (the page's canvas, SVG in the
/// tests), painted in `theme` first and presented at the end; returns every plot's
/// device-pixel area in drawing order (each tier's panel, its breaker band's strips, the
/// queue's and the latency's): they share the time axis's columns, which the readout
/// maps the mouse through.
pub fn draw_on<DB: DrawingBackend, R: Shown>(
    root: DrawingArea<DB, Shift>,
    run: &R,
    a: Option<&R>,
    theme: chart::Theme,
    look: Look,
    bands: Option<&Ensemble>,
) -> Result<Vec<PlotArea>, String> {
    chart::paint(&root, theme)?;
    let (sc, r) = (run.scenario(), run.result());
    let a_result = a.map(|a| a.result());
    let dpr = look.dpr;
    let px = |v: f64| (v * dpr).round() as i32;
    // The captions wrapped to the canvas, so none is cut on a phone; each panel is as
    // much taller as its caption's further lines and, on a phone, its legend's rows.
    let css_w = f64::from(root.dim_in_pixel().0) / dpr;
    let frame = Frame::of(run, a, bands, look, css_w);
    let (caps, legends) = (&frame.caps, &frame.legends);
    // A panel's plot and caption, its legend drawn beside or under them.
    let plot_of = |area: &Area<DB>, lines: &[String], legend: &PanelLegend| {
        legend.split_and_draw(area, legends.column, caption_h(lines, CAPTION_PX.0), dpr)
    };
    let mut rest = root;
    let mut plots = Vec::new();
    for k in 0..sc.tiers.len() {
        let caption = &caps.tiers[k];
        let (top, below) = rest.split_vertically(px(frame.tiers[k]));
        rest = below;
        let plot = plot_of(&top, caption, &legends.tiers[k])?;
        let band = band_of(bands, k);
        plots.push(tier_panel(
            &plot,
            sc,
            r,
            a_result,
            band,
            (k, caption),
            look,
        )?);
        let Some(h) = frame.bands[k] else {
            continue;
        };
        let (band, below) = rest.split_vertically(px(h));
        rest = below;
        // The band's strips keep the panels' time axis: the legends' column stays empty.
        let (band, _) = band.split_horizontally(px(css_w - legends.column));
        match caps.bands[k].as_deref() {
            Some(lines) => plots.push(breaker_band(
                &band,
                r,
                sc.tiers[k].instances,
                k,
                lines,
                look,
            )?),
            None => plots.extend(route_breaker_band(&band, sc, r, k, look)?),
        }
    }
    let (queue, below) = rest.split_vertically(px(frame.queue));
    let plot = plot_of(&queue, &caps.queue, &legends.queue)?;
    plots.push(queue_panel(&plot, r, &caps.queue, look)?);
    let (lat, _) = below.split_vertically(px(frame.latency));
    let plot = plot_of(&lat, &caps.latency, &legends.latency)?;
    plots.push(latency_panel(&plot, r, a_result, &caps.latency, look)?);
    rest.present().map_err(draw_error)?;
    Ok(plots)
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

/// Draws the `segments` of a latency line in `style`.
fn latency_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut TimeChart<'a, DB>,
    segments: Vec<Vec<(f64, f64)>>,
    style: ShapeStyle,
) -> Result<(), String> {
    for points in segments {
        chart
            .draw_series(LineSeries::new(points, style))
            .map_err(draw_error)?;
    }
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

/// Tier `k`'s attempts panel (its cost panel in cost mode); returns its plot's area.
fn tier_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    band: Option<(&Band, usize)>,
    (k, caption): (usize, &[String]),
    look: Look,
) -> Result<PlotArea, String> {
    if shows_cost(r, k, look) {
        return cost_panel(area, r, a, k, caption, look);
    }
    let dpr = look.dpr;
    let duration = r.duration_ms as f64 / 1000.0;
    let per_s = 1000.0 / r.bucket_ms as f64;
    // The capacity line is drawn when it is within reach of the data.
    let (cap, y_max) = tier_scale(sc, r, a, band.map(|(b, _)| b), k);
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
    match band {
        Some((b, _)) => {
            let n = b.median.len().min(r.buckets.len());
            let spans = (0..n).map(|x| span(r, x));
            let values = (0..n).map(|x| (b.p5[x], b.median[x], b.p95[x]));
            chart::band(
                &mut chart,
                &chart::step_band(spans, values),
                color(k),
                LINE_W,
                dpr,
            )?;
        }
        None => {
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
            chart.draw_series(bars).map_err(draw_error)?;
        }
    }
    if let Some(c) = cap {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, c), (duration, c)],
                chart::capacity_style(dpr),
            )))
            .map_err(draw_error)?;
    }
    if let Some(a) = pinned_attempts(a, k) {
        let line = clip(step_line(a, |b| attempts_per_s(a, b, k)), duration);
        pinned_line(&mut chart, line, dpr)?;
    }
    Ok(chart.plotting_area().get_pixel_range())
}

/// Tier `k`'s band of breakers (its `instances`), under its caption's `lines`.
fn breaker_band<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    instances: u32,
    k: usize,
    lines: &[String],
    look: Look,
) -> Result<PlotArea, String> {
    breaker_strip(area, Some(lines), r, instances, look.dpr, |b| {
        let t = &r.buckets[b].tiers[k];
        [t.breakers_open, t.breakers_half_open]
    })
}

/// A strip of breaker gauges over the run's time axis, `caption` above it (and its value
/// axis labelled) if any: per bucket, `gauge(b)`'s `[open, half-open]` instances of
/// `instances`, stacked in red and amber; returns its plot's area.
fn breaker_strip<DB: DrawingBackend>(
    area: &Area<DB>,
    caption: Option<&[String]>,
    r: &RunResult,
    instances: u32,
    dpr: f64,
    gauge: impl Fn(usize) -> [u32; 2],
) -> Result<PlotArea, String> {
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
    Ok(chart.plotting_area().get_pixel_range())
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
    Ok(caption_h(lines, font_px))
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

/// Every tier's queue depth and requests in flight; returns its plot's area.
fn queue_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    caption: &[String],
    look: Look,
) -> Result<PlotArea, String> {
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
    for k in 0..r.tiers.len() {
        let f = ShapeStyle::from(&color(k).mix(0.6)).stroke_width(s(1.0));
        chart
            .draw_series(LineSeries::new(
                step_line(r, |b| r.buckets[b].tiers[k].queue_depth as f64),
                queue_style(k, dpr),
            ))
            .map_err(draw_error)?;
        chart
            .draw_series(LineSeries::new(
                step_line(r, |b| r.buckets[b].tiers[k].in_flight as f64),
                f,
            ))
            .map_err(draw_error)?;
    }
    Ok(chart.plotting_area().get_pixel_range())
}

/// The entry requests' p50 and p99 latency per bucket (and the pinned run's p99);
/// returns its plot's area.
fn latency_panel<DB: DrawingBackend>(
    area: &Area<DB>,
    r: &RunResult,
    a: Option<&RunResult>,
    caption: &[String],
    look: Look,
) -> Result<PlotArea, String> {
    let dpr = look.dpr;
    let duration = r.duration_ms as f64 / 1000.0;
    let p99_max = |r: &RunResult| {
        r.buckets
            .iter()
            .map(|b| b.latency_ms.p99)
            .fold(0.0, f64::max)
    };
    let y_max = (a.map(p99_max).unwrap_or(0.0).max(p99_max(r)) * 1.12).max(1.0);
    let mut chart = time_panel(area, caption, (duration, y_max), 4, dpr)?;
    latency_line(&mut chart, latency_steps(r, |l| l.p99), p99_style(dpr))?;
    latency_line(&mut chart, latency_steps(r, |l| l.p50), p50_style(dpr))?;
    if let Some(a) = a {
        let segments = latency_steps(a, |l| l.p99)
            .into_iter()
            .map(|points| clip(points, duration))
            .filter(|points| !points.is_empty())
            .collect();
        latency_line(&mut chart, segments, pinned_style(dpr))?;
    }
    Ok(chart.plotting_area().get_pixel_range())
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
) -> Result<PlotArea, String> {
    let dpr = look.dpr;
    let duration = r.duration_ms as f64 / 1000.0;
    let peak_of = |res: &RunResult| {
        (0..res.buckets.len())
            .map(|b| cost_per_s(res, b, k))
            .fold(0.0, f64::max)
    };
    let a = pinned_cost(a, k);
    let peak = a.map_or(0.0, peak_of).max(peak_of(r));
    let y_max = (peak * 1.12).max(1e-6);
    // Costs are small numbers: the value axis keeps its decimals.
    let mut chart = time_panel_in(area, caption, (duration, y_max), (5, 4), dpr)?;
    let fill = color(k);
    let bars = (0..r.buckets.len()).map(|b| {
        let (x0, x1) = span(r, b);
        Rectangle::new(
            [(x0, 0.0), (x1, cost_per_s(r, b, k))],
            fill.mix(0.8).filled(),
        )
    });
    chart.draw_series(bars).map_err(draw_error)?;
    if let Some(a) = a {
        let line = clip(step_line(a, |b| cost_per_s(a, b, k)), duration);
        pinned_line(&mut chart, line, dpr)?;
    }
    Ok(chart.plotting_area().get_pixel_range())
}

/// Tier `k`'s breaker band when its routes have breakers of their own: under one
/// caption, a strip per route (named by the pool it calls) with the instances whose
/// breaker on that route is open (red) and half-open (amber); returns each strip's plot
/// area.
fn route_breaker_band<DB: DrawingBackend>(
    area: &Area<DB>,
    sc: &Scenario,
    r: &RunResult,
    k: usize,
    look: Look,
) -> Result<Vec<PlotArea>, String> {
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
    let mut plots = Vec::new();
    for (i, x) in r
        .routes
        .iter()
        .enumerate()
        .filter(|(_, x)| x.from as usize == k)
    {
        let (strip, below) = rest.split_vertically(px(STRIP_H));
        rest = below;
        plots.push(breaker_strip(&strip, None, r, inst, dpr, |b| {
            let g = r.buckets[b]
                .route_breakers
                .get(i)
                .copied()
                .unwrap_or_default();
            [g[0], g[1]]
        })?);
        // The pool's name where the value axis's labels would be, after the route's
        // number when another route calls the same pool.
        let name = sc.tiers.get(x.to as usize).map_or("?", |t| t.name.as_str());
        let m = i - r.routes.iter().position(|y| y.from == x.from).unwrap_or(i);
        let label: String = if sc.tiers[k].route_shares_callee(m) {
            format!("#{} {name}", m + 1)
        } else {
            name.to_string()
        }
        .chars()
        .take(10)
        .collect();
        strip
            .draw(&plotters::element::Text::new(
                label,
                (px(12.0), px(STRIP_H / 2.0 - 7.0)),
                font(10.0, dpr),
            ))
            .map_err(draw_error)?;
    }
    Ok(plots)
}

/// Draws the pinned run A's `points` as the reference line.
fn pinned_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut TimeChart<'a, DB>,
    points: Vec<(f64, f64)>,
    dpr: f64,
) -> Result<(), String> {
    chart
        .draw_series(LineSeries::new(points, pinned_style(dpr)))
        .map_err(draw_error)?;
    Ok(())
}
