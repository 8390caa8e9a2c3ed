//! Sliding windows cut into slices: [`Window`], the counter of the seed-003 ratio budget
//! and SRE adaptive throttling (slices aligned to multiples of their length), and
//! [`WindowedAdder`], Twitter util's own, which Finagle's retry budget keeps (slices that
//! start at an access).
//!
//! `SLICES` slices of `window / SLICES` each; a slice older than the window is forgotten
//! as a whole.

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

/// Twitter util's `WindowedAdder` (util-core `WindowedAdder.scala`, twitter/util
/// 17c8187d), the sum behind Finagle's retry budget: `slices − 1` finished slices of
/// `range / slices` ms plus the one being written, where a new slice starts at the first
/// access at least one slice after the last one started (not at a multiple of the slice
/// length), and a gap of several slices clears the slices it skipped.
#[derive(Debug, Clone)]
pub struct WindowedAdder {
    /// Slice length, ms (`range / slices`).
    window: u64,
    /// Finished slices (`N = slices − 1` of them).
    buf: [i64; SLICES - 1],
    /// Where the next finished slice goes.
    i: usize,
    /// When the slice being written started, ms.
    old: u64,
    /// The slice being written.
    writer: i64,
}

impl WindowedAdder {
    /// An adder over `range_ms` in [`SLICES`] slices, made at `now_ms`.
    pub fn new(range_ms: u64, now_ms: u64) -> Self {
        WindowedAdder {
            window: (range_ms / SLICES as u64).max(1),
            buf: [0; SLICES - 1],
            i: 0,
            old: now_ms,
            writer: 0,
        }
    }

    /// `expired()`: the slice being written is put away and the skipped ones cleared.
    fn expired(&mut self, now_ms: u64) {
        const N: usize = SLICES - 1;
        self.buf[self.i] = self.writer;
        self.writer = 0;
        self.i = (self.i + 1) % N;
        let nskip = ((now_ms - self.old) / self.window)
            .saturating_sub(1)
            .min(N as u64) as usize;
        if nskip > 0 {
            let r = nskip.min(N - self.i);
            self.buf[self.i..self.i + r].fill(0);
            self.buf[..nskip - r].fill(0);
            self.i = (self.i + nskip) % N;
        }
        self.old = now_ms;
    }

    #[inline]
    fn roll(&mut self, now_ms: u64) {
        if now_ms.saturating_sub(self.old) >= self.window {
            self.expired(now_ms);
        }
    }

    /// `add(x)` at `now_ms`.
    #[inline]
    pub fn add(&mut self, now_ms: u64, x: i64) {
        self.roll(now_ms);
        self.writer = self.writer.saturating_add(x);
    }

    /// `sum()` at `now_ms`.
    #[inline]
    pub fn sum(&mut self, now_ms: u64) -> i64 {
        self.roll(now_ms);
        self.buf
            .iter()
            .fold(self.writer, |t, &v| t.saturating_add(v))
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
