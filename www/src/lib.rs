//! Thin wasm-bindgen glue between the `retrystorm` engine and the browser playground.
//!
//! Every number, default, range, message and formatted cell comes from the engine
//! crate; this crate only converts values at the boundary. The two models export the
//! same shape:
//! - `classicDefaults` / `clusterDefaults`, `classicValidate` / `clusterValidate`;
//! - a run result is a Rust object held by JS, [`classic::ClassicRun`] /
//!   [`cluster::ClusterRun`], with the same methods (`table`, `markdown`, `csv`, `draw`,
//!   `toJSON`, `jsonText`, `fromJSON`). A run made in a Web Worker crosses to the page
//!   once, as the JSON text of the CLI's `run --json`, and is parsed once there;
//!   nothing is converted back and forth per table or per draw.
//!
//! Inputs (scenarios) are read through JSON text and the engine's own types (so
//! `deny_unknown_fields` applies to what the page sends); outputs are plain JS objects
//! (serde_json's text through `JSON.parse`, never `Map`s); a seed above 2^53 travels as a
//! string; every error is a real JS `Error` whose message is the engine's, with the
//! offending `field`, `value` and `allowed` attached when there are any.

pub mod chart;
pub mod chart_text;
pub mod classic;
pub mod classic_chart;
pub mod cluster;
pub mod cluster_chart;
pub mod cluster_legend;
pub mod cluster_look;
pub mod edit;
pub mod estimate;
pub mod flat;
pub mod js;
pub mod js_error;
pub mod legend;
pub mod plan;
pub mod preview;
pub mod strip_chart;
pub mod sweep_chart;

use js::{js_error, js_error_in, json_from_js, page_lang, plain_error, to_js};
use retrystorm::lang::Lang;
use retrystorm::share::{self, ShareState};
use retrystorm::ValidationError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// TypeScript types of the plain objects the exports return (wasm-bindgen's `.d.ts`
/// would say `any`); the page's type check (`tsc -p www`) reads them.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A table formatted by the engine: every cell is a string. */
export interface Table { columns: string[]; rows: string[][] }
/** One validation problem, at a field path such as `tiers[1].client.budget.percent`. */
export interface Problem { field: string; value: string; allowed: string; message: string; kind: string }
/** A chart's hover readout at one bucket. */
export interface Readout {
  bucket: number;
  title: string;
  rows: { label: string; value: string; color: string; alarm: boolean }[];
}
/** What a table's column or a summary's figure means, ending with its unit. */
export interface GlossaryEntry { term: string; meaning: string }
/** A cluster run's glossary: the summary's rows, the per-tier and per-route columns. */
export interface ClusterGlossary { summary: GlossaryEntry[]; tiers: GlossaryEntry[]; routes: GlossaryEntry[] }
/** One of the article's acceptance checks; `pass` is null when it does not apply. */
export interface Verdict { name: string; pass: boolean | null; detail: string }
/** The waits before one retry in the delay preview, ms. */
export interface RetryDelays { retry: number; min: number; p25: number; median: number; p75: number; max: number; samples: number[] }
/** A bundled scenario. */
export interface Preset { id: string; title: string; description: string; model: "classic" | "cluster"; scenario: any; seeds?: number }
"#;

/// Reads a seed given as a JS number (an exact integer), a decimal string or a BigInt,
/// for either model; `undefined`/`null` mean `default` (the scenario's own seed).
pub fn seed_or(seed: &JsValue, default: i64) -> Result<i64, ValidationError> {
    if seed.is_undefined() || seed.is_null() {
        return Ok(default);
    }
    let text = if let Some(s) = seed.as_string() {
        s
    } else if seed.is_bigint() {
        // BigInt's decimal text is exact at any size; the i64 bound is checked by the parser.
        js_sys::BigInt::from(seed.clone())
            .to_string(10)
            .map_err(|_| ValidationError::new("seed", "BigInt", "an integer"))?
            .into()
    } else if let Some(n) = seed.as_f64() {
        // A JS number is only exact up to 2^53: anything else would silently change the run.
        if n.fract() != 0.0 || n.abs() > retrystorm::seed::JS_SAFE as f64 {
            return Err(ValidationError::new(
                "seed",
                n,
                "an integer with |seed| <= 2^53 - 1 (give larger seeds as a string or BigInt)",
            ));
        }
        return Ok(n as i64);
    } else {
        return Err(ValidationError::new(
            "seed",
            "?",
            "a number, a decimal string or a BigInt",
        ));
    };
    retrystorm::seed::parse(&text).ok_or_else(|| {
        ValidationError::new(
            "seed",
            format!("{text:?}"),
            "an integer in -9223372036854775808..=9223372036854775807",
        )
    })
}

/// A model's scenario, read (and checked) by `read`, and the seed to run it with: `seed`
/// as the page gives it, else the scenario's own (`own_seed`).
pub(crate) fn scenario_and_seed<S>(
    cfg: &JsValue,
    seed: &JsValue,
    read: impl FnOnce(&JsValue) -> Result<S, ValidationError>,
    own_seed: impl FnOnce(&S) -> i64,
) -> Result<(S, i64), JsValue> {
    let s = read(cfg).map_err(|e| js_error(&e))?;
    let seed = seed_or(seed, own_seed(&s)).map_err(|e| js_error(&e))?;
    Ok((s, seed))
}

