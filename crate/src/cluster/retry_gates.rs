//! The two client policies that only ever stop retries, never a first attempt: the
//! retry-only circuit breaker and the token bucket that successes fill. Both are the
//! designs Marc Brooker compares in "Fixing retries with token buckets and circuit
//! breakers" (brooker.co.za/blog/2022/02/28/retries.html); Yandex's "Good Retry, Bad
//! Retry" (Denis Isaev, 2024) also weighs a retry circuit breaker against a retry
//! budget for its services.
//!
//! - **Retry-only breaker** ([`Breaker::RetryOnly`](super::scenario::Breaker::RetryOnly)),
//!   as `CircuitBreakerRetryStrategy` in Brooker's `retry_sim/retry_strategy.py`
//!   (github.com/mbrooker/simulator_example): every call's first attempt counts one call
//!   (`start`), every failed attempt one failure (`should_retry` counts it before it
//!   decides), and a retry is made only while `failures / calls` is at most the
//!   threshold. Brooker's counts never forget; a `window_ms` makes them the last window's
//!   (slices of a tenth of it, [`Window`]).
//! - **Success bucket** ([`Budget::SuccessBucket`](super::scenario::Budget::SuccessBucket)),
//!   the bucket as Brooker's post states it: "If it succeeds, it drops part of a token
//!   into a limited-size token bucket. If the call fails, retry up to N times as long as
//!   there are (whole) tokens in the bucket." It starts full. (His simulation's
//!   `AdaptiveRetryStrategy` deposits on every call's start instead: that is the
//!   `token_bucket` budget.)

use super::window::Window;

/// The retry-only breaker's counts: counter 0 the calls (first attempts), counter 1 the
/// failed attempts.
pub type RetryCounts = Window<2>;

/// A call's first attempt is sent at `now`.
#[inline]
pub fn call_started(w: &mut RetryCounts, now: u64) {
    w.add(now, 0, 1);
}

/// An attempt failed at `now`.
#[inline]
pub fn attempt_failed(w: &mut RetryCounts, now: u64) {
    w.add(now, 1, 1);
}

/// True while retries are stopped: failures exceed `percent`% of the calls (any failure
/// with no call in the window too).
#[inline]
pub fn retries_stopped(w: &RetryCounts, now: u64, percent: f64) -> bool {
    let calls = w.sum(now, 0);
    let failures = w.sum(now, 1);
    if calls <= 0 {
        return failures > 0;
    }
    failures as f64 / calls as f64 > percent / 100.0
}

/// A token bucket that successes fill: thousandths of a token, so `percent` of a token
/// per success is exact.
#[derive(Debug, Clone)]
pub struct SuccessBucket {
    milli: u64,
    max_milli: u64,
    deposit_milli: u64,
}

impl SuccessBucket {
    /// A full bucket of `max_tokens`, filled by `percent`% of a token per success.
    pub fn new(percent: f64, max_tokens: u32) -> SuccessBucket {
        let max_milli = u64::from(max_tokens) * 1000;
        SuccessBucket {
            milli: max_milli,
            max_milli,
            deposit_milli: (percent * 10.0).round() as u64,
        }
    }

    /// An attempt succeeded: its deposit, up to the bucket's size.
    #[inline]
    pub fn on_success(&mut self) {
        self.milli = (self.milli + self.deposit_milli).min(self.max_milli);
    }

    /// May a retry be sent? Yes while a whole token is left, which it takes.
    #[inline]
    pub fn try_retry(&mut self) -> bool {
        if self.milli >= 1000 {
            self.milli -= 1000;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_breaker_judges_failures_against_calls_as_brookers_does() {
        // By hand, Brooker's threshold 0.1: 10 calls and 1 failure is 0.1, not above it;
        // the second failure makes 0.2.
        let mut w = RetryCounts::new(0);
        assert!(!retries_stopped(&w, 0, 10.0));
        for t in 0..10 {
            call_started(&mut w, t);
        }
        attempt_failed(&mut w, 10);
        assert!(!retries_stopped(&w, 10, 10.0));
        attempt_failed(&mut w, 11);
        assert!(retries_stopped(&w, 11, 10.0));
        // Ten more calls bring it back to 2/20.
        for t in 12..22 {
            call_started(&mut w, t);
        }
        assert!(!retries_stopped(&w, 22, 10.0));
        // A window forgets: 1 s window, the failures at 0.5 s are gone at 1.6 s.
        let mut w = RetryCounts::new(1_000_000);
        call_started(&mut w, 500_000);
        attempt_failed(&mut w, 500_000);
        assert!(retries_stopped(&w, 500_000, 10.0));
        call_started(&mut w, 1_550_000);
        assert!(!retries_stopped(&w, 1_600_000, 10.0));
    }

    #[test]
    fn the_bucket_fills_by_successes_only() {
        // 10% of a token per success, 2 tokens: two retries, then ten successes for
        // the next one.
        let mut b = SuccessBucket::new(10.0, 2);
        assert!(b.try_retry());
        assert!(b.try_retry());
        assert!(!b.try_retry());
        for _ in 0..9 {
            b.on_success();
        }
        assert!(!b.try_retry());
        b.on_success();
        assert!(b.try_retry());
        // Never above its size.
        for _ in 0..100 {
            b.on_success();
        }
        assert_eq!(b.milli, 2000);
    }
}
