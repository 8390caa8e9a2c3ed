//! Yandex's "Good Retry, Bad Retry": a server fails everything for half a second, and
//! the load its clients' retries put on it, per retry strategy (plain retries,
//! exponential backoff, with jitter, a retry budget, a retry circuit breaker).
//!
//! Source: Denis Isaev, "Good Retry, Bad Retry: An Incident Story" (Yandex, 2024;
//! medium.com/yandex/good-retry-bad-retry-an-incident-story-648072d3cee6), its SimPy
//! simulation (github.com/jirfag/simulations, `simulation_main.py` `build_input`, the
//! setup of its `simple_retry_*` runs). The article shows its results only as charts, so
//! the reference figures are that code run over 20 seeds
//! (`tests/studies/yandex_good_retry.py`).

use super::{Info, Published, Source, Words};
use crate::cluster;
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use serde_json::{json, Value};

/// The study's description.
pub(super) const INFO: Info = Info {
    id: "yandex-good-retry",
    title: (
        "Yandex 的《好的重试，坏的重试》：故障期间每种重试策略带来的负载倍数",
        "Yandex's \"Good Retry, Bad Retry\": the load multiple per retry strategy during an outage",
    ),
    source: Source {
        work: "Denis Isaev, \"Good Retry, Bad Retry: An Incident Story\" (Yandex, 2024), its SimPy simulation",
        url: "https://github.com/jirfag/simulations",
        file: "simulation_main.py (build_input, all_retry_strategies), client.py, server.py, retry_strategies.py",
        commit: "b552373b2184b26e2afe6c27493dd8565251f27e",
    },
    setup: (
        "请求以泊松过程每秒 1000 个到达，共 1.5 秒（源代码：1500 个客户端，每个一个调用）。服务器有 41 个 CPU（4 × 1000/s × 平均处理时间，取整），请求排队（FIFO，不限长度），处理时间为对数正态 10 ms × e^N(0, 0.25²)（中位数 10 ms，平均 10.3 ms），平时以 0.5% 的概率失败，0.5 秒到 1.0 秒之间全部失败（仍占用处理时间）。网络往返为均值 5 ms 的指数分布，全部在处理之前。客户端每次尝试 100 ms 超时（含网络），超时或失败都重试；服务器继续处理已超时的请求。策略：不重试；重试 3 次（立即）；重试 3 次加指数退避（第 n 次重试前等 min(100 ms × 2ⁿ⁻¹, 1 s)）；同上加 full 抖动；重试预算 10% 加重试 2 次（所有客户端共用一个桶：开始时 30 个令牌，首次尝试成功存 0.1 个，重试取 1 个）；重试熔断器 10% 加重试 2 次（所有客户端共用：最近 200 ms 内结束的尝试中失败占 10% 或以上时不重试）。数字：服务器负载（每秒处理完的尝试数 / 目标速率，百分比，即源代码的 “Server RPS Amplification”）在故障期间（0.5–1.0 秒）与故障后半秒（1.0–1.5 秒）的平均。",
        "Requests arrive as a Poisson process at 1000 a second for 1.5 s (the source: 1500 clients of one call each). The server has 41 CPUs (4 × 1000/s × the mean handling time, rounded down) and an unbounded FIFO queue; handling takes 10 ms × e^N(0, 0.25²) (lognormal, median 10 ms, mean 10.3 ms), fails with probability 0.5% normally and always from 0.5 s to 1.0 s (still taking its time). The network round trip is exponential of mean 5 ms, all of it before the handling. The client times each attempt out after 100 ms (network included) and retries a timeout or a failure; the server keeps handling attempts that timed out. Strategies: no retries; 3 retries at once; 3 retries with exponential backoff (before retry n, wait min(100 ms × 2ⁿ⁻¹, 1 s)); the same with full jitter; a 10% retry budget over 2 retries (one bucket for all clients: 30 tokens at the start, 0.1 added by a first attempt's success, 1 taken by a retry); a 10% retry circuit breaker over 2 retries (one for all clients: no retry while 10% or more of the attempts that ended in the last 200 ms failed). Figures: the server's load (attempts it finished per second over the target rate, in percent: the source's \"Server RPS Amplification\") averaged over the outage (0.5–1.0 s) and over the half second after it (1.0–1.5 s).",
    ),
    reference: (
        "文章只以图表给出结果，所以来源的数字是在 Isaev 的代码上运行 20 个种子得到的（build_input 的默认设置，即 simple_retry_* 各次模拟的设置，目标速率 1000/s，选出六种策略；代码未改动；tests/studies/yandex_good_retry.py）。脚本只做了源代码在各自进程中运行时本来就有的事：每次运行用新的 simpy 环境，并在每次运行前重新填入所有服务器共用的故障列表。",
        "The article shows its results only as charts, so the source's figures are Isaev's code run over 20 seeds (build_input's default setup, the one its simple_retry_* simulations use, at a target of 1000/s, six of its strategies; the code unchanged; tests/studies/yandex_good_retry.py). The script only does what the source gets from running each setup in a process of its own: a fresh simpy environment per run, and the outage list every server shares refilled before each run.",
    ),
    note: (
        "本模型中：客户端是一个直通层，网络是其后一个直通层（均值 5 ms 的指数服务时间，不重试，不超时），服务器是一个实例、并发 41、队列 1,000,000；对数正态由中位数 10 ms 与 p99 10 ms × e^(0.25 × 2.3263) 给出（σ 相同）。故障是 0.5–1.0 秒、比例 100% 的 error_rate 故障。三处不同：源代码在处理结束时判断失败，凡在 1.0 秒前开始处理的请求都失败，模型只让在故障窗口内结束处理的请求失败（故障结束后约 10 ms 内结束的请求在模型中成功）；源代码的重试预算只在首次尝试成功时存入，模型的 success_bucket 在每次成功（包括重试的成功）时存入；源代码的重试熔断器按最近 200 ms 结束的尝试计算失败比例（≥ 10% 即停，窗口为空也停），模型的 retry_only 按调用（首次尝试）计失败次数 / 调用次数（> 10% 才停，200 ms 窗口分 10 片）。在全部失败的故障中，两种预算与两种熔断器都在故障开始后几毫秒内停止重试。",
        "In this model: the clients are a pass-through tier, the network a pass-through tier after it (exponential service of mean 5 ms, no retries, no timeout that matters), the server one instance with concurrency 41 and a queue of 1,000,000; the lognormal is given by its median 10 ms and p99 10 ms × e^(0.25 × 2.3263) (the same σ). The outage is an error_rate fault of rate 1 from 0.5 s to 1.0 s. Three differences: the source decides a failure when the handling ends and fails every request that started before 1.0 s, the model fails those whose handling ends inside the fault's window (a request ending in the 10 ms or so after the outage succeeds in the model); the source's retry budget deposits only when a first attempt succeeds, the model's success_bucket on every success (a retry's too); the source's retry circuit breaker judges the share of failed attempts among those that ended in the last 200 ms (stops at 10% or more, and when the window is empty), the model's retry_only counts failures against calls (first attempts) and stops above 10%, its 200 ms window in 10 slices. In an outage that fails everything, both budgets and both breakers stop the retries within milliseconds of its start.",
    ),
    seeds: 20,
    base_seed: 2023,
};

