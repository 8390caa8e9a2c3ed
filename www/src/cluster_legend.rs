//! Every cluster panel's legend, outside its plot so it never covers data: which entries
//! each panel has (one list, read both to size the canvas and to draw it) and where they
//! stand on a canvas of a given width.
//!
//! On a wide canvas the legends stand in one column right of the plots, as wide as the
//! widest panel's legend, so every panel (and every breaker band) keeps the same time
//! axis pixels and the cursor line and readout map one x range for all of them. On a
//! narrow canvas (a phone) each panel's legend stands in rows under its time axis, and
//! the panel is taller by those rows.

use crate::chart::{self, color};
use crate::chart_text::Text;
use crate::cluster_look::{self as cc, Look, Shown};
use crate::legend::{self, Entry, Key, Layout, Side};
use plotters::coord::Shift;
use plotters::prelude::*;
use retrystorm::cluster::{RunResult, Scenario};
use retrystorm::ensemble::{Band, Ensemble};
use retrystorm::lang::Lang;

/// A panel legend's font, CSS pixels.
pub const FONT_PX: f64 = 11.0;

/// Where a legend's rows under a panel start: the canvas's margin, not the plot's left
/// edge (a phone needs every pixel of the row).
const INDENT: f64 = 10.0;

/// One panel's legend: its entries and where they stand in the legend's own area.
pub struct PanelLegend {
    /// The entries, in the order the panel draws their series.
    pub entries: Vec<Entry>,
    /// Where each entry goes, and the room the legend takes.
    pub layout: Layout,
}

impl PanelLegend {
    /// The panel's CSS height with its legend, from `h` (its caption and plot) and `top`
    /// (its caption's height, where the plot starts): taller by the rows under it, or at
    /// least as tall as the column beside its plot.
    pub fn panel_height(&self, h: f64, top: f64) -> f64 {
        match self.layout.side {
            Side::Below => h + self.layout.size.1,
            Side::Right => h.max(top + self.layout.size.1),
        }
    }

    /// Splits a panel's `area` (as tall as [`panel_height`](Self::panel_height) gave)
    /// into the area of its caption and plot, which it returns, and its legend's, where
    /// it draws the legend: the `column` CSS pixels at the right from `top` (the plot's
    /// top) down, or the rows at the bottom.
    pub fn split_and_draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        column: f64,
        top: f64,
        dpr: f64,
    ) -> Result<DrawingArea<DB, Shift>, String> {
        let px = |v: f64| (v * dpr).round() as i32;
        let (w, h) = area.dim_in_pixel();
        let (plot, key) = match self.layout.side {
            Side::Right => {
                let (plot, side) =
                    area.split_horizontally(i32::try_from(w).unwrap_or(0) - px(column));
                (plot, side.split_vertically(px(top)).1)
            }
            Side::Below => {
                area.split_vertically(i32::try_from(h).unwrap_or(0) - px(self.layout.size.1))
            }
        };
        legend::draw(&key, &self.entries, &self.layout, FONT_PX, dpr)?;
        Ok(plot)
    }
}

/// Every panel's legend on a canvas of one width, in drawing order.
pub struct Legends {
    /// The legend column's CSS width, the same right of every panel's plot and breaker
    /// band; 0 when the legends stand under the panels.
    pub column: f64,
    /// Each tier's attempts (or cost) panel's legend.
    pub tiers: Vec<PanelLegend>,
    /// The queue panel's legend.
    pub queue: PanelLegend,
    /// The latency panel's legend.
    pub latency: PanelLegend,
}

