//! Real resilience libraries' own retry delay rules, reproduced exactly.
//!
//! Every library here computes its wait in its own units and with its own rounding, cap
//! and jitter order; the generic [`crate::cluster::Backoff`] × [`crate::cluster::Jitter`] pair cannot say
//! "randomize, then cap" (Resilience4j) or "cap, then randomize" (cenkalti/backoff), so
//! each library gets its formula as its source has it, cited in the item's doc comment.
//! Each is a kind of [`crate::cluster::Backoff`] whose settings carry the library's own names
//! (`wait_duration_ms` for Resilience4j's `waitDuration`), so a configuration reads
//! across one to one. Each takes its uniform draws from the engine's [`crate::rng::UnitDouble`] (one
//! draw per retry unless said) and returns whole microseconds, the engine's clock: a
//! library that computes nanoseconds or ticks is floored to microseconds (its timer sleeps
//! at least that long), one that computes float seconds is rounded to the nearest.

mod aws;
mod gateway;
mod go;
mod grpc;
mod polly;
mod resilience4j;
mod tenacity;

#[cfg(test)]
mod tests;

pub use aws::{AwsBackoff, AwsMode};
pub use gateway::GatewayBackoff;
pub use go::{CenkaltiBackoff, EnvoyBackoff, FailsafeBackoff};
pub use grpc::{GrpcBackoff, GrpcClient, GrpcJitter};
pub use polly::{PollyBackoff, PollyDelay};
pub use resilience4j::Resilience4jBackoff;
pub use tenacity::{TenacityBackoff, TenacityWait};

use crate::rng::UnitDouble;

/// Nanoseconds to whole microseconds, floored (a Go `time.Duration` or .NET ticks × 100).
#[inline]
fn us_of_ns(ns: f64) -> u64 {
    (ns / 1000.0).floor().clamp(0.0, 1e15) as u64
}

/// Float seconds to whole microseconds, rounded to nearest (Python's `time.sleep(float)`).
#[inline]
fn us_of_s(s: f64) -> u64 {
    (s * 1e6).round().clamp(0.0, 1e15) as u64
}

/// `x^n` for a whole `n` exactly as Go's `math.Pow` computes it (`src/math/pow.go`:
/// the mantissa squared and multiplied in `[0.5, 1)`, the exponent kept apart), so a
/// delay truncated to nanoseconds lands on Go's nanosecond.
fn go_pow(x: f64, n: u32) -> f64 {
    match n {
        0 => return 1.0,
        1 => return x,
        _ => {}
    }
    if x == 0.0 || !x.is_finite() {
        return x.powi(n as i32);
    }
    let (mut x1, mut xe) = frexp(x);
    let (mut a1, mut ae) = (1.0f64, 0i64);
    let mut i = n;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            // Overflow or underflow: Go returns ±Inf or 0 here; the engine's bounds on
            // multiplier and retries never reach it.
            return if xe > 0 { f64::INFINITY } else { 0.0 };
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    ldexp(a1, ae)
}

/// `x = m × 2^e` with `m` in `[0.5, 1)`, for finite non-zero normal `x`.
fn frexp(x: f64) -> (f64, i64) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// `m × 2^e`, in two steps so an intermediate never overflows early.
fn ldexp(m: f64, e: i64) -> f64 {
    let e = e.clamp(-2200, 2200);
    let half = e / 2;
    m * 2f64.powi(half as i32) * 2f64.powi((e - half) as i32)
}

/// A uniform integer in `[lo, hi)` from one draw (`lo` when the range is empty): what
/// `ThreadLocalRandom.nextLong(lo, hi)` and `random() % n` draw, to within 2^-53.
#[inline]
fn uniform_below<R: UnitDouble>(rng: &mut R, lo: i64, hi: i64) -> i64 {
    if hi <= lo {
        return lo;
    }
    let span = (hi - lo) as f64;
    lo + ((rng.next_unit() * span) as i64).min(hi - lo - 1)
}
