//! A time chart's legend, outside its plot so it never covers data: in a column to the
//! right of the plot on a wide canvas, in rows under it on a narrow one (a phone), where
//! a column would leave too little plot.
//!
//! Where the legend stands and where each entry goes is decided by [`layout`] from the
//! canvas width and the labels alone, before anything is drawn, so the choice is tested
//! without a browser; [`draw`] then draws the keys and labels on any plotters backend.

use crate::chart::{draw_error, font};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Canvases narrower than this (CSS pixels) put the legend under the plot.
pub const NARROW: f64 = 640.0;

/// The widest share of the canvas a legend column may take; a wider one goes under.
const MAX_COLUMN: f64 = 0.34;

/// A key's length, CSS pixels.
const KEY: f64 = 16.0;
/// From a key to its label, CSS pixels.
const KEY_GAP: f64 = 5.0;
/// Between two entries on one row, CSS pixels.
const SPACE: f64 = 14.0;
/// Around the legend, CSS pixels.
const PAD: f64 = 6.0;

/// Where the legend stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A column right of the plot.
    Right,
    /// Rows under the plot (and its axis).
    Below,
}

/// The legend's place: its side, the size it takes from the canvas and where each
/// entry starts, all in CSS pixels relative to the legend's own area.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Where the legend stands.
    pub side: Side,
    /// Its width (the column's, or the canvas's when below) and height.
    pub size: (f64, f64),
    /// Each entry's top left, in the labels' order.
    pub cells: Vec<(f64, f64)>,
    /// The height of one row.
    pub row: f64,
}

/// How wide `label` is drawn at `font_px`: an estimate from its characters (a CJK
/// character about one em, any other about 0.62 em), slightly generous so neighbours
/// never touch.
pub fn text_width(label: &str, font_px: f64) -> f64 {
    label
        .chars()
        .map(|c| if c > '\u{2E7F}' { 1.0 } else { 0.62 })
        .sum::<f64>()
        * font_px
}

/// The width one entry takes: its key, the gap and its label.
fn entry_width(label: &str, font_px: f64) -> f64 {
    KEY + KEY_GAP + text_width(label, font_px)
}

/// Where the legend of `labels` goes on a canvas `css_w` CSS pixels wide: a column to
/// the right when the canvas is at least [`NARROW`] wide and the column fits in a third
/// of it, else rows under the plot starting at `indent` (the plot's left edge), as many
/// entries on a row as fit. No labels, no legend (its size is zero).
pub fn layout(css_w: f64, indent: f64, labels: &[String], font_px: f64) -> Layout {
    if labels.is_empty() {
        return rows(css_w, indent, labels, font_px);
    }
    let column = column(labels, font_px);
    if css_w >= NARROW && column.size.0 <= css_w * MAX_COLUMN {
        column
    } else {
        rows(css_w, indent, labels, font_px)
    }
}

/// The legend of `labels` as a column, one entry a row, as wide as its widest entry (a
/// chart of several plots that chose the column for all of them). No labels, no legend.
pub fn column(labels: &[String], font_px: f64) -> Layout {
    let row = row_height(font_px);
    if labels.is_empty() {
        return none(Side::Right, row);
    }
    let widest = labels
        .iter()
        .map(|l| entry_width(l, font_px))
        .fold(0.0, f64::max);
    let cells = (0..labels.len())
        .map(|i| (PAD, PAD + i as f64 * row))
        .collect();
    Layout {
        side: Side::Right,
        size: (
            (widest + 2.0 * PAD).ceil(),
            2.0 * PAD + labels.len() as f64 * row,
        ),
        cells,
        row,
    }
}

/// The legend of `labels` in rows under a plot on a canvas `css_w` CSS pixels wide,
/// starting at `indent`, as many entries on a row as fit (a chart of several plots that
/// chose rows for all of them). No labels, no legend.
pub fn rows(css_w: f64, indent: f64, labels: &[String], font_px: f64) -> Layout {
    let row = row_height(font_px);
    if labels.is_empty() {
        return none(Side::Below, row);
    }
    let end = css_w - PAD;
    let (mut x, mut y) = (indent, PAD);
    let mut cells = Vec::with_capacity(labels.len());
    for l in labels {
        let w = entry_width(l, font_px);
        if x > indent && x + w > end {
            x = indent;
            y += row;
        }
        cells.push((x, y));
        x += w + SPACE;
    }
    Layout {
        side: Side::Below,
        size: (css_w, y + row + PAD),
        cells,
        row,
    }
}

/// The height of one legend row at `font_px`, CSS pixels.
fn row_height(font_px: f64) -> f64 {
    (font_px * 1.5).ceil()
}

/// No legend: nothing to draw, no room taken.
fn none(side: Side, row: f64) -> Layout {
    Layout {
        side,
        size: (0.0, 0.0),
        cells: Vec::new(),
        row,
    }
}

/// A legend key, as drawn before its label.
#[derive(Clone, Copy)]
pub enum Key {
    /// A short line in the series' style, dashed `(dash, gap)` CSS pixels as the series is.
    Line(ShapeStyle, Option<(f64, f64)>),
    /// A filled box (a shaded zone, stacked bars).
    Box(ShapeStyle),
}

/// One legend entry: its key and its text.
#[derive(Clone)]
pub struct Entry {
    /// What is drawn before the label.
    pub key: Key,
    /// The text.
    pub label: String,
}

/// Draws `entries` at the places `layout` gave them, on `area` (the legend's own area,
/// any backend), labels at `font_px`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    layout: &Layout,
    font_px: f64,
    dpr: f64,
) -> Result<(), String> {
    let px = |v: f64| (v * dpr).round() as i32;
    for (e, &(x, y)) in entries.iter().zip(&layout.cells) {
        let mid = y + layout.row / 2.0;
        match e.key {
            Key::Line(style, None) => area
                .draw(&PathElement::new(
                    vec![(px(x), px(mid)), (px(x + KEY), px(mid))],
                    style,
                ))
                .map_err(draw_error)?,
            Key::Line(style, Some((dash, gap))) => {
                // The dash drawn as the line's own, scaled down to fit the key twice.
                let scale = (KEY / (2.0 * (dash + gap))).min(1.0);
                let mut at = x;
                while at < x + KEY {
                    let to = (at + dash * scale).min(x + KEY);
                    area.draw(&PathElement::new(
                        vec![(px(at), px(mid)), (px(to), px(mid))],
                        style,
                    ))
                    .map_err(draw_error)?;
                    at = to + gap * scale;
                }
            }
            Key::Box(style) => area
                .draw(&Rectangle::new(
                    [(px(x), px(mid - 5.0)), (px(x + KEY), px(mid + 5.0))],
                    style,
                ))
                .map_err(draw_error)?,
        }
        let top = y + (layout.row - font_px) / 2.0;
        area.draw(&Text::new(
            e.label.clone(),
            (px(x + KEY + KEY_GAP), px(top)),
            font(font_px, dpr),
        ))
        .map_err(draw_error)?;
    }
    Ok(())
}

/// Splits `root` (`css` CSS pixels) into the plot's area and the legend's, as `layout`
/// places it.
pub fn split<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    css: (f64, f64),
    layout: &Layout,
    dpr: f64,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let px = |v: f64| (v * dpr).round() as i32;
    match layout.side {
        Side::Right => root.split_horizontally(px(css.0 - layout.size.0)),
        Side::Below => root.split_vertically(px(css.1 - layout.size.1)),
    }
}
