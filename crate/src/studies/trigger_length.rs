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
        "本模型中：客户端是一个直通层，超时 200 ms，max_attempts 4，无退避，retry_on 只有 timeout；服务器是一个实例、并发 4、处理时间恒为 25 ms，队列足够大（100000）且不取消已超时的尝试，与来源的预留相同；触发是服务器上的 latency_admitted 故障（added_ms 75，从 10000 ms 起，时长即触发时长）：在窗口内被接受的工作慢 75 ms，不论何时开始处理。负载是每秒 50 个的 constant 到达，jitter_ms 为 1：恒定的到达和恒定的服务下每个种子都是同一次运行，来源的噪声来自它模拟的网络（默认配置下每次写 0.1–0.6 ms）和任务调度，模型没有这种噪声，用每个到达在其时隙 ±1 ms 内的均匀抖动代替；在 0.1 到 10 ms 之间，这个值几乎不改变结果（本研究的种子上，650 ms 时 7 到 8 个种子饱和，700 ms 时 54 到 55 个）。运行 40000 ms。一个种子“最终饱和”指结束时服务器队列中的尝试超过 32 个，即此时到达的请求要等得比超时还久（32 × 25 ms ÷ 4 个工作者 = 200 ms）；模型的种子只有两种结局（风暴的种子结束时排着约 1200 个，恢复的最多 2 个），所以这个界限取在两者之间的任何地方计数都一样，与 metastable 结论也一致。不同之处：来源的客户端超时覆盖一次网络往返（模拟的 TCP 和 h2），本研究的客户端没有网络（模型的 network 可以给一跳加上两个方向的延迟，但它的分布写不出来源每次写 0.1–0.6 ms 的均匀分布），请求在同一微秒到达服务器、答复也在同一微秒返回。临界点是刀刃：650 ms 的触发让第 33 个到达（10.640 秒）也被放慢，队列等待恰好逼近 200 ms。所以模型在 650 ms 时只有 64 个中 7 个种子饱和，来源约一半（31 个）；700 ms 时模型 55 个，来源全部 64 个：模型的转变比来源晚一点。模型的超时只要短 1 ms（约一次网络往返），650 ms 时就是 64 个中约 30 个，700 ms 时 64 个（600 ms 仍为 0），与来源一致（这只是解释，不是设置；crate/src/studies/trigger_length.rs 的单元测试断言它）。其余三个数字一致。",
        "In this model: the client is a pass-through tier with a 200 ms timeout, max_attempts 4, no backoff, retry_on timeout only; the server is one instance with concurrency 4, a constant 25 ms service and a queue large enough (100,000), which never cancels an attempt whose client timed out (the source's reservation is never given back either); the trigger is a latency_admitted fault on the server (added_ms 75, from 10,000 ms, for the trigger's length): work admitted in the window is slowed by 75 ms whenever it starts. The load is constant arrivals at 50 a second with jitter_ms 1: with constant arrivals and a constant service every seed is the same run, and the source's noise comes from its simulated network (0.1–0.6 ms a write in its default configuration) and task scheduling, which the model lacks; a uniform jitter of each arrival within ±1 ms of its slot stands for it, and between 0.1 and 10 ms its value hardly changes the result (over the study's seeds, 7 to 8 saturated at 650 ms, 54 to 55 at 700 ms). The run lasts 40,000 ms. A seed \"ends saturated\" when the server's queue holds more than 32 attempts at the end, so that a request arriving then would wait longer than the timeout (32 × 25 ms ÷ 4 workers = 200 ms); the model's seeds have two outcomes only (one that storms ends with about 1,200 queued, one that recovers with 2 at most), so any bound between counts the same, and agrees with the metastable verdict. The difference: the source's client timeout spans a network round trip (its simulated TCP and h2), while the study's client has no network (the model's network can delay both legs of a hop, but its distributions cannot write the source's uniform 0.1–0.6 ms a write): a request reaches the server in the microsecond it is sent and its answer returns in the one it ends. The tipping point is a knife edge: a 650 ms trigger also slows the 33rd arrival (at 10.640 s), and the queue's wait comes within a hair of 200 ms. So at 650 ms 7 of the model's 64 seeds end saturated, about half of the source's (31); at 700 ms 55 of the model's, all 64 of the source's: the model's transition comes a little later. A model timeout shorter by just 1 ms (about one network round trip) gives about 30 of 64 at 650 ms and 64 at 700 ms (still 0 at 600 ms), as the source does (an explanation, not a setting; a unit test in crate/src/studies/trigger_length.rs asserts it). The other three figures agree.",
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

