//! Brooker's retry_sim: a server that fails a share of its calls, and four client retry
//! policies (none, three retries, an adaptive token bucket, a retry-only breaker).
//!
//! Source: `retry_sim/retry_sim.py` `run_sims` (github.com/mbrooker/simulator_example),
//! the simulation behind "Fixing retries with token buckets and circuit breakers"
//! (brooker.co.za/blog/2022/02/28/retries.html). The post shows its results only as a
//! chart, so the reference figures are his code run over 20 seeds at three of its
//! failure rates (`tests/studies/brooker_retry_sim.py`).

use super::{Info, Published, Source, Words};
use crate::cluster;
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use serde_json::{json, Value};

/// The study's description.
pub(super) const INFO: Info = Info {
    id: "brooker-retry-sim",
    title: (
        "Brooker 的 retry_sim：失败率 × 四种重试策略",
        "Brooker's retry_sim: failure rate × four retry policies",
    ),
    source: Source {
        work: "Marc Brooker, \"Fixing retries with token buckets and circuit breakers\" (2022), its simulator retry_sim",
        url: "https://github.com/mbrooker/simulator_example",
        file: "retry_sim/retry_sim.py (run_sims), retry_sim/retry_strategy.py, retry_sim/client.py",
        commit: "bbfe3946f0459a69f6012737c68fc63b973471be",
    },
    setup: (
        "100 个客户端，每个每秒 10 个调用（泊松到达，共 1000/s），运行 10 秒后停止发新调用、等在途调用结束（Brooker 的 drain）。服务器不受负载影响，每次尝试以给定概率失败（5%、20%、50%），往返时间为两段均值 10 ms 的指数网络延迟。策略：不重试；最多重试 3 次；自适应令牌桶（每个调用开始时存 0.1 个令牌，上限 5，每次重试取 1 个，对一个调用的重试次数没有其他限制，每个客户端一个桶）；仅限重试的熔断器（失败次数 / 调用次数 超过 10% 时停止重试，永久计数，每个客户端一个，最多重试 3 次）。重试立即发出，无退避。数字：成功率（成功的调用 / 调用）与负载（尝试 / 调用），均为百分比。",
        "100 clients, each starting 10 calls a second (Poisson, 1000/s in all), for 10 s; then no new call starts and the calls in flight finish (Brooker's drain). The server ignores load and fails each attempt with a given probability (5%, 20%, 50%); a round trip is two exponential network legs of mean 10 ms. Policies: no retries; up to 3 retries; an adaptive token bucket (0.1 token deposited when a call starts, 5 at most, a retry takes 1, no other limit on a call's retries; one bucket per client); a retry-only breaker (retries stop while failures / calls is over 10%, counted for ever, one per client, up to 3 retries). Retries go at once, no backoff. Figures: success (calls that succeeded / calls) and load (attempts / calls), in percent.",
    ),
    reference: (
        "文章只以图表给出结果，所以来源的数字是在他的代码上运行 20 个种子得到的（run_sims 的设置，未改动；tests/studies/brooker_retry_sim.py），每个失败率与策略一组。他的图把负载除以整张表最大的调用数，这里除以同一次运行的调用数（两者只差泊松噪声）。",
        "The post shows its results only as a chart, so the source's figures are his code run over 20 seeds (run_sims's setup, unchanged; tests/studies/brooker_retry_sim.py), per failure rate and policy. His chart divides load by the largest call count of the whole table; here it is divided by the same run's calls (the two differ by Poisson noise only).",
    ),
    note: (
        "本模型中：客户端是一个 100 实例的直通层（随机均衡，每个实例收到泊松 10/s），服务器的服务时间为均值 20 ms 的指数分布，代替两段 10 ms 网络延迟之和（均值相同，分布不同；服务器不受负载影响，只有令牌桶和熔断器的时序会受影响）；令牌桶是 token_bucket（调用开始时存入），从整 1 个令牌起即可重试，而 Brooker 的代码要求多于 1 个；Brooker 的令牌桶对一个调用的重试次数不设上限，本模型最多 10 次尝试（失败率 50% 时连续失败 10 次的概率为千分之一）；熔断器是 retry_only（window_ms 0）。Brooker 的每个客户端在第一个事件（约 10 ms）时立即开始一个调用，然后才是泊松流；模型的到达从一开始就是泊松的。运行 10.6 秒，最后 0.6 秒到达率为 0，作为 drain。",
        "In this model: the clients are a pass-through tier of 100 instances (random balancing, so each sees Poisson 10/s); the server's service time is exponential of mean 20 ms in place of the sum of two 10 ms network legs (the same mean, another shape; the server ignores load, so only the bucket's and the breaker's timing can feel it); the bucket is token_bucket (deposits when a call starts) and retries from one whole token, where Brooker's code needs more than one; Brooker's bucket puts no cap on a call's retries, the model's allows at most 10 attempts (a call that fails 10 times in a row is one in a thousand at 50% failures); the breaker is retry_only with window_ms 0. Each of Brooker's clients starts one call at once at its first event (about 10 ms in), then its Poisson stream; the model's arrivals are Poisson from the start. The run lasts 10.6 s with no arrivals in the last 0.6 s, as the drain.",
    ),
    seeds: 20,
    base_seed: 2022,
};

