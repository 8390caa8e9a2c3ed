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

    /// Moves the generator `steps` steps ahead (as `steps` calls of
    /// [`JavaRandom::next_bits`] would) in O(log steps): one step is `s ↦ a·s + c`, and
    /// composing it with itself gives `(a, c) ↦ (a², a·c + c)`, squared for each bit of
    /// `steps` (powers of one map commute, so the order of the set bits does not matter).
    pub fn advance(&mut self, mut steps: u64) {
        let (mut a, mut c) = (MULTIPLIER, ADDEND);
        let (mut total_a, mut total_c) = (1u64, 0u64);
        while steps > 0 {
            if steps & 1 == 1 {
                total_a = total_a.wrapping_mul(a);
                total_c = total_c.wrapping_mul(a).wrapping_add(c);
            }
            c = a.wrapping_mul(c).wrapping_add(c);
            a = a.wrapping_mul(a);
            steps >>= 1;
        }
        // Modulo 2^64 throughout, then modulo 2^48: 2^48 divides 2^64.
        self.state = total_a.wrapping_mul(self.state).wrapping_add(total_c) & MASK;
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

    /// `next_unit() × scale`, given `unit_scale = scale × 2^-53` (exact for the scales
    /// the engines use): every generator here draws `m × 2^-53` for a 53-bit integer
    /// `m`, so this is `m × unit_scale`, the very same double with one rounding.
    #[inline(always)]
    fn next_unit_times_scaled(&mut self, unit_scale: f64) -> f64 {
        // unit_scale × 2^53 is exact, and next_unit() × it rounds once, as m × unit_scale does.
        self.next_unit() * (unit_scale * (1u64 << 53) as f64)
    }

    /// Drops the next `n` draws: the state `n` calls of [`UnitDouble::next_unit`] leave.
    fn skip(&mut self, n: u64) {
        for _ in 0..n {
            self.next_unit();
        }
    }
}

impl UnitDouble for JavaRandom {
    /// Each draw is two steps of the generator (26 + 27 bits).
    fn skip(&mut self, n: u64) {
        self.advance(n.wrapping_mul(2));
    }

    #[inline(always)]
    fn next_unit(&mut self) -> f64 {
        self.next_double()
    }

    /// `nextDouble()` is `m × 2^-53` for a 53-bit integer `m`, exact in a double:
    /// `m × unit_scale` is the same double with no multiplication after the draw but
    /// one, where a jittered retry's chain of dependent steps waits on it.
    #[inline(always)]
    fn next_unit_times_scaled(&mut self, unit_scale: f64) -> f64 {
        let hi = self.next_bits(26) as i64;
        let lo = self.next_bits(27) as i64;
        ((hi << 27) + lo) as f64 * unit_scale
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
        // new java.util.Random(42).nextDouble(), quoted in docs/model.md.
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
    fn advance_equals_stepping() {
        // Step counts around powers of two and a run's worth, from seeds of both signs.
        for seed in [0, 42, -7, i64::MIN, 4242] {
            for steps in [0u64, 1, 2, 3, 7, 8, 9, 255, 256, 1000, 40_001] {
                let mut jumped = JavaRandom::new(seed);
                jumped.advance(steps);
                let mut stepped = JavaRandom::new(seed);
                for _ in 0..steps {
                    stepped.next_bits(1);
                }
                assert_eq!(jumped, stepped, "seed {seed}, {steps} steps");
            }
        }
    }

    #[test]
    fn skip_drops_whole_draws() {
        // JavaRandom's skip (a jump) against the trait's default (drawing), then the same
        // next draw, for the generator the engine uses and for a wrapped one.
        for n in [0u64, 1, 5, 20_000] {
            let mut jumped = JavaRandom::new(4242);
            jumped.skip(n);
            let mut drawn = JavaRandom::new(4242);
            for _ in 0..n {
                drawn.next_unit();
            }
            assert_eq!(jumped.next_double(), drawn.next_double(), "{n} draws");
        }
        let mut wrapped = RandDoubles(JavaRandom::new(1));
        let mut reference = RandDoubles(JavaRandom::new(1));
        wrapped.skip(3);
        for _ in 0..3 {
            reference.next_unit();
        }
        assert_eq!(wrapped.next_unit(), reference.next_unit());
    }

    #[test]
    fn scaled_draws_equal_the_plain_product() {
        // m × (scale × 2^-53) against nextDouble() × scale: the engine's backoffs
        // (base_ms << k, k ≤ 30) and a few awkward scales, over many draws.
        let unit = 1.0 / (1u64 << 53) as f64;
        for scale in [500.0, 500.0 * (1u64 << 30) as f64, 1.0, 3.0, 999_999.0, 0.0] {
            let mut a = JavaRandom::new(99);
            let mut b = JavaRandom::new(99);
            let mut c = RandDoubles(JavaRandom::new(99));
            let mut d = RandDoubles(JavaRandom::new(99));
            for _ in 0..10_000 {
                assert_eq!(
                    a.next_unit_times_scaled(scale * unit),
                    b.next_double() * scale
                );
                assert_eq!(
                    c.next_unit_times_scaled(scale * unit),
                    d.next_unit() * scale
                );
            }
        }
    }

    #[test]
    fn bounded_rejects_non_positive() {
        assert_eq!(JavaRandom::new(1).next_int_bounded(0), None);
        assert_eq!(JavaRandom::new(1).next_int_bounded(-5), None);
    }
}
