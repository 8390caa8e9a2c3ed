//! Brooker's congestive-collapse simulation: a server whose latency grows with its
//! concurrency, clients that time out and retry, and a five-second spike of load; with
//! and without backoff and jitter.
//!
//! Source: `simple_collapse_sim/sim.py` `run_sim_spike` (github.com/mbrooker/
//! simulator_example). Its results are charts of counts per second averaged over runs,
//! so the reference figures are his code run over 20 seeds
//! (`tests/studies/brooker_collapse.py`).

use super::{Info, Published, Source, Words};
use crate::cluster;
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use serde_json::{json, Value};

/// The study's description.
pub(super) const INFO: Info = Info {
    id: "brooker-collapse",
    title: (
        "Brooker 的拥塞崩溃模拟：负载尖峰，有无退避",
        "Brooker's congestive collapse: a load spike, with and without backoff",
    ),
    source: Source {
        work: "Marc Brooker, simple_collapse_sim (simulator_example)",
        url: "https://github.com/mbrooker/simulator_example",
        file: "simple_collapse_sim/sim.py (run_sim_spike)",
        commit: "bbfe3946f0459a69f6012737c68fc63b973471be",
    },
    setup: (
        "请求以泊松过程每秒 40 个到达，第 20–25 秒升到每秒 80 个，共运行 80 秒。服务器不限并发，每个请求的处理时间为 1 秒加 10 毫秒 × 开始时的并发数（包括它自己）。客户端每次尝试 3 秒超时（含网络），超时后重试，共 3 次尝试（Brooker 的 retries_left = 3）；服务器继续处理已超时的请求。网络每段为均值 100 ms 的指数延迟。两种客户端：立即重试；指数退避加抖动（第 n 次重试前等待 U(0, 10 s × 2ⁿ)）。数字：崩溃的种子比例（最后 20 秒每秒成功数低于基础到达率的一半），尖峰前（10–20 秒）与最后 20 秒（60–80 秒）的每秒成功数。",
        "Requests arrive as a Poisson process at 40 a second, 80 a second from 20 s to 25 s, for 80 s. The server has no concurrency limit; a request takes 1 s plus 10 ms × the concurrency when it starts (itself included). The client times each attempt out after 3 s (network included) and retries it, 3 attempts in all (Brooker's retries_left = 3); the server keeps serving attempts that timed out. Each network leg is exponential of mean 100 ms. Two clients: retry at once; exponential backoff with jitter (before retry n, wait U(0, 10 s × 2ⁿ)). Figures: the share of collapsed seeds (successes per second over the last 20 s below half the base arrival rate), and successes per second before the spike (10–20 s) and over the last 20 s (60–80 s).",
    ),
    reference: (
        "来源只以图表给出每秒计数（10 次运行的平均），所以来源的数字是在他的代码上运行 20 个种子得到的（run_sim_spike，未改动；tests/studies/brooker_collapse.py），按每个种子判断是否崩溃。",
        "The source shows counts per second only as charts (averaged over 10 runs), so the source's figures are his code run over 20 seeds (run_sim_spike, unchanged; tests/studies/brooker_collapse.py), each seed judged collapsed or not.",
    ),
    note: (
        "客户端的 network 给调用的两个方向各一段均值 100 ms 的指数延迟，都在客户端 3 秒的超时之内，与来源相同；服务器直接由客户端调用。服务时间 1010 ms × (1 + (10/1010) × (并发 − 1)) 正是 1000 ms + 10 ms × 并发。退避是 exponential（基数 20000 ms，倍数 2，上限 80000 ms）加 full 抖动。",
        "The client's network gives each leg of the call an exponential delay of mean 100 ms, both inside the client's 3 s timeout, as the source does; the client calls the server directly. The service time 1010 ms × (1 + (10/1010) × (concurrency − 1)) is exactly 1000 ms + 10 ms × concurrency. The backoff is exponential (base 20000 ms, multiplier 2, cap 80000 ms) with full jitter.",
    ),
    seeds: 20,
    base_seed: 2024,
};