/// The legends of `run`'s panels (with the pinned run `a` and the ensemble `bands`, as
/// the chart draws them) on a canvas `css_w` CSS pixels wide: one column for all when
/// the widest legend fits beside the plots, else rows under each panel.
pub fn legends<R: Shown>(
    run: &R,
    a: Option<&R>,
    bands: Option<&Ensemble>,
    look: Look,
    css_w: f64,
) -> Legends {
    let (sc, r) = (run.scenario(), run.result());
    let a = a.map(Shown::result);
    let tiers: Vec<Vec<Entry>> = (0..sc.tiers.len())
        .map(|k| tier_entries(sc, r, a, cc::band_of(bands, k), k, look))
        .collect();
    let queue = queue_entries(r, look.dpr);
    let latency = latency_entries(r, a, look);
    let labels = |e: &[Entry]| e.iter().map(|x| x.label.clone()).collect::<Vec<_>>();
    let all: Vec<String> = tiers
        .iter()
        .chain([&queue, &latency])
        .flat_map(|e| labels(e))
        .collect();
    // One choice for every panel: a column beside one plot and rows under another
    // would give the panels different time axes.
    let whole = legend::layout(css_w, INDENT, &all, FONT_PX);
    let wide = whole.side == Side::Right;
    let place = |entries: Vec<Entry>| {
        let l = labels(&entries);
        let layout = if wide {
            legend::column(&l, FONT_PX)
        } else {
            legend::rows(css_w, INDENT, &l, FONT_PX)
        };
        PanelLegend { entries, layout }
    };
    Legends {
        column: if wide { whole.size.0 } else { 0.0 },
        tiers: tiers.into_iter().map(place).collect(),
        queue: place(queue),
        latency: place(latency),
    }
}

/// Tier `k`'s panel's legend: its attempts (first attempts and retries, or the band over
/// the seeds), its capacity line and fault when drawn, the pinned run's line; in cost
/// mode the route's cost and the pinned run's.
fn tier_entries(
    sc: &Scenario,
    r: &RunResult,
    a: Option<&RunResult>,
    band: Option<(&Band, usize)>,
    k: usize,
    look: Look,
) -> Vec<Entry> {
    let (dpr, lang) = (look.dpr, look.lang);
    let pinned = |label: Text| Entry {
        key: Key::Line(cc::pinned_style(dpr), None),
        label: label.get(lang).to_string(),
    };
    if cc::shows_cost(r, k, look) {
        let route = cc::route_into_name(r, k).unwrap_or_default();
        let mut out = vec![Entry {
            key: Key::Box(color(k).filled()),
            label: Text::RouteCost.fill(lang, &[&route]),
        }];
        if cc::pinned_cost(a, k).is_some() {
            out.push(pinned(Text::PinnedCost));
        }
        return out;
    }
    let mut out = match band {
        Some((_, seeds)) => vec![Entry {
            key: Key::Line(cc::band_style(k, dpr), None),
            label: Text::BandLegend.fill(lang, &[&seeds]),
        }],
        None => vec![
            boxed(cc::FIRST, Text::FirstAttempts, lang),
            boxed(cc::RETRY, Text::Retries, lang),
        ],
    };
    if let (Some(c), _) = cc::tier_scale(sc, r, a, band.map(|(b, _)| b), k) {
        out.push(Entry {
            key: Key::Line(chart::capacity_style(dpr), None),
            label: Text::CapacityPerS.fill(lang, &[&format!("{c:.0}")]),
        });
    }
    if cc::has_fault(sc, k) {
        out.push(boxed(cc::FAULT_KEY, Text::Fault, lang));
    }
    if cc::pinned_attempts(a, k).is_some() {
        out.push(pinned(Text::PinnedAttempts));
    }
    out
}

/// An entry with a filled box of `c`.
fn boxed(c: RGBColor, label: Text, lang: Lang) -> Entry {
    Entry {
        key: Key::Box(c.filled()),
        label: label.get(lang).to_string(),
    }
}

/// The queue panel's legend: each tier's queue line, named by the tier.
fn queue_entries(r: &RunResult, dpr: f64) -> Vec<Entry> {
    r.tiers
        .iter()
        .enumerate()
        .map(|(k, t)| Entry {
            key: Key::Line(cc::queue_style(k, dpr), None),
            label: t.name.clone(),
        })
        .collect()
}

/// The latency panel's legend: p99 and p50 with the run's own, and the pinned run's
/// p99.
fn latency_entries(r: &RunResult, a: Option<&RunResult>, look: Look) -> Vec<Entry> {
    let (dpr, lang) = (look.dpr, look.lang);
    let run = &r.summary.latency_ms;
    let mut out = vec![
        Entry {
            key: Key::Line(cc::p99_style(dpr), None),
            label: Text::P99Run.fill(lang, &[&format!("{:.1}", run.p99)]),
        },
        Entry {
            key: Key::Line(cc::p50_style(dpr), None),
            label: Text::P50Run.fill(lang, &[&format!("{:.1}", run.p50)]),
        },
    ];
    if a.is_some() {
        out.push(Entry {
            key: Key::Line(cc::pinned_style(dpr), None),
            label: Text::PinnedP99.get(lang).to_string(),
        });
    }
    out
}
