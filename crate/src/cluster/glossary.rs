//! What each figure and column of the cluster model's tables means, with its unit: the
//! page's glossary under the tables and the descriptions of their headers, in the
//! catalogue's two languages. The definitions are found from the rows and columns
//! themselves ([`super::present`]), so a figure added there without a definition fails the
//! tests below instead of showing a blank.

use super::metrics::RunResult;
use super::present::{metrics_in, route_columns, routes_have_cost, tier_columns};
use super::texts::Text;
use crate::glossary::Entry;
use crate::lang::{Lang, Texts};
use serde::Serialize;

crate::catalogue! {
    /// The definition of a figure or column, ending with its unit.
    pub(crate) enum Meaning {
        /// Entry requests.
        Requests => ("入口在运行中收到的请求（个）", "requests that arrived at the entry tier during the run (requests)"),
        /// Entry requests that succeeded.
        Succeeded => (
            "最终成功的入口请求，含重试后成功的（个）",
            "entry requests answered with a success, after retries or not (requests)"
        ),
        /// Entry requests that failed.
        Failed => (
            "最终失败的入口请求：超时、被拒或出错，且不再重试（个）",
            "entry requests that ended in a failure: timed out, refused or errored with no retry left (requests)"
        ),
        /// Entry requests still open at the end.
        PendingAtEnd => (
            "运行结束时仍未完成的入口请求，既不算成功也不算失败（个）",
            "entry requests still open when the run ended, counted neither as succeeded nor as failed (requests)"
        ),
        /// Drained successes.
        DrainSucceeded => (
            "结束时在途、排空中成功的入口请求（个）",
            "entry requests in flight at the end that succeeded in the drain (requests)"
        ),
        /// Drained failures.
        DrainFailed => (
            "结束时在途、排空中失败的入口请求（个）",
            "entry requests in flight at the end that failed in the drain (requests)"
        ),
        /// Left unfinished by the drain.
        DrainUnfinished => (
            "排空到上限时仍在途的入口请求，不算成功也不算失败（个）",
            "entry requests still in flight at the drain's bound, neither succeeded nor failed (requests)"
        ),
        /// The success ratio.
        SuccessRatio => (
            "成功 ÷ 请求数；排空时计入排空中成功，不计仍未完成的（%）",
            "succeeded ÷ requests; drained, the drain's successes count and the unfinished do not (%)"
        ),
        /// Goodput.
        Goodput => ("每秒模拟时间的成功请求数（个/秒）", "successes per second of simulated time (requests per second)"),
        /// Latency p50.
        LatencyP50 => (
            "预热之后到达且成功的请求的端到端延迟：一半比它快（毫秒）",
            "end-to-end latency of the successful requests that arrived after the warm-up: half were faster (ms)"
        ),
        /// Latency p90.
        LatencyP90 => (
            "同上的延迟：90% 不超过它（毫秒）",
            "the same latency that 90% of those successes did not exceed (ms)"
        ),
        /// Latency p99.
        LatencyP99 => (
            "同上的延迟：99% 不超过它（毫秒）",
            "the same latency that 99% of those successes did not exceed (ms)"
        ),
        /// Latency p99.9.
        LatencyP999 => (
            "同上的延迟：99.9% 不超过它（毫秒）",
            "the same latency that 99.9% of those successes did not exceed (ms)"
        ),
        /// Mean latency of the successes.
        LatencyMean => ("这些成功请求的端到端延迟均值（毫秒）", "mean end-to-end latency of those successes (ms)"),
        /// Its standard deviation.
        LatencyStdDev => ("这些成功请求延迟的标准差（毫秒）", "standard deviation of those successes' latency (ms)"),
        /// Mean time to failure.
        FailureMean => (
            "预热之后到达并失败的请求，从到达到失败的平均耗时（毫秒）",
            "mean time from arrival to failure of the requests that arrived after the warm-up and failed (ms)"
        ),
        /// Its standard deviation.
        FailureStdDev => ("这些失败耗时的标准差（毫秒）", "standard deviation of those times to failure (ms)"),
        /// Amplification from the entry to the last tier.
        AmplificationEndToEnd => (
            "到达最后一层的 attempt 数 ÷ 入口请求数（倍，1.00x 即没有重试）",
            "attempts that reached the last tier ÷ entry requests (a ratio; 1.00x means no retries)"
        ),
        /// A tier's amplification.
        TierAmplification => ("到达该层的 attempt 数 ÷ 入口请求数（倍）", "attempts that reached the tier ÷ entry requests (a ratio)"),
        /// A tier's utilisation.
        Utilisation => (
            "该层忙碌的并发槽占全部槽（实例 × 并发）的比例，按运行时间平均（%）",
            "busy concurrency slots over all the tier's slots (instances × concurrency), averaged over the run (%)"
        ),
        /// A tier's mean queue length.
        MeanQueueLength => (
            "该层所有实例的队列中等待的请求数，按时间平均（个）",
            "requests waiting in the tier's queues, all instances together, averaged over time (requests)"
        ),
        /// A tier's mean requests held.
        MeanInFlight => (
            "该层持有的请求（排队、服务中或等待下一层），按时间平均（个）",
            "requests the tier holds (queued, in service or waiting on the next tier), averaged over time (requests)"
        ),
        /// A tier's mean queue wait.
        MeanQueueWait => (
            "请求开始服务前在该层队列中的平均等待（毫秒）",
            "mean time a request waited in the tier's queue before its service started (ms)"
        ),
        /// A tier's mean service time.
        MeanServiceTime => (
            "该层本地工作从开始到结束的平均时间，含暂停（毫秒）",
            "mean local service time at the tier, from the start to the end of its work, pauses included (ms)"
        ),
        /// A tier's queue wait p99.
        QueueWaitP99 => (
            "预热之后开始的服务中，99% 不超过的排队等待（毫秒）",
            "the queue wait that 99% of the services started after the warm-up did not exceed (ms)"
        ),
        /// A tier's service time p99.
        ServiceTimeP99 => (
            "预热之后结束的服务中，99% 不超过的本地服务时间（毫秒）",
            "the local service time that 99% of the services ended after the warm-up did not exceed (ms)"
        ),
        /// The highest tier's peak against its steady state.
        PeakArrivals => ("各层“峰值 / 稳态”中最大的一个（倍）", "the largest of the tiers' peak vs steady ratios (a ratio)"),
        /// A tier's peak against its steady state.
        PeakVsSteady => (
            "该层单个时间桶内每秒最多的 attempt 数 ÷ 基线期间每秒平均 attempt 数（倍）",
            "the tier's most attempts per second in a bucket ÷ its mean attempts per second over the baseline (a ratio)"
        ),
        /// How long the system was overloaded.
        OverloadDuration => (
            "不健康时间桶的总长度：该桶到达的请求失败超出基线允许的程度，或 attempt 被放大（秒）",
            "total length of the buckets whose arrivals were unhealthy: failing more than the baseline allows, or amplified (s)"
        ),
        /// Recovery by cohorts.
        RecoveryTime => (
            "从最后一次触发结束，到此后到达的请求一直健康直至运行结束；按请求到达的时刻判断（秒）",
            "from the end of the last trigger until the requests arriving stay healthy to the end of the run, judged by when they arrived (s)"
        ),
        /// Recovery by goodput.
        GoodputRecoveryTime => (
            "从最后一次触发结束，到每秒成功数回到基线并一直保持（秒）",
            "from the end of the last trigger until the successes per second are back to the baseline's for good (s)"
        ),
        /// Timeouts over every hop.
        TimeoutsAllHops => ("调用方等到超时而放弃的 attempt，所有跳相加（次）", "attempts the caller gave up on at its timeout, summed over every hop (attempts)"),
        /// Overloads over every hop.
        OverloadsAllHops => (
            "被某层拒绝的 attempt：队列满、排队超时或在队列中过了截止时间，所有跳相加（次）",
            "attempts a tier refused: queue full, queue timeout or deadline expired in the queue, summed over every hop (attempts)"
        ),
        /// Errors over every hop.
        ErrorsAllHops => (
            "以错误结束的 attempt：故障、注入的错误或依赖失败，所有跳相加（次）",
            "attempts that failed with an error: outage, injected error or failed dependency, summed over every hop (attempts)"
        ),
        /// Breaker refusals over every hop.
        BreakerRejected => ("调用方熔断器拒绝发出的 attempt，所有跳相加（次）", "attempts the callers' circuit breakers refused to send, summed over every hop (attempts)"),
        /// Budget refusals over every hop.
        BudgetRejected => (
            "调用方重试预算（或只管重试的熔断器）拒绝的重试，所有跳相加（次）",
            "retries the callers' retry budgets (or retry-only breakers) refused, summed over every hop (attempts)"
        ),
        /// Bulkhead refusals over every hop.
        BulkheadRejected => ("调用方舱壁（并发上限）拒绝的 attempt，所有跳相加（次）", "attempts the callers' bulkheads (concurrency limits) refused, summed over every hop (attempts)"),
        /// Breaker openings.
        BreakerOpenings => ("熔断器打开的次数，所有实例合计（次）", "times a circuit breaker opened, all instances together (count)"),
        /// The tier column.
        Tier => ("层的名称（入口在前，其后是它依次调用的层）", "the tier's name (the entry first, then the tiers it calls)"),
        /// First attempts.
        First => ("到达的首次 attempt；在路由上即经它发起的调用（次）", "first attempts that reached the tier; on a route, the calls made on it (attempts)"),
        /// Retries.
        Retries => ("到达的重试（次）", "retries that reached the tier or went over the route (attempts)"),
        /// Successes.
        Ok => ("成功的 attempt，以调用方所见为准（次）", "attempts that succeeded, as the caller saw them (attempts)"),
        /// Timeouts.
        Timeout => ("调用方等到超时的 attempt（次）", "attempts the caller timed out on (attempts)"),
        /// Overloads.
        Overload => ("被拒绝的 attempt：队列满、排队超时或在队列中过了截止时间（次）", "attempts the tier refused: queue full, queue timeout or deadline expired in the queue (attempts)"),
        /// Errors.
        Error => ("以错误结束的 attempt：故障、注入的错误或依赖失败（次）", "attempts that failed with an error: outage, injected error or failed dependency (attempts)"),
        /// Breaker refusals.
        Breaker => ("调用方熔断器拒绝发出的 attempt（次）", "attempts the caller's circuit breaker refused to send (attempts)"),
        /// Budget refusals.
        Budget => ("调用方重试预算拒绝的重试（次）", "retries the caller's retry budget refused (attempts)"),
        /// Bulkhead refusals.
        Bulkhead => ("调用方舱壁（并发上限）拒绝的 attempt（次）", "attempts the caller's bulkhead (a concurrency limit) refused (attempts)"),
        /// Retry amplification.
        RetryAmp => (
            "attempt 数 ÷ 首次 attempt 数，在进入该层的那一跳或该路由上（倍，1.00x 即没有重试）",
            "attempts ÷ first attempts, on the hop into the tier or on the route (a ratio; 1.00x means no retries)"
        ),
        /// The route column.
        Route => ("路由，按层名写作（调用方 → 被调用方）", "the route, by tier names (caller → callee)"),
        /// A route's share.
        Share => ("调用方的调用中走这条路由的比例：它的权重占各路由权重之和（%）", "the share of the caller's calls that take this route: its weight over the routes' sum (%)"),
    }
}

