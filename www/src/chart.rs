//! What both models' charts share: the palette, the canvas sized in device pixels, the
//! look of legends and legend keys, and the handle a drawn chart returns for the hover
//! readout.
//!
//! The canvas is sized in device pixels (CSS size × `devicePixelRatio`) and all fonts
//! and strokes are scaled by the same ratio, so a chart is sharp on high-DPI screens;
//! [`ChartHandle::readout`] maps a CSS-pixel mouse position back to the data.

use crate::js::{js_error, json_from_js, to_js};
use plotters::chart::{MeshStyle, SeriesAnno};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::CoordTranslate;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use retrystorm::lang::Lang;
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
    /// `"dark"` for the dark theme (the page's `theme=dark` or `prefers-color-scheme`),
    /// else light.
    pub theme: Option<String>,
    /// The page's language, `"zh"` or `"en"` (the default): every text drawn in the
    /// chart and its readout comes from [`crate::chart_text`] in it.
    pub lang: Option<String>,
}

/// The colours of a chart's paper and ink; the series keep their colour-blind-safe
/// palette in either theme.
#[derive(Clone, Copy)]
pub struct Theme {
    /// The chart's background.
    pub paper: RGBColor,
    /// Labels, captions and legend text.
    pub text: RGBColor,
    /// Quieter captions (the cluster's breaker bands).
    pub muted: RGBColor,
    /// Light and bold grid lines.
    pub grid: (RGBColor, RGBColor),
    /// Axes.
    pub axis: RGBColor,
    /// Reference lines: capacity, run A of a comparison.
    pub ink: RGBColor,
    /// The legend box's border.
    pub legend_border: RGBColor,
}

impl Theme {
    /// A theme from its colours in the order of the fields: paper, text, muted, light
    /// grid, bold grid, axis, ink, legend border.
    const fn of(c: [(u8, u8, u8); 8]) -> Theme {
        const fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
            RGBColor(r, g, b)
        }
        Theme {
            paper: rgb(c[0]),
            text: rgb(c[1]),
            muted: rgb(c[2]),
            grid: (rgb(c[3]), rgb(c[4])),
            axis: rgb(c[5]),
            ink: rgb(c[6]),
            legend_border: rgb(c[7]),
        }
    }
}

/// The light theme: the charts as they always were.
#[rustfmt::skip]
pub const LIGHT: Theme = Theme::of([
    (255, 255, 255), (0, 0, 0), (70, 70, 70), (238, 238, 238), (220, 220, 220),
    (120, 120, 120), (40, 40, 40), (200, 200, 200),
]);

/// The dark theme: the page's dark background (`--bg` in style.css), light ink.
#[rustfmt::skip]
pub const DARK: Theme = Theme::of([
    (20, 23, 29), (230, 232, 236), (180, 184, 192), (40, 44, 52), (62, 67, 78),
    (150, 155, 165), (225, 228, 234), (80, 86, 98),
]);

thread_local! {
    // The theme of the chart being drawn: set by `area` at the start of every drawing,
    // read by the shared helpers (fonts, grid, legend), so both models' drawing code
    // takes the theme from the one option without passing it to every panel.
    static CURRENT: std::cell::Cell<Theme> = const { std::cell::Cell::new(LIGHT) };
}

/// The theme of the chart being drawn.
pub fn theme() -> Theme {
    CURRENT.with(std::cell::Cell::get)
}

impl ChartOptions {
    /// Reads the options object (`undefined` or `null` for none).
    pub fn from_js(v: JsValue) -> Result<ChartOptions, JsValue> {
        if v.is_undefined() || v.is_null() {
            return Ok(ChartOptions::default());
        }
        let doc = json_from_js(&v).map_err(|e| js_error(&e))?;
        retrystorm::validate::from_value(&doc).map_err(|e| js_error(&e))
    }

    /// The ratio to draw at: the option, else the window's, within 1..=4.
    pub fn ratio(&self) -> f64 {
        self.dpr
            .or_else(|| web_sys::window().map(|w| w.device_pixel_ratio()))
            .filter(|d| d.is_finite() && *d > 0.0)
            .unwrap_or(1.0)
            .clamp(1.0, 4.0)
    }

