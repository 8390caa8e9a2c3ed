//! Metafor's single server under timeouts and retries: a map of arrival rates × retries
//! (one thread, exponential service at 10/s, a queue of 100, a 3 s timeout). The model's
//! retries tip some seeds at 80% load and all at 90% and 95% into a storm that keeps the
//! queue full; the source's simulator, whose retries only duplicate requests that found
//! the server idle, never storms.
//!
//! Source: the discrete-event simulator of Metafor, "Analyzing Metastability in Server
//! Systems" (github.com/mpi-sws-rse/metafor, `metafor/simulator/`), at the last commit
//! whose `make_sim_exp` still reads its timeout and retry arguments. Metafor publishes CTMC
//! figures and plots, no table of simulated ones, so the reference figures are its
//! simulator run unchanged over 20 seeds per cell (`tests/studies/metafor_retry_map.py`).

use super::{Info, Published, Source, Words};
use crate::cluster;
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use serde_json::json;

/// The study's description.
pub(super) const INFO: Info = Info {
    id: "metafor-retry-map",
    title: (
        "Metafor 的单服务器：到达率 × 重试次数",
        "Metafor's single server: arrival rate × retries",
    ),
    source: Source {
        work: "Metafor, \"Analyzing Metastability in Server Systems\" (MPI-SWS), its discrete-event simulator",
        url: "https://github.com/mpi-sws-rse/metafor",
        file: "metafor/simulator/client.py (OpenLoopClientWithTimeout), server.py, simulate.py (make_sim_exp, Simulator)",
        commit: "7f474de901cac3f3cebfba923776375fd3d4f9fd",
    },
    setup: (
        "Metafor README 的单服务器示例：一台单线程服务器，处理时间为均值 0.1 秒的指数分布（μ = 10/s），先进先出，最多 100 个等待；一个开环客户端以泊松过程每秒 λ 个发出请求，每次尝试 3 秒超时，超时后立即重试，无退避；没有故障。地图：λ = 8、9、9.5（负载 80%、90%、95%）× 重试 0 次、4 次（README 的例子是 λ = 9.5、重试 4 次），每格运行 1000 秒，从空队列开始。数字（每格）：系统中的请求数（来源：服务器在每次完成时记录的队列长度的平均；模型：服务器持有的请求数的时间平均），延迟（来源：每次完成时记录的延迟的平均；模型：每个被服务的尝试从到达服务器到完成的平均时间），重试占服务器收到的尝试的百分比，以及结束时等待超过 50 个（半个队列）的运行的比例。",
        "The single-server example of Metafor's README: one server of one thread, exponential service of mean 0.1 s (μ = 10/s), FIFO with at most 100 waiting; an open-loop client sending requests as a Poisson process at λ a second, each attempt timed out after 3 s and retried at once, no backoff; no fault. The map: λ = 8, 9, 9.5 (80%, 90%, 95% load) × 0 and 4 retries (the README's example is λ = 9.5 with 4 retries), each cell 1000 s from an empty queue. Figures per cell: requests in the system (the source: the mean of the queue length its server logs at each completion; the model: the time average of the requests the server holds), latency (the source: the mean of the latency it logs at each completion; the model: the mean time from an attempt's arrival at the server to its completion, over the attempts served), retries as a percentage of the attempts the server received, and the share of runs that end with more than 50 waiting (over half the queue).",
    ),
    reference: (
        "Metafor 只发布 CTMC 的数字和图，没有模拟器的数字表，所以来源的数字是它的模拟器在提交 7f474de 上不加改动地运行的结果，每格 20 个种子（Python 的 random 种子 1–20，它的代码只从这个生成器抽样）：tests/studies/metafor_retry_map.py 用它自己的 make_sim_exp 构建设置，只把模块里的 dag（这个提交里是四台服务器的菱形）设为一台没有下游的服务器，即 README 的例子；关掉它逐事件的 INFO 日志和打印，别的都不动（Python 3.11，numpy 1.26.4，pandas 2.2.3）。选这个提交，是因为从下一个提交 4ba06de 起，make_sim_exp 不再读取它的 timeout_t 和 max_retries 参数（改由函数里的一张表按服务器设定）。每个数字是 20 次运行的平均与样本标准差，保留三位小数。",
        "Metafor publishes CTMC figures and plots, no table of simulated figures, so the source's figures are its simulator at commit 7f474de run unchanged, 20 seeds per cell (the seed of Python's random, 1–20, the one generator its code draws from): tests/studies/metafor_retry_map.py builds the setup with its own make_sim_exp, the module's dag (at this commit a diamond of four servers) set to one server with no downstream, the README's example; its per-event INFO logging and its prints are switched off, nothing else is touched (Python 3.11, numpy 1.26.4, pandas 2.2.3). This commit, because from the next one, 4ba06de, make_sim_exp no longer reads its timeout_t and max_retries arguments (a table in it sets them per server). Each figure is the mean and sample standard deviation of the 20 runs, to three decimals.",
    ),
    note: (
        "本模型中：客户端是一个直通层（超时 3000 ms，max_attempts 为重试次数加 1，无退避，retry_on 只有 timeout：来源里被丢弃的尝试状态为 DROPPED，它的重试就此结束）；服务器是一个实例、并发 1、队列 100、均值 100 ms 的指数服务时间；到达是速率 λ 的泊松过程；steady.warmup_ms 为 0。来源在每次完成时记录的队列长度，是这次离开留下的请求数；对这样的队列，它的平均与系统中请求数的时间平均相同（一次离开留下的正是一次到达看到的，泊松到达看到的是时间平均），模型的数字就是这个时间平均；来源里重试的延迟从请求的第一次到达算起，模型的延迟从尝试自己到达服务器算起（不重试时相同）。模型不缺这个设置需要的能力；下面说的来源的重试不是模型能重述的设置。不重试时来源是一个队列 100 的 M/M/1，每个数字都一致。重试时两者不同，因为来源的客户端在这个提交里并不像它的 README 说的那样重试：（1）它只在请求的第一次尝试立即开始服务时设超时（只有那时 server.offer 返回一个事件；排队的尝试没有超时，永远不会重试）；（2）服务器的下游是一个列表时（make_sim_exp 总是给一个列表，这里是空的），它从不把完成的尝试标为 COMPLETED（那一行在 downstream_server is None 之下），所以超时到时，早已完成的尝试照样被重试；（3）重试只有在它也立即开始服务时才有自己的超时。于是来源的每次重试都是一个到达空闲服务器、约 0.1 秒就已答复的请求的副本（按服务器记录的 request_id 与 attempt_id，λ = 8 时种子 1 的 998 次重试完成，全是第一次尝试已经完成的请求的重试），而等待的请求从不重试：来源的重试随负载上升而减少（负载 80% 时占尝试的 10.6%，95% 时 2.9%），不可能引起风暴。模型按 README 的设置，重试 3 秒后仍未答复的尝试；队列一旦有约 30 个（3 秒的工作），重试使每个请求变成最多五次尝试，服务器的到达升到每秒约 17–18 个，队列一直满着。1000 秒内，负载 80% 时模型 20 个种子中 10 个如此，90% 和 95% 时全部如此；不重试时一个也没有。读到的最新提交（5355c17）里，客户端仍只在尝试立即开始服务时设超时。",
        "In this model: the client is a pass-through tier (timeout 3000 ms, max_attempts the retries plus one, no backoff, retry_on timeouts only: the source gives a dropped attempt the status DROPPED, which ends its retries); the server is one instance with concurrency 1, a queue of 100 and an exponential service of mean 100 ms; arrivals are Poisson at λ; steady.warmup_ms is 0. The queue length the source logs at a completion is the number of requests that departure leaves behind; for these queues its mean is the time average of the requests in the system (a departure leaves behind what an arrival finds, and Poisson arrivals find the time average), and that time average is the model's figure; the source's latency of a retry counts from its request's first arrival, the model's latency from the attempt's own arrival at the server (the same without retries). No capability the setup needs is missing; the source's retries, below, are not a setup the model can restate. Without retries the source is an M/M/1 with a queue of 100, and every figure agrees. With retries the two differ, because the source's client at this commit does not retry as its README describes: (1) it sets a timeout only on a request whose first attempt starts service at once (only then does server.offer return an event; a queued attempt gets no timeout and is never retried); (2) a server whose downstream is a list (make_sim_exp always gives one, empty here) never marks a completed attempt COMPLETED (that line sits under `downstream_server is None`), so at the timeout an attempt that finished long before is retried all the same; (3) a retry gets a timeout of its own only if it too starts at once. So every retry of the source duplicates a request that arrived at an idle server and was answered in about 0.1 s (by the request_id and attempt_id its server logs, all 998 retried completions of seed 1 at λ = 8 are of requests whose first attempt had already completed), and a request that waits is never retried: the source's retries fall as the load rises (10.6% of the attempts at 80% load, 2.9% at 95%) and cannot feed a storm. The model retries an attempt still unanswered after 3 s, the README's setup; once the queue holds about 30 (3 s of work), the retries make each request up to five attempts, the server's arrivals rise to about 17–18 a second and the queue stays full. Within 1000 s that happens in 10 of the model's 20 seeds at 80% load and in all of them at 90% and 95%; without retries in none. The newest commit read (5355c17) still sets the client's timeout only on an attempt that starts at once.",
    ),
    seeds: 20,
    base_seed: 2026,
};

