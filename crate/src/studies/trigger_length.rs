//! Moonpool's metastable gRPC retry storm: four workers whose admitted work is never
//! cancelled, an open-loop client that times out at 200 ms and retries at once, and a
//! slowdown of the work admitted during a short window; the share of seeds that end
//! saturated, per length of that window.
//!
//! Source: Pierre Zemb's moonpool, its example `metastable_grpc_retry_storm`, as its
//! pull request (#193) describes the setup and publishes the sweep (seeds ending
//! saturated of 64, per trigger length). The example's code is not in the newest
//! snapshot of the repository that could be read (named below), so the setup is the
//! description's and the figures are the ones it publishes.

use super::{Info, Published, Source};
use crate::cluster;
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use serde_json::json;

/// The study's description.
pub(super) const INFO: Info = Info {
    id: "moonpool-trigger-length",
    title: (
        "moonpool 的亚稳态 gRPC 重试风暴：触发时长与最终饱和的种子比例",
        "Moonpool's metastable gRPC retry storm: the trigger's length and the share of seeds that end saturated",
    ),
    source: Source {
        work: "Pierre Zemb, moonpool (a deterministic simulation framework for Rust), its metastable gRPC retry storm example, pull request #193",
        url: "https://github.com/PierreZ/moonpool/pull/193",
        file: "moonpool/examples/metastable_grpc_retry_storm.rs, as pull request #193 describes it (merged 2026-08-31, after the newest commit read, which does not hold it)",
        commit: "021651cf25a7635a59eab56ea580da0deeb00c79",
    },
    setup: (
        "服务器有 4 个工作者，每个请求 25 ms（容量每秒 160 个）；接受一个 RPC 时就为它预留下一个空闲的工作者 25 ms，之后从不归还：客户端超时放弃后，这份工作照样做完（超时不释放容量）。客户端是开环的：第 n 个请求在 n × 20 ms 时发出（每秒 50 个），不管之前的请求如何；每次尝试 200 ms 超时，最多 4 次尝试，不退避。触发：10 秒起，在一段时长内被接受的工作的服务时间从 25 ms 变为 100 ms，之后恢复为 25 ms。运行约 40 秒（触发之后还有约 29 秒）。数字：对每个触发时长（500 ms、600 ms、650 ms、700 ms、2 s），64 个种子中最终饱和的比例。",
        "The server has 4 workers of 25 ms each (a capacity of 160 a second); accepting an RPC reserves the next free worker for it for 25 ms, never given back: when the client's deadline drops the call, the work is still done (timeouts free no capacity). The client is open loop: request n is sent at n × 20 ms (50 a second) whatever the earlier ones are doing; each attempt times out after 200 ms, 4 attempts at most, no backoff. The trigger: from 10 s, the work admitted during a window of some length takes 100 ms instead of 25 ms, then exactly 25 ms again. The run lasts about 40 s (about 29 s after the trigger). Figures: for each trigger length (500 ms, 600 ms, 650 ms, 700 ms, 2 s), the share of 64 seeds that end saturated.",
    ),
    reference: (
        "来源的数字是 moonpool 拉取请求 #193 的说明里发表的表格（“最终饱和的种子（共 64 个）”：500 ms 0 个，600 ms 0 个，650 ms 31 个，700 ms 64 个，2 s 64 个），以及“在发布的设置（650 ms）下种子 0..200 中 95 个风暴、105 个恢复”。来源说，种子之间只有模拟网络的抖动和任务调度不同。示例的代码在能读到的最新快照（提交 021651c，2026-07-09）之后才合并，所以它的饱和判据、网络设置和运行的确切时长无从查证：设置取自说明，数字按发表的 64 个种子计（每个种子是或否，比例的样本标准差由此而来）。本仓库不含来源的代码。",
        "The source's figures are the table published in the description of moonpool's pull request #193 (\"seeds ending saturated (of 64)\": 0 at 500 ms, 0 at 600 ms, 31 at 650 ms, 64 at 700 ms, 64 at 2 s), and \"over seeds 0..200 at the shipped setting (650 ms): 95 storm, 105 recover\". The source says only the seeded network jitter and task scheduling differ between seeds. The example's code was merged after the newest snapshot that could be read (commit 021651c, 2026-07-09), so its saturation criterion, its network settings and the run's exact length could not be checked: the setup is the description's, and each figure is the published count over 64 seeds (a yes or no per seed, whose sample standard deviation the share's follows from). No code of the source is in this repository.",
    ),
    note: (
        "本模型中：客户端是一个直通层，超时 200 ms，max_attempts 4，无退避，retry_on 只有 timeout，经过来源的默认网络：调用的两个方向（请求的一次写、答复的一次写）各取 0.1–0.6 ms 的均匀分布（moonpool 的写延迟：100 µs 加上最多 500 µs），每个方向单独抽取，所以 200 ms 的超时覆盖这次往返；服务器是一个实例、并发 4、处理时间恒为 25 ms，队列足够大（100000）且不取消已超时的尝试，与来源的预留相同；触发是服务器上的 latency_admitted 故障（added_ms 75，从 10000 ms 起，时长即触发时长）：在窗口内被接受的工作慢 75 ms，不论何时开始处理。负载是每秒 50 个的 constant 到达，jitter_ms 为 1，代表模型没有的来源的任务调度噪声。运行 40000 ms。一个种子“最终饱和”指结束时服务器队列中的尝试超过 32 个，即此时到达的请求要等得比超时还久（32 × 25 ms ÷ 4 个工作者 = 200 ms）；模型的种子只有两种结局（风暴的种子结束时排着约 1200 个，恢复的最多 2 个），所以这个界限取在两者之间的任何地方计数都一样，与 metastable 结论也一致。五个数字都一致；650 ms 时模型 64 个中 18 个饱和，低于来源的 31 个，但在两边各 64 个是或否的种子所允许的范围内。临界点是刀刃（650 ms 的触发让第 33 个到达，10.640 秒，也被放慢，队列等待恰好逼近超时），所以那里的比例取决于噪声：没有网络往返时，模型在 650 ms 是 64 个中 7 个、700 ms 是 55 个（两个数字超出容差，这是建模网络之前本研究的说明）；有了网络，代表调度的到达抖动把 650 ms 的比例从 64 个（0.1 ms）变为 18 个（1 ms）和 9 个（10 ms），而来源没有说它的调度有多大变化。crate/src/studies/trigger_length.rs 的单元测试断言这些计数。",
        "In this model: the client is a pass-through tier with a 200 ms timeout, max_attempts 4, no backoff, retry_on timeout only, over the source's default network: each leg of the call (the request's write, the answer's write) takes a uniform 0.1–0.6 ms (moonpool's write latency, 100 µs plus up to 500 µs), drawn per leg, so the 200 ms timeout spans the round trip; the server is one instance with concurrency 4, a constant 25 ms service and a queue large enough (100,000), which never cancels an attempt whose client timed out (the source's reservation is never given back either); the trigger is a latency_admitted fault on the server (added_ms 75, from 10,000 ms, for the trigger's length): work admitted in the window is slowed by 75 ms whenever it starts. The load is constant arrivals at 50 a second with jitter_ms 1, standing for the source's task scheduling noise, which the model lacks. The run lasts 40,000 ms. A seed \"ends saturated\" when the server's queue holds more than 32 attempts at the end, so that a request arriving then would wait longer than the timeout (32 × 25 ms ÷ 4 workers = 200 ms); the model's seeds have two outcomes only (one that storms ends with about 1,200 queued, one that recovers with 2 at most), so any bound between counts the same, and agrees with the metastable verdict. All five figures agree; at 650 ms 18 of the model's 64 seeds end saturated, fewer than the source's 31, within what 64 yes-or-no seeds on each side allow. The tipping point is a knife edge (a 650 ms trigger also slows the 33rd arrival, at 10.640 s, and the queue's wait comes within a hair of the timeout), so the share there follows the noise: without the network round trip the model gave 7 of 64 at 650 ms and 55 at 700 ms (two figures outside the tolerance, this study's note before the network was modelled); with it, the arrival jitter that stands for the scheduling moves the share at 650 ms from 64 of 64 (0.1 ms) to 18 (1 ms) and 9 (10 ms), and the source does not say how much its scheduling varies. A unit test in crate/src/studies/trigger_length.rs asserts these counts.",
    ),
    seeds: 64,
    base_seed: 193,
};

