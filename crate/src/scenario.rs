//! One scenario format for both models. A JSON document's `model` field says which
//! model it is for (`"classic"` or `"cluster"`); a document without it is classic, so
//! the article's files and old links stay valid.

use crate::validate::{self, ErrorKind, ValidationError};
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
            AnyScenario::Classic(s) => crate::validate::json_value(s),
            AnyScenario::Cluster(s) => crate::validate::json_value(s),
        };
        let mut out = Map::new();
        out.insert("model".into(), Value::String(self.model().into()));
        if let Value::Object(fields) = body {
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
        Some(v) => match validate::read_value::<Model>(v) {
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

// Reading lives here, not in `classic`, so the models never import the module that
// dispatches between them.
impl classic::Scenario {
    /// Parses a classic scenario from JSON text (unknown fields are errors) and validates it.
    pub fn from_json(text: &str) -> Result<classic::Scenario, ValidationError> {
        let value = validate::parse_json(text)?;
        let s = read_classic(&value)?;
        s.validate()?;
        Ok(s)
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
    let value = validate::parse_json(text)?;
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
    /// The title in Chinese (from [`PRESETS_ZH`]).
    pub title_zh: &'static str,
    /// The description in Chinese (from [`PRESETS_ZH`]).
    pub description_zh: &'static str,
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
        crate::bundled_json!("cluster-gc-stampede-naive.json"),
        None,
    ),
    (
        "cluster-gc-stampede-fixed",
        crate::bundled_json!("cluster-gc-stampede-fixed.json"),
        None,
    ),
    (
        "cluster-ratio-budget-fixed-retry",
        crate::bundled_json!("cluster-ratio-budget-fixed-retry.json"),
        None,
    ),
    (
        "cluster-ratio-budget-jitter",
        crate::bundled_json!("cluster-ratio-budget-jitter.json"),
        None,
    ),
    (
        "cluster-call-chain",
        crate::bundled_json!("cluster-call-chain.json"),
        None,
    ),
    (
        "cluster-metastable",
        crate::bundled_json!("cluster-metastable.json"),
        None,
    ),
    (
        "cluster-metastable-budget",
        crate::bundled_json!("cluster-metastable-budget.json"),
        None,
    ),
    (
        "cluster-routes-shared-budget",
        crate::bundled_json!("cluster-routes-shared-budget.json"),
        None,
    ),
    (
        "cluster-routes-per-route-budget",
        crate::bundled_json!("cluster-routes-per-route-budget.json"),
        None,
    ),
    (
        "cluster-gc-stampede-tipping",
        crate::bundled_json!("cluster-gc-stampede-tipping.json"),
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

impl Bundled {
    /// The title in `lang`.
    pub fn title_in(&self, lang: crate::lang::Lang) -> &'static str {
        lang.of((self.title_zh, self.title))
    }

    /// The description in `lang`.
    pub fn description_in(&self, lang: crate::lang::Lang) -> &'static str {
        lang.of((self.description_zh, self.description))
    }
}

/// Every bundled scenario, in preset order: the classic ones, then the cluster ones.
pub fn bundled() -> Vec<Bundled> {
    let mut all = classic_bundled();
    for ((id, json, seeds), (title, description)) in CLUSTER_FILES.iter().zip(CLUSTER_TEXT.iter()) {
        all.push(Bundled {
            id,
            title,
            description,
            title_zh: "",
            description_zh: "",
            model: "cluster",
            json,
            seeds: *seeds,
        });
    }
    for b in &mut all {
        // A preset without a Chinese text keeps its English one (a test requires both).
        let zh = PRESETS_ZH.iter().find(|z| z.0 == b.id);
        (b.title_zh, b.description_zh) = zh.map_or((b.title, b.description), |z| (z.1, z.2));
    }
    all
}

/// The presets' titles and descriptions in Chinese, by id: the one place they live (the
/// English ones are beside the classic presets below and in the cluster files' `name` and
/// `description`).
pub const PRESETS_ZH: [(&str, &str, &str); 15] = [
    (
        "article",
        "原文：六种策略",
        "原文的故障脚本：200 个客户端，60 秒，容量 240/s，第 20–26 秒内每次尝试都失败，种子 4242。六种策略从立即重试（S1）到预算加熔断（S6）。逐位复现原文第 2 节。",
    ),
    (
        "breaker-groups",
        "熔断：A–G 组",
        "原文第 5 节的七个单变量熔断实验组：一个共享的连续失败熔断器，每次只改变预算、截止时间和阈值中的一项。只有预算和较短的截止时间把失败变成连续的一串时，熔断器才会跳闸；阈值为 100 时跳闸两次，拒绝了 801 个本可以被服务的请求。",
    ),
    (
        "budget-100",
        "预算强制为 100",
        "原文的归零检验：关掉每个策略的重试预算（budget_pct 100）。此时 S4 的每项数字都与 S3 相同，说明降低放大倍数的是预算而不是抖动；S5 只剩下 3 秒的截止时间。",
    ),
    (
        "model-gateway-cost",
        "模型网关：重试的成本",
        "LLM 服务商前面的模型网关：提示很长（6,000 个输入 token，每千个 0.003），回答很短（300 个输出 token，每千个 0.015），所以一次得到回答的调用花费 0.0225；第 20–24 秒有 4 秒的 503。503 或超时按输入 token 计费（服务商已经开始处理），过载拒绝不计费。对照放大列和成本放大列：G2 发出 1.83 倍的调用，却只付 1.16 倍的钱，和 G1 的 1.20 倍差不多，因为 G2 多出的尝试都是过载拒绝，而 G1 每次立即重试撞上 503，都要再付一次 6,000 个提示 token。每个交付请求的成本才是一个回答的真实价格：G1 付 0.0276，比 0.0225 高 23%，比它的请求放大倍数看上去更贵。G4 是不对 503 计费的 G2：两者之差（313 对 270）就是重复计费的提示的代价。G3 的预算把成本保持在 1.00 倍。",
    ),
    (
        "cluster-gc-stampede-naive",
        "GC 停顿踩踏（朴素）",
        "种子 002：50 个网关实例以 3200 QPS 调用 8 个 pod 的订单服务（P99 约 45 ms）。t = 20 s 时，一次 1.4 秒的全停顿 GC 同时打在每个 pod 上。每个网关的超时为 500 ms，重试 3 次，固定退避 200/400/800 ms、没有抖动，连自己的熔断器拒绝的调用也重试，并且各自带一个 Resilience4j 熔断器（10 秒内失败率 50%，打开 10 秒，半开时放行 10 个调用）。停顿结束时，排队的工作已经过期，所有网关的超时和重试在同一毫秒内触发，pod 收到数倍于稳态的负载；积压让它们变慢，熔断器一起跳闸又一起重新打开，集群再也回不到稳态。",
    ),
    (
        "cluster-gc-stampede-fixed",
        "GC 停顿踩踏（修复后）",
        "与朴素踩踏相同的集群和相同的 1.4 秒 GC 停顿，加上种子 002 的四项修复：带完全抖动的指数退避（基数 200 ms，上限 5 秒）；每个网关一个令牌桶重试预算，占请求的 20%；每个熔断器半开时只放一个探测，打开时长加 0–500 ms 抖动，熔断器打开或半开时不重试；以及截止时间传递（端到端截止 800 ms，pod 会丢弃没人再等的排队工作）。pod 看到的是一道斜坡而不是一堵墙，停顿结束几秒后集群就回到稳态。",
    ),
    (
        "cluster-ratio-budget-fixed-retry",
        "比例预算：固定 100 ms 重试",
        "种子 003 的反模式：一个订单查询 API（20 个实例）用教科书式的循环「最多 3 次：调用，任何异常就睡 100 ms」调用数据库代理（4 个实例）。t = 20 s 时代理降级到 40% 的容量，持续 8 秒。每次失败，包括永远不会成功的 500，都恰好在 100 ms 后重试，于是重试在新流量之上形成同步的波峰，代理的队列塞满了调用方早已放弃的请求，降级结束很久之后 API 仍在失败。",
    ),
    (
        "cluster-ratio-budget-jitter",
        "比例预算：退避、完全抖动、10% 预算",
        "与固定重试场景相同的 API、代理和 8 秒降级，加上种子 003 的修复：从 100 ms 开始带完全抖动的指数退避；重试预算只允许重试占最近一分钟请求的 10% 以内（100 个请求以下不限）；只对超时和 503 重试（从不对 500 重试）；Resilience4j 熔断器打开或半开时不重试。重试不再成波到达，预算限住了额外负载，降级结束后不久 API 就回到稳态。",
    ),
    (
        "cluster-call-chain",
        "调用链：3 × 3 × 3 × 3 = 81",
        "种子 004：网关 → A → B → C → 数据库，每层最多尝试 3 次，超时 2 秒。数据库在 t = 10 s 到 t = 30 s 之间宕机。每层的每次失败都会被上一层重试，所以每个入口请求变成 3^4 = 81 次数据库尝试（测试在这条链去掉熔断器的副本上精确检验这个乘积）。服务 C 用 Resilience4j 熔断器保护自己（最近 20 次调用中 50% 失败，超过 1 秒的慢调用也算，打开 5 秒，半开时 3 个探测），经过各 5 秒的 25% 和 50% 放行阶段逐步恢复，并对数据库设了 40 个并发调用的舱壁。",
    ),
    (
        "cluster-metastable",
        "亚稳态重试风暴",
        "排队加超时加朴素重试。十个客户端以 2000 请求/秒的速率访问四台服务器，它们大约能处理 3100/s，每台都有很深的队列（2000 个请求）且没有排队超时。一次 10 秒、升到 4000 请求/秒的尖峰填满了队列；排队延迟超过客户端 1 秒的超时，于是服务器把全部容量花在没人等的回答上，每个请求都超时，每个又被重试三次：每秒 8000 次尝试对 3100/s 的容量。尖峰过去了，触发因素消失了，过载却没有：单靠重试就让队列一直满到运行结束。",
    ),
    (
        "cluster-metastable-budget",
        "亚稳态重试风暴，加重试预算",
        "亚稳态场景只改一处：每个客户端有一个 Finagle/Linkerd 风格的重试预算（重试最多只能在最近 10 秒的请求上增加 10%，另加每秒 5 次重试）。尖峰期间系统和之前一样过载，但尖峰一结束，预算已经掐住了重试，提供的负载回落到容量以下，过期的队列排空，系统回到稳态。",
    ),
    (
        "cluster-routes-shared-budget",
        "路由：两个池共享一个预算",
        "一个模型网关把 80% 的调用发往快池（20 ms，5% 的瞬时错误，重试一次即可解决），20% 发往慢池（200 ms），每条路由最多尝试 3 次，并有令牌桶重试预算（调用的 10%，20 个令牌）。慢池在 t = 20 s 到 t = 35 s 之间宕机。这里两条路由共享一个预算（route_sharing.budget）：慢池的重试是全部调用 10% 存入量的四倍，一秒内就把它花光，整个故障期间快池的重试也被拒绝：对照路由表的预算列和快路由的失败调用，与按池分配预算的预设比较，那里的快池毫发无损。这正是原文的警告：有多条路由时，预算必须按路由设置，否则一个慢模型会吃掉快模型的预算。",
    ),
    (
        "cluster-routes-per-route-budget",
        "路由：每个池一个预算",
        "一个模型网关把 80% 的调用发往快池（20 ms，5% 的瞬时错误，重试一次即可解决），20% 发往慢池（200 ms），每条路由最多尝试 3 次，并有令牌桶重试预算（调用的 10%，20 个令牌）。慢池在 t = 20 s 到 t = 35 s 之间宕机。这里每条路由有自己的预算：慢池的重试只会花光慢路由的令牌桶，快池在整个故障期间照常重试它的瞬时错误（它的预算列几乎为 0）。与共享预算的预设比较，那里同一次故障让快池失去了重试。",
    ),
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
            title_zh: "",
            description_zh: "",
            model: "classic",
            json: crate::bundled_json!("article.json"),
            seeds: None,
        },
        Bundled {
            id: "breaker-groups",
            title: "Breaker: groups A–G",
            description: "The article's seven single-variable breaker groups (section 5): one shared consecutive-failure breaker, changing one of budget, deadline and threshold at a time. Only when a budget and a short deadline turn failures into a consecutive run does the breaker trip; a threshold of 100 trips twice and rejects 801 requests that could have been served.",
            title_zh: "",
            description_zh: "",
            model: "classic",
            json: crate::bundled_json!("breaker-groups.json"),
            seeds: None,
        },
        Bundled {
            id: "budget-100",
            title: "Budget forced to 100",
            description: "The article's zero check: every strategy's retry budget switched off (budget_pct 100). S4 then equals S3 in every figure, which shows that the budget, not the jitter, is what brought amplification down; S5 keeps only its 3 s deadline.",
            title_zh: "",
            description_zh: "",
            model: "classic",
            json: crate::bundled_json!("budget-100.json"),
            seeds: None,
        },
        Bundled {
            id: "model-gateway-cost",
            title: "Model gateway: what retries cost",
            description: "A model gateway in front of an LLM provider: long prompts (6,000 input tokens at 0.003 per 1,000) and short answers (300 output tokens at 0.015 per 1,000), so one answered call costs 0.0225, and 4 s of 503s (seconds 20–24). A 503 or a timeout is billed its input tokens (the provider had started work); an overload rejection is not. Compare the amplification column with the cost amplification column: G2 sends 1.83x the calls but pays only 1.16x, about what G1 pays with 1.20x, because G2's extra attempts are overload rejections while each of G1's immediate retries into the 503s is billed 6,000 prompt tokens again. Cost per delivered request tells the real price of an answer: G1 pays 0.0276, 23% above 0.0225, more than its request amplification suggests. G4 is G2 with 503s not billed: the difference (313 vs 270) is what the re-billed prompts cost. G3's budget keeps the cost at 1.00x.",
            title_zh: "",
            description_zh: "",
            model: "classic",
            json: crate::bundled_json!("model-gateway-cost.json"),
            seeds: None,
        },
        Bundled {
            id: "article-1000-seeds",
            title: "Article table over 1,000 seeds",
            description: "The article's scenario run over 1,000 seeds derived from its seed 4242 (the first is 4242 itself), where the article ran six. The chart draws each strategy's median attempts per second over its p5–p95 band, and the table gives each figure as median [p5–p95]. What to look at: S3 (full jitter) amplifies more than S2 (no jitter) on every one of the 1,000 seeds, by 0.12x to 0.21x (the article saw 0.14x to 0.19x on six); S2 draws no random numbers, so its row has no spread at all, and S3's band is what jitter adds. The four acceptance checks pass on 1000 of 1000 seeds.",
            model: "classic",
            title_zh: "",
            description_zh: "",
            json: crate::bundled_json!("article.json"),
            seeds: Some(1000),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
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
    fn every_preset_has_a_chinese_title_and_description() {
        let han = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let all = bundled();
        assert_eq!(all.len(), PRESETS_ZH.len());
        for b in &all {
            let zh = PRESETS_ZH.iter().find(|z| z.0 == b.id);
            assert!(zh.is_some(), "{} has no Chinese text", b.id);
            assert!(
                han(b.title_in(Lang::Zh)) && han(b.description_in(Lang::Zh)),
                "{}",
                b.id
            );
            assert!(
                !han(b.title_in(Lang::En)) && !han(b.description_in(Lang::En)),
                "{}",
                b.id
            );
            assert_eq!(b.title_in(Lang::En), b.title);
        }
    }

    #[test]
    fn missing_model_means_classic() {
        let s = parse(crate::bundled_json!("article.json")).unwrap();
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

    const ARTICLE: &str = crate::bundled_json!("article.json");
    const STAMPEDE: &str = crate::bundled_json!("cluster-gc-stampede-naive.json");

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
