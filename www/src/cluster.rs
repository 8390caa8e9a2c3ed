//! Exports of the cluster model: defaults, validation (every problem, by field path),
//! normalization, [`ClusterSimulation`] (a run in slices, for a worker with progress and
//! cancel) and [`ClusterRun`], a finished run held on the Rust side with its renderings
//! (summary, per-tier and A/B tables, Markdown, CSV, chart), all formatted by the engine.
//!
//! Scenarios cross the boundary as JSON text (JS's own `JSON.stringify`), so unknown
//! fields are rejected by name exactly as in a scenario file; a `"model": "cluster"`
//! key is accepted and dropped.

use crate::chart::{ChartHandle, ChartOptions};
use crate::js::{js_error, json_from_js, page_lang, plain_error, to_js};
use crate::{problems_js, run_class, scenario_and_seed, HeldRun};
use retrystorm::cluster::{self, present, report, RunResult, Scenario, Simulation};
use retrystorm::lang::Lang;
use retrystorm::ValidationError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Reads a cluster scenario without validating it.
pub fn scenario_unchecked(cfg: &JsValue) -> Result<Scenario, ValidationError> {
    retrystorm::scenario::read_cluster(&json_from_js(cfg)?)
}

/// Reads and validates a cluster scenario.
fn scenario_checked(cfg: &JsValue) -> Result<Scenario, ValidationError> {
    let s = scenario_unchecked(cfg)?;
    s.validate()?;
    Ok(s)
}

/// Default objects for a new scenario, tier, client, fault, and one per kind of
/// distribution, backoff, jitter, budget, breaker and fault effect, plus the values of
/// every enumerated field: `{scenario, tier, client, dist: [...], ..., enums}`.
#[wasm_bindgen(js_name = clusterDefaults)]
pub fn cluster_defaults() -> Result<JsValue, JsValue> {
    to_js(&cluster::defaults::defaults())
}

/// Every problem of a cluster scenario, `[{field, value, allowed, message}]` (empty when
/// valid); a field is a full path such as `tiers[1].client.budget.percent`.
#[wasm_bindgen(js_name = clusterValidate, unchecked_return_type = "Problem[]")]
pub fn cluster_validate(cfg: JsValue, lang: Option<String>) -> Result<JsValue, JsValue> {
    problems_js(
        scenario_unchecked(&cfg),
        Scenario::problems,
        lang.as_deref(),
    )
}

/// The scenario with every defaulted field written out (and no `model` key), so an
/// editor sees each field; throws the parser's `Error` when it cannot be read.
#[wasm_bindgen(js_name = clusterNormalize)]
pub fn cluster_normalize(cfg: JsValue) -> Result<JsValue, JsValue> {
    to_js(&scenario_unchecked(&cfg).map_err(|e| js_error(&e))?)
}

/// A run of the cluster model as the CLI's `run --json` prints it, read.
#[derive(Deserialize)]
struct DocIn {
    /// The scenario as run (with or without its model).
    scenario: Value,
    /// What the run measured.
    result: RunResult,
}

/// A run of the cluster model as the CLI's `run --json` prints it, written.
#[derive(Serialize)]
struct DocOut<'a> {
    /// The scenario as run, with the seed used.
    scenario: Tagged<'a>,
    /// What the run measured.
    result: &'a RunResult,
}

/// A cluster scenario with its `"model": "cluster"`, as a scenario file has it.
#[derive(Serialize)]
struct Tagged<'a> {
    model: &'static str,
    #[serde(flatten)]
    scenario: &'a Scenario,
}

/// A finished cluster run, its scenario with it (the chart needs both).
pub struct Run {
    /// The scenario as run, with the seed used.
    pub scenario: Scenario,
    /// What the run measured.
    pub result: RunResult,
}

impl Run {
    fn wrap(mut scenario: Scenario, result: RunResult) -> ClusterRun {
        scenario.seed = result.seed;
        ClusterRun::hold(Run { scenario, result })
    }
}

impl crate::cluster_chart::Shown for Run {
    fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    fn result(&self) -> &RunResult {
        &self.result
    }
}

impl HeldRun for Run {
    fn run(cfg: &JsValue, seed: &JsValue) -> Result<Run, JsValue> {
        let (mut scenario, seed) = scenario_and_seed(cfg, seed, scenario_checked, |s| s.seed)?;
        let result = cluster::run(&scenario, seed).map_err(|e| js_error(&e))?;
        scenario.seed = seed;
        Ok(Run { scenario, result })
    }

    fn from_doc(doc: Value) -> Result<Run, JsValue> {
        let doc: DocIn = retrystorm::validate::read_value(&doc)
            .map_err(|e| plain_error(format!("not a run of this model: {e}")))?;
        let scenario =
            retrystorm::scenario::read_cluster(&doc.scenario).map_err(|e| js_error(&e))?;
        if scenario.tiers.len() != doc.result.tiers.len() {
            return Err(plain_error("the result is not a run of its scenario"));
        }
        Ok(Run {
            scenario,
            result: doc.result,
        })
    }

