//! A sweep in plain words, for readers who do not write the CLI's syntax: each field and
//! metric by its label ("S6 · breaker trips after", "delivery"), whether a field is a
//! setting the reader chooses or a condition they live with (the offered load, the
//! outage), the lists the page's sweep form offers, and the trade-off controls as
//! choices ("at most 2 s in 95% of seeds") that map onto the definition's statistics.
//! The recommendation's sentence is [`super::advice`]'s.

use super::choose::{Constraint, Goal, MetricRef, Objective, Op, Stat};
use super::fields::numeric_fields;
use crate::ensemble::render::num;
use crate::lang::{Lang, Texts};
use crate::scenario::AnyScenario;
use serde::{Deserialize, Serialize};

crate::catalogue! {
    /// The words of the sweep form and its recommendation.
    pub enum Word {
        /// A label in its group: `{0}` the group (a strategy, a tier), `{1}` the label.
        InGroup => ("{0} · {1}", "{0} · {1}"),
        /// The group of a field every strategy has.
        EveryStrategy => ("所有策略", "every strategy"),
        /// A cluster load segment: `{0}` its number from 1.
        Segment => ("负载段 {0}", "load segment {0}"),
        /// A cluster fault: `{0}` its number from 1.
        Fault => ("故障 {0}", "fault {0}"),
        /// Clients.
        Clients => ("客户端数", "clients"),
        /// The run's length in seconds.
        DurationS => ("时长（秒）", "duration (s)"),
        /// The run's length in milliseconds.
        DurationMs => ("时长（毫秒）", "duration (ms)"),
        /// Capacity.
        Capacity => ("容量（次/秒）", "capacity (per s)"),
        /// Outage start.
        OutageFrom => ("故障开始（秒）", "outage starts (s)"),
        /// Outage end.
        OutageTo => ("故障结束（秒）", "outage ends (s)"),
        /// Upstream latency.
        Latency => ("上游延迟（毫秒）", "upstream latency (ms)"),
        /// The breaker's threshold.
        TripAfter => ("熔断阈值（连续失败次数）", "breaker trips after (failures)"),
        /// The breaker's open time.
        OpenS => ("熔断打开时长（秒）", "breaker stays open (s)"),
        /// Max retry.
        MaxRetry => ("最大重试次数", "max retries"),
        /// Base backoff.
        BaseMs => ("基础退避（毫秒）", "base backoff (ms)"),
        /// Retry budget.
        BudgetPct => ("重试预算（%）", "retry budget (%)"),
        /// Deadline.
        DeadlineMs => ("deadline（毫秒）", "deadline (ms)"),
        /// Offered load.
        Rate => ("到达负载（次/秒）", "offered load (per s)"),
        /// The load's deadline.
        LoadDeadline => ("请求 deadline（毫秒）", "request deadline (ms)"),
        /// The jitter of constant arrivals.
        ArrivalJitter => ("到达抖动（毫秒）", "arrival jitter (ms)"),
        /// A segment's or fault's start.
        StartMs => ("开始（毫秒）", "starts (ms)"),
        /// A segment's end.
        EndMs => ("结束（毫秒）", "ends (ms)"),
        /// Instances.
        Instances => ("实例数", "instances"),
        /// Concurrency.
        Concurrency => ("每实例并发", "concurrency per instance"),
        /// Queue capacity.
        QueueCapacity => ("队列容量", "queue capacity"),
        /// Error rate.
        ErrorRate => ("错误率", "error rate"),
        /// Client timeout.
        Timeout => ("客户端超时（毫秒）", "client timeout (ms)"),
        /// Client attempts.
        MaxAttempts => ("最多尝试次数", "max attempts"),
        /// Delivery.
        Delivery => ("交付率", "delivery"),
        /// Answered delivery.
        Answered => ("应答交付率", "answered delivery"),
        /// Overload seconds.
        Overload => ("过载", "overload"),
        /// Amplification.
        Amplification => ("放大", "amplification"),
        /// Retry amplification.
        RetryAmplification => ("重试放大", "retry amplification"),
        /// Peak attempts per second.
        Peak => ("峰值 attempt", "peak attempts"),
        /// Median latency.
        LatencyP50 => ("中位延迟", "median latency"),
        /// 99th-percentile latency.
        LatencyP99 => ("p99 延迟", "p99 latency"),
        /// Breaker trips.
        BreakerTrips => ("熔断次数", "breaker trips"),
        /// Harmful breaker rejections.
        Harmful => ("熔断误伤", "harmful breaker rejections"),
        /// The recovery window's attempts.
        RecoveryWindow => ("恢复窗口内的 attempt", "attempts in the recovery window"),
        /// Attempts.
        Attempts => ("attempt 总数", "attempts"),
        /// Delivered requests.
        Delivered => ("已交付请求", "delivered requests"),
        /// Failed requests.
        Failed => ("失败请求", "failed requests"),
        /// Goodput.
        Goodput => ("有效吞吐", "goodput"),
        /// Success ratio.
        SuccessRatio => ("成功率", "success ratio"),
        /// Overload duration.
        OverloadDuration => ("过载时长", "overload"),
        /// Recovery time by cohorts (the run report's name for it).
        RecoveryTime => ("恢复时间（到达批次）", "recovery time (cohorts)"),
        /// Recovery time by goodput (the run report's name for it).
        GoodputRecovery => ("恢复时间（有效吞吐）", "recovery time (goodput)"),
        /// Did not recover (a 0/1 flag per seed).
        Metastable => ("未恢复", "did not recover"),
        /// Utilisation.
        Utilisation => ("利用率", "utilisation"),
        /// Mean queue length.
        MeanQueue => ("平均队列长度", "mean queue length"),
        /// Mean queue wait.
        MeanWait => ("平均排队等待", "mean queue wait"),
        /// Breaker openings.
        BreakerOpenings => ("熔断打开次数", "breaker openings"),
        /// Timeouts.
        Timeouts => ("超时", "timeouts"),
        /// Most is best.
        Maximise => ("越高越好", "as high as possible"),
        /// Least is best.
        Minimise => ("越低越好", "as low as possible"),
        /// At most.
        AtMost => ("至多", "at most"),
        /// At least.
        AtLeast => ("至少", "at least"),
        /// How sure: half the seeds.
        ShareHalf => ("在一半的种子中", "in half the seeds"),
        /// How sure: 75% of seeds.
        Share75 => ("在 75% 的种子中", "in 75% of seeds"),
        /// How sure: 95% of seeds.
        Share95 => ("在 95% 的种子中", "in 95% of seeds"),
        /// How sure: every seed.
        ShareEvery => ("在每个种子中", "in every seed"),
        /// How sure: on average.
        ShareMean => ("平均而言", "on average"),
        /// How sure: 25% of seeds.
        Share25 => ("在 25% 的种子中", "in 25% of seeds"),
        /// How sure: 5% of seeds.
        Share5 => ("在 5% 的种子中", "in 5% of seeds"),
        /// How sure: one seed.
        ShareOne => ("至少在一个种子中", "in at least one seed"),
    }
}

