//! Deterministic transcendental functions and the random distributions built on them.
//!
//! `f64::ln`/`f64::exp` call the platform's libm, whose last bit may differ between
//! glibc, macOS and the wasm32 build. The engine promises the same bytes everywhere, so
//! it uses these versions, written with `+ - * /` only (IEEE 754 correctly rounded on
//! every target, and Rust never contracts them into FMA). Accuracy is about 1e-15
//! relative, far below what a traffic model needs.

use crate::rng::UnitDouble;

const LN2: f64 = core::f64::consts::LN_2;
/// High part of ln 2 (its low 32 mantissa bits are zero).
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// ln 2 − LN2_HI.
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const SQRT_HALF: f64 = core::f64::consts::FRAC_1_SQRT_2;
/// 1/(2k+1): the coefficients of the atanh series (constant-folded, so identical everywhere).
const ATANH: [f64; 12] = [
    1.0,
    1.0 / 3.0,
    1.0 / 5.0,
    1.0 / 7.0,
    1.0 / 9.0,
    1.0 / 11.0,
    1.0 / 13.0,
    1.0 / 15.0,
    1.0 / 17.0,
    1.0 / 19.0,
    1.0 / 21.0,
    1.0 / 23.0,
];
/// 1/n! for n = 0..=15: the Taylor coefficients of e^r.
const EXP: [f64; 16] = {
    let mut c = [1.0; 16];
    let mut n = 1;
    while n < 16 {
        c[n] = c[n - 1] / n as f64;
        n += 1;
    }
    c
};

/// Natural logarithm of a positive finite `x`; `-inf`-like large negative for 0, NaN never.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return -745.0; // ln of the smallest subnormal: callers never pass 0, but never NaN out
    }
    if x.is_infinite() {
        return 709.8;
    }
    // Split x = m * 2^e with m in [sqrt(1/2), sqrt(2)), via the bit pattern (subnormals
    // are scaled up first).
    let (mut bits, mut e) = (x.to_bits(), 0i64);
    if bits >> 52 == 0 {
        bits = (x * 18014398509481984.0).to_bits(); // 2^54
        e -= 54;
    }
    e += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m >= 2.0 * SQRT_HALF {
        m *= 0.5;
        e += 1;
    }
    // ln(m) = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716: the odd series
    // s + s^3/3 + s^5/5 + … converges fast; 12 terms leave an error below 1e-19.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut poly = 0.0;
    for c in ATANH.iter().rev() {
        poly = poly * s2 + c;
    }
    let sum = s * poly;
    e as f64 * LN2 + 2.0 * sum
}

/// `e^x`, saturating to 0 below -745 and to `f64::MAX` above 709.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return 1.0;
    }
    if x < -745.0 {
        return 0.0;
    }
    if x > 709.0 {
        return f64::MAX;
    }
    // x = k ln2 + r with |r| <= ln2/2; e^r by its Taylor series, then scale by 2^k.
    let kf = (x / LN2 + if x < 0.0 { -0.5 } else { 0.5 }) as i64;
    // Cody–Waite: ln2 split so that k × LN2_HI is exact, keeping r accurate for large |x|.
    let k = kf as f64;
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let mut sum = 0.0;
    for c in EXP.iter().rev() {
        sum = sum * r + c;
    }
    // Apply 2^k in two halves so that neither factor overflows or goes subnormal early.
    let k1 = kf / 2;
    let k2 = kf - k1;
    sum * pow2(k1) * pow2(k2)
}