/// The definition of the figure or column `what`; `None` for a word that is not a figure.
fn meaning(what: Text) -> Option<Meaning> {
    use Meaning as M;
    Some(match what {
        Text::Requests => M::Requests,
        Text::Succeeded => M::Succeeded,
        Text::Failed => M::Failed,
        Text::PendingAtEnd => M::PendingAtEnd,
        Text::DrainSucceeded => M::DrainSucceeded,
        Text::DrainFailed => M::DrainFailed,
        Text::DrainUnfinished => M::DrainUnfinished,
        Text::SuccessRatio => M::SuccessRatio,
        Text::Goodput => M::Goodput,
        Text::LatencyP50 => M::LatencyP50,
        Text::LatencyP90 => M::LatencyP90,
        Text::LatencyP99 => M::LatencyP99,
        Text::LatencyP999 => M::LatencyP999,
        Text::LatencyMean => M::LatencyMean,
        Text::LatencyStdDev => M::LatencyStdDev,
        Text::FailureMean => M::FailureMean,
        Text::FailureStdDev => M::FailureStdDev,
        Text::AmplificationEndToEnd => M::AmplificationEndToEnd,
        Text::Amplification | Text::Amp => M::TierAmplification,
        Text::Utilisation | Text::Util => M::Utilisation,
        Text::MeanQueueLength | Text::MeanQueue => M::MeanQueueLength,
        Text::MeanInFlight => M::MeanInFlight,
        Text::MeanQueueWait | Text::WaitMs => M::MeanQueueWait,
        Text::MeanServiceTime | Text::ServiceMs => M::MeanServiceTime,
        Text::QueueWaitP99 => M::QueueWaitP99,
        Text::ServiceTimeP99 => M::ServiceTimeP99,
        Text::PeakArrivals => M::PeakArrivals,
        Text::PeakVsSteady | Text::PeakSteady => M::PeakVsSteady,
        Text::OverloadDuration => M::OverloadDuration,
        Text::RecoveryTime => M::RecoveryTime,
        Text::GoodputRecoveryTime => M::GoodputRecoveryTime,
        Text::TimeoutsAllHops => M::TimeoutsAllHops,
        Text::OverloadsAllHops => M::OverloadsAllHops,
        Text::ErrorsAllHops => M::ErrorsAllHops,
        Text::BreakerRejected => M::BreakerRejected,
        Text::BudgetRejected => M::BudgetRejected,
        Text::BulkheadRejected => M::BulkheadRejected,
        Text::BreakerOpenings | Text::Openings => M::BreakerOpenings,
        Text::Tier => M::Tier,
        Text::First => M::First,
        Text::Retries => M::Retries,
        Text::Ok => M::Ok,
        Text::Timeout => M::Timeout,
        Text::Overload => M::Overload,
        Text::Error => M::Error,
        Text::Breaker => M::Breaker,
        Text::Budget => M::Budget,
        Text::Bulkhead => M::Bulkhead,
        Text::RetryAmp => M::RetryAmp,
        Text::Route => M::Route,
        Text::Share => M::Share,
        _ => return None,
    })
}

