//! Every word drawn inside the charts (titles, axis descriptions, legends, captions and
//! the readout's labels), in Chinese and English: the one place they live, so a chart
//! module holds no literal text and a chart comes out in the page's language.
//!
//! A text is a template whose `{0}`, `{1}` … are filled by [`fill`]; both languages of a
//! text have the same placeholders (a test checks it).

use retrystorm::lang::Lang;

/// A text drawn in a chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// The classic chart's time axis.
    Second,
    /// The classic chart's value axis, attempts.
    AttemptsPerSecond,
    /// The classic chart's value axis, cost.
    CostPerSecond,
    /// The outage window's legend entry: `{0}` from, `{1}` to (seconds).
    Outage,
    /// The capacity line's legend entry (classic): `{0}` attempts per second.
    Capacity,
    /// The over-capacity zone's legend entry (classic).
    OverCapacity,
    /// The classic readout's title: `{0}` the second.
    SecondCost,
    /// The classic readout's title: `{0}` the second, `{1}` the capacity.
    SecondCapacity,
    /// How a tier is called through a route: `{0}` caller, `{1}` callee, `{2}` percent.
    RouteInto,
    /// A tier's attempts panel: `{0}` tier, `{1}` its route ([`Text::RouteInto`]).
    TierCaption,
    /// A tier's cost panel: `{0}` tier, `{1}` its route.
    TierCostCaption,
    /// Legend: the first attempts' bars.
    FirstAttempts,
    /// Legend: the retries' bars.
    Retries,
    /// Legend: a tier's capacity line, `{0}` per second.
    CapacityPerS,
    /// Legend: a fault window.
    Fault,
    /// Legend: the pinned run A's attempts.
    PinnedAttempts,
    /// Legend: a route's cost per second, `{0}` the route.
    RouteCost,
    /// Legend: the pinned run A's cost per second.
    PinnedCost,
    /// The breaker band's caption: `{0}` tier, `{1}` instances.
    BreakerBand,
    /// The breaker band's caption with one strip per route: `{0}` tier, `{1}` instances.
    RouteBreakerBand,
    /// The queue panel's caption.
    QueueCaption,
    /// The latency panel's caption.
    LatencyCaption,
    /// Legend: p99 of the bucket, `{0}` the run's p99 in ms.
    P99Run,
    /// Legend: p50 of the bucket, `{0}` the run's p50 in ms.
    P50Run,
    /// Legend: the pinned run A's p99.
    PinnedP99,
    /// Readout label: a tier's attempts, `{0}` tier.
    ReadAttempts,
    /// Readout value: `{0}` first, `{1}` retries, `{2}` total per second.
    ReadAttemptsValue,
    /// Readout value suffix: `{0}` the tier's capacity per second.
    ReadCapacity,
    /// Readout label: a tier's outcomes, `{0}` tier.
    ReadOutcomes,
    /// Readout value: ok, timeouts, 503s, 500s, breaker and budget refusals (`{0}`…`{5}`).
    ReadOutcomesValue,
    /// Readout label: a tier's queue and requests in flight, `{0}` tier.
    ReadQueue,
    /// Readout label: a tier's breakers, `{0}` tier.
    ReadBreakers,
    /// Readout label: a route's breakers, `{0}` route.
    ReadRouteBreakers,
    /// Readout value: `{0}` open, `{1}` half-open, `{2}` closed.
    ReadBreakersValue,
    /// Readout label: the entry requests' latency.
    ReadLatency,
    /// Readout value: a bucket in which no entry request succeeded (no latency to show).
    NoSuccesses,
    /// Readout label: a route's cost, `{0}` route.
    ReadCost,
    /// Readout value: `{0}` the bucket's cost, `{1}` per second.
    ReadCostValue,
    /// The classic banded readout's title: `{0}` second, `{1}` capacity, `{2}` seeds.
    BandSecondCapacity,
    /// What a cluster banded readout's title adds: `{0}` seeds, `{1}` the single run's seed.
    BandClusterTitle,
    /// A tier's banded attempts in the readout: `{0}` the median [p5–p95] per second.
    BandAttemptsValue,
    /// Legend: a tier's banded attempts, `{0}` seeds.
    BandLegend,
}

