//! The charts' texts in both languages: every text exists in Chinese and English with the
//! same placeholders, and a chart drawn with `lang: "zh"` reads out in Chinese (the same
//! numbers as in English), in headless Chromium.
#![cfg(target_arch = "wasm32")]

mod common;

use common::{canvas, get, js, rows};
use retrystorm::cluster::{self, RunResult};
use retrystorm::lang::Lang;
use retrystorm::scenario::{parse, AnyScenario};
use retrystorm_web::chart_text::{fill, placeholders, Text};
use retrystorm_web::cluster::ClusterRun;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[wasm_bindgen_test]
fn every_chart_text_exists_in_both_languages_with_the_same_placeholders() {
    let mut seen = Vec::new();
    for t in Text::ALL {
        assert!(!seen.contains(&t), "{t:?} listed twice");
        seen.push(t);
        let (zh, en) = t.both();
        assert!(han(zh), "{t:?}: no Chinese in {zh:?}");
        assert!(
            !han(en) && en.chars().any(|c| c.is_ascii_alphabetic()),
            "{t:?}: {en:?}"
        );
        assert_eq!(placeholders(zh), placeholders(en), "{t:?}");
        assert_eq!(t.get(Lang::Zh), zh);
        assert_eq!(t.get(Lang::En), en);
    }
    assert_eq!(fill("{0} + {1} = {2}", &[&1, &"x", &2.5]), "1 + x = 2.5");
}

/// A two-tier chain whose gateway → orders client has a cost model.
fn costed() -> (String, RunResult) {
    let json = include_str!("../../scenarios/cluster-gc-stampede-naive.json");
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["duration_ms"] = 30_000.into();
    v["tiers"][0]["client"]["cost"] = serde_json::json!({
        "input_tokens": 1000, "output_tokens": 100,
        "input_price_per_1k": 0.003, "output_price_per_1k": 0.015,
        "billed": ["error", "timeout"]
    });
    let text = v.to_string();
    let s = match parse(&text) {
        Ok(AnyScenario::Cluster(s)) => s,
        other => panic!("{other:?}"),
    };
    let r = cluster::run(&s, s.seed).unwrap();
    (text, r)
}

#[wasm_bindgen_test]
fn the_cluster_chart_reads_out_in_chinese_and_its_cost_per_bucket() {
    let (json, native) = costed();
    let run = ClusterRun::run(js(&json), JsValue::UNDEFINED).unwrap();
    assert!(run.has_cost());
    let canvas = canvas(900, run.chart_height());
    let en = run
        .draw_with_pinned(canvas.clone(), &run, js(r#"{"dpr": 1}"#))
        .unwrap();
    let zh = run
        .draw_with_pinned(
            canvas.clone(),
            &run,
            js(r#"{"dpr": 1, "lang": "zh", "cost": true}"#),
        )
        .unwrap();
    let cost = native.routes[0].cost.as_ref().unwrap();
    let mut checked = 0;
    for b in (0..en.positions()).step_by(3) {
        let (e, z) = (
            rows(&en.readout_at(b).unwrap()),
            rows(&zh.readout_at(b).unwrap()),
        );
        // English without a cost row, Chinese with it: the same figures otherwise.
        assert!(e.iter().all(|(l, _)| !han(l)), "{e:?}");
        assert!(z.iter().all(|(l, _)| han(l)), "{z:?}");
        let row = z
            .iter()
            .find(|(l, _)| l.ends_with("成本"))
            .expect("a cost row");
        let per_s = cost.per_sec[b] * 1000.0 / native.bucket_ms as f64;
        assert_eq!(
            row.1,
            format!(
                "本桶 {} · {}/s",
                retrystorm::javafmt::fixed(cost.per_sec[b], 4),
                retrystorm::javafmt::fixed(per_s, 4)
            )
        );
        assert_eq!(z.len(), e.len() + 1);
        checked += 1;
    }
    assert!(checked > 5);
    let title = get(&zh.readout_at(0).unwrap(), "title")
        .as_string()
        .unwrap();
    assert!(title.starts_with("t = 0.0"), "{title}");
    canvas.remove();
}

#[wasm_bindgen_test]
fn a_tier_with_route_breakers_reads_out_each_routes_breakers() {
    let mut v: serde_json::Value = serde_json::from_str(include_str!(
        "../../scenarios/cluster-routes-per-route-budget.json"
    ))
    .unwrap();
    for r in v["tiers"][0]["routes"].as_array_mut().unwrap() {
        r["client"]["breaker"] =
            serde_json::json!({"kind": "consecutive", "failures": 5, "open_ms": 2000});
    }
    let text = v.to_string();
    let s = match parse(&text) {
        Ok(AnyScenario::Cluster(s)) => s,
        other => panic!("{other:?}"),
    };
    let native = cluster::run(&s, s.seed).unwrap();
    let run = ClusterRun::run(js(&text), JsValue::UNDEFINED).unwrap();
    // A strip per route adds to the band's height.
    let mut plain = s.clone();
    for r in &mut plain.tiers[0].routes {
        r.client.breaker = Default::default();
    }
    assert!(run.chart_height() > retrystorm_web::cluster_chart::height(&plain));
    let canvas = canvas(900, run.chart_height());
    let h = run
        .draw_with_pinned(canvas.clone(), &run, js(r#"{"dpr": 1}"#))
        .unwrap();
    let mut opened = 0;
    for b in 0..h.positions() {
        let rows = rows(&h.readout_at(b).unwrap());
        for (i, x) in native.routes.iter().enumerate() {
            let g = native.buckets[b].route_breakers[i];
            let label = format!("{} breakers", x.name);
            let value = &rows.iter().find(|(l, _)| *l == label).expect(&label).1;
            assert_eq!(
                *value,
                format!("{} open · {} half-open · {} closed", g[0], g[1], g[2])
            );
            opened += g[0];
        }
    }
    assert!(opened > 0);
    canvas.remove();
}
