//! Resilience4j's `IntervalFunction` (resilience4j-core 2.x,
//! `core/src/main/java/io/github/resilience4j/core/IntervalFunction.java`).

use crate::rng::UnitDouble;
use serde::{Deserialize, Serialize};

/// Resilience4j's wait before a retry, in whole milliseconds as the library keeps it.
///
/// - exponential: `w1 = wait`, `w(k+1) = (long)(w(k) × multiplier)` (truncated at every
///   step, `LongStream.iterate`); no multiplier = a constant wait;
/// - randomized (`IntervalFunctionCompanion.randomize`): `(long) max(1, lo + U × (hi − lo + 1))`
///   with `lo, hi = w ∓ factor × w`;
/// - the max wait is applied *after* randomizing (`ofExponentialRandomBackoff(…, max)` is
///   `min(randomized, max)`), so once `w(1 − factor) ≥ max` every wait is exactly max.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resilience4jBackoff {
    /// `waitDuration`, ms (Resilience4j's default 500).
    pub wait_duration_ms: u64,
    /// `exponentialBackoffMultiplier`; absent = a constant wait.
    #[serde(default)]
    pub exponential_backoff_multiplier: Option<f64>,
    /// `randomizedWaitFactor`, 0..1; absent = no randomization.
    #[serde(default)]
    pub randomized_wait_factor: Option<f64>,
    /// `exponentialMaxWaitDuration`, ms; absent = no cap.
    #[serde(default)]
    pub exponential_max_wait_duration_ms: Option<u64>,
}

impl Resilience4jBackoff {
    /// The wait before retry `n` (Resilience4j's `attempt`, 1-based), ms.
    pub fn wait_ms<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        let mut w = self.wait_duration_ms as i64;
        if let Some(m) = self.exponential_backoff_multiplier {
            for _ in 1..n {
                // Java's (long) cast of a double: truncation, saturating.
                w = (w as f64 * m) as i64;
            }
        }
        let w = match self.randomized_wait_factor {
            Some(f) => randomize(w as f64, f, rng.next_unit()) as i64,
            None => w,
        };
        let w = match self.exponential_max_wait_duration_ms {
            Some(max) => w.min(max as i64),
            None => w,
        };
        w.max(0) as u64
    }

    /// The sleep before retry `n`, µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        self.wait_ms(n, rng).saturating_mul(1000)
    }
}

/// `IntervalFunctionCompanion.randomize`, with `Math.random()` replaced by `u`.
fn randomize(current: f64, factor: f64, u: f64) -> f64 {
    let delta = factor * current;
    let min = current - delta;
    let max = current + delta;
    let v = min + (u * (max - min + 1.0));
    v.max(1.0)
}