impl Text {
    /// Every text, for the tests.
    pub const ALL: [Text; 42] = [
        Text::Second,
        Text::AttemptsPerSecond,
        Text::CostPerSecond,
        Text::Outage,
        Text::Capacity,
        Text::OverCapacity,
        Text::SecondCost,
        Text::SecondCapacity,
        Text::RouteInto,
        Text::TierCaption,
        Text::TierCostCaption,
        Text::FirstAttempts,
        Text::Retries,
        Text::CapacityPerS,
        Text::Fault,
        Text::PinnedAttempts,
        Text::RouteCost,
        Text::PinnedCost,
        Text::BreakerBand,
        Text::RouteBreakerBand,
        Text::QueueCaption,
        Text::LatencyCaption,
        Text::P99Run,
        Text::P50Run,
        Text::PinnedP99,
        Text::ReadAttempts,
        Text::ReadAttemptsValue,
        Text::ReadCapacity,
        Text::ReadOutcomes,
        Text::ReadOutcomesValue,
        Text::ReadQueue,
        Text::ReadBreakers,
        Text::ReadRouteBreakers,
        Text::ReadBreakersValue,
        Text::ReadLatency,
        Text::NoSuccesses,
        Text::ReadCost,
        Text::ReadCostValue,
        Text::BandSecondCapacity,
        Text::BandClusterTitle,
        Text::BandAttemptsValue,
        Text::BandLegend,
    ];

