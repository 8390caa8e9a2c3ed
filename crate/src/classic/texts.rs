//! The words of the classic model's reports and tables, in the article's Chinese and in
//! English (the shape is [`crate::lang`]'s). The Chinese texts are the article's own: the
//! CLI prints them byte for byte, so a change here shows in `crate/tests/golden.rs`.

crate::catalogue! {
    /// A word or sentence of a classic report or table.
    pub(crate) enum Text {
        /// Column: the strategy's name.
        Strategy => ("策略", "strategy"),
        /// The page's table: amplification.
        Amplification => ("放大倍数", "amplification"),
        /// The page's table: delivery.
        Delivery => ("交付率", "delivery"),
        /// Column: the peak attempts in a second.
        PeakQps => ("峰值QPS", "peak QPS"),
        /// The page's table: overload seconds.
        OverloadS => ("过载秒", "overload s"),
        /// The page's table: median latency of the delivered.
        P50Ms => ("交付中位ms", "p50 ms"),
        /// The page's table: p99 latency.
        P99Ms => ("p99ms", "p99 ms"),
        /// Column: breaker trips, the seconds they happened, harmful rejections.
        BreakerCell => ("熔断开/跳闸秒/误伤", "breaker trips/trip s/harmful"),
        /// The page's table: arrivals in the recovery window.
        RecoveryWindow => ("恢复窗口到达量", "recovery window"),
        /// Column: the answered view of delivery.
        Answered => ("应答率", "answered"),
        /// Column: requests delivered.
        Delivered => ("已交付", "delivered"),
        /// Column: requests that ended at the upstream.
        EndedUpstream => ("止于上游", "ended upstream"),
        /// Column: requests the deadline ended.
        EndedDeadline => ("止于截止时间", "ended deadline"),
        /// Column: requests the budget ended.
        EndedBudget => ("止于预算", "ended budget"),
        /// Column: requests the breaker ended.
        EndedBreaker => ("止于熔断", "ended breaker"),
        /// The `run` report's header: `{0}`~`{1}` the outage (seconds), `{2}` capacity,
        /// `{3}` clients, `{4}` duration (seconds), `{5}` seed.
        RunHeader => (
            "上游第 {0}~{1} 秒整体不可用，容量 {2} req/s，{3} 客户端 × {4} 秒，seed={5}",
            "Upstream fully down in seconds {0}~{1}, capacity {2} req/s, {3} clients × {4} s, seed={5}"
        ),
        /// What the `run` header adds for `--budget-override`: `{0}` the percentage.
        BudgetOverride => ("，budgetPct={0}（全局覆盖）", ", budgetPct={0} (global override)"),
        /// What a header adds for an attribution other than the article's: `{0}` its name.
        Attribution => ("，attribution={0}", ", attribution={0}"),
        /// The `run` report's heading: amplification.
        RunAmplification => ("放大倍数", "amplif."),
        /// The `run` report's heading: delivery.
        RunDelivery => ("交付率", "deliv."),
        /// The `run` report's heading: overload seconds.
        RunOverloadS => ("过载秒", "over s"),
        /// The `run` report's heading: median latency of the delivered.
        RunMedianMs => ("交付中位ms", "median ms"),
        /// The `run` report's heading: p99 latency.
        RunP99Ms => ("p99ms", "p99ms"),
        /// The `run` report's note on delivery (a whole line).
        RunNote => (
            "注：交付率按「业务请求最终有没有拿到结果」计，被 deadline 掐掉与预算拒发都算未交付。\n",
            "Note: delivery counts whether a business request got its result in the end; \
             cut by the deadline or refused by the budget both count as not delivered.\n"
        ),
        /// The `run` report's last line: `{0}` business requests.
        RunTotals => (
            "业务请求总数 {0}，放大倍数 = 上游收到的 attempt 数 / 业务请求数。",
            "{0} business requests in all; amplification = attempts the upstream received / business requests."
        ),
        /// The `herd` report's header: `{0}` capacity, `{1}`~`{2}` the outage (seconds).
        HerdHeader => (
            "每秒到达上游的请求数（容量 {0}，故障 {1}~{2} 秒）",
            "Requests reaching the upstream per second (capacity {0}, outage in seconds {1}~{2})"
        ),
        /// The `herd` report's time column.
        Sec => ("秒", "sec"),
        /// The `herd` report's last column: the strategies over capacity.
        OverloadedAny => ("过载(任一策略)", "overloaded (any strategy)"),
        /// The `herd` report's recovery-window line: `{0}` the window (seconds), `{1}`~`{2}`
        /// its seconds, `{3}` the totals.
        HerdRecovery => (
            "恢复后 {0} 秒（第 {1}~{2} 秒）到达总量：{3}",
            "Arrivals in the {0} s after recovery (seconds {1}~{2}): {3}"
        ),
        /// The `herd` report's attempts line: `{0}` the totals, `{1}` business requests.
        HerdAttempts => (
            "全程 attempt 总量：{0}（业务请求 {1}）",
            "Attempts over the whole run: {0} ({1} business requests)"
        ),
        /// Between the items of a list in a sentence.
        ListSep => ("、", ", "),
        /// An acceptance check that cannot be made: `{0}` the strategies the scenario has.
        NeedsFour => (
            "需要至少 4 个策略（按位置为 S1–S4）；此场景有 {0} 个",
            "needs at least 4 strategies (S1–S4 by position); this scenario has {0}"
        ),
        /// A reproduction check on strategies that are no longer the article's.
        NotTheArticles => (
            "不适用：策略已不再是文章的策略",
            "not applicable: the strategies are no longer the article's"
        ),
        /// The budget check's detail: `{0}` the difference.
        AmplificationDifference => ("放大倍数差值 {0}", "amplification difference {0}"),
        /// The six-seed report's header: `{0}` seeds.
        SeedsHeader => ("多种子对照（{0} 个种子）", "Across seeds ({0} seeds)"),
        /// The six-seed report's cell heading, after a strategy's label.
        SeedsCell => ("放大/过载/交付", "amp/over/deliv"),
        /// The six-seed report's last heading.
        AmpDiff => ("放大差", "amp diff"),
        /// The six-seed report's spread of S3: `{0}` label, `{1}` min, `{2}` max, `{3}`
        /// mean, `{4}` range.
        SeedsSpread => (
            "{0} 放大倍数：{1}x ~ {2}x，均值 {3}x，极差 {4}",
            "{0} amplification: {1}x ~ {2}x, mean {3}x, range {4}"
        ),
        /// The budget check's header: `{0}` seed.
        BudgetCheck => (
            "预算归零对照：budgetPct 全部改成 100，seed={0}",
            "Budget check: every budgetPct forced to 100, seed={0}"
        ),
        /// A budget-forced row: `{0}` the padded name, `{1}` amplification, `{2}` delivery,
        /// `{3}` peak, `{4}` overload seconds, `{5}` p50, `{6}` p99.
        ForcedRow => (
            "  {0}{1} / {2} / 峰值 {3} / 过载 {4}s / p50 {5} ms / p99 {6} ms",
            "  {0}{1} / {2} / peak {3} / overload {4}s / p50 {5} ms / p99 {6} ms"
        ),
        /// The reproduction checks' header: `{0}` seed (the Chinese is the article's word).
        ChecksHeader => ("判定标准（seed={0}）", "The article's reproduction checks (seed={0})"),
        /// An acceptance check's line: `{0}` PASS/FAIL, `{1}` its name, `{2}` its detail.
        CheckLine => ("  [{0}] {1}：{2}", "  [{0}] {1}: {2}"),
        /// The `breaker` report's header: `{0}` capacity, `{1}`~`{2}` the outage, `{3}` seed.
        BreakerHeader => (
            "熔断单变量对照（容量 {0}，故障 {1}~{2} 秒，seed={3}）",
            "Breaker, one variable at a time (capacity {0}, outage in seconds {1}~{2}, seed={3})"
        ),
        /// The `breaker` report's heading: the group.
        Group => ("组", "group"),
        /// The `breaker` report's heading: the budget.
        Budget => ("预算", "budget"),
        /// The `breaker` report's heading: the deadline.
        Deadline => ("deadline", "deadline"),
        /// The `breaker` report's heading: the trip threshold.
        TripsAt => ("跳闸阈值", "trips at"),
        /// The `breaker` report's heading: delivery.
        BreakerDelivery => ("交付率", "deliv."),
        /// The `breaker` report's heading: the peak.
        Peak => ("峰值", "peak"),
        /// The `breaker` report's heading: the seconds it tripped.
        TrippedAt => ("跳闸发生在", "tripped at"),
        /// The `breaker` report's heading: harmful rejections.
        Harmful => ("误伤数", "harmful"),
        /// A budget that is off (100%).
        Off => ("关", "off"),
    }
}

