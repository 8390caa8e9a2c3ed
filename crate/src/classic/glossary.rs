//! What each column of the classic results table means, with its unit: the page's
//! glossary under the table and its headers' descriptions, in the catalogue's two languages.

use super::engine::Output;
use super::report::{has_cost, table_in};
use crate::lang::{Lang, Texts};

crate::catalogue! {
    /// The definition of a results-table column, in the order of the table's columns.
    pub(crate) enum Meaning {
        /// The strategy column.
        Strategy => (
            "重试策略的名称（S1–S4 按位置参与文章的复现检查）",
            "the retry strategy's name (S1–S4 by position take part in the article's checks)"
        ),
        /// Amplification.
        Amplification => (
            "上游收到的 attempt 数 ÷ 业务请求数（倍，1.00x 即没有重试）",
            "attempts the upstream received ÷ business requests (a ratio; 1.00x means no retries)"
        ),
        /// Delivery.
        Delivery => (
            "拿到结果的业务请求占全部业务请求的比例（%）",
            "business requests that got their result, out of all business requests (%)"
        ),
        /// Peak attempts in a second.
        PeakQps => (
            "任一秒内上游收到的最多 attempt 数（次/秒）",
            "the most attempts the upstream received in any one second (attempts per second)"
        ),
        /// Overload seconds.
        OverloadS => (
            "attempt 数超过容量的秒数（秒）",
            "seconds in which the attempts exceeded the capacity (seconds)"
        ),
        /// Median latency.
        P50Ms => (
            "已交付请求的中位延迟：等待加上游延迟（毫秒）",
            "median latency of the delivered requests, waits plus upstream latency (ms)"
        ),
        /// 99th percentile latency.
        P99Ms => (
            "已交付请求的第 99 百分位延迟（毫秒）",
            "99th-percentile latency of the delivered requests (ms)"
        ),
        /// Breaker trips, the seconds they happened, harmful rejections.
        BreakerCell => (
            "熔断器打开的次数 / 打开时的秒 / 误伤数：在既非故障也未满载的秒里被拒的请求（次 / 秒 / 个）",
            "times the breaker opened / the seconds it opened / harmful: requests it refused in a second neither in the outage nor full (count / seconds / requests)"
        ),
        /// The recovery window.
        RecoveryWindow => (
            "故障结束后 3 秒内到达上游的 attempt 总数（次，不是时长）",
            "attempts reaching the upstream in the 3 s after the outage ends (a count, not a duration)"
        ),
        /// The answered view of delivery.
        Answered => (
            "已交付 ÷（业务请求 − 止于预算 − 止于熔断），不计客户端自行放弃的请求（%）",
            "delivered ÷ (business requests − ended budget − ended breaker), leaving out the requests the client gave up on by itself (%)"
        ),
        /// Requests delivered.
        Delivered => ("拿到结果的业务请求（个）", "business requests that got their result (requests)"),
        /// Requests that ended at the upstream.
        EndedUpstream => (
            "最后一次 attempt 在上游失败（故障或过载）且没有重试机会的业务请求（个）",
            "business requests whose last attempt failed at the upstream (outage or overload) with no retry left (requests)"
        ),
        /// Requests the deadline ended.
        EndedDeadline => ("被 deadline 截断的业务请求（个）", "business requests cut by the deadline (requests)"),
        /// Requests the budget ended.
        EndedBudget => (
            "重试预算耗尽、重试被放弃的业务请求（个）",
            "business requests whose retry the empty budget abandoned (requests)"
        ),
        /// Requests the breaker ended.
        EndedBreaker => ("被打开的熔断器拒绝的业务请求（个）", "business requests the open breaker refused (requests)"),
    }
}

pub use crate::glossary::Entry;

/// The glossary of [`table_in`]'s columns for `out`, in `lang`: one entry per column, in
/// the table's order (the cost columns only when the table has them).
pub fn glossary_in(out: &Output, lang: Lang) -> Vec<Entry> {
    let mut meanings: Vec<String> = Meaning::ALL.iter().map(|m| m.get(lang).into()).collect();
    if has_cost(out) {
        meanings.extend(crate::cost::glossary(lang).into_iter().map(|e| e.meaning));
    }
    table_in(out, lang)
        .columns
        .into_iter()
        .zip(meanings)
        .map(|(term, meaning)| Entry::new(term, meaning))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::{engine::simulate, scenario::Scenario};
    use crate::lang::problems;

    #[test]
    fn catalogue_is_sound() {
        assert_eq!(problems::<Meaning>(), Vec::<String>::new());
    }

    /// Every column of the table, with and without the cost columns, in both languages,
    /// has its own definition, and each names a unit in parentheses.
    #[test]
    fn every_column_has_a_definition_with_its_unit() {
        let plain = Scenario::article();
        let costly: Scenario =
            serde_json::from_str(include_str!("../../../scenarios/model-gateway-cost.json"))
                .unwrap();
        for sc in [plain, costly] {
            let out = simulate(&sc, sc.seed).unwrap();
            for lang in [Lang::En, Lang::Zh] {
                let columns = table_in(&out, lang).columns;
                let g = glossary_in(&out, lang);
                let terms: Vec<&String> = g.iter().map(|e| &e.term).collect();
                assert_eq!(terms, columns.iter().collect::<Vec<_>>());
                for e in &g {
                    assert!(crate::glossary::names_its_unit(&e.meaning), "{e:?}");
                }
                let meanings: std::collections::BTreeSet<&String> =
                    g.iter().map(|e| &e.meaning).collect();
                assert_eq!(meanings.len(), columns.len());
            }
        }
    }
}
