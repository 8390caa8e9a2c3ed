//! A policy as an `appsettings.json` section of Microsoft.Extensions.Http.Resilience's
//! standard handler (`Retry`, `CircuitBreaker`), the mirror of [`crate::import`]'s Polly
//! reader: every option written, none left to the handler's defaults.

use super::{checked_name, nearest, nearest_wait, Cannot};
use crate::cluster::libraries::{PollyBackoff, PollyDelay};
use crate::cluster::{
    Backoff, Breaker, Jitter, Scope, DEFAULT_POLLY_BREAK_MS, DEFAULT_POLLY_FAILURE_RATIO,
    DEFAULT_POLLY_MINIMUM_THROUGHPUT, DEFAULT_POLLY_SAMPLING_MS,
};
use crate::import::policy::Policy;
use crate::import::polly::timespan;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;
use std::fmt::Write;

crate::catalogue! {
    /// What the standard handler's options cannot say about a policy.
    pub enum Quirk {
        /// No breaker in the policy.
        AlwaysBreaker => ("标准弹性处理器总有熔断器（FailureRatio 0.1，MinimumThroughput 100，SamplingDuration 30 s，BreakDuration 5 s）：没有熔断器的策略读回时会有它", "the standard resilience handler always has a circuit breaker (FailureRatio 0.1, MinimumThroughput 100, SamplingDuration 30 s, BreakDuration 5 s): the policy without one gets it back"),
        /// One attempt.
        NoRetries => ("MaxRetryAttempts 至少为 1：1 次尝试写成 1 次重试", "MaxRetryAttempts is at least 1: one attempt is written as one retry"),
    }
}

/// `(text, what cannot be expressed)` for section `name`.
pub fn write(p: &Policy, name: &str, lang: Lang) -> Result<(String, Vec<String>), ValidationError> {
    let allowed = "a section path of letters, digits, _ and -, its levels joined by .";
    checked_name(name, &['_', '-', '.'], allowed)?;
    if name.split('.').any(str::is_empty) {
        return Err(
            ValidationError::new("--instance", crate::validate::echo(name), allowed)
                .of_kind(crate::validate::ErrorKind::Type),
        );
    }
    let lib = Library::Polly;
    let mut cannot = Vec::new();
    let retries = if p.max_attempts < 2 {
        cannot.push(Quirk::NoRetries.get(lang).to_string());
        1
    } else {
        p.max_attempts - 1
    };
    let constant = |ms: f64| PollyBackoff {
        backoff_type: PollyDelay::Constant,
        delay_ms: ms,
        use_jitter: false,
        max_delay_ms: None,
    };
    let b = match (&p.backoff, &p.jitter) {
        (Backoff::Polly(b), _) => b.clone(),
        // The same waits exactly: a constant delay without jitter (0 is allowed).
        (Backoff::None, Jitter::None) => constant(0.0),
        (Backoff::Constant { ms }, Jitter::None) => constant(*ms as f64),
        (other, _) => {
            let n = nearest(other, retries);
            // Exponential doubles; anything else is nearest as a constant wait.
            let exponential = (n.multiplier - 2.0).abs() < 0.25;
            let b = PollyBackoff {
                backoff_type: if exponential {
                    PollyDelay::Exponential
                } else {
                    PollyDelay::Constant
                },
                delay_ms: n.first_ms,
                use_jitter: false,
                max_delay_ms: (exponential && n.max_ms > n.first_ms).then_some(n.max_ms),
            };
            cannot.extend(nearest_wait(lib, p, &Backoff::Polly(b.clone()), lang));
            b
        }
    };
    if let Some(w) = words::budget(&p.budget, lang) {
        cannot.push(Cannot::NoBudget.fill(lang, &[&lib.title(), &w]));
    }
    let kind = match b.backoff_type {
        PollyDelay::Constant => "Constant",
        PollyDelay::Linear => "Linear",
        PollyDelay::Exponential => "Exponential",
    };
    let mut out = String::from("{\n  \"Retry\": {\n");
    let _ = writeln!(out, "    \"MaxRetryAttempts\": {retries},");
    let _ = writeln!(out, "    \"BackoffType\": \"{kind}\",");
    let _ = writeln!(out, "    \"UseJitter\": {},", b.use_jitter);
    let _ = write!(out, "    \"Delay\": \"{}\"", timespan(b.delay_ms));
    if let Some(max) = b.max_delay_ms {
        let _ = write!(out, ",\n    \"MaxDelay\": \"{}\"", timespan(max));
    }
    out.push_str("\n  },\n  \"CircuitBreaker\": {\n");
    let (ratio, throughput, sampling, brk) = match &p.breaker {
        Breaker::Polly {
            failure_ratio,
            minimum_throughput,
            sampling_duration_ms,
            break_duration_ms,
            scope,
        } => {
            if *scope == Scope::Shared {
                cannot.push(Cannot::SharedBreaker.fill(lang, &[&lib.title()]));
            }
            (
                *failure_ratio,
                *minimum_throughput,
                *sampling_duration_ms,
                *break_duration_ms,
            )
        }
        other => {
            match words::breaker(other, lang) {
                Some(w) => cannot.push(Cannot::OtherBreaker.fill(lang, &[&lib.title(), &w])),
                None => cannot.push(Quirk::AlwaysBreaker.get(lang).to_string()),
            }
            (
                DEFAULT_POLLY_FAILURE_RATIO,
                DEFAULT_POLLY_MINIMUM_THROUGHPUT,
                DEFAULT_POLLY_SAMPLING_MS,
                DEFAULT_POLLY_BREAK_MS,
            )
        }
    };
    let _ = writeln!(out, "    \"FailureRatio\": {ratio},");
    let _ = writeln!(out, "    \"MinimumThroughput\": {throughput},");
    let _ = writeln!(
        out,
        "    \"SamplingDuration\": \"{}\",",
        timespan(sampling as f64)
    );
    let _ = writeln!(out, "    \"BreakDuration\": \"{}\"", timespan(brk as f64));
    out.push_str("  }\n}");
    // `HttpClients.Inventory.Resilience` is that section nested in its parents.
    for level in name.split('.').rev() {
        out = format!("{{\n  \"{level}\": {}\n}}", out.replace('\n', "\n  "));
    }
    out.push('\n');
    Ok((out, cannot))
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