fn pow2(k: i64) -> f64 {
    let k = k.clamp(-1022, 1023);
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// z-score of the 99th percentile of the standard normal distribution.
pub const Z99: f64 = 2.326_347_874_040_840_8;

/// σ of the lognormal whose median is `p50` and 99th percentile `p99` (what the
/// sampler draws from, and what [`crate::cluster::Dist::mean_ms`] reports).
#[inline]
pub fn lognormal_sigma(p50: f64, p99: f64) -> f64 {
    ln(p99 / p50) / Z99
}

/// A duration in microseconds to whole microseconds: rounded to nearest (truncating
/// would shorten every sample by half a microsecond on average), clamped to [0, 1e15].
///
/// The same value as `us.round().clamp(0.0, 1e15) as u64`, without the call to the
/// `round` routine (x86-64's baseline has no rounding instruction): below 1e15 < 2^52
/// the integer part is exact and `us − floor(us)` is exact too (Sterbenz), so comparing
/// the fraction with ½ rounds half away from zero as `round` does.
#[inline]
pub fn round_us(us: f64) -> u64 {
    if us.is_nan() || us <= 0.0 {
        return 0;
    }
    if us >= 1e15 {
        return 1_000_000_000_000_000;
    }
    // i64 rather than u64: one conversion instruction each way on x86-64.
    let whole = us as i64;
    let up = us - whole as f64 >= 0.5;
    (whole + i64::from(up)) as u64
}

/// Milliseconds to whole microseconds, rounded to nearest, clamped to [0, 1e15].
#[inline]
pub fn us_of_ms(ms: f64) -> u64 {
    round_us(ms * 1000.0)
}

/// Draws an exponential variate with the given mean (inverse CDF on `1 - U`).
#[inline]
pub fn exponential<R: UnitDouble>(rng: &mut R, mean: f64) -> f64 {
    -mean * ln(1.0 - rng.next_unit())
}

/// A standard normal source (Marsaglia's polar method, second value cached).
#[derive(Debug, Clone, Default)]
pub struct Normal {
    spare: Option<Spare>,
}

/// The second deviate of a pair, with its lognormal factor `exp(sigma * z)` for the σ
/// of the draw that made the pair.
#[derive(Debug, Clone, Copy)]
struct Spare {
    z: f64,
    sigma: f64,
    factor: f64,
}

impl Normal {
    /// Next standard normal deviate.
    #[cfg(test)] // the engine draws only lognormal factors; the moments test reads deviates
    pub fn sample<R: UnitDouble>(&mut self, rng: &mut R) -> f64 {
        if let Some(sp) = self.spare.take() {
            return sp.z;
        }
        let (z, spare) = Self::pair(rng);
        self.spare = Some(Spare {
            z: spare,
            sigma: f64::NAN,
            factor: f64::NAN,
        });
        z
    }

    /// `exp(sigma * z)` for the next standard normal deviate `z`: a lognormal's factor,
    /// the same value as `exp(sigma * self.sample(rng))`.
    ///
    /// A draw that makes a pair computes the second deviate's factor at once, for the
    /// same σ: the two `exp` chains are independent, so the processor runs them side by
    /// side, and the next call (with one lognormal in play, the usual case) finds its
    /// factor ready instead of waiting a whole `exp` for it. Another σ recomputes it.
    #[inline]
    pub fn lognormal_factor<R: UnitDouble>(&mut self, rng: &mut R, sigma: f64) -> f64 {
        if let Some(sp) = self.spare.take() {
            if sp.sigma.to_bits() == sigma.to_bits() {
                return sp.factor;
            }
            return exp(sigma * sp.z);
        }
        let (z, spare) = Self::pair(rng);
        self.spare = Some(Spare {
            z: spare,
            sigma,
            factor: exp(sigma * spare),
        });
        exp(sigma * z)
    }

    /// Two independent standard normal deviates (the polar method's pair).
    #[inline]
    fn pair<R: UnitDouble>(rng: &mut R) -> (f64, f64) {
        loop {
            let u = 2.0 * rng.next_unit() - 1.0;
            let v = 2.0 * rng.next_unit() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                let f = (-2.0 * ln(s) / s).sqrt();
                return (u * f, v * f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_us_is_rounding_to_nearest_clamped() {
        let reference = |us: f64| us.round().clamp(0.0, 1e15) as u64;
        let mut xs = vec![
            f64::NAN,
            f64::NEG_INFINITY,
            f64::INFINITY,
            -1e300,
            -1.5,
            -0.5,
            -0.49,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            0.49999999999999994,
            0.5,
            1.5,
            2.5,
            2.4999999999999996,
            1e15 - 0.5,
            1e15 - 0.5000000001,
            1e15,
            1e15 + 1.0,
            4503599627370495.5,
            4503599627370496.0,
            1e300,
        ];
        let mut rng = crate::rng::JavaRandom::new(3);
        for k in 0..100_000 {
            let u = rng.next_double();
            // Every scale from sub-microsecond to beyond the clamp, and halves exactly.
            xs.push(u * 10f64.powi(k % 18));
            xs.push((rng.next_int_bounded(1 << 30).unwrap_or(0) as f64) + 0.5);
        }
        for x in xs {
            assert_eq!(round_us(x), reference(x), "round_us({x:e})");
        }
    }

    #[test]
    fn ln_and_exp_match_std_closely() {
        for &x in &[
            1e-300, 1e-9, 0.001, 0.3, 0.5, 0.9999, 1.0, 1.5, 2.0, 3.0, 45.0, 1e6, 1e300,
        ] {
            let a = ln(x);
            let b = x.ln();
            assert!(
                (a - b).abs() <= 1e-14 * b.abs().max(1.0),
                "ln({x}) = {a} vs {b}"
            );
        }
        for &x in &[-700.0, -20.0, -1.0, -1e-9, 0.0, 0.5, 1.0, 3.3, 20.0, 700.0] {
            let a = exp(x);
            let b = x.exp();
            assert!((a - b).abs() <= 1e-14 * b, "exp({x}) = {a} vs {b}");
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(exp(1000.0), f64::MAX);
        assert_eq!(exp(-1000.0), 0.0);
        assert!(!ln(0.0).is_nan() && !ln(-1.0).is_nan());
    }

    #[test]
    fn normal_moments() {
        let mut rng = crate::rng::JavaRandom::new(1);
        let mut n = Normal::default();
        let (mut s, mut s2) = (0.0, 0.0);
        let k = 200_000;
        for _ in 0..k {
            let z = n.sample(&mut rng);
            s += z;
            s2 += z * z;
        }
        let mean = s / k as f64;
        let var = s2 / k as f64 - mean * mean;
        assert!(
            mean.abs() < 0.01 && (var - 1.0).abs() < 0.02,
            "{mean} {var}"
        );
    }

    /// The factor is `exp(sigma * z)` of the deviate `sample` would give, whether the
    /// spare's factor was made for the same σ, another one, or the spare came from
    /// `sample`: three sources drawn in an irregular order, compared bit for bit.
    #[test]
    fn lognormal_factor_is_exp_of_the_next_deviate() {
        let (mut ra, mut rb) = (
            crate::rng::JavaRandom::new(7),
            crate::rng::JavaRandom::new(7),
        );
        let (mut a, mut b) = (Normal::default(), Normal::default());
        let sigmas = [0.865, 0.3, 1.7];
        let mut mixed = 0;
        for i in 0..100_000u32 {
            let pick = (i.wrapping_mul(2_654_435_761) >> 29) as usize;
            if pick == 7 {
                // Deviates taken plainly, in step on both sides.
                assert_eq!(a.sample(&mut ra).to_bits(), b.sample(&mut rb).to_bits());
                continue;
            }
            let sigma = sigmas[pick % 3];
            let want = exp(sigma * b.sample(&mut rb));
            let got = a.lognormal_factor(&mut ra, sigma);
            assert_eq!(got.to_bits(), want.to_bits(), "draw {i}, sigma {sigma}");
            mixed += usize::from(pick % 3 != 0);
        }
        assert!(mixed > 10_000);
    }
}