/// The trigger lengths the source sweeps, ms, and its seeds ending saturated of 64.
const SWEEP: [(u64, u32); 5] = [(500, 0), (600, 0), (650, 31), (700, 64), (2000, 64)];

/// The source's seeds per trigger length.
const SOURCE_SEEDS: usize = 64;

/// The trigger's start, ms.
const TRIGGER_START_MS: u64 = 10_000;

/// The client's timeout, ms.
const TIMEOUT_MS: u64 = 200;

/// The arrivals' jitter that stands for the source's task scheduling, ms.
const JITTER_MS: f64 = 1.0;

/// A seed ends saturated when more attempts than this are queued at the server at the
/// end: a request arriving then would wait longer than the timeout (4 workers, 25 ms).
const SATURATED_ABOVE: u64 = TIMEOUT_MS * 4 / 25;

/// The scenario with a trigger of `trigger_ms`, arrivals jittered by `jitter_ms`, and
/// the source's network on both legs of the call or none.
fn scenario(
    trigger_ms: u64,
    jitter_ms: f64,
    network: bool,
) -> Result<AnyScenario, ValidationError> {
    // Moonpool's default write latency: 100 µs plus a uniform draw of up to 500 µs; one
    // write carries the request, one the answer.
    let write = json!({"kind": "uniform", "min_ms": 0.1, "max_ms": 0.6});
    let mut v = json!({
        "model": "cluster",
        "name": "moonpool metastable gRPC retry storm",
        "seed": INFO.base_seed,
        "duration_ms": 40000,
        // Request n at n × 20 ms; the jitter stands for the source's scheduling noise.
        "load": {"arrivals": "constant", "rate_per_s": 50, "jitter_ms": jitter_ms},
        "tiers": [
            {"name": "client", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0},
             "client": {"timeout_ms": TIMEOUT_MS, "max_attempts": 4,
                "backoff": {"kind": "none"}, "jitter": {"kind": "none"},
                "retry_on": ["timeout"]}},
            // 4 workers × 25 ms; a reservation is kept when its client gives up.
            {"name": "server", "instances": 1, "concurrency": 4, "queue_capacity": 100000,
             "service": {"kind": "constant", "ms": 25}}
        ],
        // 25 ms → 100 ms for the work admitted in the window.
        "faults": [{"tier": 1, "start_ms": TRIGGER_START_MS, "duration_ms": trigger_ms,
            "instances": 1, "effect": {"kind": "latency_admitted", "added_ms": 75}}]
    });
    if network {
        v["tiers"][0]["client"]["network"] = json!({"request": write, "response": write});
    }
    scenario::from_value(v)
}

