//! Ensembles and sweeps in the page: one [`Plan`] class for both models and both kinds
//! (a sweep without parameters is the scenario's ensemble).
//!
//! The protocol: every worker of the page's pool builds a `Plan` from the same
//! (scenario, sweep definition) and runs the item indices it is handed (`runItem`,
//! answering a sample as a flat list); one more worker's `Plan` keeps the samples by item
//! index (`add`) and summarises the completed prefix of the items (`result`, `sweepFlat`),
//! so the results stream in as seeds finish and are the same whatever order, and however
//! many workers, the items were computed in: the engine summarises them in item order.
//! What crosses to the page is what it shows, as a flat list too ([`crate::flat`]): every
//! figure's spread and every verdict's count, but per-seed values only where a plot draws
//! them, so the page reads a large ensemble quickly and never summarises one itself
//! (`PlanResult.fromFlat`, `Plan.sweepFrom`).

use crate::flat::{Flat, Reader};
use crate::js::{base_scenario, js_error, plain_error, read_js, to_js};
use retrystorm::ensemble::{self, render, Ensemble, Sample};
use retrystorm::lang::Lang;
use retrystorm::sweep::{self, choose, render as sweep_render, Sweep, SweepResult};
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A validated ensemble or sweep of one scenario, and the samples gathered so far.
#[wasm_bindgen]
pub struct Plan {
    plan: sweep::Plan,
    /// Samples that arrived ahead of an earlier item, by item index.
    samples: Vec<Option<Sample>>,
    /// The complete leading items' samples, in item order (moved out of `samples`, so
    /// summarising them never copies them).
    prefix: Vec<Sample>,
}

#[wasm_bindgen]
impl Plan {
    /// Checks `sweep` (a definition as `retrystorm grid --sweep` reads, e.g. `{seeds: 100}`)
    /// against `scenario` of `model` (`"classic"` or `"cluster"`: the page's scenarios
    /// leave their model implicit); errors name the field (`seeds`, `params[0].path`).
    #[wasm_bindgen(constructor)]
    pub fn new(model: &str, scenario: JsValue, sweep: JsValue) -> Result<Plan, JsValue> {
        let base = base_scenario(model, &scenario)?;
        let def: Sweep = read_js(&sweep)?;
        let plan = def.plan(&base).map_err(|e| js_error(&e))?;
        let samples = vec![None; plan.items()];
        Ok(Plan {
            plan,
            samples,
            prefix: Vec::new(),
        })
    }

    /// What running this plan on `workers` workers (default 1) will cost, its time worded
    /// in `lang`: `estimatePlan`'s answer without planning again.
    #[wasm_bindgen(unchecked_return_type = "Estimate")]
    pub fn estimate(
        &self,
        workers: Option<usize>,
        lang: Option<String>,
    ) -> Result<JsValue, JsValue> {
        crate::estimate::of_plan(&self.plan, workers, lang)
    }

    /// How many items (points × seeds) the plan runs.
    pub fn items(&self) -> usize {
        self.plan.items()
    }

    /// How many seeds every point runs.
    pub fn seeds(&self) -> usize {
        self.plan.seeds.len()
    }

    /// Runs item `i` and answers its sample as a flat list ([`Flat::sample`]: what a
    /// worker posts back).
    #[wasm_bindgen(js_name = runItem)]
    pub fn run_item(&self, i: usize) -> Result<Vec<f64>, JsValue> {
        if i >= self.plan.items() {
            return Err(plain_error(format!("item {i} of {}", self.plan.items())));
        }
        let s = self.plan.run_item(i).map_err(|e| js_error(&e))?;
        let mut flat = Flat::default();
        flat.sample(&s);
        Ok(flat.0)
    }

    /// Keeps item `i`'s sample (from `runItem`); answers how many leading items are now
    /// complete.
    pub fn add(&mut self, i: usize, flat: &[f64]) -> Result<usize, JsValue> {
        let mut r = Reader::new(flat);
        let s = r.sample();
        if !r.done() {
            return Err(unreadable());
        }
        let slot = self
            .samples
            .get_mut(i)
            .ok_or_else(|| plain_error(format!("item {i} of {}", self.plan.items())))?;
        *slot = Some(s);
        while let Some(next) = self
            .samples
            .get_mut(self.prefix.len())
            .and_then(Option::take)
        {
            self.prefix.push(next);
        }
        Ok(self.done())
    }

