//! Polly v8's retry delays (`src/Polly.Core/Retry/RetryHelper.cs`).

use super::us_of_ns;
use crate::cluster::math::{exp, ln};
use crate::rng::UnitDouble;

/// Polly's `DelayBackoffType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PollyDelay {
    /// `Delay` every time.
    Constant,
    /// `(a + 1) × Delay`, `a` = 0 for the first retry.
    Linear,
    /// `2^a × Delay`; with jitter, `DecorrelatedJitterBackoffV2`.
    #[default]
    Exponential,
}

/// A Polly `RetryStrategyOptions` delay: `BackoffType`, `Delay`, `UseJitter`, `MaxDelay`.
#[derive(Debug, Clone, PartialEq)]
pub struct PollyBackoff {
    /// `BackoffType` (default Constant in Polly; Microsoft.Extensions.Http.Resilience's
    /// standard handler sets Exponential).
    pub kind: PollyDelay,
    /// `Delay`, ms (default 2,000).
    pub delay_ms: f64,
    /// `UseJitter`.
    pub use_jitter: bool,
    /// `MaxDelay`, ms; applied after the jitter.
    pub max_delay_ms: Option<f64>,
}

/// One .NET tick is 100 ns.
const TICK_NS: f64 = 100.0;

impl PollyBackoff {
    /// The sleep before retry `n` (Polly's `attempt` = n − 1), µs. `prev` is Polly's
    /// per-execution state for the decorrelated jitter.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, prev: &mut f64, rng: &mut R) -> u64 {
        let a = n.saturating_sub(1);
        let ticks = self.delay_ticks(a, prev, rng);
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
        let factor = match self.kind {
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
