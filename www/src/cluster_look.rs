//! What the cluster chart's panels show and how their series look, decided from the
//! scenario and the result alone: the vocabulary the chart (`cluster_chart`) and its
//! legends (`cluster_legend`) share, so each reads the same conditions (a capacity line in
//! reach of the data, a fault on the tier, a pinned run, cost mode) and neither imports
//! the other's drawing.

use crate::chart::{self, color};
use plotters::prelude::*;
use retrystorm::cluster::{present, RunResult, Scenario};
use retrystorm::ensemble::{Band, Ensemble};
use retrystorm::lang::Lang;

/// What the chart draws: a scenario and the result of running it. The glue's run object
/// implements it, so the chart never depends on the glue.
pub trait Shown {
    /// The scenario as run, with the seed used.
    fn scenario(&self) -> &Scenario;
    /// What the run measured.
    fn result(&self) -> &RunResult;
}

/// First attempts' bars (and the p50 latency line).
pub(crate) const FIRST: RGBColor = RGBColor(0, 114, 178);

/// Retries' bars.
pub(crate) const RETRY: RGBColor = RGBColor(213, 94, 0);

/// A fault's legend key: its tint, stronger than the shaded window so a small box shows.
pub(crate) const FAULT_KEY: RGBColor = RGBColor(240, 160, 160);

/// The p99 latency line.
const P99: RGBColor = RGBColor(204, 121, 167);

/// The width of a series' line (a tier's median, its queue, a latency), CSS pixels.
pub(crate) const LINE_W: f64 = 2.0;

/// The cost in bucket `b` of the routes into tier `k` that have a cost model (every
/// tier but the first has one calling tier, several of whose routes may call it), when
/// one has.
pub(crate) fn route_cost(r: &RunResult, k: usize, b: usize) -> Option<f64> {
    let mut costs = (r.routes.iter())
        .filter(|x| x.to as usize == k)
        .filter_map(|x| x.cost.as_ref())
        .peekable();
    costs.peek()?;
    Some(costs.filter_map(|c| c.per_sec.get(b)).sum())
}

/// `caller → callee`, how the tier calling tier `k` calls it (by one route or several).
pub(crate) fn route_into_name(r: &RunResult, k: usize) -> Option<String> {
    let x = r.routes.iter().find(|x| x.to as usize == k)?;
    let name = |t: u32| r.tiers.get(t as usize).map_or("", |t| t.name.as_str());
    Some(format!("{} → {}", name(x.from), name(x.to)))
}

/// Whether tier `k`'s panel shows the cost per second of the routes calling it (the
/// cost switch is on and one of them has a cost model) rather than its attempts.
pub(crate) fn shows_cost(r: &RunResult, k: usize, look: Look) -> bool {
    look.cost && route_cost(r, k, 0).is_some()
}

/// The pinned run `a`, when it has a cost for the route into tier `k` to draw.
pub(crate) fn pinned_cost(a: Option<&RunResult>, k: usize) -> Option<&RunResult> {
    a.filter(|a| route_cost(a, k, 0).is_some())
}

/// The pinned run `a`, when it has a tier `k` whose attempts to draw.
pub(crate) fn pinned_attempts(a: Option<&RunResult>, k: usize) -> Option<&RunResult> {
    a.filter(|a| a.tiers.len() > k)
}

/// Whether some fault hits tier `k` (its panel shades the window and names it).
pub(crate) fn has_fault(s: &Scenario, k: usize) -> bool {
    s.faults.iter().any(|f| f.tier as usize == k)
}

/// Tier `k`'s band over the seeds of the ensemble `bands`, with the seeds' count.
pub(crate) fn band_of(bands: Option<&Ensemble>, k: usize) -> Option<(&Band, usize)> {
    bands.and_then(|e| Some((e.bands.get(k)?, e.seeds.len())))
}

/// Tier `k`'s attempts panel's scale: its capacity line when drawn (within reach of the
/// data: of run `r`, the pinned run `a` and the ensemble's `band`) and the value axis's
/// top.
pub(crate) fn tier_scale(
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    band: Option<&Band>,
    k: usize,
) -> (Option<f64>, f64) {
    let peak_of = |res: &RunResult| {
        (0..res.buckets.len())
            .map(|b| attempts_per_s(res, b, k))
            .fold(0.0, f64::max)
    };
    let band_peak = band.map_or(0.0, |b| b.p95.iter().copied().fold(0.0, f64::max));
    let peak = a.map_or(0.0, peak_of).max(peak_of(r)).max(band_peak);
    let cap = present::capacity_per_s(&sc.tiers[k]).filter(|&c| c <= peak.max(1.0) * 3.0);
    (cap, (peak.max(cap.unwrap_or(0.0)) * 1.12).max(1.0))
}

/// A line of `c`, `w` CSS pixels wide.
fn stroke(c: RGBColor, w: f64, dpr: f64) -> ShapeStyle {
    ShapeStyle::from(&c).stroke_width((w * dpr).round() as u32)
}

/// The pinned run A's reference line.
pub(crate) fn pinned_style(dpr: f64) -> ShapeStyle {
    stroke(chart::theme().ink, 1.6, dpr)
}

/// Tier `k`'s median line over the seeds.
pub(crate) fn band_style(k: usize, dpr: f64) -> ShapeStyle {
    stroke(color(k), LINE_W, dpr)
}

/// Tier `k`'s queue depth line.
pub(crate) fn queue_style(k: usize, dpr: f64) -> ShapeStyle {
    stroke(color(k), LINE_W, dpr)
}

/// The p99 latency line.
pub(crate) fn p99_style(dpr: f64) -> ShapeStyle {
    stroke(P99, LINE_W, dpr)
}

/// The p50 latency line.
pub(crate) fn p50_style(dpr: f64) -> ShapeStyle {
    stroke(FIRST, LINE_W, dpr)
}

/// Tier `k`'s attempts per second in bucket `b` of `r`, at `r`'s own bucket width (a
/// pinned run A may have another width than B: its rates are its own).
pub(crate) fn attempts_per_s(r: &RunResult, b: usize, k: usize) -> f64 {
    r.buckets
        .get(b)
        .and_then(|x| x.tiers.get(k))
        .map_or(0.0, |t| t.attempts() as f64 * 1000.0 / r.bucket_ms as f64)
}

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
