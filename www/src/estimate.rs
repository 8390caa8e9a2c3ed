//! What a job will cost, asked before it starts, so the page can say "this will take
//! about 40 s — run?" for long work: the engine's estimate
//! ([`retrystorm::estimate`]) of one run or of a plan (an ensemble or a sweep), as a
//! plain object with its figures already in words.

use crate::js::{base_scenario, js_error, page_lang, read_js, to_js};
use retrystorm::estimate::{self, Estimate, Format};
use retrystorm::lang::{fill, Lang};
use retrystorm::sweep::Sweep;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_ESTIMATE: &str = r#"
/** What a job will cost, estimated before it starts (the engine's `estimate`). */
export interface Estimate {
  runs: number; work: number; unit: "requests" | "events"; work_bound: number;
  peak_bytes: number; output_bytes: number; seconds: number; threads: number;
  /** True when the page should say how long it takes and ask before starting. */
  ask: boolean;
  /** `peak_bytes`, `output_bytes` and `seconds` in words ("1.7 GiB", "about 12.0 s"; "约 12.0 s" in Chinese). */
  memory: string; output: string; time: string;
  /** Every figure, one a line, as `retrystorm --estimate` prints it. */
  text: string;
}
"#;

/// The estimate as the page reads it: the engine's figures, whether to ask, and words.
#[derive(Serialize)]
struct EstimateJs {
    #[serde(flatten)]
    estimate: Estimate,
    ask: bool,
    memory: String,
    output: String,
    time: String,
    text: String,
}

/// "About" a rough time, in each language (`{0}` the time, "12.0 s").
const ABOUT: (&str, &str) = ("约 {0}", "about {0}");

fn to_page(e: Estimate, lang: Lang) -> Result<JsValue, JsValue> {
    to_js(&EstimateJs {
        ask: e.asks(),
        memory: estimate::format_bytes(e.peak_bytes),
        output: estimate::format_bytes(e.output_bytes),
        time: fill(lang.of(ABOUT), &[&estimate::format_seconds(e.seconds)]),
        text: e.text(),
        estimate: e,
    })
}

/// The cost of one run of `scenario` (a `model` scenario as the page holds it, with
/// its own seed), its time worded in `lang` (`"zh"` or `"en"`, the default); a scenario
/// the engine refuses throws its `Error`, naming the field.
#[wasm_bindgen(js_name = estimateRun, unchecked_return_type = "Estimate")]
pub fn estimate_run(
    model: &str,
    scenario: JsValue,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let sc = base_scenario(model, &scenario)?;
    to_page(estimate::run(&sc, Format::Json), page_lang(lang.as_deref()))
}

/// The cost of the plan `new Plan(model, scenario, sweep)` would run (an ensemble, or a
/// sweep), on `workers` workers (default 1), its time worded in `lang`; errors as
/// `Plan`'s (`seeds`, `params[0].path`).
#[wasm_bindgen(js_name = estimatePlan, unchecked_return_type = "Estimate")]
pub fn estimate_plan(
    model: &str,
    scenario: JsValue,
    sweep: JsValue,
    workers: Option<usize>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let base = base_scenario(model, &scenario)?;
    let def: Sweep = read_js(&sweep)?;
    let plan = def.plan(&base).map_err(|e| js_error(&e))?;
    of_plan(&plan, workers, lang)
}

/// The cost of a plan already built (the page's `Plan.estimate`), so the page does not
/// plan twice: for a large cluster sweep, planning is most of the estimate's time.
pub(crate) fn of_plan(
    plan: &retrystorm::sweep::Plan,
    workers: Option<usize>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    to_page(
        estimate::sweep(plan, Some(workers.unwrap_or(1)), Format::Json),
        page_lang(lang.as_deref()),
    )
}
