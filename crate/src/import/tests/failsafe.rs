//! failsafe-go builder chains (failsafe-go 5759a5e6: `retrypolicy/retry.go`,
//! `retrypolicy/retryexecutor.go`, `internal/util/util.go`,
//! `circuitbreaker/circuitbreakerbuilder.go`, `circuitbreaker/circuitstates.go`).

use super::*;
use crate::cluster::libraries::FailsafeBackoff;
use crate::cluster::{Backoff, Breaker, Jitter, WindowKind};
use crate::import::words::Draw;

const CLIENT: &str = example!("failsafe-go.go");

#[test]
fn a_retry_policy_inside_a_breaker_reads_as_failsafe_builds_them() {
    assert_eq!(Library::detect(CLIENT).unwrap(), Library::Failsafe);
    let got = en(CLIENT, Library::Failsafe, None);
    // WithMaxRetries(3): retryexecutor.go retries while failedAttempts ≤ maxRetries.
    assert_eq!(got.policy.max_attempts, 4);
    assert_eq!(
        got.policy.backoff,
        Backoff::FailsafeGo(FailsafeBackoff {
            delay_ms: 200.0,
            max_delay_ms: Some(5000.0),
            delay_factor: 2.0,
            jitter_factor: 0.25,
            jitter_ms: 0.0,
        })
    );
    // WithFailureThreshold(5): all 5 of the last 5 executions; WithSuccessThreshold(2):
    // half-open lets 2 through, closes on 2 successes, reopens on a failure.
    assert_eq!(
        got.policy.breaker,
        Breaker::Consecutive {
            failures: 5,
            open_ms: 30_000,
            open_jitter_ms: 0,
            half_open_calls: 2,
            scope: crate::cluster::Scope::PerInstance,
        }
    );
    assert_eq!(
        got.quirks[0],
        "WithMaxRetries(3) counts retries: 4 attempts = 1 call + 3 retries"
    );
    assert!(got.quirks[1].starts_with("WithMaxDuration(30 * time.Second) is not simulated"));
    assert!(
        got.quirks[2].starts_with("lines 3, 5–7, 9–11, 29–30 are not"),
        "{:?}",
        got.quirks
    );
    assert_eq!(
        got.words[3],
        "breaker opens after 5 failures in a row; stays open 30 s; 2 probes"
    );
    runs(&got.policy);
    let zh = import(CLIENT, Library::Failsafe, None, Lang::Zh).unwrap();
    assert!(zh.quirks[0].contains("计的是重试次数"));
}

#[test]
fn the_delay_grows_unjittered_and_the_jitter_comes_after_the_cap() {
    // getDelay: lastDelay = min(lastDelay × factor, maxDelay), then RandomDelayFactor:
    // × (1 + (1 − 2U) × 0.25). At U = 0 a capped 5 s wait is 6.25 s.
    let p = en(CLIENT, Library::Failsafe, None).policy;
    let at =
        |n, u| crate::cluster::backoff::sleep(&p.backoff, &Jitter::None, n, &mut 0, &mut Draw(u));
    assert_eq!(
        (at(1, 0.5), at(2, 0.5), at(3, 0.5)),
        (200_000, 400_000, 800_000)
    );
    assert_eq!(at(1, 0.0), 250_000);
    let long = en(
        "retrypolicy.NewBuilder[any]().WithMaxAttempts(10).WithBackoff(time.Second, 5*time.Second).WithJitterFactor(0.25).Build()",
        Library::Failsafe,
        None,
    )
    .policy;
    let top =
        crate::cluster::backoff::sleep(&long.backoff, &Jitter::None, 6, &mut 0, &mut Draw(0.0));
    assert_eq!(top, 6_250_000);
}

