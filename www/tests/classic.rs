//! wasm-bindgen tests of the classic exports, in headless Chromium: values cross the real
//! JS boundary (JSON text parsed by JS, results stringified by JS and decoded back into
//! the engine's typed structs) and are compared with the engine called directly.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{canvas, decode, get, js, js_of, message, rows, text};
use retrystorm::classic::{self, cells, checks, report, Jitter, Output, Scenario, Strategy};
use retrystorm_web::{self as web, classic::ClassicRun};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn run(s: &Scenario, seed: JsValue) -> Result<ClassicRun, JsValue> {
    ClassicRun::run(js_of(s), seed)
}

/// The run as the page sees it: through `toJSON()` and JS's `JSON.stringify`.
fn output_of(r: &ClassicRun) -> Output {
    decode(&r.to_json().unwrap())
}

#[wasm_bindgen_test]
fn default_scenario_is_a_plain_object_and_round_trips() {
    let v = get(&web::classic::classic_defaults().unwrap(), "scenario");
    assert!(
        !v.is_instance_of::<js_sys::Map>(),
        "plain objects, not Maps"
    );
    assert_eq!(get(&v, "clients").as_f64(), Some(200.0));
    let back: Scenario = decode(&v);
    assert_eq!(back, Scenario::article());
    // And through the page's path: JS object -> run -> scenario echoed back.
    let out = output_of(&ClassicRun::run(v, JsValue::UNDEFINED).unwrap());
    assert_eq!(out.scenario, Scenario::article());
}

#[wasm_bindgen_test]
fn article_run_equals_native_engine() {
    let sc = Scenario::article();
    let r = run(&sc, JsValue::from_f64(4242.0)).unwrap();
    let native = classic::simulate(&sc, 4242).unwrap();
    let v = r.to_json().unwrap();
    assert!(js_sys::Array::is_array(&get(&v, "results")));
    assert_eq!(output_of(&r), native);
    assert_eq!(r.get(), &native);
    // The formatted table is the engine's, cell for cell.
    let table: report::Table = decode(&r.table(None).unwrap());
    assert_eq!(table, report::table(&native));
    assert_eq!(table.rows[1][1], "2.34x");
    assert_eq!(table.rows[2][3], "1057");
}

#[wasm_bindgen_test]
fn a_run_crosses_as_json_text_and_comes_back_the_same() {
    let r = run(&Scenario::article(), JsValue::from_f64(7.0)).unwrap();
    let back = ClassicRun::from_json(&r.json_text().unwrap()).unwrap();
    assert_eq!(back.get(), r.get());
    // The CLI's `run --json` is the same document.
    let cli = serde_json::to_string_pretty(r.get()).unwrap();
    assert_eq!(ClassicRun::from_json(&cli).unwrap().get(), r.get());
    let e = ClassicRun::from_json(r#"{"scenario": 1}"#).err().unwrap();
    assert!(
        message(&e).starts_with("not a run of this model"),
        "{}",
        message(&e)
    );
}

/// A small deterministic generator, so a failure names a reproducible case.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn random_scenario(g: &mut Lcg) -> Scenario {
    let duration_s = 5 + g.next(70) as u32;
    let from_s = g.next(u64::from(duration_s)) as u32;
    let to_s = from_s + g.next(u64::from(duration_s - from_s) + 1) as u32;
    let strategies = (0..1 + g.next(6))
        .map(|i| Strategy {
            name: format!("R{i} <b>x</b>"),
            max_retry: g.next(8) as u32,
            base_ms: g.next(1200),
            jitter: if g.next(2) == 0 {
                Jitter::None
            } else {
                Jitter::Full
            },
            budget_pct: g.next(101) as u32,
            deadline_ms: g.next(40_000),
            breaker: g.next(2) == 0,
            breaker_trip_failures: if g.next(3) == 0 {
                Some(g.next(500) as u32)
            } else {
                None
            },
            breaker_open_s: None,
            cost: None,
        })
        .collect();
    Scenario {
        clients: 1 + g.next(300) as u32,
        duration_s,
        capacity: g.next(600) as u32,
        outage: classic::Outage { from_s, to_s },
        upstream_latency_ms: g.next(500) as u32,
        breaker_trip_failures: g.next(800) as u32,
        breaker_open_s: g.next(10) as u32,
        seed: g.next(1 << 40) as i64 - (1 << 39),
        strategies,
        attribution: Default::default(),
    }
}