/// The definitions of a run's three tables, each in its table's order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Glossary {
    /// One entry per row of the summary ([`summary_table_in`](super::present::summary_table_in)).
    pub summary: Vec<Entry>,
    /// One entry per column of the per-tier table ([`tier_table_in`](super::present::tier_table_in)).
    pub tiers: Vec<Entry>,
    /// One entry per column of the per-route table ([`route_table_in`](super::present::route_table_in)).
    pub routes: Vec<Entry>,
}

/// `what`'s entry, titled `term`, in `lang` (an empty definition only for a word that
/// is not a figure, which the tests rule out).
fn entry(term: impl Into<String>, what: Text, lang: Lang) -> Entry {
    Entry::new(term, meaning(what).map_or("", |m| m.get(lang)))
}

/// The glossary of `r`'s tables in `lang`.
pub fn glossary_in(r: &RunResult, lang: Lang) -> Glossary {
    let columns = |list: Vec<Text>| -> Vec<Entry> {
        list.into_iter()
            .map(|c| entry(c.get(lang), c, lang))
            .collect()
    };
    let mut routes = columns(route_columns());
    if routes_have_cost(r) {
        routes.extend(crate::cost::glossary(lang));
    }
    Glossary {
        summary: metrics_in(r, lang)
            .into_iter()
            .map(|m| entry(m.label, m.what, lang))
            .collect(),
        tiers: columns(tier_columns()),
        routes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{present, run, scenario::Scenario};
    use crate::lang::problems;

    #[test]
    fn catalogue_is_sound() {
        assert_eq!(problems::<Meaning>(), Vec::<String>::new());
    }

    /// Every row and column of every table, for scenarios with chains, routes and cost
    /// models, in both languages, has a definition that names its unit, and the entries
    /// follow the tables' own order.
    #[test]
    fn every_figure_and_column_is_defined_with_its_unit() {
        let read = |text: &str| -> serde_json::Value { serde_json::from_str(text).unwrap() };
        let chain = read(include_str!("../../../scenarios/cluster-call-chain.json"));
        let routes = read(include_str!(
            "../../../scenarios/cluster-routes-shared-budget.json"
        ));
        let mut costly = routes.clone();
        costly["tiers"][0]["routes"][0]["client"]["cost"] = serde_json::json!({"input_tokens": 100,
            "output_tokens": 10, "input_price_per_1k": 1.0, "output_price_per_1k": 2.0});
        let mut drained = chain.clone();
        let steady = drained.as_object_mut().unwrap().entry("steady");
        steady.or_insert(serde_json::json!({}))["drain"] = true.into();
        let mut with_cost = false;
        let mut with_drain = false;
        for mut v in [chain, routes, costly, drained] {
            // The files name their model for the loader; the cluster scenario itself does not.
            v.as_object_mut().unwrap().remove("model");
            let sc: Scenario = serde_json::from_value(v).unwrap();
            let r = run(&sc, sc.seed).unwrap();
            with_cost |= routes_have_cost(&r);
            with_drain |= r.summary.drain_ms.is_some();
            for lang in [Lang::En, Lang::Zh] {
                let g = glossary_in(&r, lang);
                let first: Vec<String> = present::summary_table_in(&r, lang)
                    .rows
                    .into_iter()
                    .map(|row| row[0].clone())
                    .collect();
                let terms = |es: &[Entry]| es.iter().map(|e| e.term.clone()).collect::<Vec<_>>();
                assert_eq!(terms(&g.summary), first);
                assert_eq!(terms(&g.tiers), present::tier_table_in(&r, lang).columns);
                assert_eq!(terms(&g.routes), present::route_table_in(&r, lang).columns);
                for e in g.summary.iter().chain(&g.tiers).chain(&g.routes) {
                    assert!(
                        crate::glossary::names_its_unit(&e.meaning),
                        "{lang:?} {e:?}"
                    );
                }
            }
        }
        assert!(
            with_cost,
            "some scenario here has a route with a cost model"
        );
        assert!(with_drain, "some scenario here drains");
    }
}