/// The arrival rates of the map, per second.
const RATES: [f64; 3] = [8.0, 9.0, 9.5];

/// The retries of the map (the client makes one more attempt than this).
const RETRIES: [u32; 2] = [0, 4];

/// The run's length, ms.
const DURATION_MS: u64 = 1_000_000;

/// Waiting requests that fill the server's queue.
const QUEUE: u64 = 100;

/// The scenario of one cell.
fn scenario(rate: f64, retries: u32) -> Result<AnyScenario, ValidationError> {
    scenario::from_value(json!({
        "model": "cluster",
        "name": "Metafor single server",
        "seed": INFO.base_seed,
        "duration_ms": DURATION_MS,
        "load": {"arrivals": "poisson", "rate_per_s": rate},
        "tiers": [
            // timeout_t 3 s, max_retries retries at once; a dropped attempt ends the
            // source's request (its status DROPPED stops the retries), so only
            // timeouts are retried.
            {"name": "clients", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0},
             "client": {"timeout_ms": 3000, "max_attempts": retries + 1,
                "backoff": {"kind": "none"}, "jitter": {"kind": "none"},
                "retry_on": ["timeout"]}},
            // One server, one thread, mean_t 0.1 s, queue_size 100.
            {"name": "server", "instances": 1, "concurrency": 1, "queue_capacity": QUEUE,
             "service": {"kind": "exponential", "mean_ms": 100}}
        ],
        "steady": {"warmup_ms": 0}
    }))
}

