//! The classic model's recovery-window chart: attempts per second for every strategy
//! against the upstream's capacity, with the outage window shaded; or, switched to cost,
//! the cost per second of every strategy with a cost model.
//!
//! Each second is a bucket, so every series is drawn as a step line over `[s, s+1)`;
//! that way the shaded outage `[from_s, to_s)` lines up exactly with the buckets it
//! covers.

use crate::chart::{
    self, color, css_color, draw_error, font, BandPoint, ChartHandle, ChartOptions, Readout,
    ReadoutRow, Theme,
};
use crate::chart_text::Text;
use crate::legend::{self, Entry, Key};
use plotters::coord::Shift;
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
    let look = Look {
        dpr: opts.ratio(),
        theme: opts.theme(),
        lang: opts.lang(),
        cost: opts.cost,
        hidden: opts.hidden.clone(),
    };
    let css = (
        f64::from(canvas.client_width().max(200)),
        f64::from(canvas.client_height().max(150)),
    );
    let root = chart::canvas_root(canvas, css, look.dpr)?;
    let bands = bands.filter(|e| banded(out, e, look.cost));
    let (xr, yr) = draw_on(&root, out, &look, bands.as_deref())?;
    root.present().map_err(draw_error)?;
    let out = Rc::clone(out);
    // The middle of every second drawn, for the keyboard's positions.
    let centres = centres(&out);
    let dpr = look.dpr;
    let at = move |f: f64| readout_of(&out, bands.as_deref(), &look, f);
    Ok(ChartHandle::new(
        dpr,
        (xr.start, xr.end),
        (yr.start, yr.end),
        centres,
        Box::new(at),
    ))
}

/// How the page asked for the chart: everything of [`ChartOptions`] the drawing uses,
/// resolved (the ratio and the language), so the drawer needs no browser.
#[derive(Clone)]
pub struct Look {
    /// Device pixels per CSS pixel: fonts and strokes are scaled by it.
    pub dpr: f64,
    /// The paper and ink.
    pub theme: Theme,
    /// The language of every text drawn and of the readout.
    pub lang: Lang,
    /// Cost per second instead of attempts per second.
    pub cost: bool,
    /// The strategies (by index) not drawn.
    pub hidden: Vec<u32>,
}

impl Look {
    /// Whether strategy `i` is drawn.
    fn shows(&self, i: usize) -> bool {
        !self.hidden.contains(&(i as u32))
    }
}

/// Whether `bands` can stand for `out`'s attempts: an ensemble of the same strategies,
/// and the chart shows attempts (cost stays the single run's).
pub fn banded(out: &Output, bands: &Ensemble, cost: bool) -> bool {
    !cost && bands.bands.len() == out.results.len()
}

/// One strategy's line as the chart draws it.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A step line: every second's value held flat over `[s, s+1)`.
    Steps(Vec<(f64, f64)>),
    /// An ensemble's median step line over its p5–p95 band.
    Band(Vec<BandPoint>),
}

/// One strategy's series: its index (its colour), its name (its legend entry) and shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The strategy's index in the scenario (and in the palette).
    pub index: usize,
    /// The legend's text: the strategy's name.
    pub name: String,
    /// What is drawn.
    pub shape: Shape,
    /// Its dash and gap, CSS pixels, when it is drawn dashed: the line runs on an
    /// earlier one for most of the run, and solid it would hide it (the article's S4,
    /// S5 and S6 on S1 outside the outage, S5 on S4 throughout).
    pub dash: Option<(f64, f64)>,
}

/// The dashes of lines drawn on earlier ones, in turn: each differs from the others in
/// length, so a dashed line over a dashed line still lets it show.
const DASHES: [(f64, f64); 3] = [(9.0, 4.0), (3.0, 4.0), (14.0, 6.0)];

/// How much of the run a line must share with an earlier one to be dashed.
const OVERLAP_SHARE: f64 = 0.8;

/// How close two values are to count as one line on the chart: a share of the value
/// axis, about a line's width on a chart a few hundred pixels tall.
const OVERLAP_CLOSE: f64 = 0.01;

/// Whether `line` runs within `close` of one of `earlier` over more than
/// [`OVERLAP_SHARE`] of its seconds.
fn runs_on(line: &[f64], earlier: &[Vec<f64>], close: f64) -> bool {
    !line.is_empty()
        && earlier.iter().any(|e| {
            let same = line
                .iter()
                .zip(e)
                .filter(|(a, b)| (*a - *b).abs() <= close)
                .count();
            same as f64 > OVERLAP_SHARE * line.len() as f64
        })
}

