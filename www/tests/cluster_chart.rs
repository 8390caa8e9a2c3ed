//! The cluster chart drawn natively, under plain `cargo test`: its panels are generic
//! over plotters' backends, so they draw to SVG text here and the tests read the panels'
//! captions and legends, the pinned run's line and the ensemble's bands.
#![cfg(not(target_arch = "wasm32"))]

use plotters::prelude::*;
use retrystorm::cluster::{self, RunResult, Scenario};
use retrystorm::ensemble::{self, Ensemble};
use retrystorm::lang::Lang;
use retrystorm::scenario::{self, AnyScenario, Model};
use retrystorm_web::chart::LIGHT;
use retrystorm_web::cluster_chart::{self, Look, Shown};

/// A scenario and its result, as the glue's run object holds them.
struct Run {
    scenario: Scenario,
    result: RunResult,
}

impl Shown for Run {
    fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    fn result(&self) -> &RunResult {
        &self.result
    }
}

fn metastable() -> Run {
    let text = include_str!("../../scenarios/cluster-metastable.json");
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let AnyScenario::Cluster(scenario) = scenario::read(Some(Model::Cluster), &value).unwrap()
    else {
        panic!("a cluster scenario");
    };
    let result = cluster::run(&scenario, scenario.seed).unwrap();
    Run { scenario, result }
}

fn look() -> Look {
    Look {
        lang: Lang::En,
        cost: false,
        dpr: 1.0,
    }
}

/// Every text of the chart drawn as SVG, 900 CSS pixels wide.
fn texts(run: &Run, a: Option<&Run>, look: Look, bands: Option<&Ensemble>) -> Vec<String> {
    let mut svg = String::new();
    let h = cluster_chart::height(&run.scenario) as u32;
    let root = SVGBackend::with_string(&mut svg, (900, h)).into_drawing_area();
    cluster_chart::draw_on(root, run, a, LIGHT, look, bands).unwrap();
    svg.split("<text ")
        .skip(1)
        .filter_map(|e| {
            Some(
                e.split_once('>')?
                    .1
                    .split_once("</text")?
                    .0
                    .trim()
                    .to_string(),
            )
        })
        .collect()
}

fn has(texts: &[String], pred: impl Fn(&str) -> bool) -> bool {
    texts.iter().any(|t| pred(t))
}

#[test]
fn every_tier_has_its_panel_and_the_queue_and_latency_panels_follow() {
    let run = metastable();
    let texts = texts(&run, None, look(), None);
    for t in &run.scenario.tiers {
        assert!(
            has(&texts, |x| x.starts_with(&t.name)
                && x.contains("attempts per second")),
            "the panel of {:?} in {texts:?}",
            t.name
        );
    }
    for caption in [
        "queue depth (solid) and requests in flight (thin) per tier, end of bucket",
        "entry requests: end-to-end latency of the successes in each bucket, ms",
        "first attempts",
        "retries",
    ] {
        assert!(
            texts.contains(&caption.to_string()),
            "{caption:?} in {texts:?}"
        );
    }
    assert!(
        !has(&texts, |x| x.starts_with("A (pinned)")),
        "no pinned run"
    );
}

#[test]
fn a_pinned_run_is_drawn_as_a_reference_line_with_its_legend() {
    let run = metastable();
    let a = metastable();
    let texts = texts(&run, Some(&a), look(), None);
    assert!(
        texts.contains(&"A (pinned): attempts".to_string()),
        "{texts:?}"
    );
    assert!(texts.contains(&"A (pinned): p99".to_string()), "{texts:?}");
}

#[test]
fn an_ensemble_draws_every_tier_as_a_band_over_its_seeds() {
    let run = metastable();
    let e = ensemble::run(
        &AnyScenario::Cluster(run.scenario.clone()),
        &[1, 2],
        Some(1),
    )
    .unwrap();
    let texts = texts(&run, None, look(), Some(&e));
    let legend = "attempts: median, p5–p95 of 2 seeds".to_string();
    assert_eq!(
        texts.iter().filter(|t| **t == legend).count(),
        run.scenario.tiers.len(),
        "{texts:?}"
    );
}

#[test]
fn the_chart_speaks_the_pages_language() {
    let run = metastable();
    let look = Look {
        lang: Lang::Zh,
        ..look()
    };
    let texts = texts(&run, None, look, None);
    assert!(texts.contains(&"首次尝试".to_string()), "{texts:?}");
    assert!(!texts.contains(&"first attempts".to_string()));
}

#[test]
fn the_keyboard_positions_are_the_buckets_and_read_the_bucket_under_them() {
    let run = metastable();
    let centres = cluster_chart::centres(&run.result);
    assert_eq!(centres.len(), run.result.buckets.len());
    assert!(centres.windows(2).all(|w| w[0] < w[1]));
    let mid = centres.len() / 2;
    let r = cluster_chart::readout(&run, None, None, false, Lang::En, centres[mid]).unwrap();
    assert_eq!(r.bucket, mid);
    assert!(!r.rows.is_empty());
}