/// The source's simulator over seeds 1–20 (`tests/studies/metafor_retry_map.py`): per
/// rate and retries, (mean, sd) of requests in the system, latency (s), retries per 100
/// attempts and runs ending with more than 50 waiting (%).
const REFERENCE: [[[(f64, f64); 4]; 2]; 3] = [
    [
        [
            (4.106, 0.559),
            (0.510, 0.061),
            (0.000, 0.000),
            (0.000, 0.000),
        ],
        [
            (7.302, 0.731),
            (1.183, 0.057),
            (10.586, 0.827),
            (0.000, 0.000),
        ],
    ],
    [
        [
            (9.196, 1.776),
            (1.020, 0.190),
            (0.000, 0.000),
            (0.000, 0.000),
        ],
        [
            (12.461, 1.390),
            (1.512, 0.130),
            (5.378, 0.570),
            (0.000, 0.000),
        ],
    ],
    [
        [
            (16.035, 4.098),
            (1.697, 0.420),
            (0.000, 0.000),
            (0.000, 0.000),
        ],
        [
            (20.336, 3.728),
            (2.219, 0.366),
            (2.892, 0.704),
            (10.000, 30.779),
        ],
    ],
];

/// Why a retry cell's figure differs: the source's client at this commit (the note's
/// (1)–(3)).
const RETRIES_DIFFER: Words = (
    "来源的客户端只给立即开始服务的尝试设超时，它的服务器又从不把已答复的尝试标为完成，所以它的重试都是早已答复的请求的副本，等待的请求从不重试，不会有风暴；模型重试 3 秒后仍未答复的尝试，队列一旦有约 30 个就陷入风暴，一直满着（见说明）",
    "the source's client sets a timeout only on an attempt that starts service at once, and its server never marks an answered attempt complete: its retries duplicate requests answered long before, a request that waits is never retried, and it cannot storm; the model retries an attempt unanswered after 3 s, and once the queue holds about 30 it falls into a storm that keeps it full (see the note)",
);