    /// The language asked for: Chinese for `"zh"`, else English.
    pub fn lang(&self) -> Lang {
        crate::js::page_lang(self.lang.as_deref())
    }

    /// The theme asked for: dark for `"dark"`, else light.
    pub fn theme(&self) -> Theme {
        if self.theme.as_deref() == Some("dark") {
            DARK
        } else {
            LIGHT
        }
    }
}

/// Sizes the canvas's backing store in device pixels for a CSS box of `css_w × css_h`
/// and returns the drawing area over it (filled with `theme`'s paper, the theme of
/// everything drawn until the next call).
pub fn area(
    canvas: &HtmlCanvasElement,
    css: (f64, f64),
    dpr: f64,
    theme: Theme,
) -> Result<DrawingArea<CanvasBackend, plotters::coord::Shift>, String> {
    let root = canvas_root(canvas, css, dpr)?;
    paint(&root, theme)?;
    Ok(root)
}

/// Sizes the canvas's backing store in device pixels for a CSS box of `css_w × css_h`
/// and returns the drawing area over it, unpainted (for a drawer that paints itself).
pub fn canvas_root(
    canvas: &HtmlCanvasElement,
    (css_w, css_h): (f64, f64),
    dpr: f64,
) -> Result<DrawingArea<CanvasBackend, plotters::coord::Shift>, String> {
    canvas.set_width((css_w * dpr).round() as u32);
    canvas.set_height((css_h * dpr).round() as u32);
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2d context")?;
    Ok(backend.into_drawing_area())
}

/// Fills `root` with `theme`'s paper and makes `theme` the one of everything drawn until
/// the next call, on any backend (the canvas in the page, SVG in the native tests).
pub fn paint<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    theme: Theme,
) -> Result<(), String> {
    CURRENT.with(|c| c.set(theme));
    root.fill(&theme.paper).map_err(draw_error)
}

/// The message of a failed drawing call.
pub fn draw_error<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing the chart failed: {e:?}")
}

/// A sans-serif font of `px` CSS pixels, in the theme's text colour.
pub fn font(px: f64, dpr: f64) -> TextStyle<'static> {
    ("sans-serif", px * dpr).into_font().color(&theme().text)
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

/// A legend inside a plot's `position` corner, in the shared look (the sweep charts,
/// which choose the corner with the fewest points).
pub fn legend_at<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
    font_px: f64,
    margin_px: f64,
    dpr: f64,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(theme().paper.mix(0.85))
        .border_style(theme().legend_border)
        .label_font(font(font_px, dpr))
        .margin((margin_px * dpr).round() as u32)
        .draw()
        .map_err(draw_error)
}

/// The grid and axes of every time chart, in the shared look: light and bold grid lines,
/// grey axes, `x_labels` ticks on the time axis and `y_labels` on the value axis, whole
/// numbers on the value axis.
pub fn time_mesh<'a, 'b, DB: DrawingBackend + 'a>(
    chart: &'b mut TimeChart<'a, DB>,
    (x_labels, y_labels): (usize, usize),
) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, DB> {
    let mut mesh = chart.configure_mesh();
    let th = theme();
    mesh.light_line_style(th.grid.0)
        .bold_line_style(th.grid.1)
        .axis_style(th.axis)
        .x_labels(x_labels)
        .y_labels(y_labels)
        .y_label_formatter(&|v| format!("{}", v.round() as i64));
    mesh
}

/// A chart over seconds (x) and a value (y), on the page's canvas unless `DB` says
/// otherwise.
pub type TimeChart<'a, DB = CanvasBackend> =
    ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The capacity line's look, in both models' charts and their legends.