/// The failure rates studied (three of `run_sims`'s).
const RATES: [f64; 3] = [0.05, 0.2, 0.5];

/// The four policies, as `run_sims` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Policy {
    NoRetries,
    ThreeRetries,
    Adaptive,
    Breaker,
}

const POLICIES: [Policy; 4] = [
    Policy::NoRetries,
    Policy::ThreeRetries,
    Policy::Adaptive,
    Policy::Breaker,
];

impl Policy {
    fn words(self) -> Words {
        match self {
            Policy::NoRetries => ("不重试", "no retries"),
            Policy::ThreeRetries => ("重试 3 次", "three retries"),
            Policy::Adaptive => ("自适应令牌桶", "adaptive bucket"),
            Policy::Breaker => ("仅限重试的熔断器", "retry-only breaker"),
        }
    }

    /// The calling tier's client policy.
    fn client(self) -> Value {
        let mut c = json!({"timeout_ms": 60000, "max_attempts": 4,
            "backoff": {"kind": "none"}, "jitter": {"kind": "none"}});
        match self {
            Policy::NoRetries => c["max_attempts"] = json!(1),
            Policy::ThreeRetries => {}
            Policy::Adaptive => {
                // AdaptiveRetryStrategy has no cap of its own on a call's retries (only
                // the bucket stops them); 10 attempts is the model's most.
                c["max_attempts"] = json!(10);
                c["budget"] = json!({"kind": "token_bucket", "percent": 10, "max_tokens": 5,
                    "scope": "per_instance"});
            }
            Policy::Breaker => {
                c["breaker"] = json!({"kind": "retry_only", "failure_percent": 10,
                    "window_ms": 0, "scope": "per_instance"});
            }
        }
        c
    }
}

/// The scenario of one failure rate and policy.
fn scenario(rate: f64, policy: Policy) -> Result<AnyScenario, ValidationError> {
    scenario::from_value(json!({
        "model": "cluster",
        "name": "Brooker retry_sim",
        "seed": INFO.base_seed,
        "duration_ms": 10600,
        "load": {"arrivals": "poisson", "rate_per_s": 1000,
            "schedule": [{"start_ms": 10000, "end_ms": 10600, "rate_per_s": 0}]},
        "tiers": [
            {"name": "clients", "instances": 100, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "constant", "ms": 0}, "balancer": "random",
             "client": policy.client()},
            {"name": "server", "instances": 1, "concurrency": 100000, "queue_capacity": 0,
             "service": {"kind": "exponential", "mean_ms": 20}, "error_rate": rate}
        ]
    }))
}

