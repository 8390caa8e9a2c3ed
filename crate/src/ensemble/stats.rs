//! The spread of one metric over the seeds of an ensemble: order statistics, mean and
//! standard deviation, each defined once here.
//!
//! - Percentiles interpolate linearly between the two nearest order statistics
//!   (Hyndman & Fan type 7, the default of NumPy, R and spreadsheets): with the values
//!   sorted as `x[0] ≤ … ≤ x[n-1]`, the `p` quantile is at rank `h = (n − 1)·p`, that is
//!   `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`. So `p = 0` is the minimum, `p = 1` the
//!   maximum, and the median of an even count is the mean of the middle two.
//! - The mean is the arithmetic mean; the standard deviation is the sample one (divisor
//!   `n − 1`), and 0 for a single value.

use serde::{Deserialize, Serialize};

/// Order statistics, mean and standard deviation of one metric over the seeds that have it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// How many values (seeds) the figures are computed from.
    pub n: usize,
    /// Smallest value.
    pub min: f64,
    /// 5th percentile.
    pub p5: f64,
    /// 25th percentile.
    pub p25: f64,
    /// Median.
    pub median: f64,
    /// 75th percentile.
    pub p75: f64,
    /// 95th percentile.
    pub p95: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (divisor n − 1; 0 for one value).
    pub sd: f64,
}

/// The quantiles of a band (a chart's shaded range and its line): p5, median, p95.
pub const BAND: [f64; 3] = [0.05, 0.5, 0.95];

/// The `p` quantile (0..=1) of values sorted ascending, by linear interpolation (type 7).
pub(crate) fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

impl Spread {
    /// The spread of `values` (any order); `None` when there are none.
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let mean = v.iter().sum::<f64>() / n as f64;
        let sd = if n > 1 {
            (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        let q = |p| quantile_sorted(&v, p);
        Some(Spread {
            n,
            min: v[0],
            p5: q(BAND[0]),
            p25: q(0.25),
            median: q(BAND[1]),
            p75: q(0.75),
            p95: q(BAND[2]),
            max: v[n - 1],
            mean,
            sd,
        })
    }
}

/// The [`BAND`] quantiles (p5, median, p95) of `values`, which it sorts; `None` when
/// there are none. The same order statistics as [`Spread::of`], without the rest.
pub fn band_of(values: &mut [f64]) -> Option<[f64; 3]> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    Some(BAND.map(|p| quantile_sorted(values, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_five_values() {
        // Sorted: 1 2 3 4 10. Type 7 ranks: p5 → h = 0.2 → 1 + 0.2·1 = 1.2;
        // p25 → h = 1 → 2; median → 3; p75 → 4; p95 → h = 3.8 → 4 + 0.8·6 = 8.8.
        // Mean 4, squared deviations 9+4+1+0+36 = 50, sd = √(50/4) = √12.5.
        let s = Spread::of(&[10.0, 3.0, 1.0, 4.0, 2.0]).unwrap();
        assert_eq!(s.n, 5);
        assert_eq!((s.min, s.max), (1.0, 10.0));
        assert!((s.p5 - 1.2).abs() < 1e-12, "{}", s.p5);
        assert_eq!((s.p25, s.median, s.p75), (2.0, 3.0, 4.0));
        assert!((s.p95 - 8.8).abs() < 1e-12, "{}", s.p95);
        assert_eq!(s.mean, 4.0);
        assert!((s.sd - 12.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn even_count_median_and_single_value() {
        let s = Spread::of(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!(s.median, 2.5);
        let one = Spread::of(&[7.0]).unwrap();
        assert_eq!(
            (one.min, one.p5, one.median, one.p95, one.max),
            (7.0, 7.0, 7.0, 7.0, 7.0)
        );
        assert_eq!(one.sd, 0.0);
        assert!(Spread::of(&[]).is_none());
    }

    #[test]
    fn agrees_with_a_brute_force_rank_definition() {
        // Independent check: for p = k/(n−1) the type-7 quantile is exactly the k-th
        // order statistic, whatever the order of the input.
        let vals: Vec<f64> = (0..21).map(|i| ((i * 37) % 21) as f64 * 1.5).collect();
        let mut sorted = vals.clone();
        sorted.sort_by(f64::total_cmp);
        for k in 0..21 {
            let p = k as f64 / 20.0;
            assert_eq!(quantile_sorted(&sorted, p), sorted[k], "k = {k}");
        }
        let s = Spread::of(&vals).unwrap();
        assert_eq!(s.p5, sorted[1]);
        assert_eq!(s.p25, sorted[5]);
        assert_eq!(s.median, sorted[10]);
        assert_eq!(s.p95, sorted[19]);
    }
}
