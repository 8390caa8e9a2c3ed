//! One scenario format for both models. A JSON document's `model` field says which
//! model it is for (`"classic"` or `"cluster"`); a document without it is classic, so
//! the article's files and old links stay valid.

use crate::validate::{self, from_json_error, ErrorKind, ValidationError};
use crate::{classic, cluster};
use serde::{Deserialize, Serialize};
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

/// Which model a scenario is for, as its `model` field spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// The article's one-second-bucket model.
    #[default]
    Classic,
    /// The event-driven cluster model.
    Cluster,
}

impl Model {
    /// The name as written in the `model` field.
    pub fn name(self) -> &'static str {
        match self {
            Model::Classic => "classic",
            Model::Cluster => "cluster",
        }
    }
}

impl AnyScenario {
    /// Every problem of the scenario, each named by its full path (empty when valid).
    pub fn problems(&self) -> Vec<ValidationError> {
        match self {
            AnyScenario::Classic(s) => s.problems(),
            AnyScenario::Cluster(s) => s.problems(),
        }
    }

    /// The first problem, if any: what the engine refuses to run.
    pub fn validate(&self) -> Result<(), ValidationError> {
        self.problems().into_iter().next().map_or(Ok(()), Err)
    }
}

/// Reads a scenario from a JSON value without checking ranges. The `model` field picks
/// the model (absent means classic); `expect`, when given, is the only model accepted.
/// A field serde rejects is named by its full path, with its value and what is allowed.
pub fn read_unchecked(
    expect: Option<Model>,
    value: &Value,
) -> Result<AnyScenario, ValidationError> {
    let Value::Object(fields) = value else {
        return Err(ValidationError::document(
            "a scenario must be a JSON object",
        ));
    };
    let allowed = match expect {
        Some(m) => format!("{:?}", m.name()),
        None => "\"classic\" or \"cluster\"".to_string(),
    };
    let model = match fields.get("model") {
        None => expect.unwrap_or(Model::Classic),
        Some(v) => match serde_json::from_value::<Model>(v.clone()) {
            Ok(m) if expect.is_none_or(|e| e == m) => m,
            _ => return Err(ValidationError::new("model", v, allowed).of_kind(ErrorKind::Type)),
        },
    };
    let mut body = fields.clone();
    body.remove("model");
    let body = Value::Object(body);
    read_body(model, &body).map_err(|e| with_range(model, &body, e))
}

fn read_body(model: Model, body: &Value) -> Result<AnyScenario, ValidationError> {
    Ok(match model {
        Model::Classic => AnyScenario::Classic(validate::from_value(body)?),
        Model::Cluster => AnyScenario::Cluster(validate::from_value(body)?),
    })
}

/// Adds the range to a type error on a number field: the field is set to a number far
/// out of every range and the model's own checks say what they allow there.
fn with_range(model: Model, body: &Value, mut e: ValidationError) -> ValidationError {
    let sentinel = match e.allowed.as_str() {
        validate::EXPECT_UNSIGNED => Value::from(u32::MAX),
        validate::EXPECT_NUMBER => Value::from(1e300),
        _ => return e,
    };
    let mut copy = body.clone();
    let Some(slot) = copy.pointer_mut(&pointer(&e.field)) else {
        return e;
    };
    *slot = sentinel;
    if let Ok(s) = read_body(model, &copy) {
        if let Some(p) = s.problems().into_iter().find(|p| p.field == e.field) {
            e.allowed = format!("{} in {}", e.allowed, p.allowed);
        }
    }
    e
}

/// The JSON pointer of a field path: `tiers[1].client` → `/tiers/1/client`.
fn pointer(field: &str) -> String {
    let mut out = String::new();
    for part in field.split('.') {
        for (i, piece) in part.split('[').enumerate() {
            let piece = if i == 0 {
                piece
            } else {
                piece.trim_end_matches(']')
            };
            if !piece.is_empty() || i > 0 {
                out.push('/');
                out.push_str(&piece.replace('~', "~0").replace('/', "~1"));
            }
        }
    }
    out
}