/// Brooker's code over 20 seeds (`tests/studies/brooker_retry_sim.py`): per rate and
/// policy, success % (mean, sd) and load % (mean, sd), printed to 3 decimals.
const REFERENCE: [[(f64, f64, f64, f64); 4]; 3] = [
    [
        (95.023, 0.253, 100.000, 0.000),
        (100.000, 0.002, 105.280, 0.214),
        (99.985, 0.015, 105.279, 0.196),
        (98.610, 0.189, 103.834, 0.193),
    ],
    [
        (80.085, 0.513, 100.000, 0.000),
        (99.848, 0.038, 124.808, 0.661),
        (90.814, 0.531, 113.461, 0.075),
        (80.191, 0.292, 100.323, 0.062),
    ],
    [
        (50.064, 0.490, 100.000, 0.000),
        (93.804, 0.271, 187.497, 1.070),
        (56.806, 0.587, 114.167, 0.054),
        (49.917, 0.575, 100.004, 0.005),
    ],
];

const RATE_WORDS: [Words; 3] = [
    ("失败率 5%", "failure 5%"),
    ("失败率 20%", "failure 20%"),
    ("失败率 50%", "failure 50%"),
];

/// Where the bucket's load at 50% failures parts from Brooker's, and why (checked by
/// `tests/studies/brooker_bucket_difference.py`).
const BUCKET_LOAD: Words = (
    "模型的负载高约 0.07–0.09 个百分点（每 10,000 个调用多 7–9 次重试），原因有二：Brooker 的每个客户端在第一个事件（约 10 ms）时立即开始一个调用，然后才是泊松流，所以 10 秒内约 101 个调用而不是 100 个，桶最初的 5 个令牌分摊到多一个调用上；他的桶只在多于 1 个令牌时重试（浮点数），模型从整 1 个令牌起。把他的代码去掉第一个调用并改用模型的规则，40 个种子得到 114.245，与模型一致（其代码原样为 114.172）。",
    "the model's load is about 0.07 to 0.09 points higher (7 to 9 more retries per 10,000 calls), for two reasons: each of Brooker's clients starts one call at its first event (about 10 ms in) before its Poisson stream, so it makes about 101 calls in 10 s rather than 100 and the bucket's 5 initial tokens are spread over one more call; and his bucket retries only above one token (in floating point), the model's from one whole token on. His code without that first call and with the model's rule gives 114.245 over 40 seeds, as the model does (his code as it is: 114.172).",
);

/// The source's figures: per rate and policy, success then load.
pub(super) fn published() -> Vec<Published> {
    let mut out = Vec::new();
    for (r, rate) in RATE_WORDS.iter().enumerate() {
        for (k, policy) in POLICIES.iter().enumerate() {
            let (s, s_sd, l, l_sd) = REFERENCE[r][k];
            let label = |what: Words| vec![*rate, policy.words(), what];
            out.push(Published {
                label: label(("成功率", "success")),
                unit: ("%", "%"),
                mean: s,
                sd: s_sd,
                n: 20,
                resolution: 0.0005,
                differs: None,
            });
            out.push(Published {
                label: label(("负载", "load")),
                unit: ("%", "%"),
                mean: l,
                sd: l_sd,
                n: 20,
                resolution: 0.0005,
                differs: (r == 2 && *policy == Policy::Adaptive).then_some(BUCKET_LOAD),
            });
        }
    }
    out
}

/// One seed of the model: the figures in the order of [`published`].
pub(super) fn model(seed: i64) -> Result<Vec<f64>, ValidationError> {
    let mut out = Vec::new();
    for rate in RATES {
        for policy in POLICIES {
            let AnyScenario::Cluster(sc) = scenario(rate, policy)? else {
                unreachable!("built as a cluster scenario")
            };
            let r = cluster::run(&sc, seed)?;
            let clients = &r.tiers[0].totals;
            let server = &r.tiers[1].totals;
            out.push(100.0 * clients.successes as f64 / clients.first_attempts as f64);
            out.push(
                100.0 * (server.first_attempts + server.retries) as f64
                    / server.first_attempts as f64,
            );
        }
    }
    Ok(out)
}
