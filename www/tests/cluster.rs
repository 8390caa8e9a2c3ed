//! wasm-bindgen tests of the cluster exports, in headless Chromium: scenarios go in as
//! JS objects parsed by JS's own JSON parser, results come back through JS's
//! `JSON.stringify` into the engine's typed structs, and are compared with the engine
//! called directly (the native code path, compiled to wasm).
#![cfg(target_arch = "wasm32")]

mod common;

use common::{canvas, decode, get, js, js_of, message, rows, text};
use retrystorm::classic::report::Table;
use retrystorm::cluster::{self, present, RunResult, Scenario};
use retrystorm::scenario::{bundled, parse, AnyScenario};
use retrystorm_web::cluster::{self as web, ClusterRun, ClusterSimulation};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The run's result as the page sees it: through `toJSON()` and JS's `JSON.stringify`.
fn result_of(r: &ClusterRun) -> RunResult {
    decode(&get(&r.to_json().unwrap(), "result"))
}

fn run(s: &Scenario, seed: i64) -> ClusterRun {
    ClusterRun::run(js_of(s), JsValue::from_f64(seed as f64)).unwrap()
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
        let got = ClusterRun::run(js(json), JsValue::UNDEFINED).unwrap();
        assert!(
            !got.to_json().unwrap().is_instance_of::<js_sys::Map>(),
            "plain objects"
        );
        let want = cluster::run(&s, s.seed).unwrap();
        assert_eq!(result_of(&got), want, "{id}");
        assert_eq!(got.get().result, want, "{id}");
        // The formatted tables are the engine's, cell for cell.
        let table: Table = decode(&got.table(None).unwrap());
        assert_eq!(table, present::summary_table(&want), "{id}");
        let tiers: Table = decode(&got.tier_table(None).unwrap());
        assert_eq!(tiers, present::tier_table(&want), "{id}");
        assert_eq!(got.csv(), cluster::report::csv_buckets(&want));
        let lang = retrystorm::lang::Lang::Zh;
        assert_eq!(
            got.markdown(Some("zh".into())),
            cluster::report::markdown_in(&want, lang)
        );
        assert_eq!(
            got.verdict(Some("zh".into())),
            cluster::verdict::line(&want.summary, lang)
        );
    }
}

#[wasm_bindgen_test]
fn a_sliced_run_equals_a_whole_run_and_reports_progress() {
    let (json, s) = stampede();
    let mut run = ClusterSimulation::new(js(json), JsValue::from_f64(7.0)).unwrap();
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
    let sliced = run.finish().unwrap();
    assert_eq!(result_of(&sliced), cluster::run(&s, 7).unwrap());
    assert!(message(&run.finish().err().unwrap()).contains("finished"));
    // It crosses to the page as JSON text, the CLI's `run --json` with the seed used.
    let back = ClusterRun::from_json(&sliced.json_text().unwrap()).unwrap();
    assert_eq!(back.get().result, sliced.get().result);
    assert_eq!(
        back.get().scenario,
        Scenario {
            seed: 7,
            ..s.clone()
        }
    );
    let doc = sliced.to_json().unwrap();
    assert_eq!(result_of(&sliced), sliced.get().result);
    match retrystorm::scenario::from_value(decode(&get(&doc, "scenario"))) {
        Ok(AnyScenario::Cluster(scenario)) => assert_eq!(scenario, Scenario { seed: 7, ..s }),
        other => panic!("the scenario with its model: {other:?}"),
    }
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
        let got = ClusterRun::run(cfg.clone(), seed).unwrap();
        assert_eq!(
            get(&get(&got.to_json().unwrap(), "result"), "seed")
                .as_string()
                .as_deref(),
            Some("9223372036854775807")
        );
        assert_eq!(result_of(&got), want);
    }
    let e = ClusterRun::run(js(json), JsValue::from_f64(2f64.powi(60)))
        .err()
        .unwrap();
    assert!(message(&e).contains("BigInt"), "{}", message(&e));
}

#[wasm_bindgen_test]
fn errors_arrive_as_js_errors_naming_the_field() {
    let (_, s) = stampede();
    let mut v = serde_json::to_value(&s).unwrap();
    v["tiers"][1]["concurrency"] = 0.into();
    let e = ClusterRun::run(js(&v.to_string()), JsValue::UNDEFINED)
        .err()
        .unwrap();
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
    let e = ClusterSimulation::new(js(&v.to_string()), JsValue::UNDEFINED)
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
    let mut run = ClusterSimulation::new(js_of(&small), JsValue::UNDEFINED).unwrap();
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
    let problems = web::cluster_validate(js(&v.to_string()), None).unwrap();
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
    let ok = web::cluster_validate(js(&serde_json::to_string(&s).unwrap()), None).unwrap();
    assert_eq!(js_sys::Array::from(&ok).length(), 0);
    // Text in a number field is a document error, still an entry, never a throw.
    v["duration_ms"] = "abc".into();
    let p = web::cluster_validate(js(&v.to_string()), None).unwrap();
    assert_eq!(js_sys::Array::from(&p).length(), 1);
}

