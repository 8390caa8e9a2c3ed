//! failsafe-go builder chains as Go code writes them, read as the library does
//! (failsafe-go 5759a5e6: `retrypolicy/retry.go`, `retrypolicy/retryexecutor.go`,
//! `internal/util/util.go`, `circuitbreaker/circuitbreakerbuilder.go`,
//! `circuitbreaker/circuitstates.go`):
//!
//! - `retrypolicy.NewBuilder[any]()` (or the older `retrypolicy.Builder[any]()`, or
//!   `NewWithDefaults`): `WithMaxRetries(n)` counts retries (default 2), `WithMaxAttempts(n)`
//!   attempts; `WithDelay(d)`, `WithBackoff(d, max)` (factor 2), `WithBackoffFactor(d, max,
//!   f)`, `WithJitter(d)`, `WithJitterFactor(f)` (no delay by default); `WithMaxDuration`
//!   is said, not simulated;
//! - `circuitbreaker.NewBuilder[any]()`: `WithFailureThreshold(n)` (n failures in a row:
//!   all n of the last n), `WithFailureThresholdRatio(k, n)` and `WithFailureRateThreshold(r,
//!   m, period)` (the nearest Resilience4j window, said to differ), `WithDelay(d)` (default
//!   1 min), `WithSuccessThreshold(k)`. `WithFailureThresholdPeriod` (k failures within a
//!   period, whatever the successes) has no engine kind and is refused.

use super::golang::{self, calls, chain, duration_ns, line_of, number, whole, Link};
use super::policy::{Origins, Policy};
use super::Read;
use crate::cluster::libraries::FailsafeBackoff;
use crate::cluster::{Backoff, Breaker, Scope, WindowKind};
use crate::lang::{Lang, Texts};
use crate::validate::{echo, ErrorKind, ValidationError};

crate::catalogue! {
    /// What failsafe-go does that its builder does not say.
    pub enum Quirk {
        /// WithMaxRetries: `{0}` retries, `{1}` attempts.
        CountsRetries => ("WithMaxRetries({0}) 计的是重试次数：{1} 次尝试 = 1 次调用 + {0} 次重试", "WithMaxRetries({0}) counts retries: {1} attempts = 1 call + {0} retries"),
        /// WithMaxAttempts: `{0}` attempts, `{1}` retries.
        CountsAttempts => ("WithMaxAttempts({0}) 计的是尝试次数（含第一次调用）：{1} 次重试", "WithMaxAttempts({0}) counts attempts, the first call included: {1} retries"),
        /// No delay.
        NoDelay => ("没有 WithDelay/WithBackoff：failsafe-go 立即重试", "no WithDelay or WithBackoff: failsafe-go retries at once"),
        /// WithMaxDuration is not simulated: `{0}` its value.
        DurationNotSimulated => ("WithMaxDuration({0}) 未模拟：模拟中只按尝试次数停止重试", "WithMaxDuration({0}) is not simulated: the run stops retrying at the attempt limit only"),
        /// The jitter beats the factor.
        JitterWins => ("同时设置了 WithJitter 和 WithJitterFactor：failsafe-go 只用 WithJitter", "both WithJitter and WithJitterFactor are set: failsafe-go uses WithJitter only"),
        /// Half-open without a success threshold: `{0}` the failure threshold.
        HalfOpenFirstSuccess => ("没有 WithSuccessThreshold：failsafe-go 半开时第一次成功即关闭，{0} 次失败才重新打开；模拟中只放行 1 次试探，它失败即重新打开", "no WithSuccessThreshold: failsafe-go closes half-open at the first success and reopens after {0} failures; the run lets 1 probe through and reopens if it fails"),
        /// A ratio read as a Resilience4j count window: `{0}` failures, `{1}` executions.
        RatioDiffers => ("WithFailureThresholdRatio({0}, {1})：failsafe-go 在最近 {1} 次中失败达 {0} 次即打开，不等记录满 {1} 次；模拟按 Resilience4j 的计数窗口，记录满 {1} 次才判断", "WithFailureThresholdRatio({0}, {1}): failsafe-go opens at {0} failures of the last {1} executions without waiting for {1} to be recorded; the run judges a Resilience4j count window once {1} are recorded"),
        /// A rate over a period read as a Resilience4j time window.
        RateDiffers => ("WithFailureRateThreshold：failsafe-go 的时间窗口按桶滑动，模拟按 Resilience4j 的时间窗口（按秒）", "WithFailureRateThreshold: failsafe-go's time window slides by buckets; the run uses Resilience4j's time window (by the second)"),
        /// A budget not read.
        BudgetNotRead => ("WithBudget(…) 未读取：failsafe-go 的预算限制同时进行的重试数（max(maxRate × 执行数, minConcurrency)），模拟中没有它", "WithBudget(…) is not read: failsafe-go's budget limits the retries in flight (max(maxRate × executions, minConcurrency)); the run has none"),
        /// Lines not read: `{0}` their numbers.
        Unread => ("第 {0} 行不是重试或熔断设置，未读取", "lines {0} are not retry or breaker settings: not read"),
    }
}