pub fn capacity_style(dpr: f64) -> ShapeStyle {
    ShapeStyle::from(&theme().ink).stroke_width((1.5 * dpr).round() as u32)
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

/// A drawn chart: maps mouse positions back to the data under them, and keyboard
/// positions (a bucket's index) to the same readout.
#[wasm_bindgen]
pub struct ChartHandle {
    dpr: f64,
    x_px: (i32, i32),
    y_px: (i32, i32),
    /// The middle of every bucket (a second of the classic model), 0..=1 of the time axis.
    centres: Vec<f64>,
    at: ReadoutAt,
    /// The device-pixel rows the cursor line spans: the plot's (every panel's on a
    /// chart of panels).
    cursor_y: (i32, i32),
}

impl ChartHandle {
    /// A handle for a chart whose time axis spans device pixels `x_px`, whose panels
    /// span `y_px` vertically, and whose buckets have their middles at `centres`.
    pub fn new(
        dpr: f64,
        x_px: (i32, i32),
        y_px: (i32, i32),
        centres: Vec<f64>,
        at: ReadoutAt,
    ) -> ChartHandle {
        ChartHandle {
            dpr,
            x_px,
            y_px,
            centres,
            at,
            cursor_y: y_px,
        }
    }

    /// The handle with its cursor line over device-pixel rows `y_px` rather than the
    /// rows the readout answers in (a chart of panels answers at any height).
    pub fn with_cursor(mut self, y_px: (i32, i32)) -> ChartHandle {
        self.cursor_y = y_px;
        self
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

    /// How many positions the keyboard steps through: the buckets (seconds) drawn.
    pub fn positions(&self) -> usize {
        self.centres.len()
    }

    /// The readout of bucket `i`: the one the mouse gets anywhere over that bucket,
    /// since it is read at the bucket's middle through the same function; `null` past
    /// the last bucket.
    #[wasm_bindgen(js_name = readoutAt, unchecked_return_type = "Readout | null")]
    pub fn readout_at(&self, i: usize) -> Result<JsValue, JsValue> {
        match self.centres.get(i).and_then(|&f| (self.at)(f)) {
            Some(r) => to_js(&r),
            None => Ok(JsValue::NULL),
        }
    }

    /// The CSS pixel rows `[top, bottom]` the cursor line spans at a readout: the plot's
    /// height, so the line marks the bucket read out without crossing the legend.
    #[wasm_bindgen(js_name = cursorSpan)]
    pub fn cursor_span(&self) -> Vec<f64> {
        let (y0, y1) = self.cursor_y;
        vec![f64::from(y0) / self.dpr, f64::from(y1) / self.dpr]
    }

    /// The CSS x pixel of bucket `i`'s middle (where the keyboard's readout stands).
    #[wasm_bindgen(js_name = positionX)]
    pub fn position_x(&self, i: usize) -> f64 {
        let (x0, x1) = self.x_px;
        let f = self.centres.get(i).copied().unwrap_or(0.0);
        (f64::from(x0) + f * f64::from(x1 - x0)) / self.dpr
    }
}

/// One point of a band: at `x`, the shaded range `lo..=hi` and the line's value `mid`.
pub type BandPoint = (f64, f64, f64, f64);

/// How opaque a band's shaded range is over light paper and over dark paper (where the
/// same tint of a series colour needs more to show); its line is drawn solid.
const BAND_ALPHA: (f64, f64) = (0.22, 0.4);

/// Draws a band: the range `lo..=hi` of `points` shaded in `colour`, and a line through
/// their `mid` over it, `width` CSS pixels wide; returns the line's series for its
/// legend entry. Generic over the points (a step line's doubled x's, a sweep's
/// parameter values), so every banded chart draws its bands alike.
pub fn band<'a, 'b, DB: DrawingBackend + 'a>(
    chart: &'b mut TimeChart<'a, DB>,
    points: &[BandPoint],
    colour: RGBColor,
    width: f64,
    dpr: f64,
) -> Result<&'b mut SeriesAnno<'a, DB>, String> {
    // The range as one polygon: along the top forwards, back along the bottom.
    let outline: Vec<(f64, f64)> = points
        .iter()
        .map(|&(x, _, _, hi)| (x, hi))
        .chain(points.iter().rev().map(|&(x, lo, _, _)| (x, lo)))
        .collect();
    let paper = theme().paper;
    let dark = u32::from(paper.0) + u32::from(paper.1) + u32::from(paper.2) < 3 * 128;
    let alpha = if dark { BAND_ALPHA.1 } else { BAND_ALPHA.0 };
    if outline.len() >= 3 {
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                colour.mix(alpha).filled(),
            )))
            .map_err(draw_error)?;
    }
    let style = ShapeStyle::from(&colour).stroke_width((width * dpr).round() as u32);
    chart
        .draw_series(LineSeries::new(
            points.iter().map(|&(x, _, mid, _)| (x, mid)),
            style,
        ))
        .map_err(draw_error)
}

