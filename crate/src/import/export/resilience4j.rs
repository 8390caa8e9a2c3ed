//! A policy as Spring Boot's `application.yml` for the Resilience4j starter: the mirror of
//! [`crate::import`]'s Spring reader, written so that the starter's quirks cannot bite
//! (`CommonRetryConfigurationProperties.configureRetryIntervalFunction`: every
//! `enable*` flag beside its `waitDuration`, the multiplier and the factor always
//! written beside their flags, so the max wait is kept).

use super::{checked_name, nearest, nearest_wait, Cannot, Header};
use crate::cluster::libraries::Resilience4jBackoff;
use crate::cluster::{Backoff, Breaker, Jitter, Scope, WindowKind};
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;
use std::fmt::Write;

crate::catalogue! {
    /// What Resilience4j's properties cannot say about a breaker.
    pub enum Quirk {
        /// A breaker without a slow-call threshold.
        SlowCallsAlways => ("Resilience4j 总会判断慢调用（slowCallDurationThreshold 默认 60 s，slowCallRateThreshold 默认 100%）：这个策略不判断慢调用，写入的是默认值", "Resilience4j always judges slow calls (slowCallDurationThreshold defaults to 60 s at a slowCallRateThreshold of 100%): this policy judges none, so the defaults are left"),
        /// The staged recovery.
        Ramp => ("半开之后的分阶段恢复（ramp_stage_ms）不是 Resilience4j 的行为：未写入", "the staged recovery after half-open (ramp_stage_ms) is not Resilience4j's: left out"),
    }
}

/// `(text, what cannot be expressed)` for instance `name`.
pub fn write(p: &Policy, name: &str, lang: Lang) -> Result<(String, Vec<String>), ValidationError> {
    checked_name(
        name,
        &['_', '-'],
        "an instance name of letters, digits, _ and -",
    )?;
    let lib = Library::Resilience4j;
    let mut cannot = Vec::new();
    let (backoff, exact) = retry_backoff(p);
    if !exact {
        cannot.extend(nearest_wait(
            lib,
            p,
            &Backoff::Resilience4j(backoff.clone()),
            lang,
        ));
    }
    if let Some(b) = words::budget(&p.budget, lang) {
        cannot.push(Cannot::NoBudget.fill(lang, &[&lib.title(), &b]));
    }
    let mut yaml = format!(
        "# {}\nresilience4j:\n  retry:\n    instances:\n      {name}:\n        maxAttempts: {}\n",
        Header::Written.fill(lang, &[&lib.title(), &"Spring Boot application.yml"]),
        p.max_attempts
    );
    retry(&mut yaml, &backoff);
    match &p.breaker {
        Breaker::None => {}
        Breaker::Resilience4j { .. } => {
            yaml.push_str("  circuitbreaker:\n    instances:\n");
            let _ = writeln!(yaml, "      {name}:");
            breaker(&mut yaml, &p.breaker, &mut cannot, lang);
        }
        other => {
            let b = words::breaker(other, lang).unwrap_or_default();
            cannot.push(Cannot::OtherBreaker.fill(lang, &[&lib.title(), &b]));
        }
    }
    Ok((with_notes(yaml, &cannot, lang), cannot))
}

/// The notes as comments under the header line.
fn with_notes(yaml: String, cannot: &[String], lang: Lang) -> String {
    let Some((head, rest)) = yaml.split_once('\n') else {
        return yaml;
    };
    let mut out = format!("{head}\n");
    for c in cannot {
        let _ = writeln!(out, "# {}{c}", crate::import::texts::Text::Cannot.get(lang));
    }
    out.push_str(rest);
    out
}