/// The builders a chain can start from, retry policy first.
const RETRY_STARTS: [&str; 3] = [
    "retrypolicy.NewBuilder",
    "retrypolicy.Builder",
    "retrypolicy.NewWithDefaults",
];
const BREAKER_STARTS: [&str; 3] = [
    "circuitbreaker.NewBuilder",
    "circuitbreaker.Builder",
    "circuitbreaker.NewWithDefaults",
];

/// Whether a text looks like failsafe-go code.
pub fn looks_like(text: &str) -> bool {
    RETRY_STARTS
        .iter()
        .chain(&BREAKER_STARTS)
        .any(|s| text.contains(s))
}

/// The first builder chain starting at one of `starts`: its links and the line it
/// starts on.
fn builder(code: &str, starts: &[&str]) -> Option<(Vec<Link>, usize)> {
    starts.iter().find_map(|s| {
        calls(code, s)
            .next()
            .map(|(at, _, end)| (chain(code, end), line_of(code, at)))
    })
}

/// The key path of a link for messages: `retrypolicy.WithBackoff(…)`.
fn key(of: &str, l: &Link) -> String {
    format!("{of}.{}", l.name)
}

/// Exactly `n` arguments of a link.
fn arity<'l>(of: &str, l: &'l Link, n: usize, what: &str) -> Result<&'l [String], ValidationError> {
    if l.args.len() == n {
        Ok(&l.args)
    } else {
        Err(
            ValidationError::new(key(of, l), echo(&l.args.join(", ")), what.to_string())
                .of_kind(ErrorKind::Type),
        )
    }
}

