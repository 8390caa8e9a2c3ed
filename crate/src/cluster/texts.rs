//! The words of the cluster model's tables and summary, in Chinese and English (the
//! shape is [`crate::lang`]'s): the labels of the whole-run figures, the tables' column
//! titles and the recovery figure's wording.

crate::catalogue! {
    /// A label, a column title or a figure's wording in the cluster's tables.
    pub(crate) enum Text {
        /// The recovery figure's label: the arrival cohorts' recovery.
        RecoveryTime => ("恢复时间（到达批次）", "recovery time (cohorts)"),
        /// The goodput recovery figure's label: successes per second back to baseline.
        GoodputRecoveryTime => ("恢复时间（有效吞吐）", "recovery time (goodput)"),
        /// The goodput recovery figure when the successes per second never came back.
        GoodputNotBack => ("有效吞吐未回到基线", "goodput not back to baseline"),
        /// The recovery figure when the system never recovered.
        Metastable => ("亚稳态：未恢复", "metastable: did not recover"),
        /// The recovery figure when the steady state before the trigger was already
        /// unhealthy (nothing healthy to recover to).
        UnhealthyBaseline => ("触发前已不健康", "unhealthy before the trigger"),
        /// The recovery figure when there was nothing to recover from.
        NoTrigger => ("无触发", "no trigger"),
        /// Requests made.
        Requests => ("请求数", "requests"),
        /// Requests that succeeded.
        Succeeded => ("成功", "succeeded"),
        /// Requests that failed.
        Failed => ("失败", "failed"),
        /// Requests still pending when the run ended.
        PendingAtEnd => ("结束时未完成", "pending at end"),
        /// Requests in flight at the end that succeeded while draining.
        DrainSucceeded => ("排空中成功", "succeeded while draining"),
        /// Requests in flight at the end that failed while draining.
        DrainFailed => ("排空中失败", "failed while draining"),
        /// Requests still in flight when the drain stopped at its bound.
        DrainUnfinished => ("排空后仍未完成", "unfinished after the drain"),
        /// The success ratio.
        SuccessRatio => ("成功率", "success ratio"),
        /// Successes per second.
        Goodput => ("有效吞吐", "goodput"),
        /// Latency p50.
        LatencyP50 => ("延迟 p50", "latency p50"),
        /// Latency p90.
        LatencyP90 => ("延迟 p90", "latency p90"),
        /// Latency p99.
        LatencyP99 => ("延迟 p99", "latency p99"),
        /// Latency p99.9.
        LatencyP999 => ("延迟 p99.9", "latency p99.9"),
        /// Mean latency of the successes.
        LatencyMean => ("延迟均值", "latency mean"),
        /// Standard deviation of the successes' latency.
        LatencyStdDev => ("延迟标准差", "latency std dev"),
        /// Mean time to failure.
        FailureMean => ("失败耗时均值", "time to failure mean"),
        /// Standard deviation of the time to failure.
        FailureStdDev => ("失败耗时标准差", "time to failure std dev"),
        /// Amplification from the entry to every tier.
        AmplificationEndToEnd => ("端到端放大", "amplification end to end"),
        /// A per-tier figure's label: `{0}` the tier, `{1}` the figure.
        TierFigure => ("{0}：{1}", "{0}: {1}"),
        /// A tier's amplification.
        Amplification => ("放大", "amplification"),
        /// A tier's utilisation.
        Utilisation => ("利用率", "utilisation"),
        /// A tier's mean queue length.
        MeanQueueLength => ("平均队列长度", "mean queue length"),
        /// A tier's mean wait in the queue.
        MeanQueueWait => ("平均排队等待", "mean queue wait"),
        /// A tier's mean service time.
        MeanServiceTime => ("平均服务时间", "mean service time"),
        /// A tier's queue wait p99.
        QueueWaitP99 => ("排队等待 p99", "queue wait p99"),
        /// A tier's service time p99.
        ServiceTimeP99 => ("服务时间 p99", "service time p99"),
        /// The entry's peak arrivals against its steady state.
        PeakArrivals => ("峰值到达 / 稳态", "peak arrivals vs steady state"),
        /// A tier's peak arrivals against its steady state.
        PeakVsSteady => ("峰值 / 稳态", "peak vs steady"),
        /// How long the system was overloaded.
        OverloadDuration => ("过载时长", "overload duration"),
        /// Timeouts summed over every hop.
        TimeoutsAllHops => ("超时（所有跳）", "timeouts (all hops)"),
        /// Overloads summed over every hop.
        OverloadsAllHops => ("过载 / 503（所有跳）", "overloads / 503 (all hops)"),
        /// Errors summed over every hop.
        ErrorsAllHops => ("错误 / 500（所有跳）", "errors / 500 (all hops)"),
        /// Attempts the breakers refused.
        BreakerRejected => ("熔断拒绝", "breaker-rejected"),
        /// Attempts the budgets refused.
        BudgetRejected => ("预算拒绝", "budget-rejected"),
        /// Attempts the bulkheads refused.
        BulkheadRejected => ("舱壁拒绝", "bulkhead-rejected"),
        /// Times a breaker opened.
        BreakerOpenings => ("熔断打开次数", "breaker openings"),
        /// Column: the figure.
        Metric => ("指标", "metric"),
        /// Column: its value.
        Value => ("值", "value"),
        /// Column: the tier.
        Tier => ("层", "tier"),
        /// Column: first attempts (a route's: the calls made on it).
        First => ("首次", "first"),
        /// Column: retries.
        Retries => ("重试", "retries"),
        /// Column: successes.
        Ok => ("成功", "ok"),
        /// Column: timeouts.
        Timeout => ("超时", "timeout"),
        /// Column: overloads.
        Overload => ("过载", "overload"),
        /// Column: errors.
        Error => ("错误", "error"),
        /// Column: breaker refusals.
        Breaker => ("熔断", "breaker"),
        /// Column: budget refusals.
        Budget => ("预算", "budget"),
        /// Column: bulkhead refusals.
        Bulkhead => ("舱壁", "bulkhead"),
        /// Column: amplification.
        Amp => ("放大", "amp"),
        /// Column: retry amplification.
        RetryAmp => ("重试放大", "retry amp"),
        /// Column: peak arrivals against the steady state.
        PeakSteady => ("峰值/稳态", "peak/steady"),
        /// Column: breaker openings.
        Openings => ("熔断打开", "openings"),
        /// Column: utilisation.
        Util => ("利用率", "util"),
        /// Column: mean queue length.
        MeanQueue => ("平均队列", "mean queue"),
        /// Column: mean requests in flight.
        MeanInFlight => ("平均在途", "mean in flight"),
        /// Column: mean wait, ms.
        WaitMs => ("等待 ms", "wait ms"),
        /// Column: mean service time, ms.
        ServiceMs => ("服务 ms", "service ms"),
        /// Column: the route.
        Route => ("路由", "route"),
        /// Column: the route's share of the calls.
        Share => ("占比", "share"),
        /// Column: the pinned run A.
        PinnedA => ("A（固定）", "A (pinned)"),
        /// Column: the current run B.
        CurrentB => ("B（当前）", "B (current)"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<super::Text>(), Vec::<String>::new());
    }
}
