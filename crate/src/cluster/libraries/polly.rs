//! Polly v8's retry delays (`src/Polly.Core/Retry/RetryHelper.cs`).

use super::us_of_ns;
use crate::cluster::math::{exp, ln};
use crate::rng::UnitDouble;
use serde::{Deserialize, Serialize};

/// Polly's `DelayBackoffType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PollyDelay {
    /// `Delay` every time (Polly's default).
    #[default]
    Constant,
    /// `(a + 1) × Delay`, `a` = 0 for the first retry.
    Linear,
    /// `2^a × Delay`; with jitter, `DecorrelatedJitterBackoffV2`.
    Exponential,
}

/// A Polly `RetryStrategyOptions` delay: `BackoffType`, `Delay`, `UseJitter`, `MaxDelay`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PollyBackoff {
    /// `BackoffType` (Polly's default Constant; Microsoft.Extensions.Http.Resilience's
    /// standard handler sets Exponential).
    #[serde(default)]
    pub backoff_type: PollyDelay,
    /// `Delay`, ms (Polly's default 2,000).
    pub delay_ms: f64,
    /// `UseJitter`.
    #[serde(default)]
    pub use_jitter: bool,
    /// `MaxDelay`, ms, applied after the jitter; absent = none.
    #[serde(default)]
    pub max_delay_ms: Option<f64>,
}

/// One .NET tick is 100 ns.
const TICK_NS: f64 = 100.0;

impl PollyBackoff {
    /// The sleep before retry `n` (Polly's `attempt` = n − 1), µs. `carry` holds Polly's
    /// per-execution `prev` of the decorrelated jitter as f64 bits (0.0 at the start).
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, carry: &mut u64, rng: &mut R) -> u64 {
        let a = n.saturating_sub(1);
        let mut prev = if n <= 1 { 0.0 } else { f64::from_bits(*carry) };
        let ticks = self.delay_ticks(a, &mut prev, rng);
        *carry = prev.to_bits();
        let ticks = match self.max_delay_ms {
            Some(max) => ticks.min(ms_to_ticks(max)),
            None => ticks,
        };
        us_of_ns(ticks * TICK_NS)
    }

    /// `GetRetryDelayCore` in ticks (whole for the jittered exponential, as `FromTicks`).
    fn delay_ticks<R: UnitDouble>(&self, a: u32, prev: &mut f64, rng: &mut R) -> f64 {
        let base = ms_to_ticks(self.delay_ms);
        if base == 0.0 {
            return 0.0;
        }
        let factor = match self.backoff_type {
            PollyDelay::Constant => 1.0,
            PollyDelay::Linear => (a + 1) as f64,
            PollyDelay::Exponential if self.use_jitter => {
                return decorrelated_v2(a, base, prev, rng.next_unit());
            }
            PollyDelay::Exponential => 2f64.powi(a as i32),
        };
        let d = base * factor;
        if self.use_jitter {
            // ApplyJitter: d + (d × 0.5 × U − d × 0.5 / 2), i.e. uniform in [0.75 d, 1.25 d).
            let ms = d / 10_000.0;
            let offset = (ms * 0.5) / 2.0;
            let random = (ms * 0.5 * rng.next_unit()) - offset;
            return ms_to_ticks(ms + random);
        }
        d
    }
}

/// `TimeSpan.FromMilliseconds`: since .NET 7 exact to the tick (truncated).
fn ms_to_ticks(ms: f64) -> f64 {
    (ms * 10_000.0).trunc()
}

/// `DecorrelatedJitterBackoffV2`: `t = a + U`, `next = 2^t × tanh(√(4t))`, delay
/// `(next − prev) / 1.4 × Delay`, truncated to ticks; `prev = next`.
fn decorrelated_v2(a: u32, base_ticks: f64, prev: &mut f64, u: f64) -> f64 {
    let t = a as f64 + u;
    let next = pow2(t) * tanh((4.0 * t).sqrt());
    let value = next - *prev;
    *prev = next;
    (value * (1.0 / 1.4) * base_ticks)
        .min(f64::MAX)
        .trunc()
        .max(0.0)
}

/// `2^t` from the engine's own exp/ln (portable to the bit; .NET's `Math.Pow` may differ
/// in the last place).
fn pow2(t: f64) -> f64 {
    exp(t * ln(2.0))
}

/// `tanh(x)` for x ≥ 0 from the engine's exp.
fn tanh(x: f64) -> f64 {
    if x > 20.0 {
        return 1.0;
    }
    let e = exp(-2.0 * x);
    (1.0 - e) / (1.0 + e)
}