#[wasm_bindgen_test]
fn random_scenarios_equal_native_engine() {
    let mut g = Lcg(20_260_101);
    let mut checked = 0;
    for case in 0..40 {
        let sc = random_scenario(&mut g);
        if !sc.problems().is_empty() {
            continue;
        }
        let seed = sc.seed;
        let out = run(&sc, JsValue::from_f64(seed as f64))
            .unwrap_or_else(|e| panic!("case {case}: {}", message(&e)));
        assert_eq!(
            output_of(&out),
            classic::simulate(&sc, seed).unwrap(),
            "case {case}: {sc:?}"
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} random scenarios were valid");
}

#[wasm_bindgen_test]
fn big_seeds_survive_as_strings_and_bigints() {
    let sc = Scenario::article();
    for seed in [
        9_007_199_254_740_993_i64,
        i64::MAX,
        i64::MIN,
        -9_007_199_254_740_995,
    ] {
        let native = classic::simulate(&sc, seed).unwrap();
        let by_string = run(&sc, JsValue::from_str(&seed.to_string())).unwrap();
        // Above 2^53 the seed comes back as a decimal string, never a rounded number.
        assert_eq!(
            get(&get(&by_string.to_json().unwrap(), "scenario"), "seed").as_string(),
            Some(seed.to_string())
        );
        assert_eq!(output_of(&by_string), native);
        let by_bigint = run(&sc, js_sys::BigInt::from(seed).into()).unwrap();
        assert_eq!(output_of(&by_bigint), native);
        // The seed inside the scenario object, as a string, works as well.
        let mut with_seed = sc.clone();
        with_seed.seed = seed;
        assert_eq!(
            output_of(&run(&with_seed, JsValue::UNDEFINED).unwrap()),
            native
        );
    }
    // A JS number above 2^53 is already rounded: refuse it rather than run another seed.
    let e = run(&sc, JsValue::from_f64(9_007_199_254_740_994.0))
        .err()
        .unwrap();
    assert!(e.is_instance_of::<js_sys::Error>());
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("seed"));
}