    /// The text as (Chinese, English).
    pub fn both(self) -> (&'static str, &'static str) {
        match self {
            Text::Second => ("秒", "second"),
            Text::AttemptsPerSecond => ("每秒尝试次数", "attempts per second"),
            Text::CostPerSecond => ("每秒成本", "cost per second"),
            Text::Outage => ("故障 [{0}, {1})", "outage [{0}, {1})"),
            Text::Capacity => ("容量 {0}", "capacity {0}"),
            Text::OverCapacity => ("超出容量", "over capacity"),
            Text::SecondCost => ("第 {0} 秒 · 成本", "second {0} · cost"),
            Text::SecondCapacity => ("第 {0} 秒 · 容量 {1}", "second {0} · capacity {1}"),
            Text::RouteInto => (
                "（路由 {0} → {1}，占调用的 {2}%）",
                " (route {0} → {1}, {2}% of the calls)",
            ),
            Text::TierCaption => (
                "{0}{1}：每秒尝试次数（首次尝试 + 重试）",
                "{0}{1}: attempts per second (first attempts + retries)",
            ),
            Text::TierCostCaption => (
                "{0}{1}：每秒成本（调用它的路由的尝试）",
                "{0}{1}: cost per second (the attempts of the route calling it)",
            ),
            Text::FirstAttempts => ("首次尝试", "first attempts"),
            Text::Retries => ("重试", "retries"),
            Text::CapacityPerS => ("容量 {0}/s", "capacity {0}/s"),
            Text::Fault => ("故障", "fault"),
            Text::PinnedAttempts => ("A（固定）：尝试", "A (pinned): attempts"),
            Text::RouteCost => ("{0} 成本/s", "{0} cost/s"),
            Text::PinnedCost => ("A（固定）：成本/s", "A (pinned): cost/s"),
            Text::BreakerBand => (
                "{0}：熔断器打开（红）和半开（琥珀）的实例数，共 {1} 个",
                "{0}: instances with their breaker open (red) and half-open (amber), of {1}",
            ),
            Text::RouteBreakerBand => (
                "{0}：每条路由熔断器打开（红）和半开（琥珀）的实例数，各 {1} 个",
                "{0}: per route, instances with its breaker open (red) and half-open (amber), of {1}",
            ),
            Text::QueueCaption => (
                "各层队列深度（粗线）和在途请求（细线），桶末时刻",
                "queue depth (solid) and requests in flight (thin) per tier, end of bucket",
            ),
            Text::LatencyCaption => (
                "入口请求：每个桶内成功请求的端到端延迟，ms",
                "entry requests: end-to-end latency of the successes in each bucket, ms",
            ),
            Text::P99Run => ("p99（全程 {0} ms）", "p99 (run {0} ms)"),
            Text::P50Run => ("p50（全程 {0} ms）", "p50 (run {0} ms)"),
            Text::PinnedP99 => ("A（固定）：p99", "A (pinned): p99"),
            Text::ReadAttempts => ("{0} 尝试", "{0} attempts"),
            Text::ReadAttemptsValue => (
                "首次 {0} + 重试 {1} = {2}/s",
                "{0} first + {1} retries = {2}/s",
            ),
            Text::ReadCapacity => ("（容量 {0}）", " (capacity {0})"),
            Text::ReadOutcomes => ("{0} 结果", "{0} outcomes"),
            Text::ReadOutcomesValue => (
                "成功 {0} · 超时 {1} · 503 {2} · 500 {3} · 熔断 {4} · 预算 {5}",
                "ok {0} · timeout {1} · 503 {2} · 500 {3} · breaker {4} · budget {5}",
            ),
            Text::ReadQueue => ("{0} 队列 / 在途", "{0} queue / in flight"),
            Text::ReadBreakers => ("{0} 熔断器", "{0} breakers"),
            Text::ReadRouteBreakers => ("{0} 熔断器", "{0} breakers"),
            Text::ReadBreakersValue => (
                "{0} 打开 · {1} 半开 · {2} 关闭",
                "{0} open · {1} half-open · {2} closed",
            ),
            Text::ReadLatency => ("入口延迟 p50 / p99", "entry latency p50 / p99"),
            Text::NoSuccesses => ("无成功请求", "no successes"),
            Text::ReadCost => ("{0} 成本", "{0} cost"),
            Text::ReadCostValue => ("本桶 {0} · {1}/s", "{0} in the bucket · {1}/s"),
            Text::BandSecondCapacity => (
                "第 {0} 秒 · 容量 {1} · {2} 个种子的中位数 [p5–p95]",
                "second {0} · capacity {1} · median [p5–p95] of {2} seeds",
            ),
            Text::BandClusterTitle => (
                " · 尝试次数：{0} 个种子的中位数 [p5–p95]；其余各行：种子 {1}",
                " · attempts: median [p5–p95] of {0} seeds; the rest: seed {1}",
            ),
            Text::BandAttemptsValue => ("中位数 {0}/s", "median {0}/s"),
            Text::BandLegend => (
                "尝试次数：{0} 个种子的中位数与 p5–p95",
                "attempts: median, p5–p95 of {0} seeds",
            ),
        }
    }

    /// The text in `lang`, its placeholders unfilled.
    pub fn get(self, lang: Lang) -> &'static str {
        lang.of(self.both())
    }

    /// The text in `lang` with `{i}` replaced by `args[i]`.
    pub fn fill(self, lang: Lang, args: &[&dyn std::fmt::Display]) -> String {
        fill(self.get(lang), args)
    }
}

/// `template` with every `{i}` replaced by `args[i]` (a placeholder past the arguments
/// stays as it is).
pub fn fill(template: &str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = template.to_string();
    for (i, a) in args.iter().enumerate() {
        out = out.replace(&format!("{{{i}}}"), &a.to_string());
    }
    out
}

/// The placeholders a template uses, in order of their numbers.
pub fn placeholders(template: &str) -> Vec<usize> {
    let mut found: Vec<usize> = (0..10)
        .filter(|i| template.contains(&format!("{{{i}}}")))
        .collect();
    found.sort_unstable();
    found
}