/// Whether a field is a setting the reader chooses (a retry policy, a breaker, capacity)
/// or a condition they do not (the load, the outage, the run's length): a sweep
/// recommends only settings.
pub fn is_setting(path: &str) -> bool {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    if path.starts_with("strategies[") || path.contains(".client.") {
        return true;
    }
    if path.starts_with("tiers[") {
        return matches!(leaf, "instances" | "concurrency" | "queue_capacity");
    }
    matches!(
        leaf,
        "capacity" | "breaker_trip_failures" | "breaker_open_s"
    ) && !path.contains('[')
}

/// The number in `strategies[5]` (the first index of a path).
fn index(path: &str) -> Option<usize> {
    let (_, rest) = path.split_once('[')?;
    rest.split_once(']')?.0.parse().ok()
}

/// A strategy's short name: its leading `S6` when it has one (the article's names are
/// `S6 预算+熔断`), else the whole name.
fn short_name(name: &str) -> &str {
    let first = name.split_whitespace().next().unwrap_or(name);
    let numbered =
        first.len() > 1 && first.starts_with('S') && first[1..].bytes().all(|b| b.is_ascii_digit());
    if numbered {
        first
    } else {
        name
    }
}

/// The group a path is in, as the reader knows it (`S6`, a tier's name, `fault 1`), or
/// `None` for the scenario's own fields.
pub fn group(s: &AnyScenario, path: &str, lang: Lang) -> Option<String> {
    let i = index(path);
    match s {
        AnyScenario::Classic(c) if path.starts_with("strategies[*]") => {
            let _ = c;
            Some(Word::EveryStrategy.get(lang).into())
        }
        AnyScenario::Classic(c) if path.starts_with("strategies[") => {
            let st = c.strategies.get(i?)?;
            Some(short_name(&st.name).into())
        }
        AnyScenario::Cluster(c) if path.starts_with("tiers[") => {
            Some(c.tiers.get(i?)?.name.clone())
        }
        AnyScenario::Cluster(_) if path.starts_with("load.schedule[") => {
            Some(Word::Segment.fill(lang, &[&(i? + 1)]))
        }
        AnyScenario::Cluster(_) if path.starts_with("faults[") => {
            Some(Word::Fault.fill(lang, &[&(i? + 1)]))
        }
        _ => None,
    }
}

