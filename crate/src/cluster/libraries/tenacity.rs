//! Python tenacity's wait strategies (`tenacity/wait.py`, tenacity 9.x).

use super::us_of_s;
use crate::rng::UnitDouble;
use serde::{Deserialize, Serialize};

/// Which `wait_*` strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TenacityWait {
    /// `wait_exponential`: `clamp(multiplier × exp_base^(n−1), min, max)`, no jitter.
    #[default]
    Exponential,
    /// `wait_random_exponential`: `uniform(min, wait_exponential)` (full jitter).
    RandomExponential,
    /// `wait_exponential_jitter`: `clamp(multiplier × exp_base^(n−1) + uniform(0, jitter), min, max)`.
    ExponentialJitter,
}

/// A tenacity wait, with its keyword arguments in seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenacityBackoff {
    /// The strategy.
    #[serde(default)]
    pub wait: TenacityWait,
    /// `multiplier`, s (1 by default).
    #[serde(default = "one")]
    pub multiplier: f64,
    /// `exp_base` (2 by default).
    #[serde(default = "two")]
    pub exp_base: f64,
    /// `min`, s (0 by default).
    #[serde(default)]
    pub min_s: f64,
    /// `max`, s; absent = tenacity's `MAX_WAIT` (unbounded for any run).
    #[serde(default)]
    pub max_s: Option<f64>,
    /// `jitter`, s (`wait_exponential_jitter` only; 1 by default).
    #[serde(default = "one")]
    pub jitter_s: f64,
}

fn one() -> f64 {
    1.0
}

fn two() -> f64 {
    2.0
}

/// tenacity's `_utils.MAX_WAIT` (`sys.maxsize / 2` on 64-bit Python), s.
const MAX_WAIT_S: f64 = i64::MAX as f64 / 2.0;

impl TenacityBackoff {
    /// The wait before retry `n` (tenacity's `attempt_number` of the failed attempt), s.
    pub fn wait_s<R: UnitDouble>(&self, n: u32, rng: &mut R) -> f64 {
        let exponent = n.saturating_sub(1) as i32;
        match self.wait {
            TenacityWait::Exponential => self.exponential(exponent),
            TenacityWait::RandomExponential => {
                let high = self.exponential(exponent);
                // random.uniform(a, b) = a + (b − a) × random()
                self.min_s + (high - self.min_s) * rng.next_unit()
            }
            TenacityWait::ExponentialJitter => {
                let jitter = self.jitter_s * rng.next_unit();
                let result = self.multiplier * self.exp_base.powi(exponent) + jitter;
                self.min_s.max(0.0).max(result.min(self.max()))
            }
        }
    }

    /// `wait_exponential.__call__`, including its early return at the max: once the
    /// exponent passes `log(max) − log(multiplier)` (base `exp_base`) the wait is the max.
    fn exponential(&self, exponent: i32) -> f64 {
        let floor = self.min_s.max(0.0);
        if self.multiplier > 0.0
            && self.max() > 0.0
            && self.exp_base > 1.0
            && self.max().is_finite()
            && exponent as f64
                > log_base(self.max(), self.exp_base) - log_base(self.multiplier, self.exp_base)
        {
            return floor.max(self.max());
        }
        let result = self.multiplier * self.exp_base.powi(exponent);
        floor.max(result.min(self.max()))
    }

    /// `max`, s.
    fn max(&self) -> f64 {
        self.max_s.unwrap_or(MAX_WAIT_S)
    }

    /// The sleep before retry `n`, µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        us_of_s(self.wait_s(n, rng))
    }
}

/// Python's `math.log(x, base)` = `log(x) / log(base)`.
fn log_base(x: f64, base: f64) -> f64 {
    x.ln() / base.ln()
}