/// Reads the retry policy and circuit breaker builders of the code.
pub fn read(text: &str, _name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let code = golang::uncommented(text);
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let mut read_lines = Vec::new();
    let retry = builder(&code, &RETRY_STARTS);
    let breaker_chain = builder(&code, &BREAKER_STARTS);
    if retry.is_none() && breaker_chain.is_none() {
        return Err(ValidationError::new(
            "retrypolicy",
            "missing",
            "a retrypolicy.NewBuilder[any]() or circuitbreaker.NewBuilder[any]() chain",
        ));
    }
    let r = "retrypolicy";
    let mut attempts: u64 = 3;
    let mut attempts_set = false;
    let mut b = FailsafeBackoff {
        delay_ms: 0.0,
        max_delay_ms: None,
        delay_factor: 2.0,
        jitter_factor: 0.0,
        jitter_ms: 0.0,
    };
    let mut delayed = false;
    let mut sources = Vec::new();
    if let Some((links, line)) = &retry {
        sources.push("retrypolicy");
        read_lines.push(*line);
        for l in links {
            read_lines.extend(line_of(&code, l.at)..=line_of(&code, l.at + l.args.join(",").len()));
            let k = key(r, l);
            match l.name.as_str() {
                "WithMaxRetries" => {
                    let [n] = arity(r, l, 1, "one argument, the number of retries")? else {
                        unreachable!()
                    };
                    let n = whole(n, &k, 0)? as u64;
                    attempts = n.saturating_add(1);
                    attempts_set = true;
                    origins.note("max_attempts", &k, n.to_string());
                    quirks.retain(|q: &String| !q.starts_with("WithMax"));
                    quirks.push(Quirk::CountsRetries.fill(lang, &[&n, &attempts]));
                }
                "WithMaxAttempts" => {
                    let [n] = arity(r, l, 1, "one argument, the number of attempts")? else {
                        unreachable!()
                    };
                    let n = whole(n, &k, 1)? as u64;
                    attempts = n;
                    attempts_set = true;
                    origins.note("max_attempts", &k, n.to_string());
                    quirks.retain(|q: &String| !q.starts_with("WithMax"));
                    quirks.push(Quirk::CountsAttempts.fill(lang, &[&n, &(n - 1)]));
                }
                "WithDelay" => {
                    let [d] = arity(r, l, 1, golang::DURATION)? else {
                        unreachable!()
                    };
                    b.delay_ms = duration_ns(d, &k)? / 1e6;
                    origins.note("backoff.delay_ms", &k, d.clone());
                    delayed = true;
                }
                "WithBackoff" | "WithBackoffFactor" => {
                    let factor = l.name == "WithBackoffFactor";
                    let a = arity(
                        r,
                        l,
                        if factor { 3 } else { 2 },
                        if factor {
                            "three arguments: the first delay, the max delay and the factor"
                        } else {
                            "two arguments: the first delay and the max delay"
                        },
                    )?;
                    b.delay_ms = duration_ns(&a[0], &format!("{k}.delay"))? / 1e6;
                    b.max_delay_ms = Some(duration_ns(&a[1], &format!("{k}.maxDelay"))? / 1e6);
                    b.delay_factor = if factor {
                        number(&a[2], &format!("{k}.delayFactor"))?
                    } else {
                        2.0
                    };
                    origins.note("backoff.delay_ms", format!("{k}.delay"), a[0].clone());
                    origins.note("backoff.max_delay_ms", format!("{k}.maxDelay"), a[1].clone());
                    if factor {
                        origins.note("backoff.delay_factor", format!("{k}.delayFactor"), a[2].clone());
                    }
                    delayed = true;
                }
                "WithJitter" => {
                    let [d] = arity(r, l, 1, golang::DURATION)? else {
                        unreachable!()
                    };
                    b.jitter_ms = duration_ns(d, &k)? / 1e6;
                    origins.note("backoff.jitter_ms", &k, d.clone());
                }
                "WithJitterFactor" => {
                    let [f] = arity(r, l, 1, "one argument, a factor from 0 to 1")? else {
                        unreachable!()
                    };
                    b.jitter_factor = number(f, &k)?;
                    // retry.go does not check it (above 1 a wait can go negative: no
                    // wait); the engine's factor is 0..=1, whatever the delay.
                    if !(0.0..=1.0).contains(&b.jitter_factor) {
                        return Err(ValidationError::new(
                            k,
                            echo(f),
                            "a factor from 0 to 1 (the engine's bound; failsafe-go does not check it)",
                        )
                        .of_kind(ErrorKind::Range));
                    }
                    origins.note("backoff.jitter_factor", &k, f.clone());
                }
                "WithMaxDuration" => {
                    let [d] = arity(r, l, 1, golang::DURATION)? else {
                        unreachable!()
                    };
                    duration_ns(d, &k)?;
                    quirks.push(Quirk::DurationNotSimulated.fill(lang, &[d]));
                }
                "WithBudget" => quirks.push(Quirk::BudgetNotRead.get(lang).to_string()),
                "WithRandomDelay" | "WithDelayFunc" => {
                    return Err(ValidationError::new(
                        k,
                        echo(&l.args.join(", ")),
                        "WithDelay, WithBackoff or WithBackoffFactor (the engine has no failsafe-go random or computed delay)",
                    )
                    .of_kind(ErrorKind::Type))
                }
                // What is retried and what is reported: not when.
                _ => {}
            }
        }
        if !attempts_set {
            defaults.push("WithMaxRetries(2)".to_string());
            quirks.insert(0, Quirk::CountsRetries.fill(lang, &[&2, &3]));
        }
        if !delayed {
            quirks.push(Quirk::NoDelay.get(lang).to_string());
        }
        if b.jitter_ms > 0.0 && b.jitter_factor > 0.0 {
            quirks.push(Quirk::JitterWins.get(lang).to_string());
        }
    } else {
        // A breaker alone: no retries.
        attempts = 1;
    }
    let backoff = if delayed {
        origins.note("backoff", "retrypolicy", "…");
        Backoff::FailsafeGo(b)
    } else {
        Backoff::None
    };
    let breaker = match &breaker_chain {
        Some((links, line)) => {
            sources.push("circuitbreaker");
            read_lines.push(*line);
            breaker(
                &code,
                links,
                &mut origins,
                &mut quirks,
                &mut defaults,
                &mut read_lines,
                lang,
            )?
        }
        None => Breaker::None,
    };
    if let Some(lines) = golang::unread_lines(&code, &read_lines) {
        quirks.push(Quirk::Unread.fill(lang, &[&lines]));
    }
    let mut policy = Policy::new(u32::try_from(attempts).unwrap_or(u32::MAX), backoff);
    policy.breaker = breaker;
    Ok(Read {
        source: sources.join(" + "),
        policy: origins.checked(policy)?,
        quirks,
        defaults,
    })
}