/// The word of a field's last name, when it has one.
fn field_word(path: &str) -> Option<Word> {
    let leaf = path.rsplit('.').next()?;
    Some(match leaf {
        "clients" => Word::Clients,
        "duration_s" => Word::DurationS,
        "duration_ms" => Word::DurationMs,
        "capacity" => Word::Capacity,
        "from_s" => Word::OutageFrom,
        "to_s" => Word::OutageTo,
        "upstream_latency_ms" => Word::Latency,
        "breaker_trip_failures" => Word::TripAfter,
        "breaker_open_s" => Word::OpenS,
        "max_retry" => Word::MaxRetry,
        "base_ms" => Word::BaseMs,
        "budget_pct" => Word::BudgetPct,
        "deadline_ms" if path.starts_with("load.") => Word::LoadDeadline,
        "deadline_ms" => Word::DeadlineMs,
        "rate_per_s" => Word::Rate,
        "jitter_ms" if path.starts_with("load.") => Word::ArrivalJitter,
        "start_ms" => Word::StartMs,
        "end_ms" => Word::EndMs,
        "instances" => Word::Instances,
        "concurrency" => Word::Concurrency,
        "queue_capacity" => Word::QueueCapacity,
        "error_rate" => Word::ErrorRate,
        "timeout_ms" => Word::Timeout,
        "max_attempts" => Word::MaxAttempts,
        _ => return None,
    })
}

/// `label` in its group: `S6 · breaker trips after (failures)`.
fn in_group(group: Option<String>, label: String, lang: Lang) -> String {
    match group {
        Some(g) => Word::InGroup.fill(lang, &[&g, &label]),
        None => label,
    }
}

/// A field's label in `s`: `S6 · breaker trips after (failures)`, `offered load (per s)`;
/// the path itself for a field without words.
pub fn field_label(s: &AnyScenario, path: &str, lang: Lang) -> String {
    match field_word(path) {
        Some(w) => in_group(group(s, path, lang), w.get(lang).into(), lang),
        None => path.into(),
    }
}

/// How a metric's value reads: its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A percentage (`90%`).
    Pct,
    /// Seconds (`2 s`).
    S,
    /// Milliseconds (`300 ms`).
    Ms,
    /// A ratio (`1.2x`).
    Ratio,
    /// Per second (`950/s`).
    PerS,
    /// A count or a plain number.
    Count,
    /// A yes/no per seed (1 when it happened): its mean is the share of seeds.
    Flag,
}

