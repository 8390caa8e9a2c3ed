//! The readers of a sweep definition's objective, constraints and Pareto axes keep the
//! messages of serde's derived reader of their form (the metric's fields flattened into
//! the object), except that they name the metric's own field where that reader names
//! the object, and list the known fields of an unknown one: compared with that reader,
//! derived here as the oracle, and pinned word for word in a definition (the field path
//! and the message).

use retrystorm::sweep::choose::{Constraint, Goal, MetricRef, Objective, Op};
use retrystorm::sweep::Sweep;
use retrystorm::validate::from_value;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::fmt::Debug;

/// serde's derived reader of an objective.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TwinObjective {
    #[serde(flatten)]
    of: MetricRef,
    goal: Goal,
}

/// serde's derived reader of a constraint.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct TwinConstraint {
    #[serde(flatten)]
    of: MetricRef,
    op: Op,
    value: f64,
}

/// Objects that are, or are not, an objective or a constraint.
const DOCS: [&str; 22] = [
    "5",
    "[]",
    "null",
    "{}",
    r#"{"metric": "run.x"}"#,
    r#"{"goal": "max"}"#,
    r#"{"metric": 5, "goal": "max"}"#,
    r#"{"metric": "run.x", "goal": "up"}"#,
    r#"{"metric": "run.x", "goal": 7}"#,
    r#"{"metric": "run.x", "stat": "p99", "goal": "max"}"#,
    r#"{"stat": "p99", "metric": 5, "goal": "max"}"#,
    r#"{"metric": "run.x", "stat": null, "goal": "max"}"#,
    r#"{"metric": "run.x", "goal": "max", "colour": 1}"#,
    r#"{"colour": 1, "metric": 5, "goal": 7}"#,
    r#"{"metric": "run.x", "stat": "p95", "goal": "min"}"#,
    r#"{"metric": "run.x", "op": "<="}"#,
    r#"{"metric": "run.x", "value": 2}"#,
    r#"{"op": "<=", "value": 2}"#,
    r#"{"metric": "run.x", "op": "<", "value": 2}"#,
    r#"{"metric": "run.x", "op": "<=", "value": "2"}"#,
    r#"{"metric": "run.x", "op": "<=", "value": 2, "x": 1}"#,
    r#"{"metric": "run.x", "stat": "max", "op": ">=", "value": 2.5}"#,
];

/// `(field, message)` of an error, or the value read, as text.
fn outcome<T: Debug>(r: Result<T, retrystorm::ValidationError>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) => format!("{:?}: {}", e.field, e),
    }
}

/// What an error says is expected: its message after the first `expected `.
fn expectation(e: &retrystorm::ValidationError) -> String {
    let text = e.to_string();
    let x = text
        .split_once("expected ")
        .or_else(|| text.split_once(": "));
    x.map_or(text.clone(), |(_, x)| x.to_string())
}

/// Reads every document of [`DOCS`] as `T` and as its derived twin `W`: values that are
/// `same`, or the same error, where ours may name a field inside the one the twin names
/// (expecting the same), and may say more after the twin's message (the known fields).
fn same_as_derived<T: DeserializeOwned + Debug, W: DeserializeOwned + Debug>(
    same: impl Fn(&T, &W) -> bool,
) {
    for doc in DOCS {
        let v: Value = serde_json::from_str(doc).unwrap();
        match (from_value::<T>(&v), from_value::<W>(&v)) {
            (Ok(got), Ok(want)) => assert!(same(&got, &want), "{doc}: {got:?} {want:?}"),
            (Err(got), Err(want)) if got.field == want.field => assert!(
                got.to_string().starts_with(&want.to_string()),
                "{doc}: {got} / {want}"
            ),
            (Err(got), Err(want)) => {
                let inside = match want.field.as_str() {
                    "" => String::new(),
                    f => format!("{f}."),
                };
                assert!(got.field.starts_with(&inside), "{doc}: {got} / {want}");
                assert_eq!(expectation(&got), expectation(&want), "{doc}");
            }
            (got, want) => assert_eq!(outcome(got), outcome(want), "{doc}"),
        }
    }
}

#[test]
fn objectives_read_as_the_derived_reader_reads_them() {
    same_as_derived(|g: &Objective, w: &TwinObjective| (&g.of, g.goal) == (&w.of, w.goal));
}

#[test]
fn constraints_read_as_the_derived_reader_reads_them() {
    same_as_derived(|g: &Constraint, w: &TwinConstraint| {
        (&g.of, g.op, g.value) == (&w.of, w.op, w.value)
    });
}