/// The retry's interval as Resilience4j writes it, and whether it is the policy's exactly.
/// `waitDuration: 0` (retry at once) has no engine kind of its own: it is `None`, and
/// `Constant` is a wait without flags.
fn retry_backoff(p: &Policy) -> (Resilience4jBackoff, bool) {
    let plain = |ms: u64| Resilience4jBackoff {
        wait_duration_ms: ms,
        exponential_backoff_multiplier: None,
        randomized_wait_factor: None,
        exponential_max_wait_duration_ms: None,
    };
    match (&p.backoff, &p.jitter) {
        (Backoff::Resilience4j(b), _) => {
            let mut b = b.clone();
            // The engine caps a wait without a multiplier too; the starter keeps the cap
            // only beside one, and × 1 keeps the wait what it was.
            if b.exponential_max_wait_duration_ms.is_some()
                && b.exponential_backoff_multiplier.is_none()
            {
                b.exponential_backoff_multiplier = Some(1.0);
            }
            (b, true)
        }
        (Backoff::None, Jitter::None) => (plain(0), true),
        (Backoff::Constant { ms }, Jitter::None) => (plain(*ms), true),
        (b, j) => {
            let n = nearest(b, p.max_attempts.saturating_sub(1));
            let first = n.first_ms.round() as u64;
            let mut r = plain(first);
            if n.multiplier > 1.0 || n.max_ms.round() as u64 > first {
                r.exponential_backoff_multiplier = Some(n.multiplier);
                r.exponential_max_wait_duration_ms = Some((n.max_ms.round() as u64).max(1));
            }
            if let Jitter::Percent { percent } = j {
                r.randomized_wait_factor = Some((percent / 100.0).min(0.999));
            }
            (r, false)
        }
    }
}

/// The retry instance's interval properties.
fn retry(yaml: &mut String, b: &Resilience4jBackoff) {
    let _ = writeln!(yaml, "        waitDuration: {}ms", b.wait_duration_ms);
    if let Some(m) = b.exponential_backoff_multiplier {
        let _ = writeln!(yaml, "        enableExponentialBackoff: true");
        let _ = writeln!(yaml, "        exponentialBackoffMultiplier: {m}");
        if let Some(max) = b.exponential_max_wait_duration_ms {
            let _ = writeln!(yaml, "        exponentialMaxWaitDuration: {max}ms");
        }
    }
    if let Some(f) = b.randomized_wait_factor {
        let _ = writeln!(yaml, "        enableRandomizedWait: true");
        let _ = writeln!(yaml, "        randomizedWaitFactor: {f}");
    }
}

/// A Spring duration of a whole number of µs: `500ms`, or `1250500us` (Spring's simple
/// style takes whole numbers only).
fn duration(ms: f64) -> String {
    let us = (ms * 1000.0).round() as u64;
    if us % 1000 == 0 {
        format!("{}ms", us / 1000)
    } else {
        format!("{us}us")
    }
}

/// The circuit breaker instance's properties (`CircuitBreakerConfig`'s names).
fn breaker(yaml: &mut String, b: &Breaker, cannot: &mut Vec<String>, lang: Lang) {
    let Breaker::Resilience4j {
        window,
        window_size,
        minimum_calls,
        failure_rate_percent,
        slow_call_ms,
        slow_call_rate_percent,
        wait_open_ms,
        open_jitter_ms,
        half_open_calls,
        ramp_stage_ms,
        automatic_half_open,
        scope,
    } = b
    else {
        return;
    };
    let mut line = |k: &str, v: String| {
        let _ = writeln!(yaml, "        {k}: {v}");
    };
    let kind = match window {
        WindowKind::Count => "COUNT_BASED",
        WindowKind::Time => "TIME_BASED",
    };
    line("slidingWindowType", kind.into());
    line("slidingWindowSize", window_size.to_string());
    line("minimumNumberOfCalls", minimum_calls.to_string());
    line("failureRateThreshold", failure_rate_percent.to_string());
    match slow_call_ms {
        Some(ms) => {
            line("slowCallRateThreshold", slow_call_rate_percent.to_string());
            line("slowCallDurationThreshold", format!("{ms}ms"));
        }
        None => cannot.push(Quirk::SlowCallsAlways.get(lang).to_string()),
    }
    // The engine's open time is `wait_open_ms + U × open_jitter_ms`; the starter's
    // randomized open wait is `w ± factor·w`: the same range with w its middle.
    if *open_jitter_ms > 0 {
        let half = *open_jitter_ms as f64 / 2.0;
        let w = *wait_open_ms as f64 + half;
        line("waitDurationInOpenState", duration(w));
        line("enableRandomizedWait", "true".into());
        line("randomizedWaitFactor", (half / w).to_string());
    } else {
        line("waitDurationInOpenState", format!("{wait_open_ms}ms"));
    }
    line(
        "permittedNumberOfCallsInHalfOpenState",
        half_open_calls.to_string(),
    );
    line(
        "automaticTransitionFromOpenToHalfOpenEnabled",
        automatic_half_open.to_string(),
    );
    if ramp_stage_ms.is_some() {
        cannot.push(Quirk::Ramp.get(lang).to_string());
    }
    if *scope == Scope::Shared {
        cannot.push(Cannot::SharedBreaker.fill(lang, &[&Library::Resilience4j.title()]));
    }
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