/// What the classic chart shows, decided from the scenario, the result and the look,
/// before anything is drawn: the axes, the zones behind the lines and the lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The time axis's end, seconds (at least 1).
    pub duration: f64,
    /// The value axis's end: 12% over the highest point drawn or the capacity.
    pub y_max: f64,
    /// The capacity line (attempts only; cost has none).
    pub capacity: Option<f64>,
    /// The outage window `[from, to)`, seconds, clipped to the run; `None` when empty.
    pub outage: Option<(f64, f64)>,
    /// The time axis's caption.
    pub x_desc: String,
    /// The value axis's caption.
    pub y_desc: String,
    /// The outage's legend entry.
    pub outage_label: String,
    /// The capacity line's legend entry.
    pub capacity_label: String,
    /// The over-capacity zone's legend entry.
    pub overload_label: String,
    /// Every shown strategy with a line, in the scenario's order.
    pub series: Vec<Series>,
}

impl Plan {
    /// Whether the over-capacity zone (capacity to the top of the axis) is shaded.
    pub fn overload_zone(&self) -> Option<f64> {
        self.capacity.filter(|&c| self.y_max > c)
    }
}

/// Decides what the chart of `out` shows in `look`, with `bands` (already checked by
/// [`banded`]) standing for the attempts when given.
pub fn plan(out: &Output, look: &Look, bands: Option<&Ensemble>) -> Plan {
    let sc = &out.scenario;
    let duration = f64::from(sc.duration_s.max(1));
    let cost = look.cost;
    let lang = look.lang;
    // Attempts are judged against capacity; cost has no capacity line.
    let capacity = if cost { 0.0 } else { f64::from(sc.capacity) };
    let band_peak = bands.map_or(0.0, |e| {
        e.bands
            .iter()
            .enumerate()
            .filter(|(i, _)| look.shows(*i))
            .flat_map(|(_, b)| b.p95.iter().copied())
            .fold(0.0, f64::max)
    });
    let peak = out
        .results
        .iter()
        .enumerate()
        .filter(|(i, _)| look.shows(*i))
        .filter_map(|(_, r)| series(r, cost))
        .flat_map(|v| v.into_iter())
        .fold(band_peak, f64::max);
    let y_max = (peak.max(capacity) * 1.12).max(if cost { 1e-6 } else { 1.0 });
    let (from, to) = (
        f64::from(sc.outage.from_s),
        f64::from(sc.outage.to_s).min(duration),
    );
    // The lines as drawn (the medians when banded), to find the ones drawn on others.
    let mut drawn: Vec<Vec<f64>> = Vec::new();
    let mut dashed = 0;
    let series = out
        .results
        .iter()
        .enumerate()
        .filter(|(i, _)| look.shows(*i))
        .filter_map(|(i, r)| {
            let values = series(r, cost)?;
            let line = match bands.map(|e| &e.bands[i]) {
                Some(b) => b.median.clone(),
                None => values.clone(),
            };
            let dash = runs_on(&line, &drawn, OVERLAP_CLOSE * y_max).then(|| {
                dashed += 1;
                DASHES[(dashed - 1) % DASHES.len()]
            });
            drawn.push(line);
            let shape = match bands.map(|e| &e.bands[i]) {
                Some(b) => {
                    let spans = (0..b.median.len()).map(|sec| (sec as f64, sec as f64 + 1.0));
                    let values = (0..b.median.len()).map(|x| (b.p5[x], b.median[x], b.p95[x]));
                    Shape::Band(chart::step_band(spans, values))
                }
                None => Shape::Steps(
                    values
                        .into_iter()
                        .enumerate()
                        .flat_map(|(sec, y)| {
                            let x = sec as f64;
                            [(x, y), (x + 1.0, y)]
                        })
                        .collect(),
                ),
            };
            Some(Series {
                index: i,
                name: r.name.clone(),
                shape,
                dash,
            })
        })
        .collect();
    Plan {
        duration,
        y_max,
        capacity: (!cost).then_some(capacity),
        outage: (to > from).then_some((from, to)),
        x_desc: Text::Second.get(lang).to_string(),
        y_desc: if cost {
            Text::CostPerSecond.get(lang)
        } else {
            Text::AttemptsPerSecond.get(lang)
        }
        .to_string(),
        outage_label: Text::Outage.fill(lang, &[&sc.outage.from_s, &sc.outage.to_s]),
        capacity_label: Text::Capacity.fill(lang, &[&sc.capacity]),
        overload_label: Text::OverCapacity.get(lang).to_string(),
        series,
    }
}