/// The strategies, as `all_retry_strategies` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    NoRetries,
    Retry3x,
    Backoff,
    BackoffJitter,
    Budget,
    Breaker,
}

const STRATEGIES: [Strategy; 6] = [
    Strategy::NoRetries,
    Strategy::Retry3x,
    Strategy::Backoff,
    Strategy::BackoffJitter,
    Strategy::Budget,
    Strategy::Breaker,
];

impl Strategy {
    fn words(self) -> Words {
        match self {
            Strategy::NoRetries => ("不重试", "no retries"),
            Strategy::Retry3x => ("重试 3 次", "3 retries"),
            Strategy::Backoff => ("重试 3 次加指数退避", "3 retries, exponential backoff"),
            Strategy::BackoffJitter => (
                "重试 3 次加指数退避与抖动",
                "3 retries, exponential backoff and jitter",
            ),
            Strategy::Budget => ("重试预算 10%，重试 2 次", "10% retry budget, 2 retries"),
            Strategy::Breaker => (
                "重试熔断器 10%，重试 2 次",
                "10% retry circuit breaker, 2 retries",
            ),
        }
    }

    /// The clients' policy.
    fn client(self) -> Value {
        let mut c = json!({"timeout_ms": 100, "max_attempts": 4,
            "backoff": {"kind": "none"}, "jitter": {"kind": "none"}});
        match self {
            Strategy::NoRetries => c["max_attempts"] = json!(1),
            Strategy::Retry3x => {}
            Strategy::Backoff | Strategy::BackoffJitter => {
                // FixedRetryCountWithExpBackoffStrategy: min(100 ms × 2^(n−1), 1 s) before
                // retry n, then U(0, that) with jitter.
                c["backoff"] = json!({"kind": "exponential", "base_ms": 100, "multiplier": 2,
                    "cap_ms": 1000});
                if self == Strategy::BackoffJitter {
                    c["jitter"] = json!({"kind": "full"});
                }
            }
            Strategy::Budget => {
                // RetryBudgetStrategy(0.1): 3000 of 100 per retry to start (30 retries), 10
                // per success: a tenth of a token per success, 30 tokens, one for all.
                c["max_attempts"] = json!(3);
                c["budget"] = json!({"kind": "success_bucket", "percent": 10,
                    "max_tokens": 30, "scope": "shared"});
            }
            Strategy::Breaker => {
                c["max_attempts"] = json!(3);
                c["breaker"] = json!({"kind": "retry_only", "failure_percent": 10,
                    "window_ms": 200, "scope": "shared"});
            }
        }
        c
    }
}

