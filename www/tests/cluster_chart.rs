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
    run_of(include_str!("../../scenarios/cluster-metastable.json"))
}

/// The run of a cluster scenario file's text.
fn run_of(text: &str) -> Run {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    run_value(&value)
}

/// The run of a cluster scenario read from `value`.
fn run_value(value: &serde_json::Value) -> Run {
    let AnyScenario::Cluster(scenario) = scenario::read(Some(Model::Cluster), value).unwrap()
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
        cluster_chart::height_at(&run, None, None, look(), 900.0),
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
    let h = cluster_chart::height_at(&run, None, None, look(), 360.0);
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

/// The chart of `run` (with the pinned run `a` and the ensemble `bands`) drawn as SVG on
/// a canvas `w` CSS pixels wide and as tall as `height_at` says: its text, its height
/// and every plot's device-pixel area.
fn drawn(
    run: &Run,
    a: Option<&Run>,
    bands: Option<&Ensemble>,
    look: Look,
    w: u32,
) -> (String, f64, Vec<cluster_chart::PlotArea>) {
    let h = cluster_chart::height_at(run, a, bands, look, f64::from(w));
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (w, h.ceil() as u32)).into_drawing_area();
    let plots = cluster_chart::draw_on(root, run, a, LIGHT, look, bands).unwrap();
    (svg, h, plots)
}

/// Every text drawn with its position (the SVG's `x` and `y`).
fn placed_texts(svg: &str) -> Vec<(String, f64, f64)> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|e| {
            let (attrs, rest) = e.split_once('>')?;
            let attrs = format!(" {attrs}");
            let attr = |name: &str| -> Option<f64> {
                let v = attrs.split_once(&format!(" {name}=\""))?.1;
                v.split_once('"')?.0.parse().ok()
            };
            let text = rest.split_once("</text")?.0.trim().to_string();
            Some((text, attr("x")?, attr("y")?))
        })
        .collect()
}

/// A chart the legend tests draw: its name, the run, the pinned run and the ensemble
/// drawn with it, and its look.
type Chart = (&'static str, Run, Option<Run>, Option<Ensemble>, Look);

/// The charts the legend tests draw, each run for its first 30 s (the legends are the
/// same, the tests quicker): the metastable run alone, with a pinned run and with an
/// ensemble's bands; a tree whose routes have breakers of their own; a chain with
/// breakers; a tree with a costed route in cost mode.
fn charts() -> &'static [Chart] {
    static CHARTS: std::sync::OnceLock<Vec<Chart>> = std::sync::OnceLock::new();
    CHARTS.get_or_init(|| {
        let short = |text: &str| {
            let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
            v["duration_ms"] = serde_json::json!(30_000);
            v
        };
        let metastable = short(include_str!("../../scenarios/cluster-metastable.json"));
        let plain = || run_value(&metastable);
        let e = ensemble::run(
            &AnyScenario::Cluster(plain().scenario.clone()),
            &[1, 2],
            Some(1),
        )
        .unwrap();
        let routes = short(include_str!(
            "../../scenarios/cluster-routes-per-route-budget.json"
        ));
        let mut costed = routes.clone();
        costed["tiers"][0]["routes"][0]["client"]["cost"] = serde_json::json!({
            "input_tokens": 100, "output_tokens": 10,
            "input_price_per_1k": 1.0, "output_price_per_1k": 2.0});
        let chain = short(include_str!(
            "../../scenarios/cluster-gc-stampede-naive.json"
        ));
        let cost = Look {
            cost: true,
            ..look()
        };
        vec![
            ("metastable", plain(), None, None, look()),
            ("pinned", plain(), Some(plain()), None, look()),
            ("bands", plain(), None, Some(e), look()),
            ("routes", run_value(&routes), None, None, look()),
            ("chain", run_value(&chain), None, None, look()),
            ("cost", run_value(&costed), None, None, cost),
        ]
    })
}

#[test]
fn at_1280_and_360_px_no_legend_label_lies_inside_a_plot_and_every_plot_shares_the_time_axis() {
    for (name, run, a, bands, look) in charts() {
        let look = *look;
        for w in [1280, 360] {
            let (svg, h, plots) = drawn(run, a.as_ref(), bands.as_ref(), look, w);
            let legends = retrystorm_web::cluster_legend::legends(
                run,
                a.as_ref(),
                bands.as_ref(),
                look,
                f64::from(w),
            );
            // Wide: one column for all; a phone: rows under each panel.
            assert_eq!(legends.column > 0.0, w == 1280, "{name} at {w} px");
            let labels: Vec<&str> = legends
                .tiers
                .iter()
                .chain([&legends.queue, &legends.latency])
                .flat_map(|p| p.entries.iter().map(|e| e.label.as_str()))
                .collect();
            assert!(labels.len() >= 3 + run.scenario.tiers.len(), "{labels:?}");
            let placed = placed_texts(&svg);
            for label in &labels {
                let at: Vec<(f64, f64)> = placed
                    .iter()
                    .filter(|(t, _, _)| t == label)
                    .map(|&(_, x, y)| (x, y))
                    .collect();
                let want = labels.iter().filter(|l| *l == label).count();
                assert_eq!(at.len(), want, "{name}: {label:?} drawn at {w} px");
                for (x, y) in at {
                    for (xr, yr) in &plots {
                        let inside = f64::from(xr.start) <= x
                            && x <= f64::from(xr.end)
                            && f64::from(yr.start) <= y
                            && y <= f64::from(yr.end);
                        assert!(
                            !inside,
                            "{name}: {label:?} at ({x}, {y}) in the plot {xr:?} × {yr:?} at {w} px"
                        );
                    }
                    if w == 1280 {
                        assert!(
                            x > f64::from(plots[0].0.end),
                            "{name}: {label:?} right of the plots"
                        );
                    }
                }
            }
            // Every panel and breaker strip maps the time axis to the same columns, which
            // keep most of the canvas.
            let x0 = plots[0].0.clone();
            for (xr, _) in &plots {
                assert_eq!(*xr, x0, "{name} at {w} px");
            }
            assert!(
                x0.end - x0.start > (w as i32) / 2,
                "{name}: {x0:?} at {w} px"
            );
            // The plots follow each other down the canvas, none over another.
            for pair in plots.windows(2) {
                assert!(
                    pair[0].1.end <= pair[1].1.start,
                    "{name} at {w} px: {pair:?}"
                );
            }
            // The canvas holds every text drawn (a legend label's line included).
            for (t, x, y) in &placed {
                assert!(
                    *x >= 0.0 && *x < f64::from(w) && *y >= 0.0 && y + 11.0 <= h,
                    "{name}: {t:?} at ({x}, {y}) on the canvas {w} × {h}"
                );
            }
        }
    }
}