impl Unit {
    /// What follows a number in this unit: `%`, ` s`, `x` (empty for a plain number).
    pub fn suffix(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Unit::Pct, _) => "%",
            (Unit::S, Lang::En) => " s",
            (Unit::S, Lang::Zh) => " 秒",
            (Unit::Ms, _) => " ms",
            (Unit::Ratio, _) => "x",
            (Unit::PerS, _) => "/s",
            (Unit::Count | Unit::Flag, _) => "",
        }
    }

    /// `v` with this unit.
    pub fn show(self, v: f64, lang: Lang) -> String {
        format!("{}{}", num(v), self.suffix(lang))
    }
}

/// The metrics the form lists, with their words and units: the classic model's per
/// strategy, the cluster model's for the whole run and per tier.
const CLASSIC_METRICS: &[(&str, Word, Unit)] = &[
    ("delivery_pct", Word::Delivery, Unit::Pct),
    ("overload_seconds", Word::Overload, Unit::S),
    ("amplification", Word::Amplification, Unit::Ratio),
    ("peak", Word::Peak, Unit::PerS),
    ("p50_ms", Word::LatencyP50, Unit::Ms),
    ("p99_ms", Word::LatencyP99, Unit::Ms),
    ("breaker_trips", Word::BreakerTrips, Unit::Count),
    ("breaker_harmful", Word::Harmful, Unit::Count),
    ("recovery_window_total", Word::RecoveryWindow, Unit::Count),
    ("answered_pct", Word::Answered, Unit::Pct),
    ("attempts", Word::Attempts, Unit::Count),
    ("delivered", Word::Delivered, Unit::Count),
    ("failed", Word::Failed, Unit::Count),
];

const RUN_METRICS: &[(&str, Word, Unit)] = &[
    ("goodput_per_s", Word::Goodput, Unit::PerS),
    ("success_ratio", Word::SuccessRatio, Unit::Count),
    ("metastable", Word::Metastable, Unit::Flag),
    ("recovery_time_ms", Word::RecoveryTime, Unit::Ms),
    ("goodput_recovery_ms", Word::GoodputRecovery, Unit::Ms),
    ("overload_duration_ms", Word::OverloadDuration, Unit::Ms),
    ("amplification", Word::Amplification, Unit::Ratio),
    ("latency_ms.p50", Word::LatencyP50, Unit::Ms),
    ("latency_ms.p99", Word::LatencyP99, Unit::Ms),
];

const TIER_METRICS: &[(&str, Word, Unit)] = &[
    ("utilisation", Word::Utilisation, Unit::Count),
    ("amplification", Word::Amplification, Unit::Ratio),
    ("retry_amplification", Word::RetryAmplification, Unit::Ratio),
    ("mean_queue_length", Word::MeanQueue, Unit::Count),
    ("mean_wait_ms", Word::MeanWait, Unit::Ms),
    ("breaker_openings", Word::BreakerOpenings, Unit::Count),
    ("totals.timeouts", Word::Timeouts, Unit::Count),
];

/// The table a metric's group takes its words from, and the rest of its name.
fn metric_entry(metric: &str) -> Option<(Word, Unit)> {
    let (table, rest) = if let Some(r) = metric.strip_prefix("run.") {
        (RUN_METRICS, r)
    } else if metric.starts_with("tiers[") {
        (TIER_METRICS, metric.split_once("].")?.1)
    } else if metric.starts_with("strategies[") {
        (CLASSIC_METRICS, metric.split_once("].")?.1)
    } else {
        return None;
    };
    table
        .iter()
        .find(|(name, ..)| *name == rest)
        .map(|&(_, w, u)| (w, u))
}

/// A metric's unit (a plain number when it has no words).
pub fn unit(metric: &str) -> Unit {
    metric_entry(metric).map_or(Unit::Count, |(_, u)| u)
}

/// A metric's label in `s`: `S6 · delivery`, `goodput`, `api · utilisation`; the name
/// itself for a metric without words.
pub fn metric_label(s: &AnyScenario, metric: &str, lang: Lang) -> String {
    match metric_entry(metric) {
        Some((w, _)) if metric.starts_with("run.") => w.get(lang).into(),
        Some((w, _)) => in_group(group(s, metric, lang), w.get(lang).into(), lang),
        None => metric.into(),
    }
}

