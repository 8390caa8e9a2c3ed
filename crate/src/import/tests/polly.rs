//! Polly v8 / Microsoft.Extensions.Http.Resilience options (Polly 8.x `RetryStrategyOptions`,
//! `CircuitBreakerStrategyOptions`; Microsoft.Extensions.Http.Resilience 8.x
//! `HttpStandardResilienceOptions`).

use super::*;
use crate::cluster::libraries::{PollyBackoff, PollyDelay};
use crate::cluster::{Backoff, Breaker, Scope};

const CONFIG: &str = example!("polly-appsettings.json");

#[test]
fn max_retry_attempts_counts_retries_and_the_handler_always_has_a_breaker() {
    assert_eq!(Library::detect(CONFIG).unwrap(), Library::Polly);
    let got = en(
        CONFIG,
        Library::Polly,
        Some("HttpClients.Inventory.Resilience"),
    );
    assert_eq!(got.source, "HttpClients.Inventory.Resilience");
    assert_eq!(got.policy.max_attempts, 5);
    assert_eq!(
        got.policy.backoff,
        Backoff::Polly(PollyBackoff {
            backoff_type: PollyDelay::Exponential,
            delay_ms: 500.0,
            use_jitter: true,
            max_delay_ms: Some(10_000.0),
        })
    );
    assert_eq!(
        got.policy.breaker,
        Breaker::Polly {
            failure_ratio: 0.2,
            minimum_throughput: 50,
            sampling_duration_ms: 20_000,
            break_duration_ms: 15_000,
            scope: Scope::PerInstance,
        }
    );
    assert_eq!(
        got.quirks[0],
        "MaxRetryAttempts counts retries: 4 retries = 5 attempts"
    );
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("AttemptTimeout and TotalRequestTimeout are not read")));
    assert!(got.defaults.is_empty(), "{:?}", got.defaults);
    runs(&got.policy);

    // Lower-case keys and a number as a string bind as .NET binds them; what the section
    // leaves out is the standard handler's.
    let pay = en(CONFIG, Library::Polly, Some("Payments.Resilience"));
    assert_eq!(pay.policy.max_attempts, 3);
    assert_eq!(
        pay.policy.backoff,
        Backoff::Polly(PollyBackoff {
            backoff_type: PollyDelay::Constant,
            delay_ms: 1000.0,
            use_jitter: true,
            max_delay_ms: None,
        })
    );
    assert_eq!(
        pay.defaults,
        vec![
            "UseJitter = true",
            "FailureRatio = 0.1",
            "MinimumThroughput = 100",
            "SamplingDuration = 00:00:30",
            "BreakDuration = 00:00:05"
        ]
    );
}

#[test]
fn a_bad_polly_setting_is_named_by_its_key_path() {
    let e = refused(CONFIG, Library::Polly, None);
    assert_eq!(e.field, "--instance");
    assert!(
        e.allowed
            .contains("HttpClients.Inventory.Resilience, HttpClients.Payments.Resilience"),
        "{e}"
    );
    let bad = |retry: &str| {
        refused(
            &format!("{{\"R\": {{\"Retry\": {{{retry}}}}}}}"),
            Library::Polly,
            None,
        )
    };
    let e = bad("\"Delay\": \"2s\"");
    assert_eq!(e.to_string(), "R.Retry.Delay = 2s is not allowed: expected a TimeSpan such as \"00:00:02\" or \"00:00:00.5\"");
    let e = bad("\"BackoffType\": \"Fibonacci\"");
    assert_eq!(e.field, "R.Retry.BackoffType");
    let e = bad("\"MaxRetryAttempts\": 0");
    assert_eq!(e.field, "R.Retry.MaxRetryAttempts");
    let e = bad("\"MaxRetryAttempts\": 30");
    assert_eq!(e.field, "R.Retry.MaxRetryAttempts");
    assert_eq!(e.kind, crate::validate::ErrorKind::Range);
    // A bare number is days, as TimeSpan.Parse reads it: beyond the engine's clock bound.
    let e = bad("\"Delay\": \"2\"");
    assert_eq!(e.field, "R.Retry.Delay");
    let e = refused(
        "{\"R\": {\"CircuitBreaker\": {\"BreakDuration\": \"00:00:00.1\"}}}",
        Library::Polly,
        None,
    );
    assert_eq!(e.field, "R.CircuitBreaker.BreakDuration");
}
