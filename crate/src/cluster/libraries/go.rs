//! Go and C++ clients with integer-duration backoff: Envoy, cenkalti/backoff, failsafe-go.

use super::{uniform_below, us_of_ns};
use crate::rng::UnitDouble;
use serde::{Deserialize, Serialize};

/// Envoy's `JitteredExponentialBackOffStrategy::nextBackOffMs`
/// (`source/common/common/backoff_strategy.cc`): the wait is `random() % next` ms, then
/// `next = next < max / 2 ? 2 × next : max`; so retry `n` waits uniformly in
/// `[0, min(base × 2^(n−1), max))` ms. Envoy draws a 64-bit integer; the engine draws
/// `floor(U × next)`, the same distribution to within 2^-53.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvoyBackoff {
    /// `retry_back_off.base_interval`, ms (Envoy's default 25, runtime
    /// `upstream.base_retry_backoff_ms`).
    pub base_interval_ms: u64,
    /// `retry_back_off.max_interval`, ms; absent = 10 × base, Envoy's default.
    #[serde(default)]
    pub max_interval_ms: Option<u64>,
}

impl EnvoyBackoff {
    /// `max_interval`, ms.
    fn max(&self) -> u64 {
        self.max_interval_ms
            .unwrap_or(self.base_interval_ms.saturating_mul(10))
    }

    /// The `next_interval_` before retry `n`, ms.
    pub fn interval_ms(&self, n: u32) -> u64 {
        let max = self.max();
        let mut next = self.base_interval_ms.max(1);
        for _ in 1..n {
            next = if next < max / 2 { next * 2 } else { max };
        }
        next
    }

    /// The sleep before retry `n`, µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        let next = self.interval_ms(n);
        let wait = uniform_below(rng, 0, next as i64) as u64;
        wait.min(self.max()) * 1000
    }
}

/// cenkalti/backoff v4 `ExponentialBackOff.NextBackOff` (`exponential.go`): the wait is
/// `cur − f·cur + U × (2 f·cur + 1)` ns (truncated), then `cur = cur ≥ max / mult ? max :
/// cur × mult`; the cap applies to `cur`, *before* the jitter, so waits reach
/// `max × (1 + f)`. `MaxElapsedTime` (15 min) is not modelled: the client's attempt limit is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CenkaltiBackoff {
    /// `InitialInterval`, ms (the library's default 500).
    pub initial_interval_ms: f64,
    /// `RandomizationFactor` (default 0.5).
    pub randomization_factor: f64,
    /// `Multiplier` (default 1.5).
    pub multiplier: f64,
    /// `MaxInterval`, ms (default 60,000).
    pub max_interval_ms: f64,
}

impl CenkaltiBackoff {
    /// `currentInterval` before retry `n`, ns.
    fn current_ns(&self, n: u32) -> f64 {
        let max = (self.max_interval_ms * 1e6).trunc();
        let mut cur = (self.initial_interval_ms * 1e6).trunc();
        for _ in 1..n {
            cur = if cur >= max / self.multiplier {
                max
            } else {
                (cur * self.multiplier).trunc()
            };
        }
        cur
    }

    /// The sleep before retry `n`, µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        let cur = self.current_ns(n);
        let f = self.randomization_factor;
        let u = rng.next_unit();
        if f == 0.0 {
            // v4 returns the interval itself, without using the draw.
            return us_of_ns(cur);
        }
        let delta = f * cur;
        let lo = cur - delta;
        let hi = cur + delta;
        us_of_ns((lo + u * (hi - lo + 1.0)).trunc())
    }
}

/// failsafe-go `RetryPolicy` delays (`retrypolicy/retryexecutor.go` `getDelay`,
/// `internal/util/util.go` `RandomDelay` / `RandomDelayFactor`; failsafe-go 5759a5e6):
/// `WithBackoff(delay, max)` grows the *un-jittered* delay by `delayFactor` (2) and caps
/// it at max, then `WithJitter(d)` adds `(1 − 2U) d` or, when no `WithJitter` is set,
/// `WithJitterFactor(j)` multiplies by `1 + (1 − 2U) j`; so a wait can exceed max (and a
/// negative one is no wait, as Go's timer takes it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailsafeBackoff {
    /// `WithDelay(d)`, or the first delay of `WithBackoff(d, max)`, ms.
    pub delay_ms: f64,
    /// The max of `WithBackoff`; absent = a constant `WithDelay`.
    #[serde(default)]
    pub max_delay_ms: Option<f64>,
    /// `WithBackoffFactor` (2 for `WithBackoff`).
    #[serde(default = "two")]
    pub delay_factor: f64,
    /// `WithJitterFactor`; 0 (the default) = none.
    #[serde(default)]
    pub jitter_factor: f64,
    /// `WithJitter(d)`, ms; 0 (the default) = none. failsafe-go uses it instead of the
    /// factor when both are set.
    #[serde(default)]
    pub jitter_ms: f64,
}

fn two() -> f64 {
    2.0
}

impl FailsafeBackoff {
    /// The un-jittered delay before retry `n`, ns (failsafe's `lastDelay`).
    fn last_delay_ns(&self, n: u32) -> f64 {
        let first = (self.delay_ms * 1e6).trunc();
        let Some(max) = self.max_delay_ms else {
            return first;
        };
        let max = (max * 1e6).trunc();
        let mut d = first;
        for _ in 1..n {
            d = (d * self.delay_factor).trunc().min(max);
        }
        d
    }

    /// The sleep before retry `n`, µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        let d = self.last_delay_ns(n);
        if d == 0.0 {
            return 0;
        }
        let jitter = (self.jitter_ms * 1e6).trunc();
        if jitter != 0.0 {
            // `delay + T(randomAddend)`: the addend truncated to whole ns on its own.
            let addend = ((1.0 - rng.next_unit() * 2.0) * jitter).trunc();
            return us_of_ns(d + addend);
        }
        if self.jitter_factor == 0.0 {
            return us_of_ns(d);
        }
        let factor = 1.0 + (1.0 - rng.next_unit() * 2.0) * self.jitter_factor;
        us_of_ns((d * factor).trunc())
    }
}
