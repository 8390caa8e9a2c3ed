//! Polly v8's rolling health metrics (Polly.Core `CircuitBreaker/Health/
//! RollingHealthMetrics.cs`, App-vNext/Polly 173d6d1d): the successes and failures of
//! the last sampling duration, kept in sub-windows of a tenth of it. A sub-window starts
//! at the first access that finds the last one at least a tenth old, and is dropped at
//! the first access a whole sampling duration after its start. (Polly's
//! `SingleHealthMetrics`, for sampling durations under 200 ms, is out of its options'
//! range, 0.5 s to a day.)

/// Sub-windows kept at most: 10 alive, and the one an access adds before dropping.
const RING: usize = 11;

/// One sub-window: when it started (µs), its successes and failures.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    start: u64,
    successes: u32,
    failures: u32,
}

/// The metrics of one breaker.
#[derive(Debug, Clone)]
pub struct HealthMetrics {
    sampling_us: u64,
    window_us: u64,
    slots: [Slot; RING],
    /// Index of the oldest sub-window and how many there are (the newest is current).
    head: usize,
    len: usize,
}

/// What `GetHealthInfo` returns: throughput and failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthInfo {
    /// Calls in the window.
    pub throughput: u32,
    /// Failures among them.
    pub failures: u32,
}

impl HealthInfo {
    /// `HealthInfo.Create`'s `FailureRate`: failures / throughput as a double (0 without calls).
    pub fn failure_rate(self) -> f64 {
        if self.throughput == 0 {
            0.0
        } else {
            self.failures as f64 / self.throughput as f64
        }
    }
}

impl HealthMetrics {
    /// Empty metrics over `sampling_ms` (sub-windows of `sampling_ms / 10`, which is exact
    /// in µs: Polly divides ticks of 100 ns).
    pub fn new(sampling_ms: u64) -> Self {
        let sampling_us = sampling_ms.saturating_mul(1000);
        HealthMetrics {
            sampling_us,
            window_us: (sampling_us / 10).max(1),
            slots: [Slot::default(); RING],
            head: 0,
            len: 0,
        }
    }

    /// `UpdateCurrentWindow`: starts a sub-window if none is current, drops the expired
    /// ones, and returns the current one.
    fn current(&mut self, now: u64) -> &mut Slot {
        let newest = (self.head + self.len + RING - 1) % RING;
        if self.len == 0 || now.saturating_sub(self.slots[newest].start) >= self.window_us {
            if self.len == RING {
                // Never reached (sub-windows start a tenth apart); drop the oldest.
                self.head = (self.head + 1) % RING;
                self.len -= 1;
            }
            let i = (self.head + self.len) % RING;
            self.slots[i] = Slot {
                start: now,
                ..Slot::default()
            };
            self.len += 1;
        }
        while now.saturating_sub(self.slots[self.head].start) >= self.sampling_us {
            self.head = (self.head + 1) % RING;
            self.len -= 1;
        }
        let newest = (self.head + self.len + RING - 1) % RING;
        &mut self.slots[newest]
    }

    /// `IncrementSuccess` at `now`.
    pub fn success(&mut self, now: u64) {
        let s = self.current(now);
        s.successes = s.successes.saturating_add(1);
    }

    /// `IncrementFailure` at `now`.
    pub fn failure(&mut self, now: u64) {
        let s = self.current(now);
        s.failures = s.failures.saturating_add(1);
    }

    /// `GetHealthInfo` at `now` (which may start a sub-window, as Polly's does).
    pub fn info(&mut self, now: u64) -> HealthInfo {
        self.current(now);
        let (mut throughput, mut failures) = (0u32, 0u32);
        for k in 0..self.len {
            let s = self.slots[(self.head + k) % RING];
            throughput = throughput.saturating_add(s.successes.saturating_add(s.failures));
            failures = failures.saturating_add(s.failures);
        }
        HealthInfo {
            throughput,
            failures,
        }
    }

    /// `Reset`: no sub-windows.
    pub fn reset(&mut self) {
        self.len = 0;
    }
}
