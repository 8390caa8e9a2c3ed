//! gRPC's retry backoff (gRFC A6, "Exponential backoff", as revised in 2024).

use super::{go_pow, us_of_ns};
use crate::rng::UnitDouble;

/// Which client's arithmetic to follow (the formula is the same; the floats are not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GrpcJitter {
    /// × U(0.8, 1.2): the 2024 revision of gRFC A6, grpc-go and grpc-js today.
    #[default]
    Plus20Percent,
    /// U(0, backoff): the original A6 text, still grpc-java's default.
    Full,
}

/// A gRPC `retryPolicy`'s backoff: `initialBackoff`, `backoffMultiplier`, `maxBackoff`.
#[derive(Debug, Clone, PartialEq)]
pub struct GrpcBackoff {
    /// `initialBackoff`, seconds (> 0).
    pub initial_s: f64,
    /// `backoffMultiplier` (> 0).
    pub multiplier: f64,
    /// `maxBackoff`, seconds (> 0).
    pub max_s: f64,
    /// The randomization.
    pub jitter: GrpcJitter,
    /// Whose arithmetic.
    pub client: GrpcClient,
}

impl GrpcBackoff {
    /// The sleep before retry `n` (no server pushback), µs.
    pub fn sleep_us<R: UnitDouble>(&self, n: u32, rng: &mut R) -> u64 {
        let k = n.saturating_sub(1);
        match self.client {
            GrpcClient::Go => {
                let fact = go_pow(self.multiplier, k);
                let cur = (self.initial_s * 1e9 * fact).min(self.max_s * 1e9);
                let cur = match self.jitter {
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
        let mut next = self.initial_s;
        for _ in 1..n {
            next = (next * self.multiplier).min(self.max_s);
        }
        let jitter = match self.jitter {
            // `Math.random() * (1.2 - 0.8) + 0.8`: 1.2 - 0.8 is 0.39999999999999997.
            GrpcJitter::Plus20Percent => rng.next_unit() * (1.2 - 0.8) + 0.8,
            GrpcJitter::Full => rng.next_unit(),
        };
        jitter * next * 1000.0
    }
}