/// A seed ends saturated when more attempts than this are queued at the server at the
/// end: a request arriving then would wait longer than the timeout (4 workers, 25 ms).
const SATURATED_ABOVE: u64 = TIMEOUT_MS * 4 / 25;

/// The scenario with a trigger of `trigger_ms` and a client timeout of `timeout_ms`.
fn scenario(trigger_ms: u64, timeout_ms: u64) -> Result<AnyScenario, ValidationError> {
    scenario::from_value(json!({
        "model": "cluster",
        "name": "moonpool metastable gRPC retry storm",
        "seed": INFO.base_seed,
        "duration_ms": 40000,
        // Request n at n × 20 ms; the jitter stands for the source's network noise.
        "load": {"arrivals": "constant", "rate_per_s": 50, "jitter_ms": 1},
        "tiers": [
            {"name": "client", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0},
             "client": {"timeout_ms": timeout_ms, "max_attempts": 4,
                "backoff": {"kind": "none"}, "jitter": {"kind": "none"},
                "retry_on": ["timeout"]}},
            // 4 workers × 25 ms; a reservation is kept when its client gives up.
            {"name": "server", "instances": 1, "concurrency": 4, "queue_capacity": 100000,
             "service": {"kind": "constant", "ms": 25}}
        ],
        // 25 ms → 100 ms for the work admitted in the window.
        "faults": [{"tier": 1, "start_ms": TRIGGER_START_MS, "duration_ms": trigger_ms,
            "instances": 1, "effect": {"kind": "latency_admitted", "added_ms": 75}}]
    }))
}

/// Why the model differs at the tipping point.
const AT_THE_EDGE: (&str, &str) = (
    "来源的超时覆盖网络往返，本研究的客户端没有网络；临界点是刀刃，超时短 1 ms 时模型与来源一致（650 ms 约 30 个，700 ms 64 个）",
    "the source's timeout spans a network round trip, the study's client has no network; the tipping point is a knife edge, and with a timeout 1 ms shorter the model gives the source's shares (about 30 of 64 at 650 ms, 64 at 700 ms)",
);

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
                differs: (ms == 650 || ms == 700).then_some(AT_THE_EDGE),
            }
        })
        .collect()
}

/// Whether one seed ends saturated with a trigger of `trigger_ms` and a timeout of
/// `timeout_ms`.
fn saturated(seed: i64, trigger_ms: u64, timeout_ms: u64) -> Result<bool, ValidationError> {
    let AnyScenario::Cluster(sc) = scenario(trigger_ms, timeout_ms)? else {
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
            Ok(if saturated(seed, ms, TIMEOUT_MS)? {
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

    /// Seeds ending saturated of the study's 64, per trigger length.
    fn counts(timeout_ms: u64) -> Vec<usize> {
        let seeds = ensemble::derive_seeds(INFO.base_seed, INFO.seeds);
        SWEEP
            .iter()
            .map(|&(ms, _)| {
                seeds
                    .iter()
                    .filter(|&&s| saturated(s, ms, timeout_ms).unwrap())
                    .count()
            })
            .collect()
    }

    #[test]
    fn a_timeout_one_network_round_trip_shorter_tips_half_the_seeds_at_650_ms_as_the_note_says() {
        // The note's explanation of the one difference: the model's tipping point sits
        // a millisecond of timeout away from the source's.
        let edge = counts(TIMEOUT_MS - 1);
        assert_eq!(edge[..2], [0, 0]);
        assert!((24..=40).contains(&edge[2]), "{edge:?}");
        assert_eq!(edge[3..], [64, 64]);
        let own = counts(TIMEOUT_MS);
        assert!(own[2] < 10, "{own:?}");
    }

    #[test]
    fn the_seeds_have_two_outcomes_so_the_saturation_bound_is_not_a_setting() {
        // Every seed either drains its queue or ends with hundreds queued.
        let seeds = ensemble::derive_seeds(INFO.base_seed, 16);
        for ms in [650, 700] {
            let AnyScenario::Cluster(sc) = scenario(ms, TIMEOUT_MS).unwrap() else {
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
