//! Spring Cloud Gateway's `Retry` filter backoff (`RetryGatewayFilterFactory.BackoffConfig`,
//! reactor-addons `reactor/retry/Backoff.java`).

use serde::{Deserialize, Serialize};

/// The `backoff` block of a gateway route's `Retry` filter, in whole ms as reactor keeps
/// them (without a block the gateway retries at once: that is the `none` backoff).
///
/// - `basedOnPreviousValue: false`: `first × factor^(n−1)`; `true` (the default): the
///   previous delay × factor (first retry: `first`); either clamped to
///   `[first, max]` (`Backoff.exponential`). The gateway's `BackoffConfig` has no jitter
///   setting (first, max, factor, basedOnPreviousValue only), so no draw is made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GatewayBackoff {
    /// `firstBackoff`, ms (the gateway's default 5).
    pub first_backoff_ms: u64,
    /// `maxBackoff`, ms; absent = unbounded.
    #[serde(default)]
    pub max_backoff_ms: Option<u64>,
    /// `factor` (default 2), named apart from the fault effects' capacity `factor`.
    pub backoff_factor: u32,
    /// `basedOnPreviousValue` (default true).
    pub based_on_previous_value: bool,
}

impl GatewayBackoff {
    /// The sleep before retry `n` given this request's previous sleep (µs), µs.
    pub fn sleep_us(&self, n: u32, prev_sleep_us: u64) -> u64 {
        let first = self.first_backoff_ms as i64;
        let max = self
            .max_backoff_ms
            .map(|m| m as i64)
            .unwrap_or(i64::MAX / 4);
        let d = if n <= 1 {
            first
        } else if self.based_on_previous_value {
            ((prev_sleep_us / 1000) as i64).saturating_mul(self.backoff_factor as i64)
        } else {
            first.saturating_mul((self.backoff_factor as i64).saturating_pow(n - 1))
        };
        d.clamp(first, max.max(first)) as u64 * 1000
    }
}