/// A metric without its group's words: `delivery` (for a sentence whose group is clear).
pub fn metric_bare(metric: &str, lang: Lang) -> String {
    metric_entry(metric).map_or_else(|| metric.into(), |(w, _)| w.get(lang).into())
}

/// One field the form lists.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChoice {
    /// Its path (`strategies[5].breaker_trip_failures`).
    pub path: String,
    /// Its label (`S6 · breaker trips after (failures)`).
    pub label: String,
    /// Smallest value validation accepts here.
    pub min: f64,
    /// Largest value validation accepts here.
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    /// A setting the reader chooses, not a condition ([`is_setting`]).
    pub setting: bool,
}

/// Every field of `s` a sweep may vary ([`numeric_fields`]), labelled in `lang`.
pub fn field_choices(s: &AnyScenario, lang: Lang) -> Vec<FieldChoice> {
    numeric_fields(s)
        .into_iter()
        .map(|f| FieldChoice {
            label: field_label(s, &f.path, lang),
            setting: is_setting(&f.path),
            path: f.path,
            min: f.min,
            max: f.max,
            integer: f.integer,
        })
        .collect()
}

/// One metric the form lists.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricChoice {
    /// `<group>.<metric>` (`strategies[5].delivery_pct`).
    pub metric: String,
    /// Its label (`S6 · delivery`).
    pub label: String,
    /// Its unit.
    pub unit: Unit,
    /// What follows a value of it (`%`, `s`), for a threshold's input; empty for a count.
    pub symbol: String,
}

/// The metrics of `s` the form lists, labelled in `lang`: every strategy's (classic),
/// the run's then every tier's (cluster).
pub fn metric_choices(s: &AnyScenario, lang: Lang) -> Vec<MetricChoice> {
    let mut names = Vec::new();
    match s {
        AnyScenario::Classic(c) => {
            for i in 0..c.strategies.len() {
                names.extend(
                    CLASSIC_METRICS
                        .iter()
                        .map(|m| format!("strategies[{i}].{}", m.0)),
                );
            }
        }
        AnyScenario::Cluster(c) => {
            names.extend(RUN_METRICS.iter().map(|m| format!("run.{}", m.0)));
            for i in 0..c.tiers.len() {
                names.extend(TIER_METRICS.iter().map(|m| format!("tiers[{i}].{}", m.0)));
            }
        }
    }
    names
        .into_iter()
        .map(|metric| MetricChoice {
            label: metric_label(s, &metric, lang),
            unit: unit(&metric),
            symbol: unit(&metric).suffix(lang).trim().into(),
            metric,
        })
        .collect()
}

/// How many of the seeds a constraint speaks for: what its statistic means with its
/// comparison (`p95 ≤ 2` holds in 95% of seeds; `p5 ≥ 90` too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Share {
    /// Half the seeds (the median).
    Half,
    /// 75% of them.
    P75,
    /// 95% of them.
    P95,
    /// Every seed (the worst one).
    Every,
    /// On average (the mean).
    Mean,
}

/// The shares the form offers, in order.
pub const SHARES: [Share; 5] = [
    Share::Half,
    Share::P75,
    Share::P95,
    Share::Every,
    Share::Mean,
];

impl Share {
    /// Its words.
    pub fn word(self) -> Word {
        match self {
            Share::Half => Word::ShareHalf,
            Share::P75 => Word::Share75,
            Share::P95 => Word::Share95,
            Share::Every => Word::ShareEvery,
            Share::Mean => Word::ShareMean,
        }
    }

    /// The statistic that holds for this share of seeds under `op`.
    pub fn stat(self, op: Op) -> Stat {
        match (self, op) {
            (Share::Half, _) => Stat::Median,
            (Share::Mean, _) => Stat::Mean,
            (Share::P75, Op::AtMost) => Stat::P75,
            (Share::P75, Op::AtLeast) => Stat::P25,
            (Share::P95, Op::AtMost) => Stat::P95,
            (Share::P95, Op::AtLeast) => Stat::P5,
            (Share::Every, Op::AtMost) => Stat::Max,
            (Share::Every, Op::AtLeast) => Stat::Min,
        }
    }

