//! Ensembles and sweeps in the page: one [`Plan`] class for both models and both kinds
//! (a sweep without parameters is the scenario's ensemble).
//!
//! The protocol: every worker of the page's pool builds a `Plan` from the same
//! (scenario, sweep definition) and runs the item indices it is handed (`runItem`,
//! answering a sample's JSON text); the page's own `Plan` keeps the samples by item
//! index (`add`) and summarises the completed prefix of the items (`result`), so the
//! results stream in as seeds finish and are the same whatever order, and however many
//! workers, the items were computed in: the engine summarises them in item order.

use crate::{js_error, json_from_js, plain_error, to_js};
use retrystorm::ensemble::{self, render, Ensemble, Sample};
use retrystorm::scenario;
use retrystorm::sweep::{self, Sweep};
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A validated ensemble or sweep of one scenario, and the samples gathered so far.
#[wasm_bindgen]
pub struct Plan {
    plan: sweep::Plan,
    samples: Vec<Option<Sample>>,
}

#[wasm_bindgen]
impl Plan {
    /// Checks `sweep` (a definition as `retrystorm grid --sweep` reads, e.g. `{seeds: 100}`)
    /// against `scenario` of `model` (`"classic"` or `"cluster"`: the page's scenarios
    /// leave their model implicit); errors name the field (`seeds`, `params[0].path`).
    #[wasm_bindgen(constructor)]
    pub fn new(model: &str, scenario: JsValue, sweep: JsValue) -> Result<Plan, JsValue> {
        let model: scenario::Model =
            serde_json::from_value(serde_json::Value::String(model.into())).map_err(plain_error)?;
        let doc = json_from_js(&scenario).map_err(|e| js_error(&e))?;
        let base = scenario::read(Some(model), &doc).map_err(|e| js_error(&e))?;
        let def: Sweep =
            retrystorm::validate::from_value(&json_from_js(&sweep).map_err(|e| js_error(&e))?)
                .map_err(|e| js_error(&e))?;
        let plan = def.plan(&base).map_err(|e| js_error(&e))?;
        let samples = vec![None; plan.items()];
        Ok(Plan { plan, samples })
    }

    /// How many items (points × seeds) the plan runs.
    pub fn items(&self) -> usize {
        self.plan.items()
    }

    /// How many seeds every point runs.
    pub fn seeds(&self) -> usize {
        self.plan.seeds.len()
    }

    /// Runs item `i` and answers its sample as JSON text (what a worker posts back).
    #[wasm_bindgen(js_name = runItem)]
    pub fn run_item(&self, i: usize) -> Result<String, JsValue> {
        if i >= self.plan.items() {
            return Err(plain_error(format!("item {i} of {}", self.plan.items())));
        }
        let s = self.plan.run_item(i).map_err(|e| js_error(&e))?;
        serde_json::to_string(&s).map_err(plain_error)
    }

    /// Keeps item `i`'s sample (JSON text from `runItem`); answers how many leading items
    /// are now complete.
    pub fn add(&mut self, i: usize, text: &str) -> Result<usize, JsValue> {
        let s: Sample = serde_json::from_str(text).map_err(plain_error)?;
        let slot = self
            .samples
            .get_mut(i)
            .ok_or_else(|| plain_error(format!("item {i} of {}", self.plan.items())))?;
        *slot = Some(s);
        Ok(self.done())
    }

    /// How many leading items have their sample.
    pub fn done(&self) -> usize {
        self.samples.iter().take_while(|s| s.is_some()).count()
    }

    /// The ensemble of the first point over its seeds done so far (the spread tightens
    /// as they stream in; with no parameter that point is the whole plan);
    /// `undefined` before any.
    pub fn result(&self) -> Option<PlanResult> {
        let n = self.plan.seeds.len();
        let done: Vec<Sample> = self
            .samples
            .iter()
            .take(n)
            .map_while(|s| s.clone())
            .collect();
        if done.is_empty() {
            return None;
        }
        Some(PlanResult {
            ensemble: Rc::new(ensemble::summarise(&self.plan.points[0].1, &done)),
            complete: done.len() == self.plan.items(),
        })
    }
}

/// An ensemble's result as the page shows and exports it (every text from the engine).
#[wasm_bindgen]
pub struct PlanResult {
    // Shared with the charts drawn from it, whose readouts keep it.
    ensemble: Rc<Ensemble>,
    complete: bool,
}

impl PlanResult {
    /// The ensemble, shared (a chart's handle keeps it for its readout).
    pub fn shared(&self) -> Rc<Ensemble> {
        Rc::clone(&self.ensemble)
    }
}

/// A counted verdict as the page lists it.
#[derive(Serialize)]
struct CountJs {
    name: String,
    pass: usize,
    of: usize,
    text: String,
}

