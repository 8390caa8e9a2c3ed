//! Thin wasm-bindgen glue between the `retrystorm` engine and the browser playground.
//!
//! Every number, default, range, message and formatted cell comes from the engine
//! crate; this crate only converts values at the boundary:
//! - inputs are read with `serde_wasm_bindgen::from_value` (so `deny_unknown_fields`
//!   and the engine's own types apply to what the page sends);
//! - outputs are plain JS objects (`Serializer::json_compatible()`, never `Map`s) with
//!   exactly the fields of the CLI's JSON; a seed above 2^53 comes back as a string;
//! - every error is a real JS `Error` whose message is the engine's, with the
//!   offending `field`, `value` and `allowed` attached when there are any.

pub mod chart;
pub mod cluster;
pub mod cluster_chart;

use retrystorm::classic::{self, report, Output, Scenario};
use retrystorm::share::{self, ShareState};
use retrystorm::ValidationError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The JS `Error` thrown by every export: the message, plus the fields of a validation error.
pub fn js_error(err: &ValidationError) -> JsValue {
    let e = js_sys::Error::new(&err.to_string());
    // Setting properties on a fresh Error object cannot fail.
    for (key, value) in [
        ("field", &err.field),
        ("value", &err.value),
        ("allowed", &err.allowed),
    ] {
        let _ = js_sys::Reflect::set(&e, &JsValue::from_str(key), &JsValue::from_str(value));
    }
    e.into()
}

/// A JS `Error` for a failure that is not about a field (boundary conversion, canvas).
pub fn plain_error(message: impl core::fmt::Display) -> JsValue {
    js_sys::Error::new(&message.to_string()).into()
}

/// Converts any serializable value to a plain JS value (objects, arrays, numbers, strings).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(plain_error)
}

/// Reads a classic scenario from a JS object (or from JSON text) exactly as the CLI reads
/// a scenario file: through JSON text and the engine's own types. (serde-wasm-bindgen's
/// `from_value` skips unknown fields even under `deny_unknown_fields`, so a typo in a
/// field name would silently fall back to nothing; the JSON path rejects it by name.)
fn scenario_from_js(cfg: JsValue) -> Result<Scenario, ValidationError> {
    let text = match cfg.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(&cfg)
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| ValidationError::document("the scenario is not a JSON object"))?,
    };
    // Parse only: validation is the caller's (simulate checks, validate() lists every problem).
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| retrystorm::validate::from_json_error(&e))?;
    retrystorm::scenario::read_classic(&value)
}

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

fn output_from_js(output: JsValue) -> Result<Output, JsValue> {
    serde_wasm_bindgen::from_value::<Output>(output).map_err(plain_error)
}

/// The engine's version, for the page footer and bug reports.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The article's scenario: the page's defaults, declared only in the engine.
#[wasm_bindgen(js_name = defaultScenario)]
pub fn default_scenario() -> Result<JsValue, JsValue> {
    to_js(&Scenario::article())
}

/// One bundled scenario as the page lists it.
#[derive(Serialize)]
struct BundledJs<'a> {
    id: &'a str,
    title: &'a str,
    description: &'a str,
    model: &'a str,
    scenario: serde_json::Value,
}

/// The bundled scenarios (presets): `[{id, title, description, model, scenario}]`.
#[wasm_bindgen(js_name = bundledScenarios)]
pub fn bundled_scenarios() -> Result<JsValue, JsValue> {
    let list: Vec<BundledJs> = retrystorm::scenario::bundled()
        .into_iter()
        .map(|b| {
            let scenario = serde_json::from_str(b.json).map_err(plain_error)?;
            Ok(BundledJs {
                id: b.id,
                title: b.title,
                description: b.description,
                model: b.model,
                scenario,
            })
        })
        .collect::<Result<_, JsValue>>()?;
    to_js(&list)
}

/// One validation problem as the page shows it next to a field.
#[derive(Serialize)]
struct ProblemJs {
    field: String,
    value: String,
    allowed: String,
    message: String,
}

impl From<ValidationError> for ProblemJs {
    fn from(e: ValidationError) -> Self {
        ProblemJs {
            message: e.to_string(),
            field: e.field,
            value: e.value,
            allowed: e.allowed,
        }
    }
}

/// Every problem of a classic scenario (`[{field, value, allowed, message}]`, empty if fine).
#[wasm_bindgen]
pub fn validate(cfg: JsValue) -> Result<JsValue, JsValue> {
    let problems: Vec<ProblemJs> = match scenario_from_js(cfg) {
        Ok(s) => s.problems().into_iter().map(ProblemJs::from).collect(),
        Err(e) => vec![e.into()],
    };
    to_js(&problems)
}

/// Runs the classic engine: the same `{scenario, results}` the CLI prints with `--json`.
#[wasm_bindgen]
pub fn run(cfg: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    let scenario = scenario_from_js(cfg).map_err(|e| js_error(&e))?;
    let seed = seed_or(&seed, scenario.seed).map_err(|e| js_error(&e))?;
    let out = classic::simulate(&scenario, seed).map_err(|e| js_error(&e))?;
    to_js(&out)
}

/// The results table exactly as the CLI formats it: `{columns, rows}` of strings.
#[wasm_bindgen(js_name = resultsTable)]
pub fn results_table(output: JsValue) -> Result<JsValue, JsValue> {
    to_js(&report::table(&output_from_js(output)?))
}

/// The results as a Markdown table, ready to paste into a post.
#[wasm_bindgen(js_name = markdownTable)]
pub fn markdown_table(output: JsValue) -> Result<String, JsValue> {
    Ok(report::markdown_table(&output_from_js(output)?))
}

/// Attempts per second for every strategy, as CSV.
#[wasm_bindgen(js_name = csvPerSecond)]
pub fn csv_per_second(output: JsValue) -> Result<String, JsValue> {
    Ok(report::csv_per_sec(&output_from_js(output)?))
}

/// The article's four acceptance checks on this scenario: `[{name, pass, detail}]`,
/// `pass` being `null` when a check does not apply.
#[wasm_bindgen]
pub fn verdicts(cfg: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    let scenario = scenario_from_js(cfg).map_err(|e| js_error(&e))?;
    let seed = seed_or(&seed, scenario.seed).map_err(|e| js_error(&e))?;
    to_js(&report::verdicts(&scenario, seed).map_err(|e| js_error(&e))?)
}

/// Encodes the page state (`{model, classic, cluster, view}`) as a share-link string.
#[wasm_bindgen(js_name = encodeState)]
pub fn encode_state(state: JsValue) -> Result<String, JsValue> {
    let state: ShareState = serde_wasm_bindgen::from_value(state).map_err(plain_error)?;
    Ok(share::encode(&state))
}

/// Decodes a share-link string (any version) into the page state, checking that the
/// scenarios in it (classic, cluster) are valid; every failure names the problem.
#[wasm_bindgen(js_name = decodeState)]
pub fn decode_state(text: &str) -> Result<JsValue, JsValue> {
    let state = decode_checked(text).map_err(|e| js_error(&e))?;
    to_js(&state)
}

/// [`share::decode_checked`]: the link and every scenario in it, each problem named by
/// its full path (`link.cluster.tiers[1].instances`).
pub fn decode_checked(text: &str) -> Result<ShareState, ValidationError> {
    share::decode_checked(text)
}
