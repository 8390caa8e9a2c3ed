//! Exports of the classic model: defaults, validation, the article's acceptance checks,
//! and [`ClassicRun`], a run held on the Rust side with its renderings.

use crate::chart::{ChartHandle, ChartOptions};
use crate::{
    js_error, json_from_js, parse_run, plain_error, problems_js, run_text, seed_or, to_js,
};
use retrystorm::classic::{self, report, Output, Scenario};
use retrystorm::ValidationError;
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Reads a classic scenario from a JS object (or JSON text) exactly as the CLI reads a
/// scenario file; parse only (validation is the caller's).
pub fn scenario_from_js(cfg: &JsValue) -> Result<Scenario, ValidationError> {
    serde_json::from_value(json_from_js(cfg)?)
        .map_err(|e| retrystorm::validate::from_json_error(&e))
}

/// Checks a classic scenario a share link carries (for `decodeState`).
pub fn check_link_scenario(field: &str, v: &serde_json::Value) -> Result<(), ValidationError> {
    let s: Scenario = serde_json::from_value(v.clone())
        .map_err(|e| ValidationError::new(field, "", e.to_string()))?;
    s.validate().map_err(|e| e.within(field))
}

/// The model's defaults: `{scenario}`, the article's scenario.
#[derive(Serialize)]
struct Defaults {
    scenario: Scenario,
}

/// The classic model's defaults `{scenario}`: the article's scenario, declared only in the engine.
#[wasm_bindgen(js_name = classicDefaults)]
pub fn classic_defaults() -> Result<JsValue, JsValue> {
    to_js(&Defaults {
        scenario: Scenario::article(),
    })
}

/// Every problem of a classic scenario (`[{field, value, allowed, message}]`, empty if fine).
#[wasm_bindgen(js_name = classicValidate, unchecked_return_type = "Problem[]")]
pub fn classic_validate(cfg: JsValue) -> Result<JsValue, JsValue> {
    problems_js(scenario_from_js(&cfg), Scenario::problems)
}

/// The article's four acceptance checks on this scenario: `[{name, pass, detail}]`,
/// `pass` being `null` when a check does not apply.
#[wasm_bindgen(js_name = classicVerdicts, unchecked_return_type = "Verdict[]")]
pub fn classic_verdicts(cfg: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    let scenario = scenario_from_js(&cfg).map_err(|e| js_error(&e))?;
    let seed = seed_or(&seed, scenario.seed).map_err(|e| js_error(&e))?;
    to_js(&report::verdicts(&scenario, seed).map_err(|e| js_error(&e))?)
}

/// A classic run (the CLI's `run --json` output), held on the Rust side.
#[wasm_bindgen]
pub struct ClassicRun {
    out: Rc<Output>,
}

impl ClassicRun {
    /// The engine's output.
    pub fn output(&self) -> &Output {
        &self.out
    }
}

#[wasm_bindgen]
impl ClassicRun {
    /// Runs the scenario (a JS object or JSON text) with `seed` (a number, a decimal
    /// string or a BigInt; `undefined` for the scenario's own).
    pub fn run(cfg: JsValue, seed: JsValue) -> Result<ClassicRun, JsValue> {
        let scenario = scenario_from_js(&cfg).map_err(|e| js_error(&e))?;
        let seed = seed_or(&seed, scenario.seed).map_err(|e| js_error(&e))?;
        let out = classic::simulate(&scenario, seed).map_err(|e| js_error(&e))?;
        Ok(ClassicRun { out: Rc::new(out) })
    }

    /// A run from its JSON text (`jsonText()`, or the CLI's `run --json`).
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(text: &str) -> Result<ClassicRun, JsValue> {
        Ok(ClassicRun {
            out: Rc::new(parse_run(text)?),
        })
    }

    /// The run as JSON text: what crosses from the worker to the page.
    #[wasm_bindgen(js_name = jsonText)]
    pub fn json_text(&self) -> Result<String, JsValue> {
        run_text(&*self.out)
    }

    /// The run as a plain object `{scenario, results}`, the CLI's `run --json`.
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(&*self.out)
    }

    /// The results table exactly as the CLI formats it: `{columns, rows}` of strings.
    #[wasm_bindgen(unchecked_return_type = "Table")]
    pub fn table(&self) -> Result<JsValue, JsValue> {
        to_js(&report::table(&self.out))
    }

    /// The results as a Markdown table, ready to paste into a post.
    pub fn markdown(&self) -> String {
        report::markdown_table(&self.out)
    }

    /// Attempts per second for every strategy, as CSV.
    pub fn csv(&self) -> String {
        report::csv_per_sec(&self.out)
    }

    /// The strategies' names, in order (the chart's series).
    pub fn names(&self) -> Vec<String> {
        self.out.results.iter().map(|r| r.name.clone()).collect()
    }

    /// Draws the recovery-window chart on `canvas` (sized by its CSS box); options
    /// `{hidden: [strategy index], dpr}`.
    pub fn draw(
        &self,
        canvas: HtmlCanvasElement,
        options: JsValue,
    ) -> Result<ChartHandle, JsValue> {
        let opts = ChartOptions::from_js(options)?;
        crate::classic_chart::draw(&canvas, &self.out, &opts).map_err(plain_error)
    }
}
