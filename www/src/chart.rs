//! The recovery-window chart: attempts per second for every strategy against the
//! upstream's capacity, with the outage window shaded, drawn with plotters-canvas on a
//! canvas element the page passes in.
//!
//! Each second is a bucket, so every series is drawn as a step line over `[s, s+1)`;
//! that way the shaded outage `[from_s, to_s)` lines up exactly with the buckets it
//! covers. The canvas is sized in device pixels (CSS size × `devicePixelRatio`) and all
//! fonts and strokes are scaled by the same ratio, so the chart is sharp on high-DPI
//! screens; [`ChartHandle::readout`] maps a CSS-pixel mouse position back to a second.

use crate::{output_from_js, plain_error, to_js};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use retrystorm::classic::Output;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// One colour per strategy, in order; colour-blind friendly (Okabe–Ito, then Tableau).
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

/// The colour of strategy `i` as a CSS colour, so the page's legend matches the chart.
pub fn css_color(i: usize) -> String {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    format!("rgb({r},{g},{b})")
}

/// What the chart needs from the page besides the run's output.
#[derive(serde::Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct ChartOptions {
    /// Strategy indices not to draw.
    hidden: Vec<u32>,
    /// Device pixel ratio to draw at; the window's when absent (tests pass 1 or 2).
    dpr: Option<f64>,
}

/// A drawn chart: maps mouse positions back to seconds and values for the hover readout.
#[wasm_bindgen]
pub struct ChartHandle {
    to_data: CoordTrans,
    dpr: f64,
    names: Vec<String>,
    per_sec: Vec<Vec<u32>>,
    capacity: u32,
    hidden: Vec<u32>,
}

/// The hover readout for one second.
#[derive(Serialize)]
struct Readout {
    second: u32,
    capacity: u32,
    values: Vec<ReadoutValue>,
}

/// One strategy's value in the readout.
#[derive(Serialize)]
struct ReadoutValue {
    index: usize,
    name: String,
    color: String,
    attempts: u32,
    hidden: bool,
}

#[wasm_bindgen]
impl ChartHandle {
    /// The second and every strategy's attempts under a mouse position given in CSS
    /// pixels relative to the canvas; `null` outside the plotting area.
    pub fn readout(&self, css_x: f64, css_y: f64) -> Result<JsValue, JsValue> {
        let px = (
            (css_x * self.dpr).round() as i32,
            (css_y * self.dpr).round() as i32,
        );
        let Some((x, _)) = (self.to_data)(px) else {
            return Ok(JsValue::NULL);
        };
        let len = self.per_sec.first().map_or(0, Vec::len);
        if x < 0.0 || len == 0 {
            return Ok(JsValue::NULL);
        }
        let second = (x.floor() as usize).min(len - 1);
        let values = self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| ReadoutValue {
                index: i,
                name: name.clone(),
                color: css_color(i),
                attempts: self.per_sec[i][second],
                hidden: self.hidden.contains(&(i as u32)),
            })
            .collect();
        to_js(&Readout {
            second: second as u32,
            capacity: self.capacity,
            values,
        })
    }

    /// The CSS colour of every strategy, in order, for legends drawn in HTML.
    pub fn colors(&self) -> Vec<String> {
        (0..self.names.len()).map(css_color).collect()
    }
}

/// Draws the chart of `output` on `canvas` (sized by its CSS box) and returns its handle.
#[wasm_bindgen(js_name = drawChart)]
pub fn draw_chart(
    canvas: HtmlCanvasElement,
    output: JsValue,
    options: JsValue,
) -> Result<ChartHandle, JsValue> {
    let out = output_from_js(output)?;
    let opts: ChartOptions = if options.is_undefined() || options.is_null() {
        ChartOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(plain_error)?
    };
    let dpr = opts
        .dpr
        .or_else(|| web_sys::window().map(|w| w.device_pixel_ratio()))
        .filter(|d| d.is_finite() && *d > 0.0)
        .unwrap_or(1.0)
        .clamp(1.0, 4.0);
    // Size the backing store in device pixels; the CSS box keeps the layout size.
    let css_w = f64::from(canvas.client_width().max(200));
    let css_h = f64::from(canvas.client_height().max(150));
    canvas.set_width((css_w * dpr).round() as u32);
    canvas.set_height((css_h * dpr).round() as u32);
    let to_data = draw(&canvas, &out, &opts.hidden, dpr).map_err(plain_error)?;
    Ok(ChartHandle {
        to_data,
        dpr,
        names: out.results.iter().map(|r| r.name.clone()).collect(),
        per_sec: out.results.iter().map(|r| r.per_sec.clone()).collect(),
        capacity: out.scenario.capacity,
        hidden: opts.hidden,
    })
}

