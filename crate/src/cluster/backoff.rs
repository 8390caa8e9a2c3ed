//! Backoff delays and jitter, in microseconds.

use super::math::{exponential, round_us, us_of_ms};
use super::scenario::{Backoff, Jitter};
use crate::rng::UnitDouble;

const US: u64 = 1000;

/// The un-jittered delay before retry `n` (1 = first retry), µs; for a rule that draws its
/// own random delay (a library's, an exponentially distributed one), its delay at the
/// middle of its random range (the median).
pub fn base_delay(b: &Backoff, n: u32) -> u64 {
    let n = n.max(1);
    match b {
        Backoff::None => 0,
        Backoff::Fixed { delays_ms } => {
            let i = (n as usize - 1).min(delays_ms.len().saturating_sub(1));
            delays_ms.get(i).copied().unwrap_or(0).saturating_mul(US)
        }
        Backoff::Constant { ms } => ms.saturating_mul(US),
        Backoff::Exponential {
            base_ms,
            multiplier,
            cap_ms,
        } => {
            // multiplier ≤ 10 and n ≤ 10, so the product stays finite; the cap bounds it.
            let mut d = *base_ms as f64;
            for _ in 1..n {
                d *= multiplier;
                if d >= *cap_ms as f64 {
                    break;
                }
            }
            let d = d.min(*cap_ms as f64);
            round_us(d * US as f64)
        }
        random => library_sleep(random, n, &mut 0, &mut Half),
    }
}

/// Always draws ½: a library rule's delay at the middle of its random range.
struct Half;

impl UnitDouble for Half {
    fn next_unit(&mut self) -> f64 {
        0.5
    }
}

/// First delay and cap of a backoff (for decorrelated jitter), µs.
fn base_and_cap(b: &Backoff) -> (u64, u64) {
    match b {
        Backoff::None => (0, 0),
        Backoff::Fixed { delays_ms } => {
            let first = delays_ms.first().copied().unwrap_or(0);
            let max = delays_ms.iter().copied().max().unwrap_or(0);
            (first.saturating_mul(US), max.saturating_mul(US))
        }
        Backoff::Constant { ms } => (ms.saturating_mul(US), ms.saturating_mul(US)),
        Backoff::Exponential {
            base_ms, cap_ms, ..
        } => (base_ms.saturating_mul(US), cap_ms.saturating_mul(US)),
        // Validation allows no jitter beside a library's rule: never asked.
        _ => (0, 0),
    }
}

/// The sleep before retry `n`, µs. `carry` is what the policy carries from one retry of a
/// request to the next, 0 before the first: the previous sleep (decorrelated jitter,
/// Spring Cloud Gateway), or Polly's decorrelated-jitter state as f64 bits; this updates it.
pub fn sleep<R: UnitDouble>(b: &Backoff, j: &Jitter, n: u32, carry: &mut u64, rng: &mut R) -> u64 {
    if b.randomizes() {
        // The rule includes its own randomization (validation keeps jitter none).
        return library_sleep(b, n, carry, rng);
    }
    let prev = *carry;
    let d = base_delay(b, n);
    let sleep = match j {
        Jitter::None => d,
        // AWS Architecture Blog, "Exponential Backoff And Jitter" (2015): full jitter.
        Jitter::Full => uniform(rng, 0, d),
        // Same post: equal jitter keeps half the delay.
        Jitter::Equal => d / 2 + uniform(rng, 0, d - d / 2),
        // Same post: sleep = min(cap, random_between(base, sleep * 3)).
        Jitter::Decorrelated => {
            let (base, cap) = base_and_cap(b);
            let prev = if prev == 0 { base } else { prev };
            let hi = prev.saturating_mul(3).max(base);
            uniform(rng, base, hi).min(cap)
        }
        Jitter::Percent { percent } => {
            let f = 1.0 + (2.0 * rng.next_unit() - 1.0) * percent / 100.0;
            round_us(d as f64 * f)
        }
    };
    *carry = sleep;
    sleep
}

/// A rule that draws its own delay (a library's, see [`super::libraries`], or an
/// exponentially distributed one): the sleep before retry `n`, µs.
fn library_sleep<R: UnitDouble>(b: &Backoff, n: u32, carry: &mut u64, rng: &mut R) -> u64 {
    let n = n.max(1);
    let us = match b {
        Backoff::Resilience4j(l) => l.sleep_us(n, rng),
        Backoff::Grpc(l) => l.sleep_us(n, rng),
        Backoff::Envoy(l) => l.sleep_us(n, rng),
        // Polly keeps its own state in the carry, not the previous sleep.
        Backoff::Polly(l) => return l.sleep_us(n, carry, rng),
        Backoff::Aws(l) => l.sleep_us(n, rng),
        Backoff::Tenacity(l) => l.sleep_us(n, rng),
        Backoff::CenkaltiBackoff(l) => l.sleep_us(n, rng),
        Backoff::FailsafeGo(l) => l.sleep_us(n, rng),
        Backoff::SpringCloudGateway(l) => l.sleep_us(n, *carry),
        // One exponential draw per retry, whatever its number (inverse CDF, as the
        // service times draw theirs).
        Backoff::ExponentialDistributed { mean_ms } => us_of_ms(exponential(rng, *mean_ms)),
        Backoff::None
        | Backoff::Fixed { .. }
        | Backoff::Constant { .. }
        | Backoff::Exponential { .. } => base_delay(b, n),
    };
    *carry = us;
    us
}

