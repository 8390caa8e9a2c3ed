//! What both models' charts share: the palette, the canvas sized in device pixels, the
//! look of legends and legend keys, and the handle a drawn chart returns for the hover
//! readout.
//!
//! The canvas is sized in device pixels (CSS size × `devicePixelRatio`) and all fonts
//! and strokes are scaled by the same ratio, so a chart is sharp on high-DPI screens;
//! [`ChartHandle::readout`] maps a CSS-pixel mouse position back to the data.

use crate::{plain_error, to_js};
use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::CoordTranslate;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// One colour per series, in order; colour-blind friendly (Okabe–Ito, then Tableau).
pub const PALETTE: [(u8, u8, u8); 12] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (117, 112, 179),
    (140, 86, 75),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
    (0, 0, 0),
];

/// The colour of series `i`.
pub fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The colour of series `i` as a CSS colour, so the page's legends match the chart.
pub fn css_color(i: usize) -> String {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    format!("rgb({r},{g},{b})")
}

/// Colours for a legend drawn in HTML before any chart exists.
#[wasm_bindgen(js_name = seriesColors)]
pub fn series_colors(n: usize) -> Vec<String> {
    (0..n).map(css_color).collect()
}

/// What a chart needs from the page besides the run.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct ChartOptions {
    /// Series indices not to draw (the classic strategies).
    pub hidden: Vec<u32>,
    /// Device pixel ratio to draw at; the window's when absent (tests pass 1 or 2).
    pub dpr: Option<f64>,
    /// Draws the cost per second instead of attempts per second (the classic chart;
    /// strategies without a cost model have no cost line).
    pub cost: bool,
}

impl ChartOptions {
    /// Reads the options object (`undefined` or `null` for none).
    pub fn from_js(v: JsValue) -> Result<ChartOptions, JsValue> {
        if v.is_undefined() || v.is_null() {
            return Ok(ChartOptions::default());
        }
        serde_wasm_bindgen::from_value(v).map_err(plain_error)
    }

    /// The ratio to draw at: the option, else the window's, within 1..=4.
    pub fn ratio(&self) -> f64 {
        self.dpr
            .or_else(|| web_sys::window().map(|w| w.device_pixel_ratio()))
            .filter(|d| d.is_finite() && *d > 0.0)
            .unwrap_or(1.0)
            .clamp(1.0, 4.0)
    }
}

/// Sizes the canvas's backing store in device pixels for a CSS box of `css_w × css_h`
/// and returns the drawing area over it (filled white).
pub fn area(
    canvas: &HtmlCanvasElement,
    (css_w, css_h): (f64, f64),
    dpr: f64,
) -> Result<DrawingArea<CanvasBackend, plotters::coord::Shift>, String> {
    canvas.set_width((css_w * dpr).round() as u32);
    canvas.set_height((css_h * dpr).round() as u32);
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(draw_error)?;
    Ok(root)
}

/// The message of a failed drawing call.
pub fn draw_error<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing the chart failed: {e:?}")
}

/// A sans-serif font of `px` CSS pixels.
pub fn font(px: f64, dpr: f64) -> FontDesc<'static> {
    ("sans-serif", px * dpr).into_font()
}

/// A legend key: a short line in `style`, `w` CSS pixels long.
pub fn line_key(
    style: ShapeStyle,
    w: f64,
    dpr: f64,
) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    let w = (w * dpr).round() as i32;
    move |(x, y)| PathElement::new(vec![(x, y), (x + w, y)], style)
}

/// A legend key: a filled box `w` CSS pixels wide.
pub fn box_key(
    style: ShapeStyle,
    w: f64,
    dpr: f64,
) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    let (w, h) = ((w * dpr).round() as i32, (5.0 * dpr).round() as i32);
    move |(x, y)| Rectangle::new([(x, y - h), (x + w, y + h)], style)
}