#[wasm_bindgen_test]
fn defaults_are_plain_objects_of_every_kind_and_valid() {
    let d = web::cluster_defaults().unwrap();
    assert!(!d.is_instance_of::<js_sys::Map>());
    let scenario: Scenario = serde_json::from_str(&text(&get(&d, "scenario"))).unwrap();
    assert_eq!(scenario, cluster::defaults::defaults().scenario);
    scenario.validate().unwrap();
    // Every kind the engine offers reaches the page, read back as the engine's types
    // (JS writes 20.0 as 20, so the typed values are compared, not the JSON texts).
    let engine = cluster::defaults::defaults();
    fn same<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
        d: &JsValue,
        list: &str,
        want: &[T],
    ) {
        let got: Vec<T> = serde_json::from_str(&text(&get(d, list))).unwrap();
        assert_eq!(got, want, "{list}");
        assert!(want.len() >= 3, "{list}");
        for x in js_sys::Array::from(&get(d, list)).iter() {
            assert!(
                get(&x, "kind").is_string(),
                "{list} entries carry their kind"
            );
        }
    }
    same(&d, "budget", &engine.budget);
    same(&d, "breaker", &engine.breaker);
    same(&d, "backoff", &engine.backoff);
    same(&d, "jitter", &engine.jitter);
    same(&d, "effect", &engine.effect);
    same(&d, "dist", &engine.dist);
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
    let table: Table = decode(&run(&short, 2).compare(&run(&short, 1), None).unwrap());
    assert_eq!(table, present::compare(&a, &b), "the pinned run is A");
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
    let back = retrystorm_web::decode_state(&link, None).unwrap();
    assert_eq!(get(&back, "model").as_string().as_deref(), Some("cluster"));
    let mut bad = cluster_value.clone();
    bad["tiers"][0]["instances"] = 0.into();
    let state = serde_json::json!({"model": "cluster", "cluster": bad});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    let e = retrystorm_web::decode_state(&link, None).unwrap_err();
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("link.cluster.tiers[0].instances")
    );
    // The scenario pinned as A of an A/B comparison travels in a version-2 link, checked too.
    let state = serde_json::json!({"model": "cluster", "cluster": cluster_value, "cluster_a": cluster_value});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    assert!(link.starts_with("v2."), "{link:.10}");
    let back = retrystorm_web::decode_state(&link, None).unwrap();
    assert_eq!(
        get(&get(&back, "cluster_a"), "name").as_string().as_deref(),
        Some("GC-pause stampede (naive)")
    );
    let state = serde_json::json!({"model": "cluster", "cluster": cluster_value, "cluster_a": bad});
    let link = retrystorm_web::encode_state(js(&state.to_string())).unwrap();
    let e = retrystorm_web::decode_state(&link, None).unwrap_err();
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("link.cluster_a.tiers[0].instances")
    );
}