/// Uniform integer in `[lo, hi]` (lo when hi ≤ lo).
#[inline]
pub fn uniform<R: UnitDouble>(rng: &mut R, lo: u64, hi: u64) -> u64 {
    if hi <= lo {
        return lo;
    }
    let span = (hi - lo) as f64 + 1.0;
    lo + ((rng.next_unit() * span) as u64).min(hi - lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::JavaRandom;

    #[test]
    fn fixed_list_repeats_its_last_delay() {
        let b = Backoff::Fixed {
            delays_ms: vec![200, 400, 800],
        };
        let d: Vec<u64> = (1..=5).map(|n| base_delay(&b, n)).collect();
        assert_eq!(d, vec![200_000, 400_000, 800_000, 800_000, 800_000]);
    }

    #[test]
    fn exponential_caps() {
        let b = Backoff::Exponential {
            base_ms: 200,
            multiplier: 2.0,
            cap_ms: 5000,
        };
        let d: Vec<u64> = (1..=7).map(|n| base_delay(&b, n)).collect();
        assert_eq!(
            d,
            vec![200_000, 400_000, 800_000, 1_600_000, 3_200_000, 5_000_000, 5_000_000]
        );
    }

    #[test]
    fn jitters_stay_in_their_ranges() {
        let b = Backoff::Exponential {
            base_ms: 200,
            multiplier: 2.0,
            cap_ms: 5000,
        };
        let mut rng = JavaRandom::new(9);
        let mut prev = 0;
        for n in 1..=8 {
            let d = base_delay(&b, n);
            let f = sleep(&b, &Jitter::Full, n, &mut 0, &mut rng);
            assert!(f <= d);
            let e = sleep(&b, &Jitter::Equal, n, &mut 0, &mut rng);
            assert!(e >= d / 2 && e <= d);
            let p = sleep(&b, &Jitter::Percent { percent: 20.0 }, n, &mut 0, &mut rng);
            assert!(p as f64 >= d as f64 * 0.8 - 1.0 && p as f64 <= d as f64 * 1.2 + 1.0);
            let before = prev;
            let c = sleep(&b, &Jitter::Decorrelated, n, &mut prev, &mut rng);
            assert!((200_000..=5_000_000).contains(&c));
            // The carry is the sleep just drawn, and the draw stays within 3 × the last.
            assert_eq!(prev, c);
            assert!(c <= before.max(200_000) * 3);
        }
    }

    #[test]
    fn exponentially_distributed_delays_draw_once_per_retry_whatever_its_number() {
        let b = Backoff::ExponentialDistributed { mean_ms: 100.0 };
        // By hand: java.util.Random(42)'s first nextDouble() is 0.7275636800328681, and
        // -100 ms × ln(1 - 0.7275636800328681) = 130.035038… ms.
        let mut rng = JavaRandom::new(42);
        let mut carry = 0;
        assert_eq!(sleep(&b, &Jitter::None, 1, &mut carry, &mut rng), 130_035);
        assert_eq!(carry, 130_035);
        // The preview's middle of the range is the median, mean × ln 2.
        assert_eq!(base_delay(&b, 3), 69_315);
        // Memoryless: the same draws give the same delays for the first retry and the
        // fifth, and their mean is the mean (20,000 draws: the standard error is 0.7%).
        let draws = |n: u32| -> Vec<u64> {
            let mut rng = JavaRandom::new(7);
            (0..20_000)
                .map(|_| sleep(&b, &Jitter::None, n, &mut 0, &mut rng))
                .collect()
        };
        let first = draws(1);
        assert_eq!(first, draws(5));
        let mean = first.iter().sum::<u64>() as f64 / first.len() as f64;
        assert!(
            (mean - 100_000.0).abs() < 3.0 * 100_000.0 / (20_000f64).sqrt(),
            "{mean}"
        );
        // Random by itself: a jitter on top is refused by name.
        let mut s = crate::cluster::defaults::defaults().scenario;
        let c = s.tiers[0].client.as_mut().unwrap();
        c.backoff = b;
        assert_eq!(c.jitter, Jitter::Full);
        let e = s.validate().unwrap_err();
        assert_eq!(e.field, "tiers[0].client.jitter.kind");
        assert!(e.allowed.contains("exponentially distributed"), "{e:?}");
        s.tiers[0].client.as_mut().unwrap().jitter = Jitter::None;
        s.validate().unwrap();
    }
}