    /// How many leading items have their sample.
    pub fn done(&self) -> usize {
        self.prefix.len()
    }

    /// The ensemble of the first point over its seeds done so far (the spread tightens
    /// as they stream in; with no parameter that point is the whole plan);
    /// `undefined` before any.
    pub fn result(&self) -> Option<PlanResult> {
        let n = self.plan.seeds.len();
        let done = &self.prefix[..n.min(self.prefix.len())];
        if done.is_empty() {
            return None;
        }
        Some(PlanResult {
            ensemble: Rc::new(ensemble::summarise(&self.plan.points[0].1, done)),
            complete: done.len() == self.plan.items(),
            shown: false,
        })
    }
}

/// A list that does not read as a sample or a result (not a worker's).
fn unreadable() -> JsValue {
    plain_error("not a sample or a summary of this plan")
}

#[wasm_bindgen]
impl Plan {
    /// The sweep's points whose seeds are all in, summarised with their constraints,
    /// Pareto front and best point (those of the points so far), as what the page shows
    /// of them ([`Flat::sweep`]) for [`sweepFrom`](Self::sweep_from); `undefined` before
    /// the first point completes.
    #[wasm_bindgen(js_name = sweepFlat)]
    pub fn sweep_flat(&self) -> Option<Vec<f64>> {
        if self.prefix.len() < self.plan.seeds.len() {
            return None;
        }
        let mut flat = Flat::default();
        flat.sweep(&self.plan.summarise(&self.prefix));
        Some(flat.0)
    }

    /// The sweep's result so far from [`sweepFlat`](Self::sweep_flat) (made where the
    /// samples are, a worker): its charts, recommendation and exports.
    #[wasm_bindgen(js_name = sweepFrom)]
    pub fn sweep_from(&self, flat: &[f64]) -> Result<SweepOutcome, JsValue> {
        let mut r = Reader::new(flat);
        let result = r.sweep();
        if !r.done() {
            return Err(unreadable());
        }
        // The charts ring the point the recommendation names (none before every point is
        // in, none in a sweep of conditions alone); the exports keep the CLI's best.
        let mut shown = result.clone();
        shown.best = sweep::advice::advice(&self.plan, &result, Lang::En).and_then(|a| a.point);
        Ok(SweepOutcome {
            result,
            shown,
            plan: self.plan.clone(),
        })
    }

    /// The scenario of point `i` (the parameter values applied), as a plain object:
    /// what a click on the point opens.
    #[wasm_bindgen(js_name = pointScenario)]
    pub fn point_scenario(&self, i: usize) -> Result<JsValue, JsValue> {
        let (_, sc) = self
            .plan
            .points
            .get(i)
            .ok_or_else(|| plain_error(format!("point {i} of {}", self.plan.points.len())))?;
        let mut doc = sc.to_value();
        // The page's scenarios leave their model implicit (the link says it).
        if let Some(o) = doc.as_object_mut() {
            o.remove("model");
        }
        to_js(&doc)
    }
}

/// A sweep's result so far: the charts, the recommendation and the exports.
#[wasm_bindgen]
pub struct SweepOutcome {
    /// The points so far, as the CLI summarises them (the exports).
    result: SweepResult,
    /// The same with the best point the recommendation's (the charts).
    shown: SweepResult,
    plan: sweep::Plan,
}

/// The recommendation as the page words it: the engine's parts, the sentence the page's.
#[derive(Serialize)]
struct RecommendJs {
    /// `path = value` of each parameter at the best point; empty when none is feasible.
    at: String,
    /// The best point's index.
    point: Option<usize>,
    /// `max` or `min`.
    goal: &'static str,
    /// The objective's label (`p95(strategies[5].overload_seconds)`).
    metric: String,
    /// Its value at the best point.
    value: String,
    /// The constraints as the CLI writes them.
    subject: Vec<String>,
    /// Seeds per point.
    seeds: usize,
}

#[wasm_bindgen]
impl SweepOutcome {
    /// Points summarised so far.
    pub fn done(&self) -> usize {
        self.result.points.len()
    }

    /// Points in all.
    pub fn total(&self) -> usize {
        self.plan.points.len()
    }

