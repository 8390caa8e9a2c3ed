//! The `retrystorm` binary as a user runs it: reports, JSON, and errors with exit code 2.

use retrystorm::classic;
use retrystorm::ensemble;
use retrystorm::scenario::AnyScenario;
use std::process::{Command, Output};

fn retrystorm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = retrystorm(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn scenario_file(name: &str) -> String {
    format!("{}/../scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn run_prints_the_article_table() {
    let text = stdout(&["run"]);
    assert!(text.contains(
        "S3 指数退避全抖动       2.48x     99.1%    1057     32      205         9146      0/[]/0"
    ));
    assert_eq!(
        text,
        stdout(&["run", "--scenario", &scenario_file("article.json")])
    );
    assert_eq!(text, stdout(&["run", "--preset", "article", "--seed=4242"]));
}

#[test]
fn run_ends_with_the_verdict_in_its_language() {
    let zh = stdout(&["run"]);
    assert!(
        zh.ends_with("陷阱：S2 指数退避无抖动 交付率最高（100.0%），过载却长达 34 秒。\n"),
        "{zh}"
    );
    let en = stdout(&["run", "--lang", "en"]);
    let last = en.lines().last().unwrap();
    assert!(
        last.starts_with("Lowest overload: S6 预算+熔断 (0 s overloaded)"),
        "{last}"
    );
    let cluster = stdout(&["run", "--preset", "cluster-metastable"]);
    assert!(
        cluster
            .lines()
            .nth(3)
            .unwrap()
            .starts_with("Never recovered: "),
        "{cluster}"
    );
}

#[test]
fn run_prints_the_endings_after_the_article_report() {
    let text = stdout(&["run"]);
    let out =
        retrystorm::classic::simulate(&retrystorm::classic::Scenario::article(), 4242).unwrap();
    // The article's report comes first, byte for byte.
    let article = retrystorm::classic::report::run_text(&out, None);
    let rest = text
        .strip_prefix(&article)
        .expect("the article's report first");
    assert!(rest.contains("(attribution: ceil)"));
    let s4 = rest.lines().find(|l| l.starts_with("S4")).unwrap();
    let cells: Vec<&str> = s4.split_whitespace().collect();
    // amplification, delivery, answered, delivered, upstream, deadline, budget, breaker
    assert_eq!(
        cells[cells.len() - 8..],
        ["1.03x", "90.8%", "100.0%", "10901", "3", "0", "1096", "0"]
    );
    let gateway = stdout(&["run", "--preset", "model-gateway-cost"]);
    assert!(gateway.contains("cost amplification"));
    assert!(stdout(&["scenarios"]).contains("model-gateway-cost"));
}

#[test]
fn attribution_overrides_the_scenario() {
    let floor = stdout(&["run", "--attribution", "floor"]);
    assert!(floor.contains("seed=4242，attribution=floor"));
    assert!(floor.contains("S2 指数退避无抖动       2.58x"));
    assert!(floor.contains("(attribution: floor)"));
    let herd = stdout(&["herd", "--attribution=round"]);
    assert!(
        herd.starts_with("每秒到达上游的请求数（容量 240，故障 20~26 秒），attribution=round\n")
    );
    assert_eq!(
        stdout(&["run", "--attribution", "ceil"]),
        stdout(&["run"]),
        "ceil is the article's convention"
    );
    let bad = retrystorm(&["run", "--attribution", "up"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr)
        .contains("--attribution \"up\" is not allowed: expected ceil, floor or round"));
    let cluster = retrystorm(&[
        "run",
        "--preset",
        "cluster-call-chain",
        "--attribution",
        "floor",
    ]);
    assert_eq!(cluster.status.code(), Some(2));
}

#[test]
fn budget_override_and_seed_change_the_table() {
    let forced = stdout(&["run", "--budget-override", "100"]);
    assert!(forced.contains("budgetPct=100（全局覆盖）"));
    assert!(forced.contains("S4 全抖动+重试预算20%   2.48x     99.1%    1057"));
    let seed7 = stdout(&["run", "--seed", "7"]);
    assert!(seed7.contains("seed=7") && seed7.contains("2.52x"));
}

#[test]
fn json_has_every_field_and_exact_results() {
    let text = stdout(&["run", "--json", "--seed", "9223372036854775807"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Seeds beyond 2^53 travel as strings so JavaScript cannot round them.
    assert_eq!(v["scenario"]["seed"], "9223372036854775807");
    let r = &v["results"][2];
    for field in [
        "name",
        "attempts",
        "delivered",
        "failed",
        "amplification",
        "delivery_pct",
        "peak",
        "overload_seconds",
        "p50_ms",
        "p99_ms",
        "breaker_trips",
        "trip_at",
        "breaker_harmful",
        "per_sec",
        "recovery_window_total",
        "answered_pct",
        "ended_upstream",
        "ended_deadline",
        "ended_budget",
        "ended_breaker",
    ] {
        assert!(r.get(field).is_some(), "missing {field}");
    }
    let engine =
        retrystorm::classic::simulate(&retrystorm::classic::Scenario::article(), i64::MAX).unwrap();
    assert_eq!(v, serde_json::to_value(&engine).unwrap());
}

#[test]
fn herd_sweep_and_breaker_reports() {
    let herd = stdout(&["herd"]);
    assert!(herd.contains("S1 600、S2 2560、S3 3067、S4 728"));
    let sweep = stdout(&["sweep"]);
    assert_eq!(sweep.matches("[PASS]").count(), 4);
    assert!(sweep.contains("313131"));
    let sweep2 = stdout(&["sweep", "--seeds", "1,2"]);
    assert!(sweep2.contains("多种子对照（2 个种子）"));
    let breaker = stdout(&["breaker"]);
    assert!(breaker.contains("[20, 25]") && breaker.contains("801"));
    assert!(stdout(&["scenarios"]).contains("breaker-groups"));
    assert!(stdout(&["--help"]).contains("usage: retrystorm"));
}

#[test]
fn scenarios_are_listed_in_english_unless_a_language_is_given() {
    let han = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    let en = stdout(&["scenarios"]);
    assert!(en.contains("Article: six strategies") && !han(&en), "{en}");
    assert_eq!(stdout(&["scenarios", "--lang", "en"]), en);
    let zh = stdout(&["scenarios", "--lang", "zh"]);
    // The same ids in the same order, every title in Chinese.
    let ids = |s: &str| -> Vec<String> {
        // A scenario's or a sweep's line: id, model, title (not the sweeps' heading).
        s.lines()
            .filter(|l| l.contains(" classic ") || l.contains(" cluster "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect()
    };
    assert_eq!(ids(&zh), ids(&en));
    assert!(zh.lines().filter(|l| !l.is_empty()).all(han), "{zh}");
    // The bundled sweeps are listed after the scenarios, in the same language.
    assert!(en.contains("breaker-threshold") && zh.contains("breaker-threshold"));
    assert!(zh.contains("原文：六种策略"));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("retrystorm-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.json");
    let mut sc = serde_json::to_value(retrystorm::classic::Scenario::article()).unwrap();
    sc["strategies"][1]["max_retry"] = 99.into();
    std::fs::write(&bad, sc.to_string()).unwrap();
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "\u{0}\u{1}not json").unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["run", "--scenario", bad.to_str().unwrap()],
            "strategies[1].max_retry = 99 is out of range: allowed 0..=30",
        ),
        (
            vec!["run", "--scenario", garbage.to_str().unwrap()],
            "invalid scenario",
        ),
        (
            vec!["run", "--scenario", "/no/such/file.json"],
            "cannot read /no/such/file.json",
        ),
        (
            vec!["run", "--seed", "1e3"],
            "--seed \"1e3\" is not an integer",
        ),
        (vec!["run", "--seed", "9223372036854775808"], "--seed"),
        (vec!["run", "--budget-override", "101"], "allowed 0..=100"),
        (vec!["run", "--seed"], "--seed needs a value"),
        (vec!["run", "--frobnicate"], "unknown option"),
        (vec!["fly"], "unknown command"),
        (vec!["run", "extra"], "unexpected argument"),
        (
            vec!["herd", "--preset", "nope"],
            "no bundled scenario \"nope\"",
        ),
    ];
    for (args, needle) in cases {
        let out = retrystorm(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("retrystorm: error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// Writes `doc` with `edit` applied to a temporary file and runs `run --scenario` on it.
fn run_edited(
    doc: &str,
    tag: &str,
    edit: impl Fn(&mut serde_json::Value),
) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("retrystorm-cli-types-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(doc).unwrap();
    edit(&mut v);
    let path = dir.join(format!("{tag}.json"));
    std::fs::write(&path, v.to_string()).unwrap();
    let out = retrystorm(&["run", "--scenario", path.to_str().unwrap()]);
    assert!(out.stdout.is_empty(), "{tag}");
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn every_kind_of_bad_input_names_its_field() {
    use serde_json::json;
    let classic = include_str!("../../scenarios/article.json");
    let cluster = include_str!("../../scenarios/cluster-gc-stampede-naive.json");
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(&str, &str, Edit, &str)> = vec![
        (classic, "wrong-type", Box::new(|v| v["strategies"][2]["budget_pct"] = json!("200")),
            "strategies[2].budget_pct = \"200\" is not allowed: expected a whole number ≥ 0 in 0..=100"),
        (classic, "negative", Box::new(|v| v["clients"] = json!(-5)),
            "clients = -5 is not allowed: expected a whole number ≥ 0 in 1..=1000000"),
        (classic, "null", Box::new(|v| v["outage"]["to_s"] = json!(null)),
            "outage.to_s = null is not allowed: expected a whole number ≥ 0 in 20..=60"),
        (classic, "float", Box::new(|v| v["strategies"][0]["max_retry"] = json!(2.5)),
            "strategies[0].max_retry = 2.5 is not allowed: expected a whole number ≥ 0 in 0..=30"),
        (classic, "variant", Box::new(|v| v["strategies"][3]["jitter"] = json!("half")),
            "strategies[3].jitter = \"half\" is not allowed: expected `none` or `full`"),
        (classic, "unknown", Box::new(|v| v["strategies"][1]["retries"] = json!(3)),
            "unknown field `strategies[1].retries`, expected one of `name`, `max_retry`"),
        (classic, "missing", Box::new(|v| { v["strategies"][1].as_object_mut().unwrap().remove("deadline_ms"); }),
            "strategies[1].deadline_ms is missing"),
        (classic, "range", Box::new(|v| v["strategies"][1]["max_retry"] = json!(99)),
            "strategies[1].max_retry = 99 is out of range: allowed 0..=30"),
        (cluster, "c-wrong-type", Box::new(|v| v["tiers"][1]["concurrency"] = json!("10")),
            "tiers[1].concurrency = \"10\" is not allowed: expected a whole number ≥ 0 in 1..=100000"),
        (cluster, "c-tagged", Box::new(|v| v["tiers"][0]["client"]["budget"] = json!({"kind": "token_bucket", "percent": -1, "max_tokens": "ten"})),
            "tiers[0].client.budget.max_tokens = \"ten\" is not allowed: expected a whole number ≥ 0"),
        (cluster, "c-variant", Box::new(|v| v["tiers"][0]["client"]["jitter"] = json!({"kind": "half"})),
            "tiers[0].client.jitter.kind = \"half\" is not allowed: expected one of `none`, `full`"),
        (cluster, "c-unknown", Box::new(|v| v["load"]["burst"] = json!(1)),
            "unknown field `load.burst`, expected one of `arrivals`"),
        (cluster, "c-missing", Box::new(|v| { v["tiers"][1].as_object_mut().unwrap().remove("service"); }),
            "tiers[1].service is missing"),
        (cluster, "c-null", Box::new(|v| v["duration_ms"] = json!(null)),
            "duration_ms = null is not allowed: expected a whole number ≥ 0 in 1..=86400000"),
        (cluster, "c-range", Box::new(|v| v["tiers"][0]["client"]["breaker"] = json!({"kind": "sre_adaptive", "k": 11, "window_ms": 1000})),
            "tiers[0].client.breaker.k = 11 is out of range: allowed 1..=10"),
    ];
    for (doc, tag, edit, needle) in cases {
        let (code, err) = run_edited(doc, tag, edit);
        assert_eq!(code, Some(2), "{tag}: {err}");
        assert_eq!(err.lines().count(), 1, "{tag}: {err}");
        assert!(
            err.starts_with("retrystorm: error: ") && err.contains(needle),
            "{tag}: {err}"
        );
    }
}

// `retrystorm ensemble`: the same result as the library, identical output for any
// thread count, the CSV of per-seed values, and bad settings named.

/// Runs a command that must fail: exit code 2 and one line on stderr, returned.
fn error(args: &[&str]) -> String {
    let out = retrystorm(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should fail with 2");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

#[test]
fn json_equals_the_library_and_threads_do_not_matter() {
    let json = stdout(&["ensemble", "--seeds", "12", "--json"]);
    let sc = AnyScenario::Classic(classic::Scenario::article());
    let lib = ensemble::run(&sc, &ensemble::derive_seeds(4242, 12), Some(1)).unwrap();
    let parsed: ensemble::Ensemble = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed, lib);
    for t in ["1", "2", "3"] {
        assert_eq!(
            json,
            stdout(&["ensemble", "--seeds", "12", "--json", "--threads", t])
        );
    }
    let text = stdout(&["ensemble", "--seeds", "12"]);
    assert!(text.contains("PASS on 12 of 12 seeds"), "{text}");
}

#[test]
fn seed_list_and_csv() {
    let csv = stdout(&["ensemble", "--seed-list", "1,7", "--csv"]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("seed,group,metric,value"));
    // Seed 1, S1's attempts equal the single run's.
    let one = classic::run(&classic::Scenario::article(), 1).unwrap();
    let row = format!("1,S1 固定重试3次,attempts,{}", one[0].attempts);
    assert!(csv.lines().any(|l| l == row), "{row}");
    assert!(csv.lines().any(|l| l.starts_with("7,verdict,")));
}

#[test]
fn bad_settings_are_named() {
    assert!(error(&["ensemble", "--seeds", "0"])
        .contains("--seeds = 0 is out of range: allowed 1..=10000"));
    assert!(error(&["ensemble", "--seeds", "10001"]).contains("--seeds"));
    assert!(error(&["ensemble", "--seeds", "many"]).contains("--seeds \"many\""));
    assert!(error(&["ensemble", "--seed-list", "1,x"]).contains("--seed-list \"x\""));
    assert!(error(&["ensemble", "--seed-list", "1", "--seeds", "2"]).contains("not both"));
    assert!(error(&["ensemble"]).contains("needs --seeds"));
    assert!(error(&["ensemble", "--seeds", "2", "--threads", "0"]).contains("--threads"));
}

#[test]
fn grid_sweep_preset_is_the_bundled_file_on_its_scenario() {
    let file = format!(
        "{}/../scenarios/sweeps/budget-percentage.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let by_preset = stdout(&[
        "grid",
        "--sweep-preset",
        "budget-percentage",
        "--seeds",
        "2",
    ]);
    let by_file = stdout(&[
        "grid", "--sweep", &file, "--preset", "article", "--seeds", "2",
    ]);
    assert_eq!(by_preset, by_file);
    assert!(
        by_preset.contains("recommended: strategies[3].budget_pct = "),
        "{by_preset}"
    );
    let list = stdout(&["scenarios"]);
    for id in [
        "breaker-threshold",
        "budget-percentage",
        "metastability-map",
    ] {
        assert!(list.contains(id), "{list}");
    }
    let out = retrystorm(&["grid", "--sweep-preset", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no bundled sweep \"nope\""));
}

#[test]
fn grid_ends_with_the_recommendation_in_words() {
    // The technical line names the path; the last line says it as a reader would, in
    // English unless --lang says otherwise, naming the same threshold.
    let args = [
        "grid",
        "--param",
        "strategies[5].breaker_trip_failures=5,300",
        "--seeds",
        "2",
        "--objective",
        "max:strategies[5].delivery_pct",
        "--constraint",
        "p95(strategies[5].overload_seconds)<=30",
    ];
    let en = stdout(&args);
    let at = en
        .lines()
        .find_map(|l| l.strip_prefix("recommended: strategies[5].breaker_trip_failures = "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("{en}"));
    let last = en.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(
            "Recommended: trip after {at} consecutive failures: "
        )),
        "{en}"
    );
    assert!(
        last.contains("overload ≤ 30 s in 95% of seeds.")
            && last
                .ends_with("Over 2 seeds per point; it holds for this scenario, not in general."),
        "{last}"
    );
    let mut zh = args.to_vec();
    zh.extend(["--lang", "zh"]);
    let zh = stdout(&zh);
    assert!(
        zh.lines()
            .last()
            .unwrap()
            .starts_with(&format!("建议：连续失败 {at} 次后熔断")),
        "{zh}"
    );
    // A sweep of the load alone recommends no setting: the load is not chosen.
    let load = stdout(&[
        "grid",
        "--preset",
        "cluster-metastable",
        "--param",
        "load.rate_per_s=500,1000",
        "--seeds",
        "1",
        "--objective",
        "max:run.goodput_per_s",
        "--lang",
        "en",
    ]);
    let last = load.lines().last().unwrap();
    assert!(
        last.starts_with("offered load (per s): conditions, not settings you choose."),
        "{load}"
    );
    // Without an objective there is nothing to recommend, and no words for it.
    let plain = stdout(&["grid", "--param", "capacity=240", "--seeds", "2"]);
    assert!(!plain.contains("Recommended"), "{plain}");
}

#[test]
fn ensemble_and_grid_take_the_overrides_too() {
    // With every budget forced to 100, S4 is S3 on every seed and in every metric (the
    // article's fourth check), and unforced it is not.
    let groups = |args: &[&str]| -> Vec<serde_json::Value> {
        let v: serde_json::Value = serde_json::from_str(&stdout(args)).unwrap();
        v["groups"].as_array().unwrap().clone()
    };
    let forced = groups(&[
        "ensemble",
        "--seeds",
        "4",
        "--budget-override",
        "100",
        "--json",
    ]);
    assert_eq!(forced[3]["metrics"], forced[2]["metrics"]);
    let plain = groups(&["ensemble", "--seeds", "4", "--json"]);
    assert_ne!(plain[3]["metrics"], plain[2]["metrics"]);
    assert_eq!(plain[2]["metrics"], forced[2]["metrics"]);
    // The attribution rule reaches every point of a grid: floor charges S1's retries to
    // the same second, as ceil does (no backoff), but S2's backoffs to earlier seconds.
    let grid = |extra: &[&str]| {
        let mut args = vec!["grid", "--param", "capacity=240", "--seeds", "2", "--jsonl"];
        args.extend(extra);
        stdout(&args)
    };
    assert_ne!(grid(&["--attribution", "floor"]), grid(&[]));
    assert_eq!(grid(&["--attribution", "ceil"]), grid(&[]));
    // A cluster scenario has neither: a clear error, exit 2.
    let out = retrystorm(&[
        "ensemble",
        "--preset",
        "cluster-gc-stampede-naive",
        "--seeds",
        "2",
        "--attribution",
        "floor",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--attribution applies to classic scenarios only"));
}

#[test]
fn import_reads_a_spring_file_into_a_scenario_that_runs() {
    let dir = std::env::temp_dir().join(format!("retrystorm-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let yml = dir.join("application.yml");
    std::fs::write(
        &yml,
        "resilience4j.retry.instances.inventory:\n  maxAttempts: 3\n  waitDuration: 500ms\n  enableExponentialBackoff: true\n",
    )
    .unwrap();
    let yml = yml.to_str().unwrap();
    let out = retrystorm(&[
        "import",
        yml,
        "--preset",
        "cluster-gc-stampede-naive",
        "--lang",
        "en",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = String::from_utf8(out.stderr).unwrap();
    assert!(words.contains("3 attempts = 1 call + 2 retries"), "{words}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let client = doc["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| !t["client"].is_null())
        .unwrap();
    assert_eq!(client["client"]["backoff"]["kind"], "resilience4j");
    assert_eq!(client["client"]["max_attempts"], 3);
    let file = dir.join("scenario.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let report = stdout(&["run", "--scenario", file.to_str().unwrap(), "--lang", "en"]);
    assert!(report.contains("events"), "{report}");
    // A bad setting: exit 2, its key path in the file, one line.
    std::fs::write(
        dir.join("bad.yml"),
        "resilience4j.retry.instances.a:\n  waitDuration: soon\n",
    )
    .unwrap();
    let bad = retrystorm(&["import", dir.join("bad.yml").to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let msg = String::from_utf8(bad.stderr).unwrap();
    assert!(
        msg.contains("resilience4j.retry.instances.a.waitDuration = soon"),
        "{msg}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A configuration imported onto a classic scenario is one more strategy row, named for
/// the library and the instance, whose table the article's columns show beside S1–S6.
#[test]
fn import_onto_the_article_adds_a_strategy_row() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/configs/aws-config"
    );
    let out = retrystorm(&[
        "import",
        path,
        "--instance",
        "exporter",
        "--preset",
        "article",
        "--lang",
        "en",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = String::from_utf8(out.stderr).unwrap();
    // AWS's full jitter over 1 s × 2^k is the article's own: nothing the row cannot say
    // of the waits, and the deadline the row needs is named as filled in.
    assert!(!words.contains("cannot write this wait"), "{words}");
    assert!(words.contains("default: deadline_ms = 30000"), "{words}");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["strategies"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let row = &rows[6];
    assert_eq!(row["name"], "AWS SDK (profile exporter)");
    assert_eq!(
        (&row["max_retry"], &row["base_ms"], &row["jitter"]),
        (
            &serde_json::json!(5),
            &serde_json::json!(1000),
            &serde_json::json!("full")
        )
    );
    let dir =
        std::env::temp_dir().join(format!("retrystorm-import-classic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("article.json");
    std::fs::write(&file, &out.stdout).unwrap();
    let report = stdout(&["run", "--scenario", file.to_str().unwrap(), "--lang", "en"]);
    assert!(report.contains("AWS SDK (profile exporter)"), "{report}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The article's scenario made an hour long, in a temporary file: an ensemble of it
/// holds every seed's attempts per second.
fn hour_long_article() -> String {
    let article = retrystorm::scenario::bundled()
        .into_iter()
        .find(|b| b.id == "article")
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(article.json).unwrap();
    v["duration_s"] = serde_json::json!(3600);
    let path = std::env::temp_dir().join(format!("retrystorm-hour-{}.json", std::process::id()));
    std::fs::write(&path, v.to_string()).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn work_over_the_memory_bound_is_refused_before_it_starts() {
    use retrystorm::estimate;
    let file = hour_long_article();
    // 10,000 seeds of an hour: minutes of work and about 1.7 GiB of per-second curves.
    // Refused at once with the default bound, naming the estimate, the bound and the option.
    let args = ["ensemble", "--scenario", &file, "--seeds", "10000"];
    let out = retrystorm(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let sc = retrystorm::scenario::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let est = estimate::ensemble(&sc, 10_000, None, estimate::Format::Text);
    assert!(est.peak_bytes > estimate::DEFAULT_MAX_MEMORY, "{est:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    for part in [
        &estimate::format_bytes(est.peak_bytes),
        "over the bound of 1.0 GiB",
        "--max-memory SIZE (e.g. --max-memory 2GB)",
    ] {
        assert!(err.contains(part), "{part:?} not in {err}");
    }
    // `--estimate` prints the same figures and runs nothing, over the bound or not.
    let text = stdout(&[&args[..], &["--estimate"]].concat());
    assert!(text.starts_with("runs: 10,000\nwork: "), "{text}");
    assert!(text.contains(&format!(
        "peak memory: {}\n",
        estimate::format_bytes(est.peak_bytes)
    )));
    assert!(
        text.contains("memory bound: 1.0 GiB (over it: refused)"),
        "{text}"
    );
    let raised = stdout(&[&args[..], &["--estimate", "--max-memory", "4GB"]].concat());
    assert!(raised.contains("memory bound: 3.7 GiB;"), "{raised}");
    std::fs::remove_file(&file).ok();
}

#[test]
fn every_command_that_runs_work_checks_the_bound() {
    let sweep = format!(
        "{}/../scenarios/sweeps/breaker-threshold.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let jobs: [&[&str]; 9] = [
        &["run"],
        &["run", "--preset", "cluster-gc-stampede-naive", "--json"],
        &["herd"],
        &["sweep"],
        &["breaker"],
        &["ensemble", "--seeds", "20"],
        &["grid", "--sweep-preset", "breaker-threshold"],
        &["grid", "--sweep", &sweep, "--shard", "1/4"],
        &["grid", "--preset", "cluster-call-chain", "--seeds", "3"],
    ];
    for job in jobs {
        // A bound below any job's estimate refuses it; the default lets it run.
        let out = retrystorm(&[job, &["--max-memory", "1KB"]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{job:?}: {err}");
        assert!(
            err.contains("over the bound of 1000 B: raise it with --max-memory"),
            "{job:?}: {err}"
        );
        let est = retrystorm(&[job, &["--estimate"]].concat());
        assert!(est.status.success(), "{job:?}");
        assert!(
            String::from_utf8_lossy(&est.stdout).contains("peak memory: "),
            "{job:?}"
        );
    }
    // Sizes take decimal and binary units; anything else is named.
    assert!(retrystorm(&["run", "--max-memory", "1GiB"])
        .status
        .success());
    assert!(retrystorm(&["run", "--max-memory=500MB"]).status.success());
    for bad in ["abc", "0", "12XB", "-5"] {
        let err = error(&["run", "--max-memory", bad]);
        assert!(
            err.contains(&format!("--max-memory {bad:?} is not a size")),
            "{err}"
        );
    }
}