/// The two clients.
const CLIENTS: [(Words, bool); 2] = [
    (("立即重试", "no backoff"), false),
    (("退避加抖动", "backoff and jitter"), true),
];

/// The client's policy.
fn client(backoff: bool) -> Value {
    // Each leg of the network exponential of mean 100 ms, inside the client's timeout.
    let leg = json!({"kind": "exponential", "mean_ms": 100});
    let mut c = json!({"timeout_ms": 3000, "max_attempts": 3,
        "backoff": {"kind": "none"}, "jitter": {"kind": "none"}, "retry_on": ["timeout"],
        "network": {"request": leg, "response": leg}});
    if backoff {
        // ClientWithBackoffAndJitter: backoff_time starts at 10 s and doubles before
        // each retry, which waits random() × it: U(0, 20 s), U(0, 40 s).
        c["backoff"] = json!({"kind": "exponential", "base_ms": 20000, "multiplier": 2,
            "cap_ms": 80000});
        c["jitter"] = json!({"kind": "full"});
    }
    c
}

/// The scenario of one client.
fn scenario(backoff: bool) -> Result<AnyScenario, ValidationError> {
    scenario::from_value(json!({
        "model": "cluster",
        "name": "Brooker congestive collapse",
        "seed": INFO.base_seed,
        "duration_ms": 80000,
        "load": {"arrivals": "poisson", "rate_per_s": 40,
            "schedule": [{"start_ms": 20000, "end_ms": 25000, "rate_per_s": 80}]},
        "tiers": [
            {"name": "clients", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0}, "client": client(backoff)},
            {"name": "server", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 1010},
             "slowdown_per_in_flight": 10.0 / 1010.0}
        ]
    }))
}

/// Successes per second over the last 20 s below this (half the base rate of 40/s) is a
/// collapse.
const COLLAPSED_BELOW: f64 = 20.0;

/// Brooker's code over 20 seeds (`tests/studies/brooker_collapse.py`): per client, the
/// collapsed share (%), successes/s in 10–20 s and in 60–80 s: (mean, sd) each.
const REFERENCE: [[(f64, f64); 3]; 2] = [
    [(75.0, 44.426), (40.155, 1.357), (9.805, 17.434)],
    [(0.0, 0.0), (40.155, 1.357), (39.627, 1.407)],
];

/// The source's figures: per client, collapsed share, before, late.
pub(super) fn published() -> Vec<Published> {
    let mut out = Vec::new();
    for (k, (who, _)) in CLIENTS.iter().enumerate() {
        let what: [(Words, Words); 3] = [
            (("崩溃的种子", "collapsed seeds"), ("%", "%")),
            (
                (
                    "尖峰前每秒成功数（10–20 秒）",
                    "successes/s before the spike (10–20 s)",
                ),
                ("/s", "/s"),
            ),
            (
                (
                    "最后 20 秒每秒成功数（60–80 秒）",
                    "successes/s over the last 20 s (60–80 s)",
                ),
                ("/s", "/s"),
            ),
        ];
        for (f, (label, unit)) in what.into_iter().enumerate() {
            let (mean, sd) = REFERENCE[k][f];
            out.push(Published {
                label: vec![*who, label],
                unit,
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
    for (_, backoff) in CLIENTS {
        let AnyScenario::Cluster(sc) = scenario(backoff)? else {
            unreachable!("built as a cluster scenario")
        };
        let r = cluster::run(&sc, seed)?;
        let per_s = |from: usize, to: usize| {
            let n = (to - from) as f64;
            r.buckets[from..to]
                .iter()
                .map(|b| b.tiers[0].successes as f64)
                .sum::<f64>()
                / n
        };
        let late = per_s(60, 80);
        out.push(if late < COLLAPSED_BELOW { 100.0 } else { 0.0 });
        out.push(per_s(10, 20));
        out.push(late);
    }
    Ok(out)
}