/// Draws the series legend in the upper right, in the shared look.
pub fn legend<CT: CoordTranslate>(
    chart: &mut ChartContext<'_, CanvasBackend, CT>,
    font_px: f64,
    margin_px: f64,
    dpr: f64,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font(font(font_px, dpr))
        .margin((margin_px * dpr).round() as u32)
        .draw()
        .map_err(draw_error)
}

/// The grid and axes of every time chart, in the shared look: light and bold grid lines,
/// grey axes, `x_labels` ticks on the time axis and `y_labels` on the value axis, whole
/// numbers on the value axis.
pub fn time_mesh<'a, 'b>(
    chart: &'b mut TimeChart<'a>,
    (x_labels, y_labels): (usize, usize),
) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, CanvasBackend> {
    let mut mesh = chart.configure_mesh();
    mesh.light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(220, 220, 220))
        .axis_style(RGBColor(120, 120, 120))
        .x_labels(x_labels)
        .y_labels(y_labels)
        .y_label_formatter(&|v| format!("{}", v.round() as i64));
    mesh
}

/// A chart over seconds (x) and a value (y).
pub type TimeChart<'a> =
    ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws a capacity line at `y` across the chart's `0..duration` seconds, with a legend
/// entry `label` (a key `key_w` CSS pixels long).
pub fn capacity_line(
    chart: &mut TimeChart<'_>,
    (duration, y): (f64, f64),
    label: String,
    key_w: f64,
    dpr: f64,
) -> Result<(), String> {
    let style = ShapeStyle::from(&RGBColor(40, 40, 40)).stroke_width((1.5 * dpr).round() as u32);
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, y), (duration, y)],
            style,
        )))
        .map_err(draw_error)?
        .label(label)
        .legend(line_key(style, key_w, dpr));
    Ok(())
}

/// The hover readout at one bucket (a second of the classic model): a title and
/// labelled, formatted values.
#[derive(Serialize)]
pub struct Readout {
    /// The bucket's index.
    pub bucket: usize,
    /// What the readout is about (the second, the time span).
    pub title: String,
    /// One line per value.
    pub rows: Vec<ReadoutRow>,
}

/// One line of the readout.
#[derive(Serialize)]
pub struct ReadoutRow {
    /// What the value is.
    pub label: String,
    /// The value, formatted.
    pub value: String,
    /// The series colour (CSS).
    pub color: String,
    /// Whether the value is alarming (over capacity, failures).
    pub alarm: bool,
}

/// The readout at a position along the time axis, 0..=1 of the plotting width.
pub type ReadoutAt = Box<dyn Fn(f64) -> Option<Readout>>;

/// A drawn chart: maps mouse positions back to the data under them.
#[wasm_bindgen]
pub struct ChartHandle {
    dpr: f64,
    x_px: (i32, i32),
    y_px: (i32, i32),
    at: ReadoutAt,
}

impl ChartHandle {
    /// A handle for a chart whose time axis spans device pixels `x_px`, and whose panels
    /// span `y_px` vertically.
    pub fn new(dpr: f64, x_px: (i32, i32), y_px: (i32, i32), at: ReadoutAt) -> ChartHandle {
        ChartHandle {
            dpr,
            x_px,
            y_px,
            at,
        }
    }
}

#[wasm_bindgen]
impl ChartHandle {
    /// The readout `{bucket, title, rows: [{label, value, color, alarm}]}` under a mouse
    /// position in CSS pixels relative to the canvas; `null` outside the plotting area.
    #[wasm_bindgen(unchecked_return_type = "Readout | null")]
    pub fn readout(&self, css_x: f64, css_y: f64) -> Result<JsValue, JsValue> {
        let (x, y) = (
            (css_x * self.dpr).round() as i32,
            (css_y * self.dpr).round() as i32,
        );
        let ((x0, x1), (y0, y1)) = (self.x_px, self.y_px);
        if x < x0 || x > x1 || y < y0 || y > y1 || x1 <= x0 {
            return Ok(JsValue::NULL);
        }
        match (self.at)(f64::from(x - x0) / f64::from(x1 - x0)) {
            Some(r) => to_js(&r),
            None => Ok(JsValue::NULL),
        }
    }
}