/// The messages in a whole definition, as the derived reader wrote them.
#[test]
fn messages_in_a_definition_are_pinned() {
    let pinned: [(&str, &str, &str); 24] = [
        ("{\"objective\": 5}", "objective", "objective = 5 is not allowed: expected an object"),
        ("{\"objective\": []}", "objective", "objective = [] is not allowed: expected an object"),
        ("{\"objective\": {}}", "objective.goal", "objective.goal is missing: expected a value (the field is required)"),
        ("{\"objective\": {\"metric\": \"run.x\"}}", "objective.goal", "objective.goal is missing: expected a value (the field is required)"),
        ("{\"objective\": {\"goal\": \"max\"}}", "objective.metric", "objective.metric is missing: expected a value (the field is required)"),
        ("{\"objective\": {\"metric\": 5, \"goal\": \"max\"}}", "objective.metric", "objective.metric = 5 is not allowed: expected a string"),
        ("{\"objective\": {\"metric\": \"run.x\", \"goal\": \"up\"}}", "objective.goal", "objective.goal = \"up\" is not allowed: expected `max` or `min`"),
        ("{\"objective\": {\"metric\": \"run.x\", \"goal\": 7}}", "objective.goal", "objective.goal = 7 is not allowed: expected string or map"),
        ("{\"objective\": {\"metric\": \"run.x\", \"stat\": \"p99\", \"goal\": \"max\"}}", "objective.stat", "objective.stat = \"p99\" is not allowed: expected one of `min`, `p5`, `p25`, `median`, `p75`, `p95`, `max`, `mean`"),
        ("{\"objective\": {\"metric\": \"run.x\", \"stat\": null, \"goal\": \"max\"}}", "objective.stat", "objective.stat = null is not allowed: expected string or map"),
        ("{\"objective\": {\"metric\": \"run.x\", \"goal\": \"max\", \"colour\": 1}}", "objective.colour", "unknown field `objective.colour`, expected one of `metric`, `stat`, `goal`"),
        ("{\"objective\": {\"metric\": 5, \"goal\": 7}}", "objective.goal", "objective.goal = 7 is not allowed: expected string or map"),
        ("{\"constraints\": [5]}", "constraints[0]", "constraints[0] = 5 is not allowed: expected an object"),
        ("{\"constraints\": [{}]}", "constraints[0].op", "constraints[0].op is missing: expected a value (the field is required)"),
        ("{\"constraints\": [{\"metric\": \"run.x\", \"op\": \"<=\"}]}", "constraints[0].value", "constraints[0].value is missing: expected a value (the field is required)"),
        ("{\"constraints\": [{\"metric\": \"run.x\", \"value\": 2}]}", "constraints[0].op", "constraints[0].op is missing: expected a value (the field is required)"),
        ("{\"constraints\": [{\"op\": \"<=\", \"value\": 2}]}", "constraints[0].metric", "constraints[0].metric is missing: expected a value (the field is required)"),
        ("{\"constraints\": [{\"metric\": \"run.x\", \"op\": \"<\", \"value\": 2}]}", "constraints[0].op", "constraints[0].op = \"<\" is not allowed: expected `<=` or `>=`"),
        ("{\"constraints\": [{\"metric\": \"run.x\", \"op\": \"<=\", \"value\": \"2\"}]}", "constraints[0].value", "constraints[0].value = \"2\" is not allowed: expected a number"),
        ("{\"constraints\": [{\"metric\": \"run.x\", \"stat\": \"p1\", \"op\": \"<=\", \"value\": 2}]}", "constraints[0].stat", "constraints[0].stat = \"p1\" is not allowed: expected one of `min`, `p5`, `p25`, `median`, `p75`, `p95`, `max`, `mean`"),
        ("{\"constraints\": [{\"metric\": \"run.x\", \"op\": \"<=\", \"value\": 2, \"x\": 1}]}", "constraints[0].x", "unknown field `constraints[0].x`, expected one of `metric`, `stat`, `op`, `value`"),
        ("{\"constraints\": [{\"metric\": [\"a\"], \"op\": \">=\", \"value\": 2}]}", "constraints[0].metric", "constraints[0].metric = [\"a\"] is not allowed: expected a string"),
        ("{\"pareto\": [{\"metric\": \"run.x\", \"goal\": \"max\"}, {\"metric\": \"run.y\"}]}", "pareto[1].goal", "pareto[1].goal is missing: expected a value (the field is required)"),
        ("{\"pareto\": [{\"metric\": \"run.x\", \"goal\": \"max\"}, {\"metric\": \"run.y\", \"goal\": \"max\", \"z\": 0}]}", "pareto[1].z", "unknown field `pareto[1].z`, expected one of `metric`, `stat`, `goal`"),
    ];
    for (doc, field, message) in pinned {
        let e = Sweep::from_json(doc).expect_err(doc);
        assert_eq!(
            (e.field.as_str(), e.to_string().as_str()),
            (field, message),
            "{doc}"
        );
    }
}