    /// Every metric a point reports, `<group>.<metric>` (the plot's choices).
    pub fn metrics(&self) -> Vec<String> {
        self.result
            .points
            .first()
            .map(|p| sweep_render::metrics(p).into_iter().map(|m| m.0).collect())
            .unwrap_or_default()
    }

    /// The recommendation `{at, point, goal, metric, value, subject, seeds}`; `undefined`
    /// without an objective. `point` is absent when no point meets the constraints.
    #[wasm_bindgen(
        unchecked_return_type = "{at: string, point?: number, goal: 'max' | 'min', metric: string, value: string, subject: string[], seeds: number} | undefined"
    )]
    pub fn recommendation(&self) -> Result<JsValue, JsValue> {
        let Some(o) = &self.plan.sweep.objective else {
            return Ok(JsValue::UNDEFINED);
        };
        let best = self.result.best.map(|b| &self.result.points[b]);
        let rec = RecommendJs {
            at: self.result.best.map(|b| self.at(b)).unwrap_or_default(),
            point: self.result.best,
            goal: match o.goal {
                choose::Goal::Max => "max",
                choose::Goal::Min => "min",
            },
            metric: sweep_render::metric_label(&o.of),
            value: best
                .and_then(|p| choose::value(&p.ensemble, &o.of))
                .map_or("—".into(), ensemble::render::num),
            subject: self
                .plan
                .sweep
                .constraints
                .iter()
                .map(sweep::constraint_to_cli)
                .collect(),
            seeds: self.plan.seeds.len(),
        };
        to_js(&rec)
    }

    /// The CLI's text summary (`retrystorm grid --lang <lang>`), of the points so far,
    /// its recommendation in words in `lang` (`"zh"`/`"en"`).
    pub fn text(&self, lang: Option<String>) -> String {
        let lang = crate::js::page_lang(lang.as_deref());
        sweep_render::text_in(&self.plan, &self.result, lang)
    }

    /// One JSON line per point (`retrystorm grid --jsonl`).
    pub fn jsonl(&self) -> String {
        sweep_render::jsonl(&self.result)
    }

    /// One CSV row per point (`retrystorm grid --csv`).
    pub fn csv(&self) -> String {
        sweep_render::csv(&self.result)
    }

    /// Draws the sweep's chart of `metric` (`[stat(]group.metric[)]`) on `canvas`
    /// (sized by its CSS box): lines with bands for one parameter, a heatmap for two;
    /// options `{dpr, theme}`.
    pub fn draw(
        &self,
        canvas: web_sys::HtmlCanvasElement,
        metric: &str,
        options: JsValue,
    ) -> Result<crate::sweep_chart::SweepHandle, JsValue> {
        let opts = crate::chart::ChartOptions::from_js(options)?;
        let m = sweep::metric_from_cli(metric);
        let (paths, log) = self.axes();
        let axes = crate::sweep_chart::Axes {
            paths: &paths,
            log: &log,
        };
        if self.plan.values.len() == 2 {
            crate::sweep_chart::draw_heatmap(
                &canvas,
                &self.shown,
                &axes,
                &self.plan.values,
                &m,
                opts.ratio(),
                opts.theme(),
            )
        } else {
            crate::sweep_chart::draw_lines(
                &canvas,
                &self.shown,
                &axes,
                &m,
                opts.ratio(),
                opts.theme(),
            )
        }
        .map_err(plain_error)
    }

    /// True when the definition names two Pareto axes (the scatter can be drawn).
    #[wasm_bindgen(js_name = hasPareto)]
    pub fn has_pareto(&self) -> bool {
        self.plan.sweep.pareto.is_some()
    }

    /// Draws the Pareto scatter of the definition's two axes on `canvas`; options
    /// `{dpr, theme}`.
    #[wasm_bindgen(js_name = drawPareto)]
    pub fn draw_pareto(
        &self,
        canvas: web_sys::HtmlCanvasElement,
        options: JsValue,
    ) -> Result<crate::sweep_chart::SweepHandle, JsValue> {
        let opts = crate::chart::ChartOptions::from_js(options)?;
        let [a, b] = self
            .plan
            .sweep
            .pareto
            .as_ref()
            .ok_or_else(|| plain_error("the sweep names no Pareto axes"))?;
        let (paths, log) = self.axes();
        let axes = crate::sweep_chart::Axes {
            paths: &paths,
            log: &log,
        };
        crate::sweep_chart::draw_pareto(
            &canvas,
            &self.shown,
            &axes,
            (&a.of, &b.of),
            (a.goal, b.goal),
            opts.ratio(),
            opts.theme(),
        )
        .map_err(plain_error)
    }
}

