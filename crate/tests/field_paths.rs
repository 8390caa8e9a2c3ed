//! Every rejection names the innermost field that is wrong: inside `kind`-tagged objects,
//! inside a sweep's metrics, and for errors of the JSON text itself (too deep, a number
//! beyond the float range, a bad escape), which keep their line and column as context.

use retrystorm::scenario;
use retrystorm::sweep::Sweep;
use retrystorm::validate::ValidationError;
use serde_json::{json, Value};

fn bundled(name: &str) -> Value {
    let path = format!("{}/../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The error of scenario `doc` after `edit`.
fn scenario_error(name: &str, edit: impl FnOnce(&mut Value)) -> ValidationError {
    let mut doc = bundled(name);
    edit(&mut doc);
    scenario::parse(&doc.to_string()).expect_err("refused")
}

/// The error of the scenario text `text` (for JSON no `Value` can hold).
fn text_error(text: &str) -> ValidationError {
    scenario::parse(text).expect_err("refused")
}

#[track_caller]
fn names(e: &ValidationError, field: &str) {
    assert_eq!(e.field, field, "{e}");
    assert!(e.to_string().contains(field), "{e}");
}

#[test]
fn fields_inside_kind_tagged_objects_are_named() {
    let chain = "cluster-call-chain.json";
    let e = scenario_error(chain, |d| {
        d["tiers"][0]["client"]["backoff"] = json!({"kind": "fixed", "delays_ms": [1, -1]})
    });
    names(&e, "tiers[0].client.backoff.delays_ms[1]");
    // A number beyond u64: serde describes it as a float, written unlike the document.
    let mut doc = bundled(chain);
    doc["tiers"][0]["client"]["backoff"] =
        json!({"kind": "exponential", "base_ms": 1, "multiplier": 2, "cap_ms": 100});
    let text = doc
        .to_string()
        .replace("\"base_ms\":1,", "\"base_ms\":18446744073709551616,");
    names(&text_error(&text), "tiers[0].client.backoff.base_ms");
    let routes = "cluster-routes-per-route-budget.json";
    let e = scenario_error(routes, |d| {
        d["tiers"][0]["routes"][1]["client"]["backoff"]["cap_ms"] = json!([1000])
    });
    names(&e, "tiers[0].routes[1].client.backoff.cap_ms");
    let e = scenario_error(routes, |d| {
        d["tiers"][0]["routes"][0]["client"]["budget"]["max_tokens"] = json!({"n": 1})
    });
    names(&e, "tiers[0].routes[0].client.budget.max_tokens");
}

#[test]
fn a_sweeps_metrics_name_their_own_fields() {
    let e = |text: &str| Sweep::from_json(text).expect_err("refused");
    let c = r#"{"metric": "strategies[5].delivery_pct", "op": "<=", "value": 2}"#;
    names(
        &e(&format!(
            r#"{{"constraints": [{c}, {{"metric": 3, "op": ">=", "value": 1}}]}}"#
        )),
        "constraints[1].metric",
    );
    names(
        &e(r#"{"constraints": [{"metric": "x", "stat": "p42", "op": ">=", "value": 1}]}"#),
        "constraints[0].stat",
    );
    names(
        &e(r#"{"objective": {"metric": ["x"], "goal": "max"}}"#),
        "objective.metric",
    );
    names(
        &e(r#"{"pareto": [{"metric": "a", "goal": "max"}, {"metric": null, "goal": "min"}]}"#),
        "pareto[1].metric",
    );
    let unknown = e(r#"{"objective": {"metric": "a", "goal": "max", "typo": 1}}"#);
    names(&unknown, "objective.typo");
    assert!(unknown.to_string().contains("`goal`"), "{unknown}");
}

#[test]
fn json_errors_name_the_path_where_they_happened() {
    let deep = format!("{{\"capacity\": {}1{}}}", "[".repeat(200), "]".repeat(200));
    let e = text_error(&deep);
    assert!(e.field.starts_with("capacity"), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("nested") && msg.contains("line 1 column"),
        "{msg}"
    );
    let e = text_error(r#"{"model": "classic", "capacity": 1e400}"#);
    names(&e, "capacity");
    assert!(e.to_string().contains("line 1 column"), "{e}");
    let mut doc = bundled("cluster-call-chain.json");
    doc["tiers"][2]["service"]["kind"] = json!("MARK");
    let text = doc.to_string().replace("MARK", "\\uD800");
    let e = text_error(&text);
    names(&e, "tiers[2].service.kind");
    assert!(e.to_string().contains("line 1 column"), "{e}");
    let e = text_error(&doc.to_string().replace("MARK", "\\uZZ"));
    names(&e, "tiers[2].service.kind");
}

#[test]
fn an_unknown_field_is_named_whatever_its_name() {
    let e = scenario_error("cluster-call-chain.json", |d| d[""] = json!(1));
    assert!(!e.field.is_empty(), "{e}");
    assert!(e.to_string().starts_with("unknown field"), "{e}");
    let e = scenario_error("cluster-call-chain.json", |d| {
        d["tiers"][1]["a`b"] = json!(1)
    });
    assert!(e.field.starts_with("tiers[1]"), "{e}");
    assert!(e.field.contains("a`b"), "{e}");
    assert!(
        e.to_string()
            .ends_with("`error_rate`, `balancer`, `client`, `routes`, `route_sharing`"),
        "{e}"
    );
}

#[test]
fn a_sweep_point_outside_a_bound_names_the_field_and_the_point() {
    let base = scenario::parse(&bundled("article.json").to_string()).unwrap();
    let long = format!("strategies[0].{}", "x".repeat(3_000));
    let e = Sweep::from_json(r#"{"params": [{"path": "capacity", "values": [1e12]}]}"#)
        .unwrap()
        .plan(&base)
        .unwrap_err();
    names(&e, "capacity");
    assert!(e.to_string().contains("at the point capacity ="), "{e}");
    // A long swept path is cut in the point's label too.
    let text = format!(r#"{{"params": [{{"path": "{long}", "values": [1]}}]}}"#);
    if let Err(e) = Sweep::from_json(&text).unwrap().plan(&base) {
        assert!(e.to_string().chars().count() < 1_000, "{e}");
    }
}