/// The chart of `run` drawn as SVG, 900 CSS pixels wide.
fn svg(run: &Run) -> String {
    let mut svg = String::new();
    let h = cluster_chart::height(&run.scenario) as u32;
    let root = SVGBackend::with_string(&mut svg, (900, h)).into_drawing_area();
    cluster_chart::draw_on(root, run, None, LIGHT, look(), None).unwrap();
    svg
}

#[test]
fn the_latency_panel_leaves_a_gap_where_nothing_succeeded() {
    let run = metastable();
    let dead = run
        .result
        .buckets
        .iter()
        .position(|b| b.success_latency.count == 0)
        .expect("the metastable run has buckets without a success");
    assert!(run.result.buckets[..dead]
        .iter()
        .any(|b| b.success_latency.count > 0));
    // The p99 line (its own colour) has a step (two points) only in the buckets with a
    // success, so it never drops to 0 ms where there was nothing to measure; its legend
    // key is two points more.
    let svg = svg(&run);
    let points: usize = svg
        .split("<polyline ")
        .skip(1)
        .filter(|e| e.contains("stroke=\"#CC79A7\""))
        .map(|e| {
            let p = e.split_once("points=\"").unwrap().1;
            p.split_once('"').unwrap().0.split_whitespace().count()
        })
        .sum();
    let ok = run
        .result
        .buckets
        .iter()
        .filter(|b| b.success_latency.count > 0)
        .count();
    assert_eq!(points, 2 * ok + 2);
}

#[test]
fn the_readout_says_no_successes_in_a_bucket_where_nothing_succeeded() {
    let run = metastable();
    let centres = cluster_chart::centres(&run.result);
    let dead = run
        .result
        .buckets
        .iter()
        .position(|b| b.success_latency.count == 0)
        .unwrap();
    let live = run
        .result
        .buckets
        .iter()
        .position(|b| b.success_latency.count > 0)
        .unwrap();
    let latency = |lang: Lang, b: usize| {
        let r = cluster_chart::readout(&run, None, None, false, lang, centres[b]).unwrap();
        r.rows.last().unwrap().value.clone()
    };
    assert_eq!(latency(Lang::En, dead), "no successes");
    assert_eq!(latency(Lang::Zh, dead), "无成功请求");
    assert!(
        latency(Lang::En, live).ends_with(" ms"),
        "{}",
        latency(Lang::En, live)
    );
}

#[test]
fn on_a_phone_every_caption_wraps_into_lines_that_fit_and_none_is_cut() {
    use retrystorm_web::legend::text_width;
    let run = metastable();
    let queue = "queue depth (solid) and requests in flight (thin) per tier, end of bucket";
    // Wide, one line: the chart as it always was.
    let wide = cluster_chart::captions(&run, look(), 900.0);
    assert_eq!(wide.queue, vec![queue.to_string()]);
    assert_eq!(
        cluster_chart::height_at(&run, look(), 900.0),
        cluster_chart::height(&run.scenario)
    );
    // At 360 px: more lines, each within the panel, and together the whole caption.
    let narrow = cluster_chart::captions(&run, look(), 360.0);
    assert!(narrow.queue.len() > 1, "{:?}", narrow.queue);
    assert_eq!(narrow.queue.join(" "), queue);
    let all: Vec<&Vec<String>> = narrow
        .tiers
        .iter()
        .chain(narrow.bands.iter().flatten())
        .chain([&narrow.queue, &narrow.latency])
        .collect();
    for (caption, wide) in all.iter().zip(
        wide.tiers
            .iter()
            .chain(wide.bands.iter().flatten())
            .chain([&wide.queue, &wide.latency]),
    ) {
        assert_eq!(caption.join(" "), wide.join(" "), "nothing lost");
        for line in caption.iter() {
            assert!(text_width(line, 13.0) <= 336.0, "{line:?} fits 360 px");
        }
    }
    // The chart is taller by the further lines, and draws each line as a text.
    let h = cluster_chart::height_at(&run, look(), 360.0);
    assert!(h > cluster_chart::height(&run.scenario));
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (360, h as u32)).into_drawing_area();
    cluster_chart::draw_on(root, &run, None, LIGHT, look(), None).unwrap();
    for line in all.iter().flat_map(|c| c.iter()) {
        assert!(
            svg.contains(&format!(">\n{line}\n</text>"))
                || svg.contains(&format!(">{line}</text>")),
            "{line:?} drawn"
        );
    }
}

#[test]
fn a_chinese_caption_without_spaces_breaks_between_characters() {
    let text = "入口请求：每个时间桶内成功请求的端到端延迟，毫秒，以及更多的说明文字";
    let lines = cluster_chart::caption_lines(text, 200.0, 13.0);
    assert!(lines.len() > 1, "{lines:?}");
    assert_eq!(lines.concat(), text);
}
