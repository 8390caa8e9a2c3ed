//! gRPC's retry backoff (gRFC A6, "Exponential backoff", as revised in 2024).

use super::{go_pow, us_of_ns};
use crate::rng::UnitDouble;
use serde::{Deserialize, Serialize};

/// Which client's arithmetic to follow (the formula is the same; the floats are not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrpcClient {
    /// grpc-go `stream.go` `csAttempt.shouldRetry`: `min(initial × Pow(mult, k), max)`
    /// in float nanoseconds, × the jitter, truncated to a `time.Duration`.
    #[default]
    Go,
    /// @grpc/grpc-js `retrying-call.ts` `getNextRetryBackoffMs`: the next backoff kept in
    /// float seconds and grown by one multiplication per retry, capped after growing;
    /// the wait `jitter × next × 1000` ms, truncated to whole ms by `setTimeout`.
    Node,
}

/// How the backoff is randomized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrpcJitter {
    /// × U(0.8, 1.2): the 2024 revision of gRFC A6, grpc-go and grpc-js today.
    #[default]
    Plus20Percent,
    /// U(0, backoff): the original A6 text, still grpc-java's default.
    Full,
}

/// A gRPC `retryPolicy`'s backoff: `initialBackoff`, `backoffMultiplier`, `maxBackoff`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrpcBackoff {
    /// `initialBackoff`, ms (the config writes seconds: `"0.1s"` is 100).
    pub initial_backoff_ms: f64,
    /// `backoffMultiplier`.
    pub backoff_multiplier: f64,
    /// `maxBackoff`, ms.
    pub max_backoff_ms: f64,
    /// The randomization (today's ±20% unless said).
    #[serde(default)]
    pub randomization: GrpcJitter,
    /// Whose arithmetic (grpc-go unless said).
    #[serde(default)]
    pub implementation: GrpcClient,
}

impl GrpcBackoff {
    /// The sleep before retry `n` (no server pushback), µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        let k = n.saturating_sub(1);
        match self.implementation {
            GrpcClient::Go => {
                // grpc-go parses "0.1s" to whole nanoseconds before any arithmetic.
                let initial_ns = (self.initial_backoff_ms * 1e6).round();
                let max_ns = (self.max_backoff_ms * 1e6).round();
                let fact = go_pow(self.backoff_multiplier, k);
                let cur = (initial_ns * fact).min(max_ns);
                let cur = match self.randomization {
                    GrpcJitter::Plus20Percent => cur * (0.8 + 0.4 * rng.next_unit()),
                    GrpcJitter::Full => cur * rng.next_unit(),
                };
                // time.Duration(int64(cur)): truncation to whole nanoseconds.
                us_of_ns(cur.trunc())
            }
            GrpcClient::Node => {
                // Node's timers truncate a fractional delay to whole milliseconds and
                // raise a delay below 1 ms to 1 ms (`lib/internal/timers.js`).
                let ms = self.node_wait_ms(n, rng);
                (ms.trunc().clamp(1.0, 2_147_483_647.0) as u64) * 1000
            }
        }
    }

    /// grpc-js's `getNextRetryBackoffMs` before retry `n`: the float ms it hands to
    /// `setTimeout`.
    pub fn node_wait_ms<R: UnitDouble>(&self, n: u32, rng: &mut R) -> f64 {
        // grpc-js reads "0.1s" with Number("0.1"): the ms over 1000, rounded once, is
        // that same double.
        let max_s = self.max_backoff_ms / 1000.0;
        let mut next = self.initial_backoff_ms / 1000.0;
        for _ in 1..n {
            next = (next * self.backoff_multiplier).min(max_s);
        }
        let jitter = match self.randomization {
            // `Math.random() * (1.2 - 0.8) + 0.8`: 1.2 - 0.8 is 0.39999999999999997.
            GrpcJitter::Plus20Percent => rng.next_unit() * (1.2 - 0.8) + 0.8,
            GrpcJitter::Full => rng.next_unit(),
        };
        jitter * next * 1000.0
    }
}