    /// The share `stat` speaks for under `op`, when the form offers it.
    pub fn of(stat: Stat, op: Op) -> Option<Share> {
        SHARES.into_iter().find(|s| s.stat(op) == stat)
    }
}

/// What `stat` under `op` says of the seeds: `in 95% of seeds`.
pub(crate) fn share_words(stat: Stat, op: Op, lang: Lang) -> &'static str {
    let w = match (stat, op) {
        (Stat::Mean, _) => Word::ShareMean,
        (Stat::Median, _) => Word::ShareHalf,
        (Stat::P75, Op::AtMost) | (Stat::P25, Op::AtLeast) => Word::Share75,
        (Stat::P95, Op::AtMost) | (Stat::P5, Op::AtLeast) => Word::Share95,
        (Stat::Max, Op::AtMost) | (Stat::Min, Op::AtLeast) => Word::ShareEvery,
        (Stat::P25, Op::AtMost) | (Stat::P75, Op::AtLeast) => Word::Share25,
        (Stat::P5, Op::AtMost) | (Stat::P95, Op::AtLeast) => Word::Share5,
        (Stat::Min, Op::AtMost) | (Stat::Max, Op::AtLeast) => Word::ShareOne,
    };
    w.get(lang)
}

/// A constraint in words: `overload ≤ 2 s in 95% of seeds` (`label` names the metric).
pub fn constraint_words(c: &Constraint, label: &str, lang: Lang) -> String {
    let op = match c.op {
        Op::AtMost => "≤",
        Op::AtLeast => "≥",
    };
    let u = unit(&c.of.metric);
    let share = share_words(c.of.stat, c.op, lang);
    match lang {
        Lang::En => format!("{label} {op} {} {share}", u.show(c.value, lang)),
        Lang::Zh => format!("{share}{label} {op} {}", u.show(c.value, lang)),
    }
}

/// The trade-off controls as the form holds them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormChoices {
    /// The objective's metric and goal, or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<FormObjective>,
    /// The thresholds.
    #[serde(default)]
    pub constraints: Vec<FormConstraint>,
}

/// The form's objective: a metric, as high or as low as possible (its median).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormObjective {
    /// `<group>.<metric>`.
    pub metric: String,
    /// Higher or lower is better.
    pub goal: Goal,
}

/// The form's threshold: a metric at most or at least a value, in a share of seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormConstraint {
    /// `<group>.<metric>`.
    pub metric: String,
    /// At most or at least.
    pub op: Op,
    /// The bound.
    pub value: f64,
    /// In how many of the seeds.
    pub share: Share,
}