/// A model's finished run as its run class holds it, and the document it crosses the
/// boundary as: the CLI's `run --json`. Read through a JSON value and written as JSON
/// text, as every other input and output: one deserializer and one serializer per type
/// in the wasm.
pub trait HeldRun: Sized {
    /// Runs the model's scenario `cfg` with `seed` (see [`seed_or`]).
    fn run(cfg: &JsValue, seed: &JsValue) -> Result<Self, JsValue>;
    /// The run a document describes; an error when it does not describe one.
    fn from_doc(doc: serde_json::Value) -> Result<Self, JsValue>;
    /// The run's document as a plain JS object.
    fn to_doc(&self) -> Result<JsValue, JsValue>;
    /// Draws the model's chart of `run` on `canvas`; with `bands` (an ensemble of the
    /// same scenario), its series as median lines over p5–p95 bands.
    fn draw(
        run: &std::rc::Rc<Self>,
        canvas: &web_sys::HtmlCanvasElement,
        opts: &chart::ChartOptions,
        bands: Option<std::rc::Rc<retrystorm::ensemble::Ensemble>>,
    ) -> Result<chart::ChartHandle, String>;
}

/// Declares a model's run class (`ClassicRun`, `ClusterRun`): a run held on the Rust side
/// (`Rc`, so a chart handle can keep it), with what both models' classes share: `get()`
/// in Rust, and `fromJSON`, `jsonText` and `toJSON` in JS.
macro_rules! run_class {
    ($(#[$meta:meta])* $class:ident holds $inner:ty) => {
        $(#[$meta])*
        #[wasm_bindgen]
        pub struct $class {
            inner: std::rc::Rc<$inner>,
        }

        impl $class {
            /// The run.
            pub fn get(&self) -> &$inner {
                &self.inner
            }

            fn hold(inner: $inner) -> $class {
                $class {
                    inner: std::rc::Rc::new(inner),
                }
            }
        }

        #[wasm_bindgen]
        impl $class {
            /// Runs the scenario (a JS object or JSON text) with `seed` (a number, a
            /// decimal string or a BigInt; `undefined` for the scenario's own).
            pub fn run(cfg: JsValue, seed: JsValue) -> Result<$class, JsValue> {
                Ok($class::hold(<$inner as $crate::HeldRun>::run(&cfg, &seed)?))
            }

            /// A run from its JSON text (`jsonText()`, or the CLI's `run --json`).
            #[wasm_bindgen(js_name = fromJSON)]
            pub fn from_json(text: &str) -> Result<$class, JsValue> {
                let doc = retrystorm::validate::parse_json(text).map_err(|e| {
                    // An error of the text before any field is about the document.
                    if e.field.is_empty() {
                        $crate::js::plain_error(format!("not a run of this model: {}", e.allowed))
                    } else {
                        $crate::js::js_error(&e)
                    }
                })?;
                Ok($class::hold(<$inner as $crate::HeldRun>::from_doc(doc)?))
            }

            /// The run as JSON text: what crosses from the worker to the page, once.
            #[wasm_bindgen(js_name = jsonText)]
            pub fn json_text(&self) -> Result<String, JsValue> {
                // JS's JSON.stringify of `toJSON()`, as the page has always written it
                // (`5`, not serde_json's `5.0`); numbers print as shortest round-trip
                // decimals, so the text reads back exactly.
                js_sys::JSON::stringify(&self.to_json()?)
                    .map(String::from)
                    .map_err(|_| $crate::js::plain_error("the run cannot be written as JSON"))
            }

            /// The run as a plain object: the CLI's `run --json`.
            #[wasm_bindgen(js_name = toJSON)]
            pub fn to_json(&self) -> Result<JsValue, JsValue> {
                $crate::HeldRun::to_doc(&*self.inner)
            }

            /// Draws the model's chart on `canvas` (sized by its CSS box; the cluster
            /// chart's height is `chartHeight()`); options `{dpr}`, and `{hidden:
            /// [strategy index]}` for the classic chart.
            pub fn draw(
                &self,
                canvas: web_sys::HtmlCanvasElement,
                options: JsValue,
            ) -> Result<$crate::chart::ChartHandle, JsValue> {
                let opts = $crate::chart::ChartOptions::from_js(options)?;
                <$inner as $crate::HeldRun>::draw(&self.inner, &canvas, &opts, None)
                    .map_err($crate::js::plain_error)
            }

            /// Draws the model's chart with the series of `ensemble` (an ensemble of
            /// this run's scenario, as far as it has come) as median lines over their
            /// p5–p95 bands; the readout gives the median and the range. Options as
            /// `draw`'s.
            #[wasm_bindgen(js_name = drawBands)]
            pub fn draw_bands(
                &self,
                canvas: web_sys::HtmlCanvasElement,
                ensemble: &$crate::plan::PlanResult,
                options: JsValue,
            ) -> Result<$crate::chart::ChartHandle, JsValue> {
                let opts = $crate::chart::ChartOptions::from_js(options)?;
                let bands = Some(ensemble.shared());
                <$inner as $crate::HeldRun>::draw(&self.inner, &canvas, &opts, bands)
                    .map_err($crate::js::plain_error)
            }
        }
    };
}
pub(crate) use run_class;

/// The engine's version, for the page footer and bug reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// One bundled scenario as the page lists it.
#[derive(Serialize)]
struct BundledJs<'a> {
    id: &'a str,
    title: &'a str,
    description: &'a str,
    model: &'a str,
    scenario: serde_json::Value,
    /// The ensemble's seed count, for a preset that is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    seeds: Option<usize>,
}

/// The bundled scenarios (presets): `[{id, title, description, model, scenario, seeds?}]`,
/// the titles and descriptions in `lang` (`"zh"` or `"en"`, the default; `seeds`: the
/// count of an ensemble preset).
#[wasm_bindgen(js_name = bundledScenarios, unchecked_return_type = "Preset[]")]
pub fn bundled_scenarios(lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang = page_lang(lang.as_deref());
    let list: Vec<BundledJs> = retrystorm::scenario::bundled()
        .into_iter()
        .map(|b| {
            let scenario = retrystorm::validate::parse_json(b.json).map_err(|e| js_error(&e))?;
            Ok(BundledJs {
                id: b.id,
                title: b.title_in(lang),
                description: b.description_in(lang),
                model: b.model,
                scenario,
                seeds: b.seeds,
            })
        })
        .collect::<Result<_, JsValue>>()?;
    to_js(&list)
}

/// One validation problem as the page shows it next to a field.
#[derive(Serialize)]
pub(crate) struct ProblemJs {
    field: String,
    value: String,
    allowed: String,
    message: String,
    /// What kind of problem it is (`range`, `type`, `missing`, `unknown`), for
    /// [`plain_message`]: the page shows it in plain words at its field.
    kind: &'static str,
}

impl ProblemJs {
    /// The problem with its messages in `lang`.
    fn of(e: ValidationError, lang: Lang) -> Self {
        ProblemJs {
            message: e.message(lang),
            kind: js::kind_name(e.kind),
            field: e.field,
            value: e.value,
            allowed: e.allowed,
        }
    }
}

/// `[{field, value, allowed, message, kind}]` of a model's scenario: every problem of a document
/// that parses, else the one parse error (never a throw: the page shows it at a field);
/// the messages in `lang` (`"zh"` or `"en"`, the default).
pub(crate) fn problems_js<S>(
    parsed: Result<S, ValidationError>,
    problems: impl FnOnce(&S) -> Vec<ValidationError>,
    lang: Option<&str>,
) -> Result<JsValue, JsValue> {
    let lang = page_lang(lang);
    let list: Vec<ProblemJs> = match parsed {
        Ok(s) => problems(&s)
            .into_iter()
            .map(|e| ProblemJs::of(e, lang))
            .collect(),
        Err(e) => vec![ProblemJs::of(e, lang)],
    };
    to_js(&list)
}

/// A problem (`field`, `value`, `allowed` and `kind` of a `Problem` or a JS `Error`)
/// in plain words in `lang`, its field called `label` (the label the page shows beside
/// it): "Max retry must be between 0 and 30" ([`ValidationError::plain_as`]).
#[wasm_bindgen(js_name = plainMessage)]
pub fn plain_message(
    field: &str,
    value: &str,
    allowed: &str,
    kind: &str,
    label: &str,
    lang: Option<String>,
) -> String {
    ValidationError::new(field, value, allowed)
        .of_kind(js::kind_of(kind))
        .plain_as(label, page_lang(lang.as_deref()))
}

/// Encodes the page state (`{model, classic, cluster, cluster_a, view}`) as a share-link string.
#[wasm_bindgen(js_name = encodeState)]
pub fn encode_state(state: JsValue) -> Result<String, JsValue> {
    let doc = json_from_js(&state).map_err(|e| js_error(&e))?;
    let state: ShareState = retrystorm::validate::from_value(&doc).map_err(|e| js_error(&e))?;
    Ok(share::encode(&state))
}

/// Decodes a share-link string (any version) into the page state, checking that the
/// scenarios in it (classic, cluster) are valid; every failure names the problem, its
/// `plain` words in `lang` (`"zh"` or `"en"`, the default).
#[wasm_bindgen(js_name = decodeState)]
pub fn decode_state(text: &str, lang: Option<String>) -> Result<JsValue, JsValue> {
    let state = decode_checked(text).map_err(|e| js_error_in(&e, page_lang(lang.as_deref())))?;
    to_js(&state)
}

/// [`share::decode_checked`]: the link and every scenario in it, each problem named by
/// its full path (`link.cluster.tiers[1].instances`).
pub fn decode_checked(text: &str) -> Result<ShareState, ValidationError> {
    share::decode_checked(text)
}
