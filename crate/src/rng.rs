//! A bit-exact port of `java.util.Random`, the generator the article's tables come from.
//!
//! The 48-bit linear congruential generator of the JDK: same seed scrambling, same
//! `next(bits)`, same `nextDouble`/`nextInt`/`nextLong`. It also implements
//! `rand_core`'s `TryRng` (hence `Rng`) and `SeedableRng`, so code written against
//! the `rand` traits can use it.

use core::convert::Infallible;
use rand_core::{SeedableRng, TryRng};

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const ADDEND: u64 = 0xB;
const MASK: u64 = (1 << 48) - 1;
/// 2^-53, the scale `nextDouble` applies to its 53 random bits.
const DOUBLE_UNIT: f64 = 1.0 / (1u64 << 53) as f64;

/// `java.util.Random`, bit for bit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JavaRandom {
    state: u64,
}

impl JavaRandom {
    /// `new java.util.Random(seed)`: any `i64`, negative or above 2^53 included.
    pub fn new(seed: i64) -> Self {
        JavaRandom {
            state: (seed as u64 ^ MULTIPLIER) & MASK,
        }
    }

    /// `Random.next(bits)`: advance the LCG and return its top `bits` bits as a signed int.
    #[inline(always)]
    pub fn next_bits(&mut self, bits: u32) -> i32 {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(ADDEND) & MASK;
        (self.state >> (48 - bits)) as i32
    }

    /// `Random.nextDouble()`: uniform in [0, 1) from 53 bits drawn as 26 + 27.
    #[inline(always)]
    pub fn next_double(&mut self) -> f64 {
        let hi = self.next_bits(26) as i64;
        let lo = self.next_bits(27) as i64;
        ((hi << 27) + lo) as f64 * DOUBLE_UNIT
    }

    /// `Random.nextInt()`: 32 random bits as a signed int.
    pub fn next_int(&mut self) -> i32 {
        self.next_bits(32)
    }

    /// `Random.nextInt(bound)`: uniform in [0, bound), with the JDK's rejection loop.
    ///
    /// Returns `None` for a bound ≤ 0, where Java throws.
    pub fn next_int_bounded(&mut self, bound: i32) -> Option<i32> {
        if bound <= 0 {
            return None;
        }
        let mut r = self.next_bits(31);
        let m = bound - 1;
        if bound & m == 0 {
            // A power of two: take the high bits, as the JDK does.
            return Some(((bound as i64 * r as i64) >> 31) as i32);
        }
        let mut u = r;
        loop {
            r = u % bound;
            // Java relies on int overflow here to reject the incomplete last block.
            if u.wrapping_sub(r).wrapping_add(m) >= 0 {
                return Some(r);
            }
            u = self.next_bits(31);
        }
    }

    /// `Random.nextLong()`: two 32-bit draws, the first shifted up (signed addition).
    pub fn next_long(&mut self) -> i64 {
        let hi = self.next_bits(32) as i64;
        let lo = self.next_bits(32) as i64;
        (hi << 32).wrapping_add(lo)
    }

    /// `Random.nextBoolean()`.
    pub fn next_boolean(&mut self) -> bool {
        self.next_bits(1) != 0
    }
}

/// A source of uniform doubles in [0, 1): what the engines draw jitter and faults from.
///
/// `JavaRandom` gives the JDK's exact sequence; any `rand` generator can be wrapped in
/// [`RandDoubles`] to run the same engine on another stream.
pub trait UnitDouble {
    /// The next uniform double in [0, 1).
    fn next_unit(&mut self) -> f64;

    /// `next_unit() * scale`, the very same double: a generator may compute it with one
    /// rounding where the plain product takes two (see `JavaRandom`'s).
    #[inline(always)]
    fn next_unit_times(&mut self, scale: f64) -> f64 {
        self.next_unit() * scale
    }
}

impl UnitDouble for JavaRandom {
    #[inline(always)]
    fn next_unit(&mut self) -> f64 {
        self.next_double()
    }

    /// `nextDouble()` is `m × 2^-53` for a 53-bit integer `m`, exact in a double, so
    /// `nextDouble() × scale` rounds once, as `m × (scale × 2^-53)` does, whose second
    /// factor is exact too for any `scale` of 2^-969 or more or 0 (the classic engine's
    /// backoffs): the same double with one multiplication fewer after the draw, where a
    /// jittered retry's chain of dependent steps waits on it.
    #[inline(always)]
    fn next_unit_times(&mut self, scale: f64) -> f64 {
        let hi = self.next_bits(26) as i64;
        let lo = self.next_bits(27) as i64;
        ((hi << 27) + lo) as f64 * (scale * DOUBLE_UNIT)
    }
}

/// Adapts any `rand_core::Rng` to [`UnitDouble`] (53 high bits of `next_u64`).
#[derive(Debug, Clone)]
pub struct RandDoubles<R>(pub R);

impl<R: rand_core::Rng> UnitDouble for RandDoubles<R> {
    #[inline]
    fn next_unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * DOUBLE_UNIT
    }
}

impl TryRng for JavaRandom {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next_bits(32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next_long() as u64)
    }

    /// `Random.nextBytes`: each 32-bit draw fills up to four bytes, low byte first.
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let mut rnd = self.next_bits(32);
            for b in chunk {
                *b = rnd as u8;
                rnd >>= 8;
            }
        }
        Ok(())
    }
}

impl SeedableRng for JavaRandom {
    /// The Java seed as 8 little-endian bytes of an `i64`.
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> Self {
        JavaRandom::new(i64::from_le_bytes(seed))
    }

    /// Same as `new Random(state as long)`, so `seed_from_u64(42)` is Java's `Random(42)`.
    fn seed_from_u64(state: u64) -> Self {
        JavaRandom::new(state as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_vector() {
        // new java.util.Random(42).nextDouble(), quoted in MODEL.md.
        assert_eq!(JavaRandom::new(42).next_double(), 0.7275636800328681);
    }

    #[test]
    fn seedable_rng_matches_new() {
        let mut a = JavaRandom::seed_from_u64(-7i64 as u64);
        let mut b = JavaRandom::from_seed((-7i64).to_le_bytes());
        let mut c = JavaRandom::new(-7);
        for _ in 0..10 {
            let x = c.next_long();
            assert_eq!(a.next_long(), x);
            assert_eq!(b.next_long(), x);
        }
    }

    #[test]
    fn bounded_rejects_non_positive() {
        assert_eq!(JavaRandom::new(1).next_int_bounded(0), None);
        assert_eq!(JavaRandom::new(1).next_int_bounded(-5), None);
    }
}