impl FormChoices {
    /// The form's reading of a definition's objective and constraints; `None` when one
    /// of them is beyond the form (an objective on a statistic other than the median, a
    /// constraint on a statistic no share names): then the form shows the CLI's syntax.
    pub fn of(objective: Option<&Objective>, constraints: &[Constraint]) -> Option<FormChoices> {
        let objective = match objective {
            Some(o) if o.of.stat != Stat::Median => return None,
            Some(o) => Some(FormObjective {
                metric: o.of.metric.clone(),
                goal: o.goal,
            }),
            None => None,
        };
        let constraints = constraints
            .iter()
            .map(|c| {
                Some(FormConstraint {
                    metric: c.of.metric.clone(),
                    op: c.op,
                    value: c.value,
                    share: Share::of(c.of.stat, c.op)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(FormChoices {
            objective,
            constraints,
        })
    }

    /// The definition's objective and constraints these choices make.
    pub fn to_sweep(&self) -> (Option<Objective>, Vec<Constraint>) {
        let objective = self.objective.as_ref().map(|o| Objective {
            of: MetricRef {
                metric: o.metric.clone(),
                stat: Stat::Median,
            },
            goal: o.goal,
        });
        let constraints = self
            .constraints
            .iter()
            .map(|c| Constraint {
                of: MetricRef {
                    metric: c.metric.clone(),
                    stat: c.share.stat(c.op),
                },
                op: c.op,
                value: c.value,
            })
            .collect();
        (objective, constraints)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::problems;

    fn article() -> AnyScenario {
        crate::scenario::parse(include_str!("../../../scenarios/article.json")).unwrap()
    }

    #[test]
    fn catalogue_is_sound() {
        assert_eq!(problems::<Word>(), Vec::<String>::new());
    }

    /// A peer's goodput figure can be compared with either recovery time: both are listed,
    /// named as the run report names them.
    #[test]
    fn both_recovery_times_are_listed_as_the_report_names_them() {
        use crate::cluster::texts::Text;
        let s = crate::scenario::parse(include_str!(
            "../../../scenarios/cluster-metastable-budget.json"
        ))
        .unwrap();
        for lang in [Lang::En, Lang::Zh] {
            let choices = metric_choices(&s, lang);
            let label = |m: &str| {
                let c = choices.iter().find(|c| c.metric == m);
                c.map(|c| (c.label.clone(), c.unit))
            };
            assert_eq!(
                label("run.recovery_time_ms"),
                Some((Text::RecoveryTime.get(lang).to_string(), Unit::Ms))
            );
            assert_eq!(
                label("run.goodput_recovery_ms"),
                Some((Text::GoodputRecoveryTime.get(lang).to_string(), Unit::Ms))
            );
        }
    }

    #[test]
    fn fields_and_metrics_read_as_labels() {
        let s = article();
        assert_eq!(
            field_label(&s, "strategies[5].breaker_trip_failures", Lang::En),
            "S6 · breaker trips after (failures)"
        );
        assert_eq!(
            field_label(&s, "strategies[*].budget_pct", Lang::En),
            "every strategy · retry budget (%)"
        );
        assert_eq!(
            metric_label(&s, "strategies[5].delivery_pct", Lang::En),
            "S6 · delivery"
        );
        assert_eq!(
            metric_label(&s, "strategies[5].delivery_pct", Lang::Zh),
            "S6 · 交付率"
        );
        // Every field and metric the form lists has words, not its path.
        for lang in [Lang::En, Lang::Zh] {
            for f in field_choices(&s, lang) {
                assert!(!f.label.contains('_'), "{}", f.label);
            }
            for m in metric_choices(&s, lang) {
                assert!(!m.label.contains('_'), "{}", m.label);
            }
        }
    }

    #[test]
    fn settings_are_not_conditions() {
        for p in [
            "strategies[5].breaker_trip_failures",
            "capacity",
            "tiers[1].instances",
        ] {
            assert!(is_setting(p), "{p}");
        }
        for p in [
            "load.rate_per_s",
            "load.schedule[0].end_ms",
            "clients",
            "outage.to_s",
            "faults[0].duration_ms",
        ] {
            assert!(!is_setting(p), "{p}");
        }
    }

    #[test]
    fn shares_map_to_the_statistic_that_holds() {
        assert_eq!(Share::P95.stat(Op::AtMost), Stat::P95);
        assert_eq!(Share::P95.stat(Op::AtLeast), Stat::P5);
        assert_eq!(Share::Every.stat(Op::AtLeast), Stat::Min);
        for s in SHARES {
            for op in [Op::AtMost, Op::AtLeast] {
                assert_eq!(Share::of(s.stat(op), op), Some(s));
                assert_eq!(
                    share_words(s.stat(op), op, Lang::En),
                    s.word().get(Lang::En)
                );
            }
        }
        let c = Constraint {
            of: MetricRef {
                metric: "strategies[5].overload_seconds".into(),
                stat: Stat::P95,
            },
            op: Op::AtMost,
            value: 2.0,
        };
        assert_eq!(
            constraint_words(&c, "overload", Lang::En),
            "overload ≤ 2 s in 95% of seeds"
        );
        assert_eq!(Unit::S.show(2.5, Lang::Zh), "2.5 秒");
        let delivery = metric_choices(&article(), Lang::En)
            .into_iter()
            .find(|m| m.metric == "strategies[5].delivery_pct")
            .unwrap();
        assert_eq!((delivery.unit, delivery.symbol.as_str()), (Unit::Pct, "%"));
    }
}