/// Reads a classic scenario without checking ranges (see [`read_unchecked`]).
pub fn read_classic(value: &Value) -> Result<classic::Scenario, ValidationError> {
    match read_unchecked(Some(Model::Classic), value)? {
        AnyScenario::Classic(s) => Ok(s),
        other => Err(ValidationError::new("model", other.model(), "\"classic\"")),
    }
}

/// Reads a cluster scenario without checking ranges (see [`read_unchecked`]).
pub fn read_cluster(value: &Value) -> Result<cluster::Scenario, ValidationError> {
    match read_unchecked(Some(Model::Cluster), value)? {
        AnyScenario::Cluster(s) => Ok(s),
        other => Err(ValidationError::new("model", other.model(), "\"cluster\"")),
    }
}

/// Reads and validates a scenario from a JSON value (see [`read_unchecked`]).
pub fn read(expect: Option<Model>, value: &Value) -> Result<AnyScenario, ValidationError> {
    let s = read_unchecked(expect, value)?;
    s.validate()?;
    Ok(s)
}

/// Parses and validates a scenario of either model from a JSON value.
pub fn from_value(value: Value) -> Result<AnyScenario, ValidationError> {
    read(None, &value)
}

/// Parses and validates a scenario of either model from JSON text.
pub fn parse(text: &str) -> Result<AnyScenario, ValidationError> {
    parse_as(None, text)
}

/// Parses and validates a scenario from JSON text; `expect` as in [`read_unchecked`].
pub fn parse_as(expect: Option<Model>, text: &str) -> Result<AnyScenario, ValidationError> {
    if text.len() > MAX_JSON_BYTES {
        return Err(ValidationError::new(
            "scenario",
            format!("{} bytes", text.len()),
            format!("at most {MAX_JSON_BYTES} bytes of JSON"),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| from_json_error(&e))?;
    read(expect, &value)
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
    /// Seeds of the ensemble the preset runs (`None`: the single run). The page opens
    /// it with its seeds control at this count; the CLI's `ensemble --preset` uses it
    /// when no `--seeds` is given.
    pub seeds: Option<usize>,
}

/// The cluster presets' files, in preset order: (id, JSON text, ensemble seeds).
const CLUSTER_FILES: [(&str, &str, Option<usize>); 10] = [
    (
        "cluster-gc-stampede-naive",
        include_str!("../../scenarios/cluster-gc-stampede-naive.json"),
        None,
    ),
    (
        "cluster-gc-stampede-fixed",
        include_str!("../../scenarios/cluster-gc-stampede-fixed.json"),
        None,
    ),
    (
        "cluster-ratio-budget-fixed-retry",
        include_str!("../../scenarios/cluster-ratio-budget-fixed-retry.json"),
        None,
    ),
    (
        "cluster-ratio-budget-jitter",
        include_str!("../../scenarios/cluster-ratio-budget-jitter.json"),
        None,
    ),
    (
        "cluster-call-chain",
        include_str!("../../scenarios/cluster-call-chain.json"),
        None,
    ),
    (
        "cluster-metastable",
        include_str!("../../scenarios/cluster-metastable.json"),
        None,
    ),
    (
        "cluster-metastable-budget",
        include_str!("../../scenarios/cluster-metastable-budget.json"),
        None,
    ),
    (
        "cluster-routes-shared-budget",
        include_str!("../../scenarios/cluster-routes-shared-budget.json"),
        None,
    ),
    (
        "cluster-routes-per-route-budget",
        include_str!("../../scenarios/cluster-routes-per-route-budget.json"),
        None,
    ),
    (
        "cluster-gc-stampede-tipping",
        include_str!("../../scenarios/cluster-gc-stampede-tipping.json"),
        Some(40),
    ),
];

/// Titles and descriptions of the cluster presets, read once from their own files so
/// the text lives in one place (the scenario's `name` and `description` fields).
static CLUSTER_TEXT: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    CLUSTER_FILES
        .iter()
        .map(|(id, json, _)| match parse(json) {
            Ok(AnyScenario::Cluster(s)) => (s.name, s.description),
            _ => (id.to_string(), String::new()),
        })
        .collect()
});