/// The figures of a retry cell that lie outside their tolerance: the rate's index, then
/// the measures'. At 80% load half the model's seeds storm, so its spread is wide and
/// only two of that cell's figures are out of reach.
const DIFFERING: [(usize, &[usize]); 3] = [(0, &[0, 3]), (1, &[0, 1, 2, 3]), (2, &[0, 1, 2, 3])];

/// The index of the latency among a cell's measures.
const LATENCY: usize = 1;

/// Runs of the source's simulator per cell.
const SOURCE_RUNS: usize = 20;

const RATE_WORDS: [Words; 3] = [
    ("λ = 8/s（负载 80%）", "λ = 8/s (80% load)"),
    ("λ = 9/s（负载 90%）", "λ = 9/s (90% load)"),
    ("λ = 9.5/s（负载 95%）", "λ = 9.5/s (95% load)"),
];

const RETRY_WORDS: [Words; 2] = [("不重试", "no retries"), ("重试 4 次", "4 retries")];

/// The figures of a cell: label and unit.
const MEASURES: [(Words, Words); 4] = [
    (
        ("系统中的请求", "requests in the system"),
        ("个请求", "requests"),
    ),
    (("延迟", "latency"), ("ms", "ms")),
    (("重试占尝试", "retries of the attempts"), ("%", "%")),
    (
        (
            "结束时等待超过半个队列（50）的运行",
            "runs ending with over half the queue (50) waiting",
        ),
        ("%", "%"),
    ),
];

/// The source's figures: per rate and retries, the four measures.
pub(super) fn published() -> Vec<Published> {
    let mut out = Vec::new();
    for (r, rate) in RATE_WORDS.iter().enumerate() {
        for (k, retries) in RETRY_WORDS.iter().enumerate() {
            for (m, &(what, unit)) in MEASURES.iter().enumerate() {
                let (mean, sd) = REFERENCE[r][k][m];
                // The script prints the latency in seconds to three decimals.
                let (scale, resolution) = if m == LATENCY {
                    (1000.0, 0.5)
                } else {
                    (1.0, 0.0005)
                };
                out.push(Published {
                    label: vec![*rate, *retries, what],
                    unit,
                    mean: mean * scale,
                    sd: sd * scale,
                    n: SOURCE_RUNS,
                    resolution,
                    differs: (k == 1
                        && DIFFERING.iter().any(|&(rr, ms)| rr == r && ms.contains(&m)))
                    .then_some(RETRIES_DIFFER),
                });
            }
        }
    }
    out
}

/// One seed of the model: the figures in the order of [`published`].
pub(super) fn model(seed: i64) -> Result<Vec<f64>, ValidationError> {
    let mut out = Vec::new();
    for rate in RATES {
        for retries in RETRIES {
            let AnyScenario::Cluster(sc) = scenario(rate, retries)? else {
                unreachable!("built as a cluster scenario")
            };
            let r = cluster::run(&sc, seed)?;
            let server = &r.tiers[1];
            let t = &server.totals;
            out.push(server.mean_in_flight);
            out.push(server.mean_wait_ms + server.mean_service_ms);
            out.push(100.0 * t.retries as f64 / (t.first_attempts + t.retries) as f64);
            out.push(if server.queue_depth_at_end > QUEUE / 2 {
                100.0
            } else {
                0.0
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ensemble;

    #[test]
    fn every_seed_with_retries_ends_near_empty_or_near_full() {
        // The model's retry cells have two outcomes: the queue ends within a few dozen of
        // empty, or stormed and within a few of full; so any bound between (the figure's
        // 50) counts the same runs. At 80% load the seeds split (10 of 20 storm).
        for (rate, storms) in [(8.0, 10), (9.0, 20), (9.5, 20)] {
            let AnyScenario::Cluster(sc) = scenario(rate, 4).unwrap() else {
                unreachable!("built as a cluster scenario")
            };
            let mut stormed = 0;
            for seed in ensemble::derive_seeds(INFO.base_seed, INFO.seeds) {
                let end = cluster::run(&sc, seed).unwrap().tiers[1].queue_depth_at_end;
                assert!(end <= 20 || end >= 90, "λ {rate}, seed {seed}: {end}");
                stormed += usize::from(end >= 90);
            }
            assert_eq!(stormed, storms, "λ {rate}");
        }
    }
}
