//! AWS SDK retry delays.

use super::{us_of_ns, us_of_s};
use crate::rng::UnitDouble;
use serde::{Deserialize, Serialize};

/// Which SDK rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AwsMode {
    /// botocore's `legacy` mode (`botocore/retryhandler.py` `delay_exponential` with
    /// base `rand`, growth 2): `U × 2^(n−1)` s, no cap.
    Legacy,
    /// `standard` mode in botocore (`botocore/retries/standard.py`
    /// `ExponentialBackoff.delay_amount`): `U × min(2^(n−1), 20)` s.
    #[default]
    Standard,
    /// aws-sdk-go-v2 (`aws/retry/jitter_backoff.go` `ExponentialJitterBackoff`): `U × 2^n`
    /// with 1-based `n` until that reaches 20 s, then exactly 20 s.
    GoV2,
}

/// An AWS SDK retry mode's backoff.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AwsBackoff {
    /// The rule (`retry_mode`; standard unless said).
    #[serde(default)]
    pub mode: AwsMode,
}

/// The standard mode's cap, seconds (`_MAX_BACKOFF`, `DefaultRetryMaxBackoff`).
const MAX_BACKOFF_S: f64 = 20.0;

impl AwsBackoff {
    /// The sleep before retry `n` (1 = first), µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        match self.mode {
            AwsMode::Legacy | AwsMode::Standard => us_of_s(self.python_wait_s(n, rng)),
            AwsMode::GoV2 => {
                // `attempt > int(log2(maxBackoff / 1 s))` returns the max itself, undrawn:
                // int(log2(20)) = 4, so from the fifth retry on every wait is 20 s.
                if n > 4 {
                    return us_of_s(MAX_BACKOFF_S);
                }
                // timeconv.FloatSecondsDur: seconds × 1e9, truncated to a Duration.
                us_of_ns((rng.next_unit() * 2f64.powi(n as i32) * 1e9).trunc())
            }
        }
    }

    /// botocore's wait before retry `n` (legacy and standard), float seconds.
    pub fn python_wait_s<R: UnitDouble>(&self, n: u32, rng: &mut R) -> f64 {
        let k = n.saturating_sub(1).min(1000) as i32;
        match self.mode {
            AwsMode::Standard => rng.next_unit() * 2f64.powi(k).min(MAX_BACKOFF_S),
            _ => rng.next_unit() * 2f64.powi(k),
        }
    }
}