crate::catalogue! {
    /// The article's four acceptance checks, by name: the Chinese reports print the
    /// article's words with their English gloss, English pages and `--lang en` the English.
    pub(crate) enum Check {
        /// S4's overload seconds against S2's.
        Overload => (
            "S4 的过载秒远小于 S2 (overload seconds of S4 at most half of S2's)",
            "Overload seconds of S4 at most half of S2's"
        ),
        /// S1's amplification against S2's and S3's.
        Amplification => (
            "S1 的放大倍数低于 S2 和 S3 (S1 amplifies less than S2 and S3)",
            "S1 amplifies less than S2 and S3"
        ),
        /// S4's recovery window against S2's and S3's.
        RecoveryWindow => (
            "恢复后 3 秒到达总量 S4 远小于 S2 与 S3 (S4's recovery window at most half of S2's and S3's)",
            "S4's arrivals in the 3 s after recovery at most half of S2's and S3's"
        ),
        /// S4 against S3 with every budget forced to 100.
        BudgetForced => (
            "预算改成 100 后 S4 逐位等于 S3 (with budget 100, S4 equals S3 in every figure)",
            "With budget 100, S4 equals S3 in every figure"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::problems;

    #[test]
    fn catalogues_are_sound() {
        assert_eq!(problems::<Text>(), Vec::<String>::new());
        assert_eq!(problems::<Check>(), Vec::<String>::new());
    }
}
