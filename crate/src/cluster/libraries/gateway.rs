//! Spring Cloud Gateway's `Retry` filter backoff (`RetryGatewayFilterFactory.BackoffConfig`,
//! reactor-addons `reactor/retry/Backoff.java` and `RandomJitter.java`).

use super::uniform_below;
use crate::rng::UnitDouble;

/// The `backoff` block of a gateway route's `Retry` filter, in whole ms as reactor keeps them.
///
/// - `basedOnPreviousValue: false`: `first × factor^(n−1)`; `true` (the default): the
///   previous *jittered* delay × factor (first retry: `first`); either clamped to
///   `[first, max]` (`Backoff.exponential`);
/// - jitter (`RandomJitter`, factor f): `d + J` with `J` uniform in `[lo, hi)`,
///   `o = d × floor(100 f) / 100` ms, `lo = max(first − d, −o)`, `hi = min(max − d, o)`,
///   so the delay never leaves `[first, max]` and the first retry only jitters upward.
#[derive(Debug, Clone, PartialEq)]
pub struct GatewayBackoff {
    /// `firstBackoff`, ms (default 5).
    pub first_ms: u64,
    /// `maxBackoff`, ms; `None` = unbounded.
    pub max_ms: Option<u64>,
    /// `factor` (default 2).
    pub factor: u32,
    /// `basedOnPreviousValue` (default true).
    pub based_on_previous_value: bool,
    /// reactor's jitter factor in [0, 1] (0 = none: the gateway's `BackoffConfig` has no
    /// jitter setting, only firstBackoff, maxBackoff, factor and basedOnPreviousValue).
    pub jitter: f64,
}

impl GatewayBackoff {
    /// The sleep before retry `n` given this request's previous sleep (µs), µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, prev_sleep_us: u64, rng: &mut R) -> u64 {
        let first = self.first_ms as i64;
        let max = self.max_ms.map(|m| m as i64).unwrap_or(i64::MAX / 4);
        let d = if n <= 1 {
            first
        } else if self.based_on_previous_value {
            ((prev_sleep_us / 1000) as i64).saturating_mul(self.factor as i64)
        } else {
            first.saturating_mul((self.factor as i64).saturating_pow(n - 1))
        };
        let d = d.clamp(first, max.max(first));
        if self.jitter == 0.0 || d == 0 {
            return d as u64 * 1000;
        }
        let offset = d * (100.0 * self.jitter) as i64 / 100;
        let lo = (first - d).max(-offset);
        let hi = (max - d).min(offset);
        let j = if hi == lo {
            // ThreadLocalRandom.nextLong(hi) for equal bounds (hi ≥ 0 here).
            if hi == 0 {
                0
            } else {
                uniform_below(rng, 0, hi)
            }
        } else {
            uniform_below(rng, lo, hi)
        };
        (d + j).max(0) as u64 * 1000
    }
}