/// The points of a banded step line: each bucket's `(p5, median, p95)` held flat over
/// its span `(x0, x1)`, as the charts draw their per-bucket series.
pub fn step_band(
    spans: impl IntoIterator<Item = (f64, f64)>,
    values: impl IntoIterator<Item = (f64, f64, f64)>,
) -> Vec<BandPoint> {
    spans
        .into_iter()
        .zip(values)
        .flat_map(|((x0, x1), (lo, mid, hi))| [(x0, lo, mid, hi), (x1, lo, mid, hi)])
        .collect()
}

/// The corner of a plot whose legend would hide the least of its lines: of the four, the
/// one whose legend-sized box (`size`, device pixels, inset by `margin`) holds the fewest
/// of `points` (device pixels, sampled along the lines), the upper right on a tie. A
/// sweep's lines run across the whole width, so the usual upper right often hides one.
pub fn quiet_corner(
    plot: (std::ops::Range<i32>, std::ops::Range<i32>),
    size: (i32, i32),
    margin: i32,
    points: &[(i32, i32)],
) -> SeriesLabelPosition {
    let (xs, ys) = plot;
    let (w, h) = size;
    let corners = [
        (
            SeriesLabelPosition::UpperRight,
            xs.end - margin - w,
            ys.start + margin,
        ),
        (
            SeriesLabelPosition::UpperLeft,
            xs.start + margin,
            ys.start + margin,
        ),
        (
            SeriesLabelPosition::LowerRight,
            xs.end - margin - w,
            ys.end - margin - h,
        ),
        (
            SeriesLabelPosition::LowerLeft,
            xs.start + margin,
            ys.end - margin - h,
        ),
    ];
    let covered = |x0: i32, y0: i32| {
        points
            .iter()
            .filter(|&&(x, y)| (x0..=x0 + w).contains(&x) && (y0..=y0 + h).contains(&y))
            .count()
    };
    let mut best = (usize::MAX, SeriesLabelPosition::UpperRight);
    for (pos, x0, y0) in corners {
        let n = covered(x0, y0);
        if n < best.0 {
            best = (n, pos);
        }
    }
    best.1
}

/// Device-pixel points every `step` pixels along the polyline through `line` (device
/// pixels), so a long flat segment counts where it runs and not only at its ends.
pub fn sample_line(line: &[(i32, i32)], step: f64, out: &mut Vec<(i32, i32)>) {
    for pair in line.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
        let n = ((dx.hypot(dy) / step.max(1.0)).ceil() as i32).max(1);
        for k in 0..n {
            let t = f64::from(k) / f64::from(n);
            out.push((x0 + (dx * t).round() as i32, y0 + (dy * t).round() as i32));
        }
    }
    out.extend(line.last());
}

/// The size in device pixels a legend of `labels` takes at `font_px` with `margin_px`
/// around it and a `key_px` key before each label: an estimate from the labels' display
/// widths (a CJK character about one em, any other about 0.6 em), slightly generous.
pub fn legend_size(
    labels: &[String],
    font_px: f64,
    margin_px: f64,
    key_px: f64,
    dpr: f64,
) -> (i32, i32) {
    let widest = labels
        .iter()
        .map(|l| {
            l.chars()
                .map(|c| if c > '\u{2E7F}' { 1.0 } else { 0.6 })
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    let w = widest * font_px + key_px + 4.0 * margin_px;
    let h = labels.len() as f64 * (font_px * 1.25 + margin_px) + 2.0 * margin_px;
    ((w * dpr).ceil() as i32, (h * dpr).ceil() as i32)
}
