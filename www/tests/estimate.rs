//! wasm-bindgen tests of the estimate exports, in headless Chromium: a run's and a
//! plan's cost cross as plain objects with the engine's figures, long work asks before
//! it starts, and a refused scenario or plan throws a real JS `Error` naming the field.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{get, js, js_of, message};
use retrystorm::classic::Scenario;
use retrystorm::estimate::{self, Format};
use retrystorm::scenario::{self, AnyScenario};
use retrystorm_web::estimate::{estimate_plan, estimate_run};
use retrystorm_web::plan::Plan;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is a number"))
}

fn stampede() -> serde_json::Value {
    let b = scenario::bundled()
        .into_iter()
        .find(|b| b.id == "cluster-gc-stampede-naive")
        .unwrap();
    serde_json::from_str(b.json).unwrap()
}

#[wasm_bindgen_test]
fn a_run_and_a_plan_cross_as_plain_objects_with_the_engines_figures() {
    let article = Scenario::article();
    let e = estimate_run("classic", js_of(&article), None).unwrap();
    let native = estimate::run(&AnyScenario::Classic(article.clone()), Format::Json);
    assert_eq!(num(&e, "runs"), 1.0);
    assert_eq!(get(&e, "unit").as_string().unwrap(), "requests");
    assert_eq!(num(&e, "work"), native.work as f64);
    assert_eq!(num(&e, "peak_bytes"), native.peak_bytes as f64);
    assert_eq!(get(&e, "ask").as_bool(), Some(false));
    assert_eq!(get(&e, "text").as_string().unwrap(), native.text());
    // 10,000 seeds of the GC stampede (90 s, about a million events each) on two
    // workers: minutes of work, so the page asks first, and says how long in words.
    let plan = estimate_plan(
        "cluster",
        js_of(&stampede()),
        js(r#"{"seeds": 10000}"#),
        Some(2),
        None,
    )
    .unwrap();
    assert_eq!(num(&plan, "runs"), 10_000.0);
    assert_eq!(get(&plan, "unit").as_string().unwrap(), "events");
    assert_eq!(num(&plan, "threads"), 2.0);
    assert!(
        num(&plan, "seconds") > estimate::ASK_ABOVE_S,
        "{:?}",
        get(&plan, "text")
    );
    assert_eq!(get(&plan, "ask").as_bool(), Some(true));
    let time = get(&plan, "time").as_string().unwrap();
    assert!(time.starts_with("about ") && time.contains("min"), "{time}");
    assert!(get(&plan, "memory").as_string().unwrap().ends_with("iB"));
    // The page's language words the time ("约" for "about"), the figure unchanged.
    let zh = estimate_plan(
        "cluster",
        js_of(&stampede()),
        js(r#"{"seeds": 10000}"#),
        Some(2),
        Some("zh".into()),
    )
    .unwrap();
    // A plan the page already built gives the same estimate without planning again.
    let built = Plan::new("cluster", js_of(&stampede()), js(r#"{"seeds": 10000}"#)).unwrap();
    let again = built.estimate(Some(2), None).unwrap();
    for key in ["runs", "work", "peak_bytes", "output_bytes", "seconds"] {
        assert_eq!(num(&again, key), num(&plan, key), "{key}");
    }
    let zh_time = get(&zh, "time").as_string().unwrap();
    assert_eq!(zh_time, format!("约 {}", &time["about ".len()..]));
    // A plain object, not a Map: JSON.stringify sees every field.
    let text = js_sys::JSON::stringify(&plan).unwrap().as_string().unwrap();
    assert!(text.contains("\"work_bound\":"), "{text}");
}

#[wasm_bindgen_test]
fn refusals_are_js_errors_naming_the_field() {
    let mut bad = serde_json::to_value(Scenario::article()).unwrap();
    bad["clients"] = serde_json::json!(0);
    let e = estimate_run("classic", js_of(&bad), None).unwrap_err();
    assert!(message(&e).starts_with("clients = 0"), "{}", message(&e));
    assert_eq!(get(&e, "field").as_string().unwrap(), "clients");
    let e = estimate_plan(
        "cluster",
        js_of(&stampede()),
        js(r#"{"seeds": 0}"#),
        None,
        None,
    )
    .unwrap_err();
    assert_eq!(get(&e, "field").as_string().unwrap(), "seeds");
    let e = estimate_run("quantum", js_of(&stampede()), None).unwrap_err();
    assert!(!message(&e).is_empty());
}