#[test]
fn defaults_attempts_and_the_breakers_failsafe_can_build() {
    // NewBuilder alone: 2 retries, no delay (retry.go's defaultMaxRetries).
    let got = en(
        "rp := retrypolicy.NewBuilder[any]().Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(
        (got.policy.max_attempts, &got.policy.backoff),
        (3, &Backoff::None)
    );
    assert_eq!(got.defaults, vec!["WithMaxRetries(2)"]);
    assert!(got.quirks.iter().any(|q| q.starts_with("no WithDelay")));
    // WithMaxAttempts counts attempts; WithJitter beats WithJitterFactor.
    let got = en(
        "retrypolicy.Builder[any]().WithMaxAttempts(3).WithDelay(time.Second).WithJitter(100*time.Millisecond).WithJitterFactor(0.5).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(
        got.quirks[0],
        "WithMaxAttempts(3) counts attempts, the first call included: 2 retries"
    );
    assert!(got
        .quirks
        .iter()
        .any(|q| q.contains("failsafe-go uses WithJitter only")));
    let Backoff::FailsafeGo(b) = &got.policy.backoff else {
        panic!()
    };
    assert_eq!(
        (b.delay_ms, b.max_delay_ms, b.jitter_ms),
        (1000.0, None, 100.0)
    );
    // A breaker alone, with failsafe's defaults: 1 failure, 1 minute, first success closes.
    let got = en(
        "cb := circuitbreaker.NewBuilder[any]().Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(got.policy.max_attempts, 1);
    let Breaker::Consecutive {
        failures,
        open_ms,
        half_open_calls,
        ..
    } = got.policy.breaker
    else {
        panic!()
    };
    assert_eq!((failures, open_ms, half_open_calls), (1, 60_000, 1));
    assert_eq!(
        got.defaults,
        vec![
            "circuitbreaker.WithDelay(time.Minute)",
            "circuitbreaker.WithFailureThreshold(1)"
        ]
    );
    // A ratio reads as a count window, a rate as a time window, each said to differ.
    let got = en(
        "circuitbreaker.NewBuilder[any]().WithFailureThresholdRatio(3, 10).WithDelay(10*time.Second).Build()",
        Library::Failsafe,
        None,
    );
    let Breaker::Resilience4j {
        window,
        window_size,
        minimum_calls,
        failure_rate_percent,
        ..
    } = got.policy.breaker
    else {
        panic!()
    };
    assert_eq!(
        (window, window_size, minimum_calls, failure_rate_percent),
        (WindowKind::Count, 10, 10, 30.0)
    );
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("WithFailureThresholdRatio(3, 10): failsafe-go opens")));
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("no WithSuccessThreshold")));
    let got = en(
        "circuitbreaker.NewBuilder[any]().WithFailureRateThreshold(0.5, 20, time.Minute).WithSuccessThreshold(3).Build()",
        Library::Failsafe,
        None,
    );
    let Breaker::Resilience4j {
        window,
        window_size,
        minimum_calls,
        failure_rate_percent,
        half_open_calls,
        ..
    } = got.policy.breaker
    else {
        panic!()
    };
    assert_eq!(
        (
            window,
            window_size,
            minimum_calls,
            failure_rate_percent,
            half_open_calls
        ),
        (WindowKind::Time, 60, 20, 50.0, 3)
    );
}

#[test]
fn a_bad_builder_call_is_named_by_its_method() {
    let e = refused(
        "retrypolicy.NewBuilder[any]().WithMaxRetries(-1).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("retrypolicy.WithMaxRetries", "-1")
    );
    let e = refused(
        "retrypolicy.NewBuilder[any]().WithBackoff(time.Second).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(e.field, "retrypolicy.WithBackoff");
    assert!(e.allowed.starts_with("two arguments"), "{e}");
    let e = refused(
        "retrypolicy.NewBuilder[any]().WithDelay(d).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("retrypolicy.WithDelay", "d")
    );
    let e = refused(
        "retrypolicy.NewBuilder[any]().WithJitterFactor(2).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("retrypolicy.WithJitterFactor", "2")
    );
    let e = refused(
        "circuitbreaker.NewBuilder[any]().WithFailureThresholdPeriod(5, time.Minute).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(e.field, "circuitbreaker.WithFailureThresholdPeriod");
    assert!(e.allowed.contains("not a count within a period"), "{e}");
    let e = refused(
        "retrypolicy.NewBuilder[any]().WithMaxRetries(20).Build()",
        Library::Failsafe,
        None,
    );
    assert_eq!(e.field, "retrypolicy.WithMaxRetries");
    assert!(e.allowed.contains("the engine's bound"), "{e}");
}
