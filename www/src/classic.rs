//! Exports of the classic model: defaults, validation, the article's acceptance checks,
//! and [`ClassicRun`], a run held on the Rust side with its renderings.

use crate::chart::{ChartHandle, ChartOptions};
use crate::js::{js_error, json_from_js, page_lang, to_js};
use crate::{problems_js, run_class, scenario_and_seed, HeldRun};
use retrystorm::classic::{
    self, cells, checks, report, Attribution, Output, Scenario, StrategyResult,
};
use retrystorm::cost::{Billed, Cost};
use retrystorm::ValidationError;
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Reads a classic scenario from a JS object (or JSON text) exactly as the CLI reads a
/// scenario file; parse only (validation is the caller's: simulate checks, validate lists
/// every problem).
pub fn scenario_from_js(cfg: &JsValue) -> Result<Scenario, ValidationError> {
    retrystorm::scenario::read_classic(&json_from_js(cfg)?)
}

/// The model's defaults: the article's scenario, the cost model a strategy starts from
/// when one is switched on, and the values of the enumerated fields.
#[derive(Serialize)]
struct Defaults {
    scenario: Scenario,
    cost: Cost,
    enums: Enums,
}

/// Allowed values of the classic model's enumerated fields.
#[derive(Serialize)]
struct Enums {
    /// `attribution`, the article's first.
    attribution: Vec<Attribution>,
    /// `strategies[].cost.billed` entries.
    billed: Vec<Billed>,
}

/// The classic model's defaults `{scenario, cost, enums: {attribution, billed}}`: the
/// article's scenario and a cost model, declared only in the engine.
#[wasm_bindgen(js_name = classicDefaults)]
pub fn classic_defaults() -> Result<JsValue, JsValue> {
    to_js(&Defaults {
        scenario: Scenario::article(),
        cost: Cost::default(),
        enums: Enums {
            attribution: Attribution::ALL.to_vec(),
            billed: Billed::kinds(),
        },
    })
}

/// One figure of a result, formatted as the CLI formats it.
type Cell = fn(&StrategyResult) -> String;

/// How the article's figures and checks change with the time-attribution convention.
#[derive(Serialize)]
struct AttributionTables {
    /// Per strategy, amplification, delivery and peak QPS under each convention side by side.
    figures: report::Table,
    /// Per acceptance check, its verdict under each convention.
    checks: report::Table,
}

/// The scenario run under every attribution convention (`ceil`, `floor`, `round`):
/// `{figures, checks}`, two tables whose cells are formatted as the CLI's `run
/// --attribution` formats them, so a reader sees which conclusions survive the convention.
#[wasm_bindgen(js_name = classicAttribution, unchecked_return_type = "{figures: Table, checks: Table}")]
pub fn classic_attribution(cfg: JsValue, seed: JsValue) -> Result<JsValue, JsValue> {
    let (scenario, seed) = scenario_and_seed(&cfg, &seed, scenario_from_js, |s| s.seed)?;
    // Once the strategies or the scenario are no longer the article's, its checks do not
    // apply under any convention: each is "n/a", as the page's checks say, not a FAIL.
    let applies = checks::article_checks_apply(&scenario);
    let runs = Attribution::ALL
        .iter()
        .map(|&a| {
            let sc = Scenario {
                attribution: a,
                ..scenario.clone()
            };
            let out = classic::simulate(&sc, seed)?;
            let checks = if applies {
                checks::verdicts_of(&out)?
            } else {
                Vec::new()
            };
            Ok((a, out, checks))
        })
        .collect::<Result<Vec<_>, ValidationError>>()
        .map_err(|e| js_error(&e))?;
    let figures: [(&str, Cell); 3] = [
        ("amplification", cells::amplification),
        ("delivery", cells::delivery),
        ("peak QPS", |r| r.peak.to_string()),
    ];
    let mut columns = vec!["strategy".to_string()];
    for (name, _) in &figures {
        columns.extend(runs.iter().map(|(a, ..)| format!("{name} {}", a.name())));
    }
    let rows = scenario
        .strategies
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut row = vec![s.name.clone()];
            for (_, cell) in &figures {
                row.extend(runs.iter().map(|(_, out, _)| cell(&out.results[i])));
            }
            row
        })
        .collect();
    let verdict = |v: &checks::Verdict| match v.pass {
        Some(true) => "PASS",
        Some(false) => "FAIL",
        None => "n/a",
    };
    let mut check_columns = vec!["check".to_string()];
    check_columns.extend(runs.iter().map(|(a, ..)| a.name().to_string()));
    let checks = checks::verdict_names(retrystorm::lang::Lang::Zh)
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let mut row = vec![name.to_string()];
            row.extend(
                runs.iter()
                    .map(|(_, _, c)| c.get(k).map_or("n/a", verdict).to_string()),
            );
            row
        })
        .collect();
    to_js(&AttributionTables {
        figures: report::Table { columns, rows },
        checks: report::Table {
            columns: check_columns,
            rows: checks,
        },
    })
}

