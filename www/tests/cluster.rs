//! wasm-bindgen tests of the cluster exports, in headless Chromium: scenarios go in as
//! JS objects parsed by JS's own JSON parser, results come back through JS's
//! `JSON.stringify` into the engine's typed structs, and are compared with the engine
//! called directly (the native code path, compiled to wasm).
#![cfg(target_arch = "wasm32")]

use retrystorm::cluster::{self, present, RunResult, Scenario};
use retrystorm::scenario::{bundled, parse, AnyScenario};
use retrystorm_web::{cluster as web, cluster_chart};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).expect("valid JSON")
}

fn text(v: &JsValue) -> String {
    js_sys::JSON::stringify(v)
        .expect("stringify")
        .as_string()
        .expect("string")
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn result_of(v: &JsValue) -> RunResult {
    serde_json::from_str(&text(v)).expect("the result decodes as the engine's RunResult")
}

fn message(e: &JsValue) -> String {
    assert!(
        e.is_instance_of::<js_sys::Error>(),
        "a real JS Error, not {e:?}"
    );
    e.unchecked_ref::<js_sys::Error>().message().into()
}

/// The bundled cluster scenarios: (id, file JSON text, parsed scenario).
fn presets() -> Vec<(&'static str, &'static str, Scenario)> {
    bundled()
        .into_iter()
        .filter(|b| b.model == "cluster")
        .map(|b| match parse(b.json) {
            Ok(AnyScenario::Cluster(s)) => (b.id, b.json, s),
            other => panic!("{}: {other:?}", b.id),
        })
        .collect()
}

fn stampede() -> (&'static str, Scenario) {
    let (_, json, s) = presets()
        .into_iter()
        .find(|p| p.0 == "cluster-gc-stampede-naive")
        .expect("the naive stampede is bundled");
    (json, s)
}

#[wasm_bindgen_test]
fn every_bundled_cluster_scenario_equals_the_native_engine() {
    let all = presets();
    assert!(all.len() >= 2, "the stampede pair at least");
    for (id, json, s) in all {
        // The file's own JSON, with its "model" key, as the page holds a preset.
        let got = web::cluster_run(js(json), JsValue::UNDEFINED).unwrap();
        assert!(!got.is_instance_of::<js_sys::Map>(), "plain objects");
        let want = cluster::run(&s, s.seed).unwrap();
        assert_eq!(result_of(&got), want, "{id}");
        // The formatted tables are the engine's, cell for cell.
        let table: retrystorm::classic::report::Table =
            serde_json::from_str(&text(&web::cluster_summary_table(got.clone()).unwrap())).unwrap();
        assert_eq!(table, present::summary_table(&want), "{id}");
        assert_eq!(
            web::cluster_csv(got.clone()).unwrap(),
            cluster::report::csv_buckets(&want)
        );
        assert_eq!(
            web::cluster_markdown(got).unwrap(),
            cluster::report::markdown_summary(&want)
        );
    }
}

#[wasm_bindgen_test]
fn a_sliced_run_equals_a_whole_run_and_reports_progress() {
    let (json, s) = stampede();
    let mut run = web::ClusterRun::new(js(json), JsValue::from_f64(7.0)).unwrap();
    let mut last = 0.0;
    let mut slices = 0;
    while !run.advance(50_000).unwrap() {
        let p = run.progress();
        assert!((last..=1.0).contains(&p), "progress {p} after {last}");
        last = p;
        slices += 1;
    }
    assert!(slices > 5, "{slices} slices");
    assert_eq!(run.progress(), 1.0);
    let sliced = result_of(&run.finish().unwrap());
    assert_eq!(sliced, cluster::run(&s, 7).unwrap());
    assert!(message(&run.finish().unwrap_err()).contains("finished"));
}

#[wasm_bindgen_test]
fn seeds_above_2_pow_53_survive_as_strings_and_bigints() {
    let (json, mut s) = stampede();
    s.duration_ms = 5000;
    let cfg = js(&serde_json::to_string(&s).unwrap());
    let want = cluster::run(&s, i64::MAX).unwrap();
    for seed in [
        JsValue::from_str("9223372036854775807"),
        JsValue::from(js_sys::BigInt::from(i64::MAX)),
    ] {
        let got = web::cluster_run(cfg.clone(), seed).unwrap();
        assert_eq!(
            get(&got, "seed").as_string().as_deref(),
            Some("9223372036854775807")
        );
        assert_eq!(result_of(&got), want);
    }
    let e = web::cluster_run(js(json), JsValue::from_f64(2f64.powi(60))).unwrap_err();
    assert!(message(&e).contains("BigInt"), "{}", message(&e));
}

#[wasm_bindgen_test]
fn errors_arrive_as_js_errors_naming_the_field() {
    let (_, s) = stampede();
    let mut v = serde_json::to_value(&s).unwrap();
    v["tiers"][1]["concurrency"] = 0.into();
    let e = web::cluster_run(js(&v.to_string()), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(
        message(&e),
        "tiers[1].concurrency = 0 is out of range: allowed 1..=100000"
    );
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("tiers[1].concurrency")
    );
    // Unknown fields are rejected by name, as in a scenario file.
    let mut v = serde_json::to_value(&s).unwrap();
    v["colour"] = "red".into();
    let e = web::ClusterRun::new(js(&v.to_string()), JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(
        message(&e).contains("unknown field `colour`"),
        "{}",
        message(&e)
    );
    // A model other than cluster is named.
    let e = web::cluster_normalize(js(r#"{"model":"classic"}"#)).unwrap_err();
    assert!(message(&e).starts_with("model"), "{}", message(&e));
    // The bounded event count is a clear Error from advance, not a frozen tab.
    let mut small = s.clone();
    small.max_events = 10_000;
    let mut run = web::ClusterRun::new(
        js(&serde_json::to_string(&small).unwrap()),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let e = loop {
        match run.advance(1000) {
            Ok(false) => {}
            Ok(true) => panic!("finished within 10000 events"),
            Err(e) => break e,
        }
    };
    assert!(message(&e).contains("raise max_events"), "{}", message(&e));
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("max_events"));
}

#[wasm_bindgen_test]
fn validate_lists_every_problem_by_path() {
    let (_, s) = stampede();
    let mut v = serde_json::to_value(&s).unwrap();
    v["duration_ms"] = 0.into();
    v["tiers"][0]["client"]["timeout_ms"] = 0.into();
    v["faults"][0]["effect"] = serde_json::json!({"kind": "brownout", "factor": 7});
    let problems = web::cluster_validate(js(&v.to_string())).unwrap();
    let fields: Vec<String> = js_sys::Array::from(&problems)
        .iter()
        .map(|p| get(&p, "field").as_string().unwrap())
        .collect();
    assert_eq!(
        fields,
        [
            "duration_ms",
            "tiers[0].client.timeout_ms",
            "faults[0].effect.factor"
        ]
    );
    let first = js_sys::Array::from(&problems).get(0);
    assert_eq!(
        get(&first, "message").as_string().unwrap(),
        "duration_ms = 0 is out of range: allowed 1..=86400000"
    );
    let ok = web::cluster_validate(js(&serde_json::to_string(&s).unwrap())).unwrap();
    assert_eq!(js_sys::Array::from(&ok).length(), 0);
    // Text in a number field is a document error, still an entry, never a throw.
    v["duration_ms"] = "abc".into();
    let p = web::cluster_validate(js(&v.to_string())).unwrap();
    assert_eq!(js_sys::Array::from(&p).length(), 1);
}

#[wasm_bindgen_test]
fn defaults_are_plain_objects_of_every_kind_and_valid() {
    let d = web::cluster_defaults().unwrap();
    assert!(!d.is_instance_of::<js_sys::Map>());
    let scenario: Scenario = serde_json::from_str(&text(&get(&d, "scenario"))).unwrap();
    assert_eq!(scenario, present::defaults().scenario);
    scenario.validate().unwrap();
    for (list, n) in [
        ("budget", 7),
        ("breaker", 4),
        ("backoff", 4),
        ("jitter", 5),
        ("effect", 6),
        ("dist", 3),
    ] {
        let a = js_sys::Array::from(&get(&d, list));
        assert_eq!(a.length(), n, "{list}");
        for x in a.iter() {
            assert!(
                get(&x, "kind").is_string(),
                "{list} entries carry their kind"
            );
        }
    }
    let scopes = js_sys::Array::from(&get(&get(&d, "enums"), "scope"));
    assert_eq!(scopes.get(1).as_string().as_deref(), Some("shared"));
    // Normalizing writes every defaulted field and drops the model key.
    let (json, s) = stampede();
    let n = web::cluster_normalize(js(json)).unwrap();
    assert!(get(&n, "model").is_undefined());
    assert!(get(&get(&n, "load"), "deadline_ms").is_null());
    let back: Scenario = serde_json::from_str(&text(&n)).unwrap();
    assert_eq!(back, s);
}

#[wasm_bindgen_test]
fn compare_shows_deltas_and_percentages() {
    let (_, s) = stampede();
    let mut short = s.clone();
    short.duration_ms = 30_000;
    let a = cluster::run(&short, 1).unwrap();
    let b = cluster::run(&short, 2).unwrap();
    let ja = js(&serde_json::to_string(&a).unwrap());
    let jb = js(&serde_json::to_string(&b).unwrap());
    let table: retrystorm::classic::report::Table =
        serde_json::from_str(&text(&web::cluster_compare(ja, jb).unwrap())).unwrap();
    assert_eq!(table, present::compare(&a, &b));
    assert_eq!(table.columns.len(), 5);
    let req = table.rows.iter().find(|r| r[0] == "requests").unwrap();
    let d = b.summary.requests as i64 - a.summary.requests as i64;
    let sign = if d > 0 {
        "+"
    } else if d < 0 {
        "−"
    } else {
        "±"
    };
    assert_eq!(req[3], format!("{sign}{}", d.abs()));
}

#[wasm_bindgen_test]
fn share_links_carry_the_cluster_scenario_and_check_it() {
    let (json, _) = stampede();
    let cluster_value: serde_json::Value = serde_json::from_str(json).unwrap();
    let state = serde_json::json!({"model": "cluster", "cluster": cluster_value});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    let back = retrystorm_web::decode_state(&link).unwrap();
    assert_eq!(get(&back, "model").as_string().as_deref(), Some("cluster"));
    let mut bad = cluster_value.clone();
    bad["tiers"][0]["instances"] = 0.into();
    let state = serde_json::json!({"model": "cluster", "cluster": bad});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    let e = retrystorm_web::decode_state(&link).unwrap_err();
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("link.cluster.tiers[0].instances")
    );
    // The scenario pinned as A of an A/B comparison travels in a version-2 link, checked too.
    let state = serde_json::json!({"model": "cluster", "cluster": cluster_value, "cluster_a": cluster_value});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    assert!(link.starts_with("v2."), "{link:.10}");
    let back = retrystorm_web::decode_state(&link).unwrap();
    assert_eq!(
        get(&get(&back, "cluster_a"), "name").as_string().as_deref(),
        Some("GC-pause stampede (naive)")
    );
    let state = serde_json::json!({"model": "cluster", "cluster": cluster_value, "cluster_a": bad});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    let e = retrystorm_web::decode_state(&link).unwrap_err();
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("link.cluster_a.tiers[0].instances")
    );
}

#[wasm_bindgen_test]
fn the_chart_draws_every_panel_and_reads_the_mouse_back() {
    let (json, s) = stampede();
    let result = web::cluster_run(js(json), JsValue::UNDEFINED).unwrap();
    let doc = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement =
        doc.create_element("canvas").unwrap().dyn_into().unwrap();
    let style = format!(
        "width: 900px; height: {}px",
        cluster_chart::cluster_chart_height(js(json)).unwrap()
    );
    canvas.set_attribute("style", &style).unwrap();
    doc.body().unwrap().append_child(&canvas).unwrap();
    let options = js(r#"{"dpr": 2}"#);
    let handle = cluster_chart::draw_cluster_chart(
        canvas.clone(),
        js(json),
        result.clone(),
        result,
        options,
    )
    .unwrap();
    assert_eq!(canvas.width(), 1800, "sized in device pixels");
    assert_eq!(handle.buckets(), 90);
    // Mid-canvas, 21 s into 90 s lands in the surge after the pause.
    let r = handle
        .readout(60.0 + (900.0 - 80.0) * 0.235, 100.0)
        .unwrap();
    let title = get(&r, "title").as_string().unwrap();
    assert!(title.starts_with("t = "), "{title}");
    let rows = js_sys::Array::from(&get(&r, "rows"));
    assert!(
        rows.length() >= 7,
        "every tier's rows plus the entry latency"
    );
    assert!(
        handle.readout(1.0, 1.0).unwrap().is_null(),
        "outside the plot"
    );
    let url = canvas.to_data_url().unwrap();
    assert!(url.starts_with("data:image/png;base64,"));
    assert_eq!(s.tiers.len(), 2);
    canvas.remove();
}