#[wasm_bindgen_test]
fn errors_arrive_as_js_errors_with_the_engine_message() {
    let mut sc = Scenario::article();
    sc.clients = 0;
    let e = run(&sc, JsValue::UNDEFINED).err().unwrap();
    assert_eq!(message(&e), sc.validate().unwrap_err().to_string());
    assert_eq!(get(&e, "field").as_string().as_deref(), Some("clients"));

    let mut doc = serde_json::to_value(Scenario::article()).unwrap();
    doc["bogus"] = serde_json::Value::Bool(true);
    let e = ClassicRun::run(js(&doc.to_string()), JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert!(!message(&e).contains("Error: "), "{}", message(&e));
    assert!(
        message(&e).contains("unknown field") || message(&e).contains("bogus"),
        "{}",
        message(&e)
    );

    let e = run(&Scenario::article(), JsValue::from_str("12x"))
        .err()
        .unwrap();
    assert!(message(&e).contains("seed"));

    let e = web::decode_state("v1.not*base64", None).unwrap_err();
    assert!(message(&e).contains("link.payload"));
    let e = ClassicRun::from_json("{}").err().unwrap();
    assert!(!message(&e).is_empty());
}

#[wasm_bindgen_test]
fn validate_lists_every_problem() {
    let mut sc = Scenario::article();
    sc.clients = 0;
    sc.strategies[2].max_retry = 10_000;
    let problems = web::classic::classic_validate(js_of(&sc), None).unwrap();
    let list: Vec<serde_json::Value> = serde_json::from_str(&text(&problems)).unwrap();
    let fields: Vec<&str> = list.iter().map(|p| p["field"].as_str().unwrap()).collect();
    assert!(
        fields.contains(&"clients") && fields.contains(&"strategies[2].max_retry"),
        "{fields:?}"
    );
    assert!(list
        .iter()
        .all(|p| !p["message"].as_str().unwrap().is_empty()));
    let ok = web::classic::classic_validate(js_of(&Scenario::article()), None).unwrap();
    assert_eq!(text(&ok), "[]");
    // In Chinese: the same problems, the path, value and range unchanged.
    let zh = web::classic::classic_validate(js_of(&sc), Some("zh".into())).unwrap();
    let zh: Vec<serde_json::Value> = serde_json::from_str(&text(&zh)).unwrap();
    assert_eq!(zh.len(), list.len());
    assert_eq!(zh[0]["field"], list[0]["field"]);
    let clients = zh.iter().find(|p| p["field"] == "clients").unwrap();
    assert_eq!(clients["message"], "clients = 0 超出范围：允许 1..=1000000");
}

#[wasm_bindgen_test]
fn share_state_round_trips_through_js() {
    let mut sc = Scenario::article();
    sc.seed = i64::MAX;
    sc.strategies[0].name = "<img src=x onerror=alert(1)>".into();
    let state = js(&format!(
        r#"{{"model":"classic","classic":{},"view":{{"hidden":[1]}}}}"#,
        serde_json::to_string(&sc).unwrap()
    ));
    let link = web::encode_state(state).unwrap();
    assert!(link.starts_with("v1."));
    let back = web::decode_state(&link, None).unwrap();
    let classic: Scenario = serde_json::from_str(&text(&get(&back, "classic"))).unwrap();
    assert_eq!(classic, sc);
    assert_eq!(text(&get(&back, "view")), r#"{"hidden":[1]}"#);
    // A link whose scenario the engine rejects is refused with the field named.
    let mut bad = Scenario::article();
    bad.clients = 100_000_000;
    let link = web::encode_state(js(&format!(
        r#"{{"classic":{}}}"#,
        serde_json::to_string(&bad).unwrap()
    )))
    .unwrap();
    let e = web::decode_state(&link, None).unwrap_err();
    assert!(
        message(&e).contains("link.classic.clients"),
        "{}",
        message(&e)
    );
}

#[wasm_bindgen_test]
fn text_exports_match_the_engine() {
    let out = classic::simulate(&Scenario::article(), 4242).unwrap();
    let r = ClassicRun::from_json(&serde_json::to_string(&out).unwrap()).unwrap();
    let en = retrystorm::lang::Lang::En;
    assert_eq!(r.markdown(None), report::markdown_in(&out, en));
    assert!(r.markdown(None).starts_with(&report::markdown_table(&out)));
    assert_eq!(
        r.verdict(Some("zh".into())),
        classic::verdict::line(&out, retrystorm::lang::Lang::Zh)
    );
    assert_eq!(r.csv(), report::csv_per_sec(&out));
    let verdicts =
        web::classic::classic_verdicts(js_of(&Scenario::article()), JsValue::UNDEFINED, None)
            .unwrap();
    let list: Vec<serde_json::Value> = serde_json::from_str(&text(&verdicts)).unwrap();
    assert_eq!(list.len(), 4);
    assert!(
        list.iter()
            .all(|v| v["pass"] == serde_json::Value::Bool(true)),
        "{list:?}"
    );
}

#[wasm_bindgen_test]
fn chart_draws_sharp_pixels_and_maps_the_mouse_back() {
    let canvas = canvas(600, 300.0);
    let r = run(&Scenario::article(), JsValue::UNDEFINED).unwrap();
    let handle = r.draw(canvas.clone(), js(r#"{"dpr": 2}"#)).unwrap();
    // devicePixelRatio is applied: the backing store is twice the CSS size.
    assert_eq!((canvas.width(), canvas.height()), (1200, 600));
    let png = canvas.to_data_url().unwrap();
    assert!(png.starts_with("data:image/png;base64,") && png.len() > 5000);
    // Somewhere right of the middle (seconds ~30), the readout names every strategy
    // with its attempts in that second.
    let readout = handle.readout(330.0, 150.0).unwrap();
    let second = get(&readout, "bucket").as_f64().unwrap() as usize;
    assert!((20..45).contains(&second), "second {second}");
    let out = r.get();
    assert_eq!(
        get(&readout, "title").as_string().unwrap(),
        format!("second {second} · capacity 240")
    );
    let want: Vec<(String, String)> = out
        .results
        .iter()
        .map(|s| (s.name.clone(), s.per_sec[second].to_string()))
        .collect();
    assert_eq!(rows(&readout), want);
    assert!(handle.readout(-50.0, -50.0).unwrap().is_null());
    // Hidden strategies are neither drawn nor read out.
    let handle = r
        .draw(canvas.clone(), js(r#"{"dpr": 1, "hidden": [0, 2]}"#))
        .unwrap();
    let names: Vec<String> = rows(&handle.readout(300.0, 150.0).unwrap())
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names, [1, 3, 4, 5].map(|i| out.results[i].name.clone()));
    canvas.remove();
}

#[wasm_bindgen_test]
fn the_attribution_comparison_is_the_engine_run_under_each_convention() {
    let sc = Scenario::article();
    let v = web::classic::classic_attribution(js_of(&sc), JsValue::UNDEFINED).unwrap();
    let figures: report::Table = decode(&get(&v, "figures"));
    let checks: report::Table = decode(&get(&v, "checks"));
    let n = classic::Attribution::ALL.len();
    assert_eq!(figures.columns.len(), 1 + 3 * n);
    for (c, &a) in classic::Attribution::ALL.iter().enumerate() {
        let out = classic::simulate(
            &Scenario {
                attribution: a,
                ..sc.clone()
            },
            sc.seed,
        )
        .unwrap();
        assert_eq!(
            figures.columns[1 + c],
            format!("amplification {}", a.name())
        );
        for (i, r) in out.results.iter().enumerate() {
            assert_eq!(figures.rows[i][1 + c], cells::amplification(r));
            assert_eq!(figures.rows[i][1 + n + c], cells::delivery(r));
            assert_eq!(figures.rows[i][1 + 2 * n + c], r.peak.to_string());
        }
        let verdicts = checks::verdicts_of(&out).unwrap();
        for (k, v) in verdicts.iter().enumerate() {
            let want = match v.pass {
                Some(true) => "PASS",
                Some(false) => "FAIL",
                None => "n/a",
            };
            assert_eq!(checks.rows[k][1 + c], want, "{} under {}", v.name, a.name());
        }
    }
}

/// The page's report views are the CLI's texts: each of the four reports, in both
/// languages, equals the engine's report function on the same run.
#[wasm_bindgen_test]
fn reports_are_the_engines_in_both_languages() {
    use retrystorm::lang::Lang;
    let sc = Scenario::article();
    let out = classic::simulate(&sc, sc.seed).unwrap();
    let r = run(&sc, JsValue::UNDEFINED).unwrap();
    let kinds = [
        ("run", report::ArticleReport::Run),
        ("herd", report::ArticleReport::Herd),
        ("sweep", report::ArticleReport::MultiSeed),
        ("breaker", report::ArticleReport::Breaker),
    ];
    for (name, which) in kinds {
        for (code, lang) in [("zh", Lang::Zh), ("en", Lang::En)] {
            let want = report::article_report(&out, which, lang).unwrap();
            assert_eq!(
                r.report(name, Some(code.into())).unwrap(),
                want,
                "{name} {code}"
            );
        }
    }
    assert!(r.report("nope", None).is_err());
}

/// The delay preview's samples are the article's draws: each sampled request takes, for
/// retry k (0-based), `floor(nextDouble() × (base_ms << k))` from one `java.util.Random`
/// in order (docs/model.md, step 8); without jitter exactly `base_ms << k` and no draw.
#[wasm_bindgen_test]
fn delay_preview_is_the_articles_backoff() {
    use retrystorm::rng::JavaRandom;
    #[derive(serde::Deserialize)]
    struct Delays {
        retry: u32,
        min: f64,
        max: f64,
        samples: Vec<f64>,
    }
    let full = js(r#"{"model":"classic","base_ms":500,"jitter":"full","max_retry":3}"#);
    let got: Vec<Delays> = decode(&web::preview::delay_preview(full, 40, 7.0).unwrap());
    let mut rng = JavaRandom::new(7);
    let mut want = vec![Vec::new(); 3];
    for _ in 0..40 {
        for (k, w) in want.iter_mut().enumerate() {
            w.push((rng.next_double() * (500u64 << k) as f64).floor());
        }
    }
    assert_eq!(got.len(), 3);
    for (k, d) in got.iter().enumerate() {
        assert_eq!(d.retry, k as u32 + 1);
        assert_eq!(d.samples, want[k]);
        assert!(d.min >= 0.0 && d.max < (500u64 << k) as f64);
    }
    let none = js(r#"{"model":"classic","base_ms":500,"jitter":"none","max_retry":3}"#);
    let got: Vec<Delays> = decode(&web::preview::delay_preview(none, 5, 7.0).unwrap());
    for (k, d) in got.iter().enumerate() {
        assert_eq!(d.samples, vec![(500u64 << k) as f64; 5]);
    }
    // A cluster client: exponential 100 ms × 2 capped at 300 ms, full jitter: retry n waits
    // between 0 and min(100·2^(n−1), 300) ms.
    let cluster = js(
        r#"{"model":"cluster","max_attempts":4,"jitter":{"kind":"full"},
            "backoff":{"kind":"exponential","base_ms":100,"multiplier":2,"cap_ms":300}}"#,
    );
    let got: Vec<Delays> = decode(&web::preview::delay_preview(cluster, 200, 1.0).unwrap());
    assert_eq!(got.len(), 3);
    for (d, cap) in got.iter().zip([100.0, 200.0, 300.0]) {
        assert!(
            d.min >= 0.0 && d.max <= cap && d.max > cap * 0.9,
            "{} {}",
            d.min,
            d.max
        );
    }
    let bad = js(r#"{"model":"classic","base_ms":500,"jitter":"full","max_retry":3}"#);
    assert!(web::preview::delay_preview(bad, 0, 1.0).is_err());
}

#[wasm_bindgen_test]
fn banded_chart_reads_out_the_native_ensembles_bands() {
    use retrystorm::ensemble::{self, render::num};
    // The readout's cell, by hand: the median, then the range unless it is one number.
    let cell = |mid: f64, lo: f64, hi: f64| {
        if num(lo) == num(hi) {
            num(mid)
        } else {
            format!("{} [{}–{}]", num(mid), num(lo), num(hi))
        }
    };
    use retrystorm::scenario::AnyScenario;
    let sc = Scenario::article();
    let mut plan = web::plan::Plan::new("classic", js_of(&sc), js(r#"{"seeds": 5}"#)).unwrap();
    // The samples cross as JSON text and arrive out of order, as a pool's workers answer.
    for i in [3, 0, 4, 1, 2] {
        let text = plan.run_item(i).unwrap();
        plan.add(i, &text).unwrap();
    }
    // Summarised where the samples are (a worker), drawn from the page's copy.
    let whole = plan.result().unwrap();
    let result = web::plan::PlanResult::from_flat(&whole.shown_flat("delivery_pct"), true).unwrap();
    let native = ensemble::run(
        &AnyScenario::Classic(sc.clone()),
        &ensemble::derive_seeds(sc.seed, 5),
        Some(1),
    )
    .unwrap();
    let r = run(&sc, JsValue::UNDEFINED).unwrap();
    let canvas = canvas(600, 300.0);
    let single = {
        r.draw(canvas.clone(), js(r#"{"dpr": 1}"#)).unwrap();
        canvas.to_data_url().unwrap()
    };
    let handle = r
        .draw_bands(canvas.clone(), &result, js(r#"{"dpr": 1}"#))
        .unwrap();
    assert_ne!(canvas.to_data_url().unwrap(), single, "the bands are drawn");
    let readout = handle.readout_at(27).unwrap();
    assert_eq!(
        get(&readout, "title").as_string().unwrap(),
        "second 27 · capacity 240 · median [p5–p95] of 5 seeds"
    );
    let want: Vec<(String, String)> = native
        .bands
        .iter()
        .map(|b| {
            let (lo, mid, hi) = (b.p5[27], b.median[27], b.p95[27]);
            (b.name.clone(), cell(mid, lo, hi))
        })
        .collect();
    assert_eq!(rows(&readout), want);
    // S3 (full jitter) has a range there, S2 (no jitter) none.
    assert!(want[2].1.contains('['), "{:?}", want[2]);
    assert!(!want[1].1.contains('['), "{:?}", want[1]);
    canvas.remove();
}

/// The delay preview reads its `{"model": …}` spec with the messages serde's derived
/// reader of that form gives: the oracle is that reader (a twin of the spec derived with
/// `#[serde(tag = "model")]`), read by serde_json.
#[wasm_bindgen_test]
fn delay_preview_errors_are_serdes_tagged_messages() {
    use retrystorm::cluster::scenario::{Backoff, Jitter as ClusterJitter};
    #[derive(serde::Deserialize, Debug)]
    #[serde(tag = "model", rename_all = "lowercase")]
    #[allow(dead_code)] // read for its errors only; named as the page's for the message
    enum Spec {
        Classic {
            base_ms: u64,
            jitter: Jitter,
            max_retry: u32,
        },
        Cluster {
            backoff: Backoff,
            jitter: ClusterJitter,
            #[serde(default)]
            max_attempts: u32,
        },
    }
    let docs = [
        "5",
        "null",
        "{}",
        r#"{"base_ms": 500}"#,
        r#"{"model": "fast"}"#,
        r#"{"model": true}"#,
        r#"{"model": "classic"}"#,
        r#"{"model": "classic", "base_ms": "a", "jitter": "full", "max_retry": 3}"#,
        r#"{"model": "classic", "base_ms": 500, "jitter": "half", "max_retry": 3}"#,
        r#"{"model": "classic", "base_ms": -1, "jitter": "full", "max_retry": 3}"#,
        r#"{"model": "cluster", "jitter": {"kind": "full"}}"#,
        r#"{"model": "cluster", "backoff": {"kind": "constant"}, "jitter": {"kind": "full"}}"#,
        r#"{"model": "cluster", "backoff": {"kind": "constant", "ms": 5}, "jitter": 1}"#,
    ];
    for doc in docs {
        let value: serde_json::Value = serde_json::from_str(doc).unwrap();
        let want = serde_json::from_value::<Spec>(value).expect_err(doc);
        let got = web::preview::delay_preview(js(doc), 10, 1.0).expect_err(doc);
        assert_eq!(message(&got), format!("delay preview: {want}"), "{doc}");
    }
    // The list form serde also read (`["classic", 500, "full", 3]`) is not: no page
    // sends it, and the cluster scenario's tagged enums do not read it either.
    let list = js(r#"["classic", 500, "full", 3]"#);
    assert_eq!(
        message(&web::preview::delay_preview(list, 10, 1.0).unwrap_err()),
        "delay preview: invalid type: sequence, expected internally tagged enum Spec"
    );
    // Fields beside the spec's are ignored, as the derived reader did: the page sends
    // a whole client policy.
    let extra = r#"{"model": "cluster", "backoff": {"kind": "constant", "ms": 5},
        "jitter": {"kind": "none"}, "max_attempts": 3, "budget": {"kind": "none"}}"#;
    assert!(serde_json::from_value::<Spec>(serde_json::from_str(extra).unwrap()).is_ok());
    let got: Vec<serde_json::Value> =
        decode(&web::preview::delay_preview(js(extra), 4, 1.0).unwrap());
    assert_eq!(got.len(), 2);
    let samples: Vec<f64> = serde_json::from_value(got[1]["samples"].clone()).unwrap();
    assert_eq!(samples, [5.0; 4]);
}

/// Every message that crosses to JS is on one line: no control character of the input
/// (an ESC sequence, a newline) reaches the page raw.
fn one_safe_line(m: &str) -> bool {
    !m.chars().any(char::is_control)
}

#[wasm_bindgen_test]
fn json_text_errors_name_their_path_and_stay_one_safe_line() {
    // JSON text handed to the exports (a scenario, a run, a link) names where it broke.
    let problems = web::classic::classic_validate(js(r#""{\"capacity\": 1e999}""#), None).unwrap();
    let list: Vec<serde_json::Value> = serde_json::from_str(&text(&problems)).unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["field"], "capacity", "{list:?}");
    assert!(
        list[0]["message"].as_str().unwrap().contains("float range"),
        "{list:?}"
    );

    let e = ClassicRun::from_json(r#"{"scenario": {"clients": 1e999}}"#)
        .err()
        .unwrap();
    assert!(message(&e).contains("scenario.clients"), "{}", message(&e));
    assert_eq!(
        get(&e, "field").as_string().as_deref(),
        Some("scenario.clients")
    );

    let link = format!(
        "v1.{}",
        retrystorm::share::base64url_encode(br#"{"classic":{"capacity":1e999}}"#)
    );
    let e = web::decode_state(&link, None).unwrap_err();
    assert!(
        message(&e).contains("link.classic.capacity"),
        "{}",
        message(&e)
    );

    // A crafted field name (an ESC sequence and a newline) is echoed escaped.
    let e = ClassicRun::from_json(r#"{"a\u001b[2J\nb": 1}"#)
        .err()
        .unwrap();
    assert!(one_safe_line(&message(&e)), "{:?}", message(&e));
    assert!(message(&e).contains("\\u001b"), "{:?}", message(&e));
}