    fn draw(
        run: &Rc<Run>,
        canvas: &HtmlCanvasElement,
        opts: &ChartOptions,
        bands: Option<Rc<retrystorm::ensemble::Ensemble>>,
    ) -> Result<ChartHandle, String> {
        crate::cluster_chart::draw(canvas, run, None, opts, bands)
    }

    fn to_doc(&self) -> Result<JsValue, JsValue> {
        to_js(&DocOut {
            scenario: Tagged {
                model: "cluster",
                scenario: &self.scenario,
            },
            result: &self.result,
        })
    }
}

/// A cluster run advanced in slices, so a worker can report progress between them.
#[wasm_bindgen]
pub struct ClusterSimulation {
    sim: Option<(Scenario, Simulation)>,
}

#[wasm_bindgen]
impl ClusterSimulation {
    /// Validates the scenario and sets up the run (`seed` as in `ClusterRun.run`).
    #[wasm_bindgen(constructor)]
    pub fn new(cfg: JsValue, seed: JsValue) -> Result<ClusterSimulation, JsValue> {
        let (s, seed) = scenario_and_seed(&cfg, &seed, scenario_checked, |s| s.seed)?;
        let sim = Simulation::new(&s, seed).map_err(|e| js_error(&e))?;
        Ok(ClusterSimulation {
            sim: Some((s, sim)),
        })
    }

    fn sim(&self) -> Option<&Simulation> {
        self.sim.as_ref().map(|(_, sim)| sim)
    }

    /// Processes up to `max_events` more events; true once the run is finished. Passing
    /// the scenario's `max_events` throws the engine's `Error`.
    pub fn advance(&mut self, max_events: u32) -> Result<bool, JsValue> {
        let (_, sim) = self
            .sim
            .as_mut()
            .ok_or_else(|| plain_error("run finished"))?;
        sim.advance(u64::from(max_events)).map_err(|e| js_error(&e))
    }

    /// Fraction of simulated time done, 0..=1.
    pub fn progress(&self) -> f64 {
        self.sim().map_or(1.0, Simulation::progress)
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.sim().map_or(0.0, |s| s.events() as f64)
    }

    /// The finished run (call once `advance` returned true).
    pub fn finish(&mut self) -> Result<ClusterRun, JsValue> {
        let (s, sim) = self.sim.take().ok_or_else(|| plain_error("run finished"))?;
        Ok(Run::wrap(s, sim.finish()))
    }
}

run_class!(
    /// A cluster run (scenario and result), held on the Rust side.
    ClusterRun holds Run
);

impl ClusterRun {
    /// The CSS height the chart needs on a wide canvas, pixels (every caption on one
    /// line): the native tests' canvas; the page asks `chartHeightAt` its width.
    pub fn chart_height(&self) -> f64 {
        crate::cluster_chart::height(&self.inner.scenario)
    }
}