/// One metric's per-seed values of every group, for a distribution plot.
#[derive(Serialize)]
struct DistJs {
    seeds: Vec<String>,
    groups: Vec<DistGroup>,
}

#[derive(Serialize)]
struct DistGroup {
    name: String,
    values: Vec<Option<f64>>,
}

#[wasm_bindgen]
impl PlanResult {
    /// Seeds summarised.
    pub fn seeds(&self) -> usize {
        self.ensemble.seeds.len()
    }

    /// True once every item is in.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The results tables: a row per strategy (the classic model), or the run's then the
    /// tiers' (the cluster model), a column per metric, each cell "median [p5–p95]".
    #[wasm_bindgen(unchecked_return_type = "Table[]")]
    pub fn tables(&self) -> Result<JsValue, JsValue> {
        to_js(&render::tables(&self.ensemble))
    }

    /// The results table in Markdown ("median [p5–p95]" cells).
    pub fn markdown(&self) -> String {
        render::markdown(&self.ensemble)
    }

    /// Every per-seed value as CSV (`seed,group,metric,value`).
    pub fn csv(&self) -> String {
        render::csv(&self.ensemble)
    }

    /// The counted verdicts, `[{name, pass, of, text}]` ("PASS on 997 of 1000 seeds",
    /// "metastable in 2 of 12 seeds").
    #[wasm_bindgen(
        unchecked_return_type = "{name: string, pass: number, of: number, text: string}[]"
    )]
    pub fn verdicts(&self) -> Result<JsValue, JsValue> {
        let list: Vec<CountJs> = self
            .ensemble
            .verdicts
            .iter()
            .map(|c| CountJs {
                name: c.name.clone(),
                pass: c.pass,
                of: c.of,
                text: render::verdict_text(&self.ensemble.model, c),
            })
            .collect();
        to_js(&list)
    }

    /// The cluster model's headline ("recovered in 12 of 40 seeds; recovery time …").
    #[wasm_bindgen(js_name = recoveryLine)]
    pub fn recovery_line(&self) -> Option<String> {
        render::recovery_line(&self.ensemble)
    }

    /// The metric names of the first group (the distribution plot's choices).
    pub fn metrics(&self) -> Vec<String> {
        self.ensemble
            .groups
            .first()
            .map(|g| g.metrics.iter().map(|m| m.metric.clone()).collect())
            .unwrap_or_default()
    }

    /// `metric`'s per-seed values in every group that has it, with the seeds (as
    /// decimal strings: a seed above 2^53 stays exact), for the distribution plot.
    #[wasm_bindgen(
        unchecked_return_type = "{seeds: string[], groups: {name: string, values: (number | null)[]}[]}"
    )]
    pub fn distribution(&self, metric: &str) -> Result<JsValue, JsValue> {
        let groups = self
            .ensemble
            .groups
            .iter()
            .filter_map(|g| {
                let m = g.metrics.iter().find(|m| m.metric == metric)?;
                Some(DistGroup {
                    name: g.name.clone(),
                    values: m.values.clone(),
                })
            })
            .collect();
        to_js(&DistJs {
            seeds: self.ensemble.seeds.iter().map(|s| s.to_string()).collect(),
            groups,
        })
    }

    /// The CSS height in pixels the distribution of `metric` needs.
    #[wasm_bindgen(js_name = distributionHeight)]
    pub fn distribution_height(&self, metric: &str) -> f64 {
        crate::strip_chart::height(&self.ensemble, metric)
    }

    /// Draws the distribution of `metric` (a strip per group, a dot per seed) on
    /// `canvas` (sized by its CSS box: set its height to `distributionHeight` first);
    /// options `{dpr, theme}` (`theme: "dark"` for the dark theme).
    #[wasm_bindgen(js_name = drawDistribution)]
    pub fn draw_distribution(
        &self,
        canvas: web_sys::HtmlCanvasElement,
        metric: &str,
        options: JsValue,
    ) -> Result<(), JsValue> {
        let opts = crate::chart::ChartOptions::from_js(options)?;
        crate::strip_chart::draw(&canvas, &self.ensemble, metric, opts.ratio(), opts.theme())
            .map_err(plain_error)
    }

    /// The seed (as a decimal string) of the dot at the CSS point `(x, y)` of the
    /// distribution of `metric` drawn `width` CSS pixels wide; `undefined` if none.
    #[wasm_bindgen(js_name = seedAt)]
    pub fn seed_at(&self, metric: &str, width: f64, x: f64, y: f64) -> Option<String> {
        crate::strip_chart::seed_at(&self.ensemble, metric, width, x, y)
            .map(|i| self.ensemble.seeds[i].to_string())
    }
}