/// The scenario of one strategy.
fn scenario(strategy: Strategy) -> Result<AnyScenario, ValidationError> {
    // SIMPLE_HANDLER: 10 ms × lognormal(0, 0.25), given to the model by its p99.
    let p99_ms = 10.0 * (0.25 * cluster::math::Z99).exp();
    scenario::from_value(json!({
        "model": "cluster",
        "name": "Yandex Good Retry, Bad Retry",
        "seed": INFO.base_seed,
        "duration_ms": 1500,
        "bucket_ms": 500,
        "load": {"arrivals": "poisson", "rate_per_s": 1000},
        "tiers": [
            {"name": "clients", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0}, "client": strategy.client()},
            {"name": "network", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "exponential", "mean_ms": 5},
             "client": {"timeout_ms": 3600000, "max_attempts": 1}},
            {"name": "server", "instances": 1, "concurrency": 41, "queue_capacity": 1000000,
             "service": {"kind": "lognormal", "p50_ms": 10, "p99_ms": p99_ms},
             "error_rate": 0.005}
        ],
        "faults": [
            {"tier": 2, "start_ms": 500, "duration_ms": 500,
             "effect": {"kind": "error_rate", "rate": 1}}
        ]
    }))
}

/// Isaev's code over 20 seeds (`tests/studies/yandex_good_retry.py`): per strategy, the
/// load (%) over 0.5–1.0 s and over 1.0–1.5 s, (mean, sd) each.
const REFERENCE: [[(f64, f64); 2]; 6] = [
    [(99.340, 4.620), (98.360, 4.483)],
    [(368.110, 9.817), (113.260, 5.125)],
    [(211.390, 11.558), (198.980, 4.695)],
    [(279.190, 11.741), (175.290, 4.000)],
    [(104.670, 3.990), (99.730, 3.031)],
    [(102.420, 4.501), (99.510, 2.329)],
];

const WINDOWS: [Words; 2] = [
    (
        "故障期间（0.5–1.0 秒）服务器负载",
        "server load during the outage (0.5–1.0 s)",
    ),
    (
        "故障后（1.0–1.5 秒）服务器负载",
        "server load after it (1.0–1.5 s)",
    ),
];

/// The source's figures: per strategy, the load in each window.
pub(super) fn published() -> Vec<Published> {
    let mut out = Vec::new();
    for (k, s) in STRATEGIES.iter().enumerate() {
        for (w, window) in WINDOWS.iter().enumerate() {
            let (mean, sd) = REFERENCE[k][w];
            out.push(Published {
                label: vec![s.words(), *window],
                unit: ("%", "%"),
                mean,
                sd,
                n: 20,
                resolution: 0.0005,
                differs: None,
            });
        }
    }
    out
}

/// One seed of the model: the figures in the order of [`published`].
pub(super) fn model(seed: i64) -> Result<Vec<f64>, ValidationError> {
    let mut out = Vec::new();
    for s in STRATEGIES {
        let AnyScenario::Cluster(sc) = scenario(s)? else {
            unreachable!("built as a cluster scenario")
        };
        let r = cluster::run(&sc, seed)?;
        // The source counts the server's finished attempts (ServerResult at the end of
        // the handling), whatever their outcome: services ended, per 500 ms bucket.
        for b in [1, 2] {
            out.push(100.0 * r.buckets[b].tiers[2].services_ended as f64 / 500.0);
        }
    }
    Ok(out)
}
