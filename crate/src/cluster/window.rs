//! A sliding window cut into fixed slices: the time-windowed counter that the Finagle
//! retry budget, the seed-003 ratio budget and SRE adaptive throttling keep.
//!
//! `SLICES` slices of `window / SLICES` µs each; a slice older than the window is
//! forgotten as a whole (exactly what Finagle's `WindowedAdder` does with its 10 slices).

/// Number of slices.
pub const SLICES: usize = 10;

/// Sums of `N` counters over the last `window` µs, at slice granularity.
#[derive(Debug, Clone)]
pub struct Window<const N: usize> {
    slice_us: u64,
    epochs: [u64; SLICES],
    vals: [[i64; N]; SLICES],
}

impl<const N: usize> Window<N> {
    /// A window of `window_us` µs (at least `SLICES` µs; 0 means "never forget").
    pub fn new(window_us: u64) -> Self {
        Window {
            slice_us: if window_us == 0 {
                0
            } else {
                (window_us / SLICES as u64).max(1)
            },
            epochs: [u64::MAX; SLICES],
            vals: [[0; N]; SLICES],
        }
    }

    #[inline]
    fn epoch(&self, now: u64) -> u64 {
        now.checked_div(self.slice_us).unwrap_or(0)
    }

    /// Adds `v` to counter `i` at time `now`.
    #[inline]
    pub fn add(&mut self, now: u64, i: usize, v: i64) {
        let e = self.epoch(now);
        let s = (e % SLICES as u64) as usize;
        if self.epochs[s] != e {
            self.epochs[s] = e;
            self.vals[s] = [0; N];
        }
        if let Some(c) = self.vals[s].get_mut(i) {
            *c = c.saturating_add(v);
        }
    }

    /// Sum of counter `i` over the slices still inside the window at `now`.
    #[inline]
    pub fn sum(&self, now: u64, i: usize) -> i64 {
        let e = self.epoch(now);
        let mut t = 0i64;
        for s in 0..SLICES {
            let se = self.epochs[s];
            if se != u64::MAX && se <= e && e - se < SLICES as u64 {
                t = t.saturating_add(self.vals[s].get(i).copied().unwrap_or(0));
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgets_whole_slices() {
        let mut w = Window::<1>::new(1_000_000); // 1 s, 100 ms slices
        w.add(0, 0, 5);
        w.add(950_000, 0, 3);
        assert_eq!(w.sum(950_000, 0), 8);
        assert_eq!(w.sum(999_999, 0), 8);
        assert_eq!(w.sum(1_000_000, 0), 3); // slice 0 expired
        assert_eq!(w.sum(2_000_000, 0), 0);
    }

    #[test]
    fn zero_window_never_forgets() {
        let mut w = Window::<1>::new(0);
        w.add(0, 0, 1);
        w.add(u64::MAX / 2, 0, 1);
        assert_eq!(w.sum(u64::MAX / 2, 0), 2);
    }
}