/// A rate of 0..1 as percent, to nine decimals: 0.07 is 7 %, not 7.000000000000001.
pub(crate) fn percent_of(rate: f64) -> f64 {
    (rate * 100.0 * 1e9).round() / 1e9
}

/// The circuit breaker of a `circuitbreaker` builder chain.
fn breaker(
    code: &str,
    links: &[Link],
    origins: &mut Origins,
    quirks: &mut Vec<String>,
    defaults: &mut Vec<String>,
    read_lines: &mut Vec<usize>,
    lang: Lang,
) -> Result<Breaker, ValidationError> {
    let c = "circuitbreaker";
    // (failures, executions, period ms, rate) as the builder keeps them.
    let mut threshold: (u64, u64) = (1, 1);
    let mut rate: Option<(f64, u64, f64)> = None;
    let mut threshold_key = None;
    let mut delay_ms = 60_000.0;
    let mut delay_set = false;
    let mut success: Option<u64> = None;
    for l in links {
        read_lines.extend(line_of(code, l.at)..=line_of(code, l.at + l.args.join(",").len()));
        let k = key(c, l);
        match l.name.as_str() {
            "WithFailureThreshold" => {
                let [n] = arity(c, l, 1, "one argument, the number of failures")? else {
                    unreachable!()
                };
                let n = whole(n, &k, 1)? as u64;
                threshold = (n, n);
                rate = None;
                threshold_key = Some((k, n.to_string()));
            }
            "WithFailureThresholdRatio" => {
                let a = arity(c, l, 2, "two arguments: failures and executions")?;
                let n = whole(&a[1], &format!("{k}.capacity"), 1)? as u64;
                let f = whole(&a[0], &format!("{k}.failures"), 1)? as u64;
                if f > n {
                    return Err(ValidationError::new(
                        format!("{k}.failures"),
                        echo(&a[0]),
                        format!("at most the executions ({n})"),
                    )
                    .of_kind(ErrorKind::Range));
                }
                threshold = (f, n);
                rate = None;
                threshold_key = Some((k, a.join(", ")));
            }
            "WithFailureRateThreshold" => {
                let a = arity(c, l, 3, "three arguments: the rate (0 to 1), the executions and the period")?;
                let r = number(&a[0], &format!("{k}.rate"))?;
                let m = whole(&a[1], &format!("{k}.executions"), 1)? as u64;
                let p = duration_ns(&a[2], &format!("{k}.period"))? / 1e6;
                if !(r > 0.0 && r <= 1.0) {
                    return Err(ValidationError::new(format!("{k}.rate"), echo(&a[0]), "a rate above 0, at most 1")
                        .of_kind(ErrorKind::Range));
                }
                if p < 1000.0 || p % 1000.0 != 0.0 {
                    return Err(ValidationError::new(
                        format!("{k}.period"),
                        echo(&a[2]),
                        "whole seconds, at least 1 (the engine's time window is counted in seconds)",
                    )
                    .of_kind(ErrorKind::Type));
                }
                rate = Some((r, m, p));
                threshold_key = Some((k, a.join(", ")));
            }
            "WithFailureThresholdPeriod" => {
                return Err(ValidationError::new(
                    k,
                    echo(&l.args.join(", ")),
                    "WithFailureThreshold, WithFailureThresholdRatio or WithFailureRateThreshold \
                     (the engine's breakers judge a run or a rate of failures, not a count within a period)",
                )
                .of_kind(ErrorKind::Type))
            }
            "WithDelay" => {
                let [d] = arity(c, l, 1, golang::DURATION)? else {
                    unreachable!()
                };
                delay_ms = duration_ns(d, &k)? / 1e6;
                delay_set = true;
                origins.note("breaker.open_ms", &k, d.clone());
                origins.note("breaker.wait_open_ms", &k, d.clone());
            }
            "WithSuccessThreshold" => {
                let [n] = arity(c, l, 1, "one argument, the number of successes")? else {
                    unreachable!()
                };
                let n = whole(n, &k, 1)? as u64;
                success = Some(n);
                origins.note("breaker.half_open_calls", &k, n.to_string());
            }
            "WithSuccessThresholdRatio" => {
                let a = arity(c, l, 2, "two arguments: successes and executions")?;
                let s = whole(&a[0], &format!("{k}.successes"), 1)? as u64;
                let n = whole(&a[1], &format!("{k}.capacity"), 1)? as u64;
                if s != n {
                    return Err(ValidationError::new(
                        k,
                        echo(&a.join(", ")),
                        "equal successes and executions, as WithSuccessThreshold(n) (the engine's half-open needs every probe to succeed)",
                    )
                    .of_kind(ErrorKind::Type));
                }
                success = Some(n);
                origins.note("breaker.half_open_calls", &k, a.join(", "));
            }
            "WithDelayFunc" => {
                return Err(ValidationError::new(
                    k,
                    echo(&l.args.join(", ")),
                    "WithDelay(d) (the engine has no computed breaker delay)",
                )
                .of_kind(ErrorKind::Type))
            }
            _ => {}
        }
    }
    if !delay_set {
        defaults.push("circuitbreaker.WithDelay(time.Minute)".to_string());
    }
    if threshold_key.is_none() {
        defaults.push("circuitbreaker.WithFailureThreshold(1)".to_string());
    }
    let (tkey, tvalue) = threshold_key.unwrap_or((
        "circuitbreaker.WithFailureThreshold".to_string(),
        "1".to_string(),
    ));
    let open_ms = delay_ms.round() as u64;
    let half_open_calls = u32::try_from(success.unwrap_or(1)).unwrap_or(u32::MAX);
    let consecutive = rate.is_none() && threshold.0 == threshold.1;
    if success.is_none() && (!consecutive || threshold.0 > 1) {
        quirks.push(Quirk::HalfOpenFirstSuccess.fill(lang, &[&threshold.0]));
    }
    Ok(if let Some((r, m, p)) = rate {
        origins.note("breaker.failure_rate_percent", &tkey, &tvalue);
        origins.note("breaker.minimum_calls", &tkey, &tvalue);
        origins.note("breaker.window_size", &tkey, &tvalue);
        quirks.push(Quirk::RateDiffers.get(lang).to_string());
        Breaker::Resilience4j {
            window: WindowKind::Time,
            window_size: u32::try_from((p / 1000.0) as u64).unwrap_or(u32::MAX),
            minimum_calls: u32::try_from(m).unwrap_or(u32::MAX),
            failure_rate_percent: percent_of(r),
            slow_call_ms: None,
            slow_call_rate_percent: 100.0,
            wait_open_ms: open_ms,
            open_jitter_ms: 0,
            half_open_calls,
            ramp_stage_ms: None,
            automatic_half_open: false,
            scope: Scope::PerInstance,
        }
    } else if consecutive {
        origins.note("breaker.failures", &tkey, &tvalue);
        Breaker::Consecutive {
            failures: u32::try_from(threshold.0).unwrap_or(u32::MAX),
            open_ms,
            open_jitter_ms: 0,
            half_open_calls,
            scope: Scope::PerInstance,
        }
    } else {
        origins.note("breaker.failure_rate_percent", &tkey, &tvalue);
        origins.note("breaker.window_size", &tkey, &tvalue);
        origins.note("breaker.minimum_calls", &tkey, &tvalue);
        quirks.push(Quirk::RatioDiffers.fill(lang, &[&threshold.0, &threshold.1]));
        let n = u32::try_from(threshold.1).unwrap_or(u32::MAX);
        Breaker::Resilience4j {
            window: WindowKind::Count,
            window_size: n,
            minimum_calls: n,
            failure_rate_percent: threshold.0 as f64 * 100.0 / threshold.1 as f64,
            slow_call_ms: None,
            slow_call_rate_percent: 100.0,
            wait_open_ms: open_ms,
            open_jitter_ms: 0,
            half_open_calls,
            ramp_stage_ms: None,
            automatic_half_open: false,
            scope: Scope::PerInstance,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