/// Maps a device pixel back to (second, attempts).
type CoordTrans = Box<dyn Fn((i32, i32)) -> Option<(f64, f64)>>;

fn draw(
    canvas: &HtmlCanvasElement,
    out: &Output,
    hidden: &[u32],
    dpr: f64,
) -> Result<CoordTrans, String> {
    let backend =
        CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2d context")?;
    let root = backend.into_drawing_area();
    let err = |e: DrawingAreaErrorKind<_>| format!("drawing the chart failed: {e:?}");
    root.fill(&WHITE).map_err(err)?;

    let s = |v: f64| (v * dpr).round() as u32;
    let sc = &out.scenario;
    let duration = f64::from(sc.duration_s.max(1));
    let capacity = f64::from(sc.capacity);
    let peak = out
        .results
        .iter()
        .enumerate()
        .filter(|(i, _)| !hidden.contains(&(*i as u32)))
        .map(|(_, r)| r.peak)
        .max()
        .unwrap_or(0);
    let y_max = (f64::from(peak).max(capacity) * 1.12).max(1.0);

    let font = |px: f64| ("sans-serif", px * dpr).into_font();
    let mut chart = ChartBuilder::on(&root)
        .margin(s(10.0))
        .x_label_area_size(s(34.0))
        .y_label_area_size(s(56.0))
        .build_cartesian_2d(0.0..duration, 0.0..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        // One light line between labelled ones: a denser grid costs a canvas stroke per
        // line on every redraw and adds nothing a reader uses.
        .max_light_lines(1)
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(220, 220, 220))
        .axis_style(RGBColor(120, 120, 120))
        .x_desc("second")
        .y_desc("attempts per second")
        .x_labels(12)
        .y_labels(8)
        .x_label_formatter(&|v| format!("{}", v.round() as i64))
        .y_label_formatter(&|v| format!("{}", v.round() as i64))
        .label_style(font(12.0))
        .axis_desc_style(font(12.0))
        .draw()
        .map_err(err)?;

    // Overload zone above capacity, then the outage window: background first.
    if y_max > capacity {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, capacity), (duration, y_max)],
                RGBColor(255, 140, 0).mix(0.06).filled(),
            )))
            .map_err(err)?;
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
            .map_err(err)?
            .label(format!("outage [{}, {})", sc.outage.from_s, sc.outage.to_s))
            .legend(move |(x, y)| {
                Rectangle::new(
                    [
                        (x, y - s(5.0) as i32),
                        (x + s(16.0) as i32, y + s(5.0) as i32),
                    ],
                    RGBColor(220, 50, 47).mix(0.3).filled(),
                )
            });
    }
    let cap_style = ShapeStyle::from(&RGBColor(40, 40, 40)).stroke_width(s(1.5));
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, capacity), (duration, capacity)],
            cap_style,
        )))
        .map_err(err)?
        .label(format!("capacity {}", sc.capacity))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(16.0) as i32, y)], cap_style));

    for (i, r) in out.results.iter().enumerate() {
        if hidden.contains(&(i as u32)) {
            continue;
        }
        let (cr, cg, cb) = PALETTE[i % PALETTE.len()];
        let style = ShapeStyle::from(&RGBColor(cr, cg, cb)).stroke_width(s(2.0));
        let steps = r.per_sec.iter().enumerate().flat_map(|(sec, &v)| {
            let (x, y) = (sec as f64, f64::from(v));
            [(x, y), (x + 1.0, y)]
        });
        chart
            .draw_series(LineSeries::new(steps, style))
            .map_err(err)?
            .label(r.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + s(16.0) as i32, y)], style));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(200, 200, 200))
        .label_font(font(12.0))
        .margin(s(8.0))
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(Box::new(chart.into_coord_trans()))
}

/// Colours for a legend drawn in HTML before any chart exists.
#[wasm_bindgen(js_name = seriesColors)]
pub fn series_colors(n: usize) -> Vec<String> {
    (0..n).map(css_color).collect()
}