#[test]
fn on_a_phone_each_panel_is_taller_by_its_legends_rows_and_they_stand_under_its_time_axis() {
    for (name, run, a, bands, look) in charts() {
        let look = *look;
        let wide = cluster_chart::height_at(run, a.as_ref(), bands.as_ref(), look, 1280.0);
        let narrow = cluster_chart::height_at(run, a.as_ref(), bands.as_ref(), look, 360.0);
        let legends =
            retrystorm_web::cluster_legend::legends(run, a.as_ref(), bands.as_ref(), look, 360.0);
        let rows: f64 = legends
            .tiers
            .iter()
            .chain([&legends.queue, &legends.latency])
            .map(|p| p.layout.size.1)
            .sum();
        let captions = |w: f64| {
            let c = cluster_chart::captions(run, look, w);
            c.tiers
                .iter()
                .chain(c.bands.iter().flatten())
                .chain([&c.queue, &c.latency])
                .map(Vec::len)
                .sum::<usize>()
        };
        // Taller by the legends' rows, and by the captions' further lines.
        assert!(rows > 0.0, "{name}");
        assert!(narrow >= wide + rows, "{name}: {narrow} ≥ {wide} + {rows}");
        if captions(360.0) == captions(1280.0) {
            assert_eq!(narrow, wide + rows, "{name}");
        }
        // Under each panel's time axis: between its plot's bottom and the next
        // panel's caption (a label's line under the plot's axis labels).
        let (svg, _, plots) = drawn(run, a.as_ref(), bands.as_ref(), look, 360);
        let placed = placed_texts(&svg);
        let caps = cluster_chart::captions(run, look, 360.0);
        let caption_ys: Vec<f64> = placed
            .iter()
            .filter(|(t, _, _)| {
                caps.tiers
                    .iter()
                    .chain([&caps.queue, &caps.latency])
                    .any(|c| c.contains(t))
            })
            .map(|&(_, _, y)| y)
            .collect();
        for p in legends
            .tiers
            .iter()
            .chain([&legends.queue, &legends.latency])
        {
            for e in &p.entries {
                for &(_, _, y) in placed.iter().filter(|(t, _, _)| *t == e.label) {
                    assert!(
                        plots.iter().any(|(_, yr)| y > f64::from(yr.end) + 18.0),
                        "{name}: {:?} at {y} under a plot's axis",
                        e.label
                    );
                    for c in &caption_ys {
                        assert!(
                            y + 11.0 <= *c || y >= c + 13.0,
                            "{name}: {:?} at {y} clear of the caption at {c}",
                            e.label
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn two_routes_to_one_pool_read_as_its_calls_and_each_strip_names_its_route() {
    let mut v: serde_json::Value = serde_json::from_str(include_str!(
        "../../scenarios/cluster-routes-per-route-budget.json"
    ))
    .unwrap();
    v["duration_ms"] = serde_json::json!(30_000);
    v["tiers"].as_array_mut().unwrap().pop();
    v["faults"] = serde_json::json!([]);
    // Both routes call the fast pool, each with a breaker and a cost model of its own.
    for r in v["tiers"][0]["routes"].as_array_mut().unwrap() {
        r["to"] = serde_json::json!(1);
        r["client"]["breaker"] =
            serde_json::json!({"kind": "consecutive", "failures": 5, "open_ms": 2000});
        r["client"]["cost"] = serde_json::json!({"input_tokens": 100, "output_tokens": 10,
            "input_price_per_1k": 1.0, "output_price_per_1k": 2.0});
    }
    let run = run_value(&v);
    let drawn = texts(&run, None, look(), None);
    // The pool's panel is all its caller's calls; each breaker strip names its route.
    assert!(
        has(&drawn, |x| x
            .contains("(route gateway → fast-pool, 100% of the calls)")),
        "{drawn:?}"
    );
    for strip in ["#1 fast-po", "#2 fast-po"] {
        assert!(drawn.contains(&strip.to_string()), "{strip} in {drawn:?}");
    }
    let cost = Look {
        cost: true,
        ..look()
    };
    let drawn = texts(&run, None, cost, None);
    assert!(
        drawn.contains(&"gateway → fast-pool cost/s".to_string()),
        "{drawn:?}"
    );
}