/// Every problem of a classic scenario (`[{field, value, allowed, message}]`, empty if fine),
/// the messages in `lang` (`"zh"` or `"en"`, the default).
#[wasm_bindgen(js_name = classicValidate, unchecked_return_type = "Problem[]")]
pub fn classic_validate(cfg: JsValue, lang: Option<String>) -> Result<JsValue, JsValue> {
    problems_js(scenario_from_js(&cfg), Scenario::problems, lang.as_deref())
}

/// The article's four acceptance checks on this scenario: `[{name, pass, detail}]`,
/// `pass` being `null` when a check does not apply.
/// Named in `lang` (`"zh"` or `"en"`, the default).
#[wasm_bindgen(js_name = classicVerdicts, unchecked_return_type = "Verdict[]")]
pub fn classic_verdicts(
    cfg: JsValue,
    seed: JsValue,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let (scenario, seed) = scenario_and_seed(&cfg, &seed, scenario_from_js, |s| s.seed)?;
    to_js(
        &checks::verdicts_in(&scenario, seed, page_lang(lang.as_deref()))
            .map_err(|e| js_error(&e))?,
    )
}

impl HeldRun for Output {
    fn run(cfg: &JsValue, seed: &JsValue) -> Result<Output, JsValue> {
        let (scenario, seed) = scenario_and_seed(cfg, seed, scenario_from_js, |s| s.seed)?;
        classic::simulate(&scenario, seed).map_err(|e| js_error(&e))
    }

    fn from_doc(doc: serde_json::Value) -> Result<Output, JsValue> {
        retrystorm::validate::read_value(&doc)
            .map_err(|e| crate::plain_error(format!("not a run of this model: {e}")))
    }

    fn to_doc(&self) -> Result<JsValue, JsValue> {
        to_js(self)
    }

    fn draw(
        run: &Rc<Output>,
        canvas: &HtmlCanvasElement,
        opts: &ChartOptions,
        bands: Option<Rc<retrystorm::ensemble::Ensemble>>,
    ) -> Result<ChartHandle, String> {
        crate::classic_chart::draw(canvas, run, opts, bands)
    }
}

run_class!(
    /// A classic run (the engine's output, the CLI's `run --json`), held on the Rust side.
    ClassicRun holds Output
);

#[wasm_bindgen]
impl ClassicRun {
    /// The results table exactly as the CLI formats it: `{columns, rows}` of strings,
    /// titled in `lang` (`"zh"` or `"en"`, the default).
    #[wasm_bindgen(unchecked_return_type = "Table")]
    pub fn table(&self, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&report::table_in(&self.inner, page_lang(lang.as_deref())))
    }

    /// What each column of [`table`](Self::table) means, with its unit, in `lang`:
    /// `[{term, meaning}]` in the table's column order.
    #[wasm_bindgen(unchecked_return_type = "GlossaryEntry[]")]
    pub fn glossary(&self, lang: Option<String>) -> Result<JsValue, JsValue> {
        to_js(&retrystorm::classic::glossary::glossary_in(
            &self.inner,
            page_lang(lang.as_deref()),
        ))
    }

    /// One of the article's four reports (`"run"`, `"herd"`, `"sweep"`, `"breaker"`) on
    /// this run's scenario and seed, exactly as `retrystorm <report> --lang <lang>` prints it.
    pub fn report(&self, which: &str, lang: Option<String>) -> Result<String, JsValue> {
        let which: report::ArticleReport =
            retrystorm::validate::read_value(&serde_json::Value::from(which)).map_err(|_| {
                crate::plain_error(format!(
                    "no report {which:?}: expected run, herd, sweep or breaker"
                ))
            })?;
        report::article_report(&self.inner, which, page_lang(lang.as_deref()))
            .map_err(|e| js_error(&e))
    }

    /// The results as a Markdown table, ready to paste into a post, with the verdict in
    /// `lang` under it.
    pub fn markdown(&self, lang: Option<String>) -> String {
        report::markdown_in(&self.inner, page_lang(lang.as_deref()))
    }

    /// The run's verdict in one line, in `lang`: the strategy that keeps overload lowest
    /// and the trap, as the last line of `retrystorm run --lang <lang>`.
    pub fn verdict(&self, lang: Option<String>) -> String {
        retrystorm::classic::verdict::line(&self.inner, page_lang(lang.as_deref()))
    }

    /// Attempts per second for every strategy, as CSV.
    pub fn csv(&self) -> String {
        report::csv_per_sec(&self.inner)
    }

    /// True when some strategy has a cost model (the table's cost columns, the chart's cost switch).
    #[wasm_bindgen(js_name = hasCost)]
    pub fn has_cost(&self) -> bool {
        report::has_cost(&self.inner)
    }

    /// The strategies' names, in order (the chart's series).
    pub fn names(&self) -> Vec<String> {
        self.inner.results.iter().map(|r| r.name.clone()).collect()
    }
}
