//! One scenario format for both models. A JSON document's `model` field says which
//! model it is for (`"classic"` or `"cluster"`); a document without it is classic, so
//! the article's files and old links stay valid.

use crate::validate::{from_json_error, ValidationError};
use crate::{classic, cluster};
use serde_json::{Map, Value};
use std::sync::LazyLock;

/// Largest scenario document accepted, in bytes (a link or file is never bigger).
pub const MAX_JSON_BYTES: usize = 256 * 1024;

/// A scenario for either model.
// One value per run or edit: boxing the larger variant would buy nothing measurable.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum AnyScenario {
    /// The article's one-second-bucket model.
    Classic(classic::Scenario),
    /// The event-driven model of tiers, queues, timeouts and faults.
    Cluster(cluster::Scenario),
}

impl AnyScenario {
    /// The model's name as written in the `model` field.
    pub fn model(&self) -> &'static str {
        match self {
            AnyScenario::Classic(_) => "classic",
            AnyScenario::Cluster(_) => "cluster",
        }
    }

    /// The scenario's own seed.
    pub fn seed(&self) -> i64 {
        match self {
            AnyScenario::Classic(s) => s.seed,
            AnyScenario::Cluster(s) => s.seed,
        }
    }

    /// The scenario as JSON, with its `model` field first.
    pub fn to_value(&self) -> Value {
        let body = match self {
            AnyScenario::Classic(s) => serde_json::to_value(s),
            AnyScenario::Cluster(s) => serde_json::to_value(s),
        };
        let mut out = Map::new();
        out.insert("model".into(), Value::String(self.model().into()));
        if let Ok(Value::Object(fields)) = body {
            out.extend(fields);
        }
        Value::Object(out)
    }
}

/// Parses and validates a scenario of either model from a JSON value.
pub fn from_value(value: Value) -> Result<AnyScenario, ValidationError> {
    let Value::Object(mut fields) = value else {
        return Err(ValidationError::document(
            "a scenario must be a JSON object",
        ));
    };
    let model = match fields.remove("model") {
        None => "classic".to_string(),
        Some(Value::String(m)) => m,
        Some(other) => {
            return Err(ValidationError::new(
                "model",
                other,
                "\"classic\" or \"cluster\"",
            ))
        }
    };
    match model.as_str() {
        "classic" => {
            let s: classic::Scenario =
                serde_json::from_value(Value::Object(fields)).map_err(|e| from_json_error(&e))?;
            s.validate()?;
            Ok(AnyScenario::Classic(s))
        }
        "cluster" => {
            let s: cluster::Scenario =
                serde_json::from_value(Value::Object(fields)).map_err(|e| from_json_error(&e))?;
            s.validate()?;
            Ok(AnyScenario::Cluster(s))
        }
        _ => Err(ValidationError::new(
            "model",
            format!("{model:?}"),
            "\"classic\" or \"cluster\"",
        )),
    }
}

