//! Exports of the cluster model: defaults, validation (every problem, by field path),
//! runs (whole, or in slices for a worker with progress and cancel), and the summary,
//! per-tier, A/B, Markdown and CSV renderings, all formatted by the engine.
//!
//! Scenarios cross the boundary as JSON text (JS's own `JSON.stringify`), so unknown
//! fields are rejected by name exactly as in a scenario file; a `"model": "cluster"`
//! key is accepted and dropped. Results are plain JS objects with the fields of the
//! CLI's `run --json` `result`.

use crate::{js_error, plain_error, seed_or, to_js, ProblemJs};
use retrystorm::cluster::{self, present, report, RunResult, Scenario, Simulation};
use retrystorm::ValidationError;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A JS value as a JSON value, through JS's `JSON.stringify` (a string is taken as JSON text).
fn json_from_js(v: &JsValue) -> Result<Value, ValidationError> {
    let text = match v.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(v)
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| ValidationError::document("the scenario is not a JSON object"))?,
    };
    serde_json::from_str(&text).map_err(|e| retrystorm::validate::from_json_error(&e))
}

/// Reads a cluster scenario without validating it.
fn scenario_unchecked(cfg: &JsValue) -> Result<Scenario, ValidationError> {
    present::parse_unchecked(json_from_js(cfg)?)
}

/// Reads and validates a cluster scenario.
fn scenario_checked(cfg: &JsValue) -> Result<Scenario, ValidationError> {
    let s = scenario_unchecked(cfg)?;
    s.validate()?;
    Ok(s)
}

/// Reads a run result the page holds (from a run or from the CLI's JSON).
fn result_from_js(v: &JsValue) -> Result<RunResult, JsValue> {
    let value = json_from_js(v).map_err(|e| js_error(&e))?;
    serde_json::from_value(value).map_err(plain_error)
}

/// Default objects for a new scenario, tier, client, fault, and one per kind of
/// distribution, backoff, jitter, budget, breaker and fault effect, plus the values of
/// every enumerated field: `{scenario, tier, client, dist: [...], ..., enums}`.
#[wasm_bindgen(js_name = clusterDefaults)]
pub fn cluster_defaults() -> Result<JsValue, JsValue> {
    to_js(&present::defaults())
}

/// Every problem of a cluster scenario, `[{field, value, allowed, message}]` (empty when
/// valid); a field is a full path such as `tiers[1].client.budget.percent`.
#[wasm_bindgen(js_name = clusterValidate)]
pub fn cluster_validate(cfg: JsValue) -> Result<JsValue, JsValue> {
    let problems: Vec<ProblemJs> = match scenario_unchecked(&cfg) {
        Ok(s) => present::problems(&s)
            .into_iter()
            .map(ProblemJs::from)
            .collect(),
        Err(e) => vec![e.into()],
    };
    to_js(&problems)
}

/// The scenario with every defaulted field written out (and no `model` key), so an
/// editor sees each field; throws the parser's `Error` when it cannot be read.
#[wasm_bindgen(js_name = clusterNormalize)]
pub fn cluster_normalize(cfg: JsValue) -> Result<JsValue, JsValue> {
    to_js(&scenario_unchecked(&cfg).map_err(|e| js_error(&e))?)
}

/// Runs a cluster scenario to the end: the `result` of the CLI's `run --json`.
#[wasm_bindgen(js_name = clusterRun)]
pub fn cluster_run(cfg: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    let s = scenario_checked(&cfg).map_err(|e| js_error(&e))?;
    let seed = seed_or(&seed, s.seed).map_err(|e| js_error(&e))?;
    to_js(&cluster::run(&s, seed).map_err(|e| js_error(&e))?)
}

/// A cluster run advanced in slices, so a worker can report progress between them.
#[wasm_bindgen]
pub struct ClusterRun {
    sim: Option<Simulation>,
}

#[wasm_bindgen]
impl ClusterRun {
    /// Validates the scenario and sets up the run (`seed` as in `clusterRun`).
    #[wasm_bindgen(constructor)]
    pub fn new(cfg: JsValue, seed: JsValue) -> Result<ClusterRun, JsValue> {
        let s = scenario_checked(&cfg).map_err(|e| js_error(&e))?;
        let seed = seed_or(&seed, s.seed).map_err(|e| js_error(&e))?;
        let sim = Simulation::new(&s, seed).map_err(|e| js_error(&e))?;
        Ok(ClusterRun { sim: Some(sim) })
    }

    /// Processes up to `max_events` more events; true once the run is finished. Passing
    /// the scenario's `max_events` throws the engine's `Error`.
    pub fn advance(&mut self, max_events: u32) -> Result<bool, JsValue> {
        let sim = self
            .sim
            .as_mut()
            .ok_or_else(|| plain_error("run finished"))?;
        sim.advance(u64::from(max_events)).map_err(|e| js_error(&e))
    }

    /// Fraction of simulated time done, 0..=1.
    pub fn progress(&self) -> f64 {
        self.sim.as_ref().map_or(1.0, Simulation::progress)
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.sim.as_ref().map_or(0.0, |s| s.events() as f64)
    }

    /// The run's result (call once `advance` returned true).
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let sim = self.sim.take().ok_or_else(|| plain_error("run finished"))?;
        to_js(&sim.finish())
    }
}

/// The summary `{columns: [metric, value], rows}`, every cell formatted by the engine.
#[wasm_bindgen(js_name = clusterSummaryTable)]
pub fn cluster_summary_table(result: JsValue) -> Result<JsValue, JsValue> {
    to_js(&present::summary_table(&result_from_js(&result)?))
}

/// Per-tier totals `{columns, rows}`: attempts, outcomes by kind, amplification, peak.
#[wasm_bindgen(js_name = clusterTierTable)]
pub fn cluster_tier_table(result: JsValue) -> Result<JsValue, JsValue> {
    to_js(&present::tier_table(&result_from_js(&result)?))
}

/// The A/B table `{columns: [metric, A, B, Δ, Δ %], rows}`.
#[wasm_bindgen(js_name = clusterCompare)]
pub fn cluster_compare(a: JsValue, b: JsValue) -> Result<JsValue, JsValue> {
    to_js(&present::compare(
        &result_from_js(&a)?,
        &result_from_js(&b)?,
    ))
}

/// The summary as a Markdown table, ready to paste into a post.
#[wasm_bindgen(js_name = clusterMarkdown)]
pub fn cluster_markdown(result: JsValue) -> Result<String, JsValue> {
    Ok(report::markdown_summary(&result_from_js(&result)?))
}

/// One CSV row per bucket and tier.
#[wasm_bindgen(js_name = clusterCsv)]
pub fn cluster_csv(result: JsValue) -> Result<String, JsValue> {
    Ok(report::csv_buckets(&result_from_js(&result)?))
}

/// Reads a result for the chart module.
pub(crate) fn result_of(v: &JsValue) -> Result<RunResult, JsValue> {
    result_from_js(v)
}

/// Reads a scenario for the chart module.
pub(crate) fn scenario_of(v: &JsValue) -> Result<Scenario, JsValue> {
    scenario_unchecked(v).map_err(|e| js_error(&e))
}