/// The source's figures: per trigger length, the share of seeds ending saturated, %.
pub(super) fn published() -> Vec<Published> {
    SWEEP
        .iter()
        .map(|&(ms, saturated)| {
            let yes = saturated as usize;
            let values: Vec<f64> = (0..SOURCE_SEEDS)
                .map(|k| if k < yes { 100.0 } else { 0.0 })
                .collect();
            let m = super::Mean::of(&values);
            let length: &'static (&str, &str) = match ms {
                500 => &("触发 500 ms", "trigger 500 ms"),
                600 => &("触发 600 ms", "trigger 600 ms"),
                650 => &("触发 650 ms", "trigger 650 ms"),
                700 => &("触发 700 ms", "trigger 700 ms"),
                _ => &("触发 2 s", "trigger 2 s"),
            };
            Published {
                label: vec![*length, ("最终饱和的种子", "seeds ending saturated")],
                unit: ("%", "%"),
                mean: m.mean,
                sd: m.sd,
                n: SOURCE_SEEDS,
                // A count of whole seeds, exact.
                resolution: 0.0,
                differs: None,
            }
        })
        .collect()
}

/// Whether one seed ends saturated with a trigger of `trigger_ms`, the arrivals'
/// jitter `jitter_ms`, with or without the network.
fn saturated(
    seed: i64,
    trigger_ms: u64,
    jitter_ms: f64,
    network: bool,
) -> Result<bool, ValidationError> {
    let AnyScenario::Cluster(sc) = scenario(trigger_ms, jitter_ms, network)? else {
        unreachable!("built as a cluster scenario")
    };
    let r = cluster::run(&sc, seed)?;
    Ok(r.tiers[1].queue_depth_at_end > SATURATED_ABOVE)
}

/// One seed of the model: the figures in the order of [`published`].
pub(super) fn model(seed: i64) -> Result<Vec<f64>, ValidationError> {
    SWEEP
        .iter()
        .map(|&(ms, _)| {
            Ok(if saturated(seed, ms, JITTER_MS, true)? {
                100.0
            } else {
                0.0
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ensemble;

    /// Seeds ending saturated of the study's 64, per trigger length in `lengths`.
    fn counts(lengths: &[u64], jitter_ms: f64, network: bool) -> Vec<usize> {
        let seeds = ensemble::derive_seeds(INFO.base_seed, INFO.seeds);
        lengths
            .iter()
            .map(|&ms| {
                seeds
                    .iter()
                    .filter(|&&s| saturated(s, ms, jitter_ms, network).unwrap())
                    .count()
            })
            .collect()
    }

    #[test]
    fn the_counts_at_the_tipping_point_follow_the_noise_as_the_note_says() {
        let all = SWEEP.map(|(ms, _)| ms);
        assert_eq!(counts(&all, JITTER_MS, true), [0, 0, 18, 64, 64]);
        // Without the network's round trip inside the timeout, the transition comes later.
        assert_eq!(counts(&all, JITTER_MS, false), [0, 0, 7, 55, 64]);
        // With it, the scheduling noise's stand-in moves the share at 650 ms.
        assert_eq!(counts(&[650], 0.1, true), [64]);
        assert_eq!(counts(&[650], 10.0, true), [9]);
    }

    #[test]
    fn the_seeds_have_two_outcomes_so_the_saturation_bound_is_not_a_setting() {
        // Every seed either drains its queue or ends with hundreds queued.
        let seeds = ensemble::derive_seeds(INFO.base_seed, 16);
        for ms in [650, 700] {
            let AnyScenario::Cluster(sc) = scenario(ms, JITTER_MS, true).unwrap() else {
                unreachable!()
            };
            for &s in &seeds {
                let r = cluster::run(&sc, s).unwrap();
                let q = r.tiers[1].queue_depth_at_end;
                assert!(q <= 2 || q >= 500, "{ms} ms, seed {s}: {q} queued");
                assert_eq!(q > SATURATED_ABOVE, r.summary.metastable, "seed {s}");
            }
        }
    }
}