/// Every bundled scenario, in preset order: the classic ones, then the cluster ones.
pub fn bundled() -> Vec<Bundled> {
    let mut all = classic_bundled();
    for ((id, json, seeds), (title, description)) in CLUSTER_FILES.iter().zip(CLUSTER_TEXT.iter()) {
        all.push(Bundled {
            id,
            title,
            description,
            model: "cluster",
            json,
            seeds: *seeds,
        });
    }
    all
}

/// The presets' titles and descriptions in Chinese, by id (the English ones are beside
/// the classic presets below and in the cluster files' `name` and `description`).
pub const PRESETS_ZH: [(&str, &str, &str); 2] = [
    (
        "article-1000-seeds",
        "原文表格，跑 1000 个种子",
        "原文的场景，改用从种子 4242 推导出的 1000 个种子来跑（第一个就是 4242 本身），原文只跑了六个。图上画的是每个策略每秒尝试数的中位数曲线，外面一圈是 p5–p95 的带；表格里每个数字写成「中位数 [p5–p95]」。要看的是：在全部 1000 个种子上，S3（全抖动）的放大倍数都比 S2（无抖动）高，高出 0.12x 到 0.21x（原文六个种子上是 0.14x 到 0.19x）；S2 不用随机数，所以它那一行完全没有波动，S3 的带宽就是抖动带来的差别。四条判定在 1000 个种子上全部 PASS。",
    ),
    (
        "cluster-gc-stampede-tipping",
        "GC 停顿踩踏：临界点",
        "朴素的 GC 停顿踩踏，把负载从 3200 QPS 提到 3400 QPS，跑 40 个种子。在这个负载下，t = 20 s 时同样 1.4 秒的停顿结果全凭运气：40 个种子里有 16 个在停顿后大约 45 到 60 秒恢复，其余 24 个被同步的重试和熔断器困在亚稳态，直到运行结束。要看的是：「40 个种子中 16 个恢复」这一行，以及恢复了的那些种子的恢复时间；recovery_time_ms 或 metastable 的分布（点一个点就能打开那个种子自己的运行，挑一个恢复了的、一个没恢复的对比）；还有 orders 层的带，停顿之后一下子变得很宽：它的中位数哪一种结局都描述不了。",
    ),
];

