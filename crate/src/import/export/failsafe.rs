//! A policy as failsafe-go builder chains, the mirror of [`crate::import`]'s failsafe-go
//! reader: a `retrypolicy` with `WithMaxAttempts` and its delay and jitter, and a
//! `circuitbreaker` when the policy has a breaker failsafe-go can build.

use super::{nearest, nearest_wait, Cannot};
use crate::cluster::libraries::FailsafeBackoff;
use crate::cluster::{Backoff, Breaker, Jitter, Scope, WindowKind};
use crate::import::golang::write_duration;
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use std::fmt::Write;

crate::catalogue! {
    /// What failsafe-go's builders cannot say about a policy.
    pub enum Quirk {
        /// A budget: `{0}` the budget in words.
        OtherBudget => ("failsafe-go 的预算（budget 包）限制同时进行的重试数，策略中的预算未写入（{0}）", "failsafe-go's budget (its budget package) limits the retries in flight, so the policy's budget is left out ({0})"),
        /// A breaker it cannot build: `{0}` the breaker in words.
        OtherBreaker => ("failsafe-go 的熔断器按连续失败、计数窗口或时间窗口的失败率判断，且没有打开时长的抖动，策略中的熔断器未写入（{0}）", "failsafe-go's breaker judges failures in a row or a failure rate over a count or time window, without jitter on its delay, so the policy's breaker is left out ({0})"),
    }
}

/// `(text, what cannot be expressed)`: the Go code names its policies `retryPolicy` and
/// `breaker`.
pub fn write(p: &Policy, lang: Lang) -> (String, Vec<String>) {
    let lib = Library::Failsafe;
    let mut cannot = Vec::new();
    let mut chain = format!(
        "retryPolicy := retrypolicy.NewBuilder[any]().\n\tWithMaxAttempts({}).\n",
        p.max_attempts
    );
    let retries = p.max_attempts.saturating_sub(1);
    let f = match (&p.backoff, &p.jitter) {
        (Backoff::None, Jitter::None) => None,
        (Backoff::FailsafeGo(f), Jitter::None) => Some(f.clone()),
        (Backoff::Constant { ms }, Jitter::None) => Some(FailsafeBackoff {
            delay_ms: *ms as f64,
            max_delay_ms: None,
            delay_factor: 2.0,
            jitter_factor: 0.0,
            jitter_ms: 0.0,
        }),
        (other, _) => {
            let n = nearest(other, retries);
            // A wait that does not grow is WithDelay's constant.
            let grows = n.multiplier > 1.0 || n.max_ms > n.first_ms;
            let f = FailsafeBackoff {
                delay_ms: n.first_ms,
                max_delay_ms: grows.then_some(n.max_ms.max(n.first_ms)),
                delay_factor: if grows { n.multiplier } else { 2.0 },
                jitter_factor: 0.0,
                jitter_ms: 0.0,
            };
            cannot.extend(nearest_wait(lib, p, &Backoff::FailsafeGo(f.clone()), lang));
            Some(f)
        }
    };
    if let Some(f) = f {
        let _ = match f.max_delay_ms {
            None => writeln!(chain, "\tWithDelay({}).", write_duration(f.delay_ms)),
            Some(max) if f.delay_factor == 2.0 => writeln!(
                chain,
                "\tWithBackoff({}, {}).",
                write_duration(f.delay_ms),
                write_duration(max)
            ),
            Some(max) => writeln!(
                chain,
                "\tWithBackoffFactor({}, {}, {}).",
                write_duration(f.delay_ms),
                write_duration(max),
                f.delay_factor
            ),
        };
        if f.jitter_ms > 0.0 {
            let _ = writeln!(chain, "\tWithJitter({}).", write_duration(f.jitter_ms));
        }
        if f.jitter_factor > 0.0 {
            let _ = writeln!(chain, "\tWithJitterFactor({}).", f.jitter_factor);
        }
    }
    chain.push_str("\tBuild()\n");
    if let Some(w) = words::budget(&p.budget, lang) {
        cannot.push(Quirk::OtherBudget.fill(lang, &[&w]));
    }
    let breaker = breaker(&p.breaker);
    match (&breaker, words::breaker(&p.breaker, lang)) {
        (Some(_), _) if p.breaker.scope() == Scope::Shared => {
            cannot.push(Cannot::SharedBreaker.fill(lang, &[&lib.title()]))
        }
        (None, Some(w)) => cannot.push(Quirk::OtherBreaker.fill(lang, &[&w])),
        _ => {}
    }
    let mut out = format!(
        "// {}\n",
        super::Header::Written.fill(lang, &[&lib.title(), &"Go"])
    );
    for c in &cannot {
        let _ = writeln!(
            out,
            "// {}{c}",
            crate::import::texts::Text::Cannot.get(lang)
        );
    }
    out.push_str(&chain);
    if let Some(b) = breaker {
        out.push_str(&b);
    }
    (out, cannot)
}

/// The `circuitbreaker` chain of a breaker failsafe-go builds as the reader reads it.
fn breaker(b: &Breaker) -> Option<String> {
    let (threshold, open_ms, half) = match b {
        Breaker::Consecutive {
            failures,
            open_ms,
            open_jitter_ms: 0,
            half_open_calls,
            ..
        } => (
            format!("WithFailureThreshold({failures})"),
            *open_ms,
            *half_open_calls,
        ),
        Breaker::Resilience4j {
            window,
            window_size,
            minimum_calls,
            failure_rate_percent: rate,
            slow_call_ms: None,
            wait_open_ms,
            open_jitter_ms: 0,
            half_open_calls,
            ramp_stage_ms: None,
            automatic_half_open: false,
            ..
        } => {
            let t = match window {
                WindowKind::Count => {
                    let k = (rate * f64::from(*window_size) / 100.0).round();
                    // k of k reads back as failures in a row, another breaker.
                    let exact = k >= 1.0
                        && k < f64::from(*window_size)
                        && k * 100.0 / f64::from(*window_size) == *rate;
                    if minimum_calls != window_size || !exact {
                        return None;
                    }
                    format!("WithFailureThresholdRatio({k}, {window_size})")
                }
                WindowKind::Time => {
                    let r = rate / 100.0;
                    if crate::import::failsafe::percent_of(r) != *rate {
                        return None;
                    }
                    format!(
                        "WithFailureRateThreshold({r}, {minimum_calls}, {})",
                        write_duration(f64::from(*window_size) * 1000.0)
                    )
                }
            };
            (t, *wait_open_ms, *half_open_calls)
        }
        _ => return None,
    };
    Some(format!(
        "breaker := circuitbreaker.NewBuilder[any]().\n\t{threshold}.\n\tWithDelay({}).\n\tWithSuccessThreshold({half}).\n\tBuild()\n",
        write_duration(open_ms as f64)
    ))
}