#[wasm_bindgen]
impl ClusterRun {
    /// The summary `{columns: [metric, value], rows}`, every cell formatted by the engine,
    /// labelled in `lang` (`"zh"` or `"en"`, the default).
    #[wasm_bindgen(unchecked_return_type = "Table")]
    pub fn table(&self, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&present::summary_table_in(
            &self.inner.result,
            page_lang(lang.as_deref()),
        ))
    }

    /// What each row of [`table`](Self::table) and each column of the per-tier and
    /// per-route tables means, with its unit, in `lang`: `{summary, tiers, routes}`, each
    /// `[{term, meaning}]` in its table's order.
    #[wasm_bindgen(unchecked_return_type = "ClusterGlossary")]
    pub fn glossary(&self, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&retrystorm::cluster::glossary::glossary_in(
            &self.inner.result,
            page_lang(lang.as_deref()),
        ))
    }

    /// Per-tier totals `{columns, rows}`: attempts, outcomes by kind, amplification, peak;
    /// titled in `lang`.
    #[wasm_bindgen(js_name = tierTable, unchecked_return_type = "Table")]
    pub fn tier_table(&self, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&present::tier_table_in(
            &self.inner.result,
            page_lang(lang.as_deref()),
        ))
    }

    /// Per-route totals `{columns, rows}`: every route of every tier's client (a chain's
    /// hop is one route), its share of the calls, outcomes, retry amplification and cost;
    /// titled in `lang`.
    #[wasm_bindgen(js_name = routeTable, unchecked_return_type = "Table")]
    pub fn route_table(&self, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&present::route_table_in(
            &self.inner.result,
            page_lang(lang.as_deref()),
        ))
    }

    /// The A/B table `{columns: [metric, A, B, Δ, Δ %], rows}` with `pinned` as A and this
    /// run as B, labelled in `lang`.
    #[wasm_bindgen(unchecked_return_type = "Table")]
    pub fn compare(&self, pinned: &ClusterRun, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&present::compare_in(
            &pinned.inner.result,
            &self.inner.result,
            page_lang(lang.as_deref()),
        ))
    }

    /// How each row of [`compare`](Self::compare) moved from `pinned` (A) to this run (B),
    /// judged by the figure's direction: `"better"`, `"worse"`, `"same"`, or `""` when not
    /// judged (no direction, or a side without a number); one per row, in its order.
    #[wasm_bindgen(js_name = compareChanges)]
    pub fn compare_changes(&self, pinned: &ClusterRun) -> Vec<String> {
        present::compare_judged(&pinned.inner.result, &self.inner.result, Lang::En)
            .1
            .into_iter()
            .map(|c| c.class().to_string())
            .collect()
    }

    /// Whether some route's client has a cost model (the chart's cost/s switch is offered).
    #[wasm_bindgen(js_name = hasCost)]
    pub fn has_cost(&self) -> bool {
        crate::cluster_chart::has_cost(&self.inner.result)
    }

    /// The verdict above the summary, then the summary as a Markdown table, ready to paste
    /// into a post; the verdict in `lang`.
    pub fn markdown(&self, lang: Option<String>) -> String {
        report::markdown_in(&self.inner.result, page_lang(lang.as_deref()))
    }

    /// The run's verdict in one line, in `lang`: "Recovered after 4.0 s" or "Never
    /// recovered: 66 s overloaded", as the CLI's text report prints it.
    pub fn verdict(&self, lang: Option<String>) -> String {
        retrystorm::cluster::verdict::line(&self.inner.result.summary, page_lang(lang.as_deref()))
    }

    /// One CSV row per bucket and tier.
    pub fn csv(&self) -> String {
        report::csv_buckets(&self.inner.result)
    }

    /// The CSS height the chart needs on a canvas `css_width` CSS pixels wide, drawn with
    /// `options` (their language and cost switch choose the captions, which wrap on a
    /// narrow canvas, and the legends, which stand in rows under each panel there),
    /// pixels; the page sets it on the canvas before drawing.
    #[wasm_bindgen(js_name = chartHeightAt)]
    pub fn chart_height_at(&self, css_width: f64, options: JsValue) -> Result<f64, JsValue> {
        self.height_with(css_width, options, None, None)
    }

    /// [`chartHeightAt`](Self::chart_height_at) for the chart `drawWithPinned` draws
    /// with `pinned`, whose lines the legends name too.
    #[wasm_bindgen(js_name = chartHeightWithPinned)]
    pub fn chart_height_with_pinned(
        &self,
        css_width: f64,
        pinned: &ClusterRun,
        options: JsValue,
    ) -> Result<f64, JsValue> {
        self.height_with(css_width, options, Some(&pinned.inner), None)
    }

    /// [`chartHeightAt`](Self::chart_height_at) for the chart `drawBands` draws with
    /// `ensemble`, whose bands the legends name instead of the run's bars.
    #[wasm_bindgen(js_name = chartHeightBands)]
    pub fn chart_height_bands(
        &self,
        css_width: f64,
        ensemble: &crate::plan::PlanResult,
        options: JsValue,
    ) -> Result<f64, JsValue> {
        self.height_with(css_width, options, None, Some(&ensemble.shared()))
    }

    /// The chart's CSS height on a canvas `css_width` wide, drawn with `options`, the
    /// pinned run `a` and the ensemble `bands`, as `draw` measures it.
    fn height_with(
        &self,
        css_width: f64,
        options: JsValue,
        a: Option<&Run>,
        bands: Option<&retrystorm::ensemble::Ensemble>,
    ) -> Result<f64, JsValue> {
        let opts = ChartOptions::from_js(options)?;
        let look = crate::cluster_chart::Look {
            lang: opts.lang(),
            cost: opts.cost && crate::cluster_chart::has_cost(&self.inner.result),
            dpr: 1.0,
        };
        // As the drawing measures the canvas: at least 300 px wide.
        let width = css_width.max(300.0);
        Ok(crate::cluster_chart::height_at(
            &*self.inner,
            a,
            bands,
            look,
            width,
        ))
    }

    /// Draws the charts with `pinned`, the run A of an A/B comparison, as a line over
    /// this run's bars (each run at its own bucket width, on this run's time axis).
    #[wasm_bindgen(js_name = drawWithPinned)]
    pub fn draw_with_pinned(
        &self,
        canvas: HtmlCanvasElement,
        pinned: &ClusterRun,
        options: JsValue,
    ) -> Result<ChartHandle, JsValue> {
        let opts = ChartOptions::from_js(options)?;
        let a = Some(Rc::clone(&pinned.inner));
        crate::cluster_chart::draw(&canvas, &self.inner, a, &opts, None).map_err(plain_error)
    }
}