impl SweepOutcome {
    /// Point `b`'s `path = value` of each parameter (`capacity = 240, clients = 800`).
    fn at(&self, b: usize) -> String {
        self.result
            .paths
            .iter()
            .zip(&self.result.points[b].params)
            .map(|(k, v)| format!("{k} = {}", ensemble::render::num(*v)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The parameter paths and whether each is log-spaced.
    fn axes(&self) -> (Vec<String>, Vec<bool>) {
        let log = self
            .plan
            .sweep
            .params
            .iter()
            .map(|p| {
                p.range
                    .as_ref()
                    .is_some_and(|r| r.scale == sweep::Scale::Log)
            })
            .collect();
        (self.result.paths.clone(), log)
    }
}

/// One bundled sweep as the page lists it.
#[derive(Serialize)]
struct SweepPresetJs {
    id: &'static str,
    model: &'static str,
    scenario: &'static str,
    compare: Option<&'static str>,
    title: &'static str,
    description: &'static str,
    sweep: serde_json::Value,
}

/// The bundled sweeps `[{id, model, scenario, compare, title, description, sweep}]`
/// with their texts in `lang` (`"zh"` or `"en"`); `scenario` and `compare` are bundled
/// scenarios' ids.
#[wasm_bindgen(
    js_name = sweepPresets,
    unchecked_return_type = "{id: string, model: 'classic' | 'cluster', scenario: string, compare?: string, title: string, description: string, sweep: any}[]"
)]
pub fn sweep_presets(lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang: Lang = crate::js::page_lang(lang.as_deref());
    let list = sweep::presets::presets()
        .into_iter()
        .map(|p| {
            Ok(SweepPresetJs {
                id: p.id,
                model: p.model,
                scenario: p.scenario,
                compare: p.compare,
                title: p.title(lang),
                description: p.description(lang),
                sweep: serde_json::from_str(p.json).map_err(plain_error)?,
            })
        })
        .collect::<Result<Vec<_>, JsValue>>()?;
    to_js(&list)
}

/// The fields of `scenario` (of `model`) a sweep may vary, labelled in `lang`:
/// `[{path, label, min, max, integer, setting}]` (`setting`: the reader chooses it; the
/// load and the outage are conditions).
#[wasm_bindgen(
    js_name = sweepFields,
    unchecked_return_type = "{path: string, label: string, min: number, max: number, integer: boolean, setting: boolean}[]"
)]
pub fn sweep_fields(
    model: &str,
    scenario: JsValue,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let lang = crate::js::page_lang(lang.as_deref());
    to_js(&sweep::words::field_choices(
        &base_scenario(model, &scenario)?,
        lang,
    ))
}

/// The metrics of `scenario` (of `model`) the sweep form lists, labelled in `lang`:
/// `[{metric, label, unit, symbol}]` (`symbol`: what follows a value, `%`, `s`).
#[wasm_bindgen(
    js_name = sweepMetrics,
    unchecked_return_type = "{metric: string, label: string, unit: string, symbol: string}[]"
)]
pub fn sweep_metrics(
    model: &str,
    scenario: JsValue,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let lang = crate::js::page_lang(lang.as_deref());
    to_js(&sweep::words::metric_choices(
        &base_scenario(model, &scenario)?,
        lang,
    ))
}

/// The words of the form's choices in `lang`: the goals, the comparisons and the shares
/// of seeds a threshold holds in, each `{value, label}`.
#[wasm_bindgen(
    js_name = sweepChoiceWords,
    unchecked_return_type = "{goals: {value: string, label: string}[], ops: {value: string, label: string}[], shares: {value: string, label: string}[]}"
)]
pub fn sweep_choice_words(lang: Option<String>) -> Result<JsValue, JsValue> {
    use retrystorm::lang::Texts as _;
    use sweep::words::{Word, SHARES};
    let lang = crate::js::page_lang(lang.as_deref());
    let pair = |value: String, w: Word| serde_json::json!({"value": value, "label": w.get(lang)});
    let shares: Vec<_> = SHARES
        .iter()
        .map(|s| {
            pair(
                serde_json::to_value(s)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                s.word(),
            )
        })
        .collect();
    to_js(&serde_json::json!({
        "goals": [pair("max".into(), Word::Maximise), pair("min".into(), Word::Minimise)],
        "ops": [pair("<=".into(), Word::AtMost), pair(">=".into(), Word::AtLeast)],
        "shares": shares,
    }))
}