/// Parses and validates a scenario of either model from JSON text.
pub fn parse(text: &str) -> Result<AnyScenario, ValidationError> {
    if text.len() > MAX_JSON_BYTES {
        return Err(ValidationError::new(
            "scenario",
            format!("{} bytes", text.len()),
            format!("at most {MAX_JSON_BYTES} bytes of JSON"),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| from_json_error(&e))?;
    from_value(value)
}

/// A scenario shipped with the tool (in `scenarios/`), with a title and a description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bundled {
    /// File stem in `scenarios/`, also the preset's id in links.
    pub id: &'static str,
    /// Short title for a preset button.
    pub title: &'static str,
    /// One paragraph saying what the preset shows.
    pub description: &'static str,
    /// `"classic"` or `"cluster"`.
    pub model: &'static str,
    /// The file's JSON text.
    pub json: &'static str,
}

/// The cluster presets' files, in preset order: (id, JSON text).
const CLUSTER_FILES: [(&str, &str); 7] = [
    (
        "cluster-gc-stampede-naive",
        include_str!("../../scenarios/cluster-gc-stampede-naive.json"),
    ),
    (
        "cluster-gc-stampede-fixed",
        include_str!("../../scenarios/cluster-gc-stampede-fixed.json"),
    ),
    (
        "cluster-ratio-budget-fixed-retry",
        include_str!("../../scenarios/cluster-ratio-budget-fixed-retry.json"),
    ),
    (
        "cluster-ratio-budget-jitter",
        include_str!("../../scenarios/cluster-ratio-budget-jitter.json"),
    ),
    (
        "cluster-call-chain",
        include_str!("../../scenarios/cluster-call-chain.json"),
    ),
    (
        "cluster-metastable",
        include_str!("../../scenarios/cluster-metastable.json"),
    ),
    (
        "cluster-metastable-budget",
        include_str!("../../scenarios/cluster-metastable-budget.json"),
    ),
];

/// Titles and descriptions of the cluster presets, read once from their own files so
/// the text lives in one place (the scenario's `name` and `description` fields).
static CLUSTER_TEXT: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    CLUSTER_FILES
        .iter()
        .map(|(id, json)| match parse(json) {
            Ok(AnyScenario::Cluster(s)) => (s.name, s.description),
            _ => (id.to_string(), String::new()),
        })
        .collect()
});

/// Every bundled scenario, in preset order: the classic ones, then the cluster ones.
pub fn bundled() -> Vec<Bundled> {
    let mut all = classic_bundled();
    for ((id, json), (title, description)) in CLUSTER_FILES.iter().zip(CLUSTER_TEXT.iter()) {
        all.push(Bundled {
            id,
            title,
            description,
            model: "cluster",
            json,
        });
    }
    all
}

fn classic_bundled() -> Vec<Bundled> {
    vec![
        Bundled {
            id: "article",
            title: "Article: six strategies",
            description: "The source article's outage script: 200 clients, 60 s, capacity 240/s, every attempt fails in seconds 20–26, seed 4242. Six strategies from immediate retries (S1) to budget plus breaker (S6). Reproduces section 2 of the article to the digit.",
            model: "classic",
            json: include_str!("../../scenarios/article.json"),
        },
        Bundled {
            id: "breaker-groups",
            title: "Breaker: groups A–G",
            description: "The article's seven single-variable breaker groups (section 5): one shared consecutive-failure breaker, changing one of budget, deadline and threshold at a time. Only when a budget and a short deadline turn failures into a consecutive run does the breaker trip; a threshold of 100 trips twice and rejects 801 requests that could have been served.",
            model: "classic",
            json: include_str!("../../scenarios/breaker-groups.json"),
        },
        Bundled {
            id: "budget-100",
            title: "Budget forced to 100",
            description: "The article's zero check: every strategy's retry budget switched off (budget_pct 100). S4 then equals S3 in every figure, which shows that the budget, not the jitter, is what brought amplification down; S5 keeps only its 3 s deadline.",
            model: "classic",
            json: include_str!("../../scenarios/budget-100.json"),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_model_means_classic() {
        let s = parse(include_str!("../../scenarios/article.json")).unwrap();
        assert_eq!(s, AnyScenario::Classic(classic::Scenario::article()));
        let tagged = s.to_value();
        assert_eq!(tagged["model"], "classic");
        assert_eq!(from_value(tagged).unwrap(), s);
    }

    #[test]
    fn bad_models_and_documents_are_named() {
        assert_eq!(parse(r#"{"model":"quantum"}"#).unwrap_err().field, "model");
        assert_eq!(parse("[1,2]").unwrap_err().field, "");
        assert!(parse(r#"{"model":"classic","clients":1}"#).is_err());
        let mut v = serde_json::to_value(classic::Scenario::article()).unwrap();
        v["colour"] = Value::from("red");
        assert!(from_value(v)
            .unwrap_err()
            .to_string()
            .contains("unknown field `colour`"));
    }

    #[test]
    fn every_bundled_scenario_parses_as_its_model() {
        for b in bundled() {
            let s = parse(b.json).unwrap_or_else(|e| panic!("{}: {e}", b.id));
            assert_eq!(s.model(), b.model, "{}", b.id);
        }
    }
}