#[wasm_bindgen_test]
fn the_chart_draws_every_panel_and_reads_the_mouse_back() {
    let (json, s) = stampede();
    let r = ClusterRun::run(js(json), JsValue::UNDEFINED).unwrap();
    let canvas = canvas(900, r.chart_height());
    let handle = r
        .draw_with_pinned(canvas.clone(), &r, js(r#"{"dpr": 2}"#))
        .unwrap();
    assert_eq!(canvas.width(), 1800, "sized in device pixels");
    // The 21st second of 90 lands just after the pause (20 s), at the surge.
    let readout = handle.readout(handle.position_x(21), 100.0).unwrap();
    let b = get(&readout, "bucket").as_f64().unwrap();
    assert_eq!(b, 21.0);
    // The time axis keeps most of the canvas, the legends' column right of it.
    let (first, last) = (handle.position_x(0), handle.position_x(89));
    assert!(first > 60.0 && last - first > 450.0, "{first}..{last}");
    assert!(last < 900.0 - 100.0, "the legends' column right of {last}");
    let title = get(&readout, "title").as_string().unwrap();
    assert_eq!(title, format!("t = {b}.0–{}.0 s", b + 1.0));
    assert!(
        rows(&readout).len() >= 7,
        "every tier's rows plus the entry latency"
    );
    assert!(
        handle.readout(1.0, 1.0).unwrap().is_null(),
        "outside the plot"
    );
    assert!(
        handle.readout(895.0, 100.0).unwrap().is_null(),
        "in the legends' column"
    );
    let url = canvas.to_data_url().unwrap();
    assert!(url.starts_with("data:image/png;base64,"));
    assert_eq!(s.tiers.len(), 2);
    canvas.remove();
}

/// The value of the readout row `label`.
fn row(readout: &JsValue, label: &str) -> String {
    rows(readout)
        .into_iter()
        .find(|(l, _)| l == label)
        .unwrap_or_else(|| panic!("no row {label}"))
        .1
}

/// The pinned run A is read out at its own bucket width and at the same time as B,
/// whatever the two runs' `bucket_ms` and durations (the defect was: A read at B's
/// bucket index and scaled by B's width, off by the ratio of the widths).
#[wasm_bindgen_test]
fn a_pinned_run_with_another_bucket_width_is_read_at_its_own_width_and_time() {
    let (_, s) = stampede();
    let mut a = s.clone();
    a.duration_ms = 60_000;
    a.bucket_ms = 250;
    let mut b = s.clone();
    b.duration_ms = 30_000;
    b.bucket_ms = 2000;
    let (ra, rb) = (run(&a, 3), run(&b, 3));
    let canvas = canvas(900, rb.chart_height());
    let handle = rb
        .draw_with_pinned(canvas.clone(), &ra, js(r#"{"dpr": 1}"#))
        .unwrap();
    let (ar, br) = (&ra.get().result, &rb.get().result);
    // Sweep the axis: at every B bucket, A's figure is A's own bucket at that time.
    let mut checked = 0;
    for x in (80..880).step_by(37) {
        let readout = handle.readout(f64::from(x), 50.0).unwrap();
        if readout.is_null() {
            continue;
        }
        let bb = get(&readout, "bucket").as_f64().unwrap() as usize;
        let title = get(&readout, "title").as_string().unwrap();
        // The time under the mouse lies in B's bucket bb, which holds 8 of A's buckets:
        // A's figure must be one of theirs, per second at A's width.
        let t0 = br.buckets[bb].start_ms;
        assert!(
            title.starts_with(&format!("t = {:.1}", t0 as f64 / 1000.0)),
            "{title}"
        );
        let value = row(&readout, "orders attempts");
        let a_rate: f64 = value
            .split(" · A ")
            .nth(1)
            .and_then(|v| v.strip_suffix("/s"))
            .unwrap_or_else(|| panic!("no A value in {value}"))
            .parse()
            .unwrap();
        let candidates: Vec<f64> = (0..8)
            .map(|i| {
                let ab = ((t0 + i * 250) / 250) as usize;
                ar.buckets[ab].tiers[1].attempts() as f64 * 1000.0 / 250.0
            })
            .collect();
        assert!(
            candidates.iter().any(|c| (c.round() - a_rate).abs() < 0.5),
            "at {title}: A {a_rate}/s is none of A's buckets there {candidates:?}"
        );
        checked += 1;
    }
    assert!(checked > 15, "{checked} positions");
    canvas.remove();
}

#[wasm_bindgen_test]
fn the_editing_rules_are_the_engines() {
    let (json, s) = stampede();
    // The load line is the engine's rate at every sample.
    let load = get(&js(json), "load");
    let shape = retrystorm_web::edit::cluster_load_shape(load, 90_000.0, 90).unwrap();
    assert_eq!(shape, cluster::edit::load_shape(&s.load, 90_000.0, 90));
    let e =
        retrystorm_web::edit::cluster_load_shape(js(r#"{"rate_per_s": "x"}"#), 1.0, 1).unwrap_err();
    assert!(message(&e).starts_with("load"), "{}", message(&e));
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("load"));
    // Tier edits come back as the edited document.
    let moved = retrystorm_web::edit::cluster_move_tier(js(json), 0, 1).unwrap();
    let mut want: serde_json::Value = serde_json::from_str(json).unwrap();
    cluster::edit::move_tier(&mut want, 0, 1, &cluster::edit::NewParts::defaults()).unwrap();
    assert_eq!(decode::<serde_json::Value>(&moved), want);
    // Adding a tier uses the engine's defaults (compared as scenarios: a JS number has
    // no integer/float distinction).
    let added = retrystorm_web::edit::cluster_add_tier(js(json)).unwrap();
    let mut want: serde_json::Value = serde_json::from_str(json).unwrap();
    cluster::edit::add_tier(&mut want, &cluster::edit::NewParts::defaults()).unwrap();
    let typed = |v: serde_json::Value| retrystorm::scenario::read_cluster(&v).unwrap();
    let added = typed(decode(&added));
    assert_eq!(added, typed(want));
    assert_eq!(added.tiers.len(), 3);
    assert_eq!(added.tiers[2].name, cluster::defaults::defaults().tier.name);
    assert_eq!(
        added.tiers[1].client,
        Some(cluster::defaults::defaults().client)
    );
    let e = retrystorm_web::edit::cluster_remove_tier(js(json), 5).unwrap_err();
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("tiers"));
}