/// The form's reading of a definition's objective and constraints,
/// `{objective?: {metric, goal}, constraints: [{metric, op, value, share}]}`; `undefined`
/// when one of them is beyond the form's choices (then the CLI's syntax shows it).
#[wasm_bindgen(js_name = sweepForm)]
pub fn sweep_form(sweep: JsValue) -> Result<JsValue, JsValue> {
    let def: Sweep = read_js(&sweep)?;
    match sweep::words::FormChoices::of(def.objective.as_ref(), &def.constraints) {
        Some(f) => to_js(&f),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// `sweep` with its objective and constraints those of the form's choices (`sweepForm`'s
/// shape); its Pareto axes are kept.
#[wasm_bindgen(js_name = withSweepForm)]
pub fn with_sweep_form(sweep: JsValue, form: JsValue) -> Result<JsValue, JsValue> {
    let mut def: Sweep = read_js(&sweep)?;
    let form: sweep::words::FormChoices = read_js(&form)?;
    (def.objective, def.constraints) = form.to_sweep();
    to_js(&def)
}

/// The trade-off controls' texts of a sweep definition, in the CLI's syntax:
/// `{objective, constraints, pareto}`.
#[wasm_bindgen(
    js_name = sweepChoices,
    unchecked_return_type = "{objective: string, constraints: string[], pareto: string}"
)]
pub fn sweep_choices(sweep: JsValue) -> Result<JsValue, JsValue> {
    let def: Sweep = read_js(&sweep)?;
    to_js(&sweep::ChoiceTexts::of(&def))
}

/// `sweep` with its objective, constraints and Pareto axes replaced by the controls'
/// texts (`{objective, constraints, pareto}`, the CLI's syntax); a text that does not
/// parse throws an Error naming its control (`constraints[1]`).
#[wasm_bindgen(js_name = withSweepChoices)]
pub fn with_sweep_choices(sweep: JsValue, texts: JsValue) -> Result<JsValue, JsValue> {
    let mut def: Sweep = read_js(&sweep)?;
    let texts: sweep::ChoiceTexts = read_js(&texts)?;
    texts.apply(&mut def).map_err(|e| js_error(&e))?;
    to_js(&def)
}

/// An ensemble's result as the page shows and exports it (every text from the engine).
#[wasm_bindgen]
pub struct PlanResult {
    // Shared with the charts drawn from it, whose readouts keep it.
    ensemble: Rc<Ensemble>,
    complete: bool,
    /// Only what the page shows ([`Flat::ensemble`]): no per-seed CSV.
    shown: bool,
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

    /// Every per-seed value as CSV (`seed,group,metric,value`); an error on the page's
    /// copy (`fromFlat`), which holds one metric's: the worker that summarised it has them.
    pub fn csv(&self) -> Result<String, JsValue> {
        if self.shown {
            return Err(plain_error("the per-seed values are the worker's"));
        }
        Ok(render::csv(&self.ensemble))
    }

    /// What the page shows of this result ([`Flat::ensemble`]: with the per-seed values
    /// of `metric`, the distribution drawn), for [`fromFlat`](Self::from_flat).
    #[wasm_bindgen(js_name = shownFlat)]
    pub fn shown_flat(&self, metric: &str) -> Vec<f64> {
        let mut flat = Flat::default();
        flat.ensemble(&self.ensemble, metric);
        flat.0
    }

    /// The page's copy of a result a worker summarised, from its
    /// [`shownFlat`](Self::shown_flat); `complete` once every item is in.
    #[wasm_bindgen(js_name = fromFlat)]
    pub fn from_flat(flat: &[f64], complete: bool) -> Result<PlanResult, JsValue> {
        let mut r = Reader::new(flat);
        let ensemble = r.ensemble();
        if !r.done() {
            return Err(unreadable());
        }
        Ok(PlanResult {
            ensemble: Rc::new(ensemble),
            complete,
            shown: true,
        })
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