fn classic_bundled() -> Vec<Bundled> {
    vec![
        Bundled {
            id: "article",
            title: "Article: six strategies",
            description: "The source article's outage script: 200 clients, 60 s, capacity 240/s, every attempt fails in seconds 20–26, seed 4242. Six strategies from immediate retries (S1) to budget plus breaker (S6). Reproduces section 2 of the article to the digit.",
            model: "classic",
            json: include_str!("../../scenarios/article.json"),
            seeds: None,
        },
        Bundled {
            id: "breaker-groups",
            title: "Breaker: groups A–G",
            description: "The article's seven single-variable breaker groups (section 5): one shared consecutive-failure breaker, changing one of budget, deadline and threshold at a time. Only when a budget and a short deadline turn failures into a consecutive run does the breaker trip; a threshold of 100 trips twice and rejects 801 requests that could have been served.",
            model: "classic",
            json: include_str!("../../scenarios/breaker-groups.json"),
            seeds: None,
        },
        Bundled {
            id: "budget-100",
            title: "Budget forced to 100",
            description: "The article's zero check: every strategy's retry budget switched off (budget_pct 100). S4 then equals S3 in every figure, which shows that the budget, not the jitter, is what brought amplification down; S5 keeps only its 3 s deadline.",
            model: "classic",
            json: include_str!("../../scenarios/budget-100.json"),
            seeds: None,
        },
        Bundled {
            id: "model-gateway-cost",
            title: "Model gateway: what retries cost",
            description: "A model gateway in front of an LLM provider: long prompts (6,000 input tokens at 0.003 per 1,000) and short answers (300 output tokens at 0.015 per 1,000), so one answered call costs 0.0225, and 4 s of 503s (seconds 20–24). A 503 or a timeout is billed its input tokens (the provider had started work); an overload rejection is not. Compare the amplification column with the cost amplification column: G2 sends 1.83x the calls but pays only 1.16x, about what G1 pays with 1.20x, because G2's extra attempts are overload rejections while each of G1's immediate retries into the 503s is billed 6,000 prompt tokens again. Cost per delivered request tells the real price of an answer: G1 pays 0.0276, 23% above 0.0225, more than its request amplification suggests. G4 is G2 with 503s not billed: the difference (313 vs 270) is what the re-billed prompts cost. G3's budget keeps the cost at 1.00x.",
            model: "classic",
            json: include_str!("../../scenarios/model-gateway-cost.json"),
            seeds: None,
        },
        Bundled {
            id: "article-1000-seeds",
            title: "Article table over 1,000 seeds",
            description: "The article's scenario run over 1,000 seeds derived from its seed 4242 (the first is 4242 itself), where the article ran six. The chart draws each strategy's median attempts per second over its p5–p95 band, and the table gives each figure as median [p5–p95]. What to look at: S3 (full jitter) amplifies more than S2 (no jitter) on every one of the 1,000 seeds, by 0.12x to 0.21x (the article saw 0.14x to 0.19x on six); S2 draws no random numbers, so its row has no spread at all, and S3's band is what jitter adds. The four acceptance checks pass on 1000 of 1000 seeds.",
            model: "classic",
            json: include_str!("../../scenarios/article.json"),
            seeds: Some(1000),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ensemble_presets_run_their_seeds_and_say_so_in_both_languages() {
        let with_seeds: Vec<Bundled> = bundled()
            .into_iter()
            .filter(|b| b.seeds.is_some())
            .collect();
        assert_eq!(with_seeds.len(), 2);
        for b in with_seeds {
            let n = b.seeds.unwrap();
            assert!((1..=crate::ensemble::MAX_SEEDS).contains(&n), "{}", b.id);
            let zh = PRESETS_ZH.iter().find(|z| z.0 == b.id).expect(b.id);
            assert!(!zh.1.is_empty() && !zh.2.is_empty());
            // Both descriptions name the seed count they were checked over.
            let count = format!("{n}");
            assert!(b.description.replace(',', "").contains(&count), "{}", b.id);
            assert!(zh.2.contains(&count), "{}", b.id);
        }
    }

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
        let e = from_value(v).unwrap_err();
        assert_eq!(e.field, "colour");
        assert!(
            e.to_string()
                .starts_with("unknown field `colour`, expected one of `clients`"),
            "{e}"
        );
    }

    /// The message for `doc` with `edit` applied, and its field.
    fn error_after(doc: &str, edit: impl Fn(&mut Value)) -> (String, String) {
        let mut v: Value = serde_json::from_str(doc).unwrap();
        edit(&mut v);
        let e = from_value(v).unwrap_err();
        (e.field.clone(), e.to_string())
    }

    const ARTICLE: &str = include_str!("../../scenarios/article.json");
    const STAMPEDE: &str = include_str!("../../scenarios/cluster-gc-stampede-naive.json");

    #[test]
    fn classic_type_errors_name_the_field_value_and_range() {
        let cases: Vec<(Value, &str)> = vec![
            (
                json!("200"),
                "strategies[2].budget_pct = \"200\" is not allowed: expected a whole number ≥ 0 in 0..=100",
            ),
            (
                json!(-1),
                "strategies[2].budget_pct = -1 is not allowed: expected a whole number ≥ 0 in 0..=100",
            ),
            (
                json!(null),
                "strategies[2].budget_pct = null is not allowed: expected a whole number ≥ 0 in 0..=100",
            ),
            (
                json!(20.5),
                "strategies[2].budget_pct = 20.5 is not allowed: expected a whole number ≥ 0 in 0..=100",
            ),
        ];
        for (bad, want) in cases {
            let (field, msg) =
                error_after(ARTICLE, |v| v["strategies"][2]["budget_pct"] = bad.clone());
            assert_eq!(field, "strategies[2].budget_pct");
            assert_eq!(msg, want);
        }
        let (field, msg) = error_after(ARTICLE, |v| v["strategies"][1]["jitter"] = json!("fulll"));
        assert_eq!(field, "strategies[1].jitter");
        assert_eq!(
            msg,
            "strategies[1].jitter = \"fulll\" is not allowed: expected `none` or `full`"
        );
        let (field, msg) = error_after(ARTICLE, |v| {
            v["strategies"][0].as_object_mut().unwrap().remove("name");
        });
        assert_eq!(field, "strategies[0].name");
        assert!(msg.starts_with("strategies[0].name is missing"), "{msg}");
        let (field, msg) = error_after(ARTICLE, |v| v["outage"]["until"] = json!(3));
        assert_eq!(field, "outage.until");
        assert!(
            msg.ends_with("unknown field `outage.until`, expected `from_s` or `to_s`"),
            "{msg}"
        );
        let (field, msg) = error_after(ARTICLE, |v| v["seed"] = json!(1.5));
        assert_eq!(field, "seed");
        assert_eq!(
            msg,
            "seed = 1.5 is not allowed: expected an exact integer (give seeds above 2^53 as a decimal string)"
        );
    }

    #[test]
    fn cluster_type_errors_name_the_field_even_inside_tagged_kinds() {
        let cases = [
            (
                json!({"instances": -3}),
                "tiers[1].instances = -3 is not allowed: expected a whole number ≥ 0 in 1..=10000",
            ),
            (
                json!({"service": {"kind": "constant", "ms": "1"}}),
                "tiers[1].service.ms = \"1\" is not allowed: expected a number in 0..=3600000",
            ),
        ];
        for (tier, want) in cases {
            let (_, msg) = error_after(STAMPEDE, |v| {
                for (k, x) in tier.as_object().unwrap() {
                    v["tiers"][1][k] = x.clone();
                }
            });
            assert_eq!(msg, want);
        }
        let (field, msg) = error_after(STAMPEDE, |v| {
            v["tiers"][0]["client"]["budget"] =
                json!({"kind": "token_bucket", "percent": "lots", "max_tokens": 3})
        });
        assert_eq!(field, "tiers[0].client.budget.percent");
        assert!(msg.ends_with("= \"lots\" is not allowed: expected a number in 0..=100"));
        // Of two fractional numbers, the one in the integer field is named.
        let (field, msg) = error_after(STAMPEDE, |v| {
            v["tiers"][0]["client"]["budget"] =
                json!({"kind": "token_bucket", "percent": 20.5, "max_tokens": 2.5})
        });
        assert_eq!(field, "tiers[0].client.budget.max_tokens", "{msg}");
        assert!(msg.contains("= 2.5 is not allowed"), "{msg}");
        let (field, msg) = error_after(STAMPEDE, |v| {
            v["tiers"][0]["client"]["breaker"] = json!({"kind": "fuse"})
        });
        assert_eq!(field, "tiers[0].client.breaker.kind");
        assert!(msg.contains("`consecutive`"), "{msg}");
        let (field, msg) = error_after(STAMPEDE, |v| {
            v["tiers"][1]["service"] = json!({"kind": "constant", "ms": 1, "mean": 2})
        });
        assert_eq!(field, "tiers[1].service.mean");
        assert!(
            msg.ends_with("unknown field `tiers[1].service.mean`, expected `ms`"),
            "{msg}"
        );
        let (field, _) = error_after(STAMPEDE, |v| {
            v["faults"][0]["effect"] = json!({"kind": "brownout"})
        });
        assert_eq!(field, "faults[0].effect.factor");
        let (field, msg) = error_after(STAMPEDE, |v| v["load"]["arrivals"] = json!("poison"));
        assert_eq!(field, "load.arrivals");
        assert!(msg.contains("`poisson` or `constant`"), "{msg}");
        let (field, msg) = error_after(STAMPEDE, |v| v["tiers"][1]["queue_capacity"] = json!(0.5));
        assert_eq!(field, "tiers[1].queue_capacity");
        assert!(msg.contains("= 0.5 is not allowed"), "{msg}");
        let (field, msg) = error_after(STAMPEDE, |v| v["model"] = json!("quantum"));
        assert_eq!(field, "model");
        assert_eq!(
            msg,
            "model = \"quantum\" is not allowed: expected \"classic\" or \"cluster\""
        );
    }

    #[test]
    fn every_bundled_scenario_parses_as_its_model() {
        for b in bundled() {
            let s = parse(b.json).unwrap_or_else(|e| panic!("{}: {e}", b.id));
            assert_eq!(s.model(), b.model, "{}", b.id);
        }
    }
}