/// Draws the chart of `out` on `root` (any plotters backend: the page's canvas, SVG in
/// the tests), painting it first; returns the plotting area's device-pixel ranges
/// (x, y), which the readout maps the mouse through.
pub fn draw_on<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    out: &Output,
    look: &Look,
    bands: Option<&Ensemble>,
) -> Result<(std::ops::Range<i32>, std::ops::Range<i32>), String> {
    chart::paint(root, look.theme)?;
    let p = plan(out, look, bands);
    let dpr = look.dpr;
    let s = |v: f64| (v * dpr).round() as u32;
    let (w, h) = root.dim_in_pixel();
    let css = (f64::from(w) / dpr, f64::from(h) / dpr);
    // The legend outside the plot: a column on its right, or rows under it on a phone,
    // from the canvas's margin (a phone needs every pixel of the row).
    let entries = legend_entries(&p, dpr);
    let labels: Vec<String> = entries.iter().map(|e| e.label.clone()).collect();
    let layout = legend::layout(css.0, 10.0, &labels, 12.0);
    let (plot, key_area) = legend::split(root, css, &layout, dpr);
    let mut chart = ChartBuilder::on(&plot)
        .margin(s(10.0))
        .x_label_area_size(s(34.0))
        .y_label_area_size(s(56.0))
        .build_cartesian_2d(0.0..p.duration, 0.0..p.y_max)
        .map_err(draw_error)?;
    chart::time_mesh(&mut chart, (12, 8))
        // One light line between labelled ones: a denser grid costs a canvas stroke per
        // line on every redraw and adds nothing a reader uses.
        .max_light_lines(1)
        .x_desc(p.x_desc.as_str())
        .y_desc(p.y_desc.as_str())
        .x_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(12.0, dpr))
        .axis_desc_style(font(12.0, dpr))
        .draw()
        .map_err(draw_error)?;

    // Overload zone above capacity, then the outage window: background first.
    if let Some(capacity) = p.overload_zone() {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, capacity), (p.duration, p.y_max)],
                OVERLOAD.mix(0.06).filled(),
            )))
            .map_err(draw_error)?;
    }
    if let Some((from, to)) = p.outage {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(from, 0.0), (to, p.y_max)],
                OUTAGE.mix(0.14).filled(),
            )))
            .map_err(draw_error)?;
    }
    if let Some(capacity) = p.capacity {
        let style = chart::capacity_style(dpr);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, capacity), (p.duration, capacity)],
                style,
            )))
            .map_err(draw_error)?;
    }

    for line in &p.series {
        let i = line.index;
        let style = ShapeStyle::from(&color(i)).stroke_width(s(2.0));
        match &line.shape {
            Shape::Band(points) => {
                chart::band(&mut chart, points, color(i), 2.0, dpr)?;
            }
            Shape::Steps(steps) => match line.dash {
                Some((dash, gap)) => {
                    chart
                        .draw_series(DashedLineSeries::new(
                            steps.iter().copied(),
                            s(dash),
                            s(gap),
                            style,
                        ))
                        .map_err(draw_error)?;
                }
                None => {
                    chart
                        .draw_series(LineSeries::new(steps.iter().copied(), style))
                        .map_err(draw_error)?;
                }
            },
        }
    }
    legend::draw(&key_area, &entries, &layout, 12.0, dpr)?;
    // A drawing area's pixel range is the backend's, so the legend beside it shifts nothing.
    Ok(chart.plotting_area().get_pixel_range())
}

/// The over-capacity zone's tint (drawn faint; its legend key a little stronger).
const OVERLOAD: RGBColor = RGBColor(255, 140, 0);
/// The outage window's tint.
const OUTAGE: RGBColor = RGBColor(220, 50, 47);

/// The legend of the chart `p` plans, in order: the over-capacity zone, the outage, the
/// capacity line (each when drawn), then every strategy's line with its dash.
pub fn legend_entries(p: &Plan, dpr: f64) -> Vec<Entry> {
    let mut out = Vec::new();
    if p.overload_zone().is_some() {
        // The key stronger than the zone, so a small box still shows its tint.
        out.push(Entry {
            key: Key::Box(OVERLOAD.mix(0.25).filled()),
            label: p.overload_label.clone(),
        });
    }
    if p.outage.is_some() {
        out.push(Entry {
            key: Key::Box(OUTAGE.mix(0.3).filled()),
            label: p.outage_label.clone(),
        });
    }
    if p.capacity.is_some() {
        out.push(Entry {
            key: Key::Line(chart::capacity_style(dpr), None),
            label: p.capacity_label.clone(),
        });
    }
    for line in &p.series {
        let style = ShapeStyle::from(&color(line.index)).stroke_width((2.0 * dpr).round() as u32);
        out.push(Entry {
            key: Key::Line(style, line.dash),
            label: line.name.clone(),
        });
    }
    out
}

/// The middle of every second of `out`, 0..=1 of the time axis: the keyboard's positions.
pub fn centres(out: &Output) -> Vec<f64> {
    let duration = f64::from(out.scenario.duration_s.max(1));
    let seconds = out.results.first().map_or(0, |r| r.per_sec.len());
    (0..seconds).map(|s| (s as f64 + 0.5) / duration).collect()
}

/// The readout at `f` (0..=1 of the time axis) of the chart [`draw_on`] drew with the
/// same arguments.
pub fn readout_of(out: &Output, bands: Option<&Ensemble>, look: &Look, f: f64) -> Option<Readout> {
    match bands {
        Some(e) => band_readout(out, e, &look.hidden, look.lang, f),
        None => readout(out, &look.hidden, look.cost, look.lang, f),
    }
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
