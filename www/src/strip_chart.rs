//! An ensemble's distribution plot: for one metric, a strip per group (strategy, or the
//! run and each tier) with a dot per seed at its value, so a two-humped result shows as
//! two clusters. Dots are spread vertically by seed index (not at random), so a redraw
//! puts every dot where it was, and [`seed_at`] finds the dot under the pointer with the
//! same layout the drawing used.

use crate::chart::{canvas_root, color, draw_error, font, paint, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use retrystorm::ensemble::{render::num, Ensemble};
use std::f64::consts::TAU;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Height of one group's strip, in CSS pixels.
pub const ROW_PX: f64 = 28.0;
const LEFT_PX: f64 = 150.0;
const RIGHT_PX: f64 = 16.0;
const AXIS_PX: f64 = 22.0;
const DOT_PX: f64 = 3.0;

/// Where everything goes, in CSS pixels: shared by the drawing and the hit test.
struct Layout {
    width: f64,
    lo: f64,
    hi: f64,
    /// Per group, its name and its (seed index, value) dots.
    rows: Vec<(String, Vec<(usize, f64)>)>,
}

impl Layout {
    fn of(e: &Ensemble, metric: &str, width: f64) -> Layout {
        let rows: Vec<(String, Vec<(usize, f64)>)> = e
            .groups
            .iter()
            .filter_map(|g| {
                let m = g.metrics.iter().find(|m| m.metric == metric)?;
                let dots = m
                    .values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| v.map(|v| (i, v)))
                    .collect();
                Some((g.name.clone(), dots))
            })
            .collect();
        let all = rows.iter().flat_map(|r| r.1.iter().map(|d| d.1));
        let (mut lo, mut hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        if hi - lo < 1e-9 {
            (lo, hi) = (lo - 0.5, hi + 0.5);
        }
        Layout {
            width,
            lo,
            hi,
            rows,
        }
    }

    fn height(&self) -> f64 {
        self.rows.len().max(1) as f64 * ROW_PX + AXIS_PX
    }

    fn x(&self, v: f64) -> f64 {
        LEFT_PX + (v - self.lo) / (self.hi - self.lo) * (self.width - LEFT_PX - RIGHT_PX).max(1.0)
    }

    /// The dot's vertical place in its strip: spread by seed index over the strip's
    /// middle, a fixed pattern so redraws and hit tests agree.
    fn y(&self, row: usize, seed_index: usize) -> f64 {
        let spread = ((seed_index * 7919) % 97) as f64 / 96.0 - 0.5;
        row as f64 * ROW_PX + ROW_PX / 2.0 + spread * (ROW_PX - 2.0 * DOT_PX - 4.0)
    }
}

/// The CSS height the plot of `metric` needs.
pub fn height(e: &Ensemble, metric: &str) -> f64 {
    Layout::of(e, metric, 0.0).height()
}

/// Draws the distribution of `metric` on `canvas` (its CSS width; the height is
/// [`height`]).
pub fn draw(
    canvas: &HtmlCanvasElement,
    e: &Ensemble,
    metric: &str,
    dpr: f64,
    theme: Theme,
) -> Result<(), String> {
    let width = f64::from(canvas.client_width().max(300));
    let root = canvas_root(canvas, (width, height(e, metric)), dpr)?;
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the canvas has no 2d context")?;
    // The dots straight on the context, each as plotters would draw it (its own path,
    // filled, so overlapping dots darken), but with the colour set once per strip: at
    // 10,000 seeds plotters' per-dot colour string, parsed again by the canvas, was a
    // third of the drawing's time.
    let dots = |style: RGBAColor, radius: i32, at: &[(i32, i32)]| {
        let (r, g, b) = style.rgb();
        context.set_fill_style_str(&format!("rgba({r},{g},{b},{})", style.alpha()));
        for &(x, y) in at {
            context.begin_path();
            context
                .arc(f64::from(x), f64::from(y), f64::from(radius), 0.0, TAU)
                .map_err(draw_error)?;
            context.fill();
        }
        Ok(())
    };
    draw_with(&root, e, metric, width, dpr, theme, dots)?;
    root.present().map_err(draw_error)
}

/// Draws the distribution of `metric`, `width` CSS pixels wide, on `root` (any plotters
/// backend: the page's canvas, SVG in the tests), painting it first.
pub fn draw_on<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &Ensemble,
    metric: &str,
    width: f64,
    dpr: f64,
    theme: Theme,
) -> Result<(), String> {
    let dots = |style: RGBAColor, radius: i32, at: &[(i32, i32)]| {
        for &p in at {
            root.draw(&Circle::new(p, radius, style.filled()))
                .map_err(draw_error)?;
        }
        Ok(())
    };
    draw_with(root, e, metric, width, dpr, theme, dots)
}

/// [`draw_on`] with each strip's dots (their colour, radius and backend pixels) drawn by
/// `dots`, in order: a strip's label and line, then its dots, then the next strip.
fn draw_with<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    e: &Ensemble,
    metric: &str,
    width: f64,
    dpr: f64,
    theme: Theme,
    mut dots: impl FnMut(RGBAColor, i32, &[(i32, i32)]) -> Result<(), String>,
) -> Result<(), String> {
    paint(root, theme)?;
    let l = Layout::of(e, metric, width);
    let px = |x: f64, y: f64| ((x * dpr).round() as i32, (y * dpr).round() as i32);
    let text = font(12.0, dpr);
    let grey = theme.grid.1;
    let radius = (DOT_PX * dpr).round() as i32;
    for (r, (name, row)) in l.rows.iter().enumerate() {
        let mid = r as f64 * ROW_PX + ROW_PX / 2.0;
        let label: String = name.chars().take(22).collect();
        root.draw(&Text::new(label, px(4.0, mid - 7.0), text.clone()))
            .map_err(draw_error)?;
        root.draw(&PathElement::new(
            vec![px(LEFT_PX, mid), px(width - RIGHT_PX, mid)],
            grey.stroke_width(1),
        ))
        .map_err(draw_error)?;
        let at: Vec<(i32, i32)> = row.iter().map(|&(i, v)| px(l.x(v), l.y(r, i))).collect();
        dots(color(r).mix(0.55), radius, &at)?;
    }
    let axis_y = l.rows.len().max(1) as f64 * ROW_PX + 4.0;
    for (v, anchor) in [(l.lo, 0.0), (l.hi, 1.0)] {
        let s = num(v);
        let w = s.chars().count() as f64 * 6.5 * anchor;
        root.draw(&Text::new(s, px(l.x(v) - w, axis_y), text.clone()))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// The index of the seed whose dot is nearest the CSS point `(x, y)` of a plot of
/// `metric` drawn `width` CSS pixels wide, if one is within a few pixels.
pub fn seed_at(e: &Ensemble, metric: &str, width: f64, x: f64, y: f64) -> Option<usize> {
    let l = Layout::of(e, metric, width);
    let r = (y / ROW_PX).floor();
    if r < 0.0 || r as usize >= l.rows.len() {
        return None;
    }
    let r = r as usize;
    l.rows[r]
        .1
        .iter()
        .map(|&(i, v)| (i, (l.x(v) - x).hypot(l.y(r, i) - y)))
        .filter(|d| d.1 <= DOT_PX + 3.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|d| d.0)
}
