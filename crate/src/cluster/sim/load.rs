//! Load generation: the open loop's arrivals under the rate schedule, and samples
//! of the configured distributions (service times, closed-loop think times).

use super::*;

impl Simulation {
    /// The open-loop rate at `t_us`: the rule the playground's timeline draws too
    /// ([`Load::rate_at_ms`](crate::cluster::Load::rate_at_ms)).
    pub(super) fn rate_at(&self, t_us: u64) -> f64 {
        self.sc.load.rate_at_ms(t_us as f64 / 1000.0)
    }

    /// Next schedule boundary strictly after `t_us`, µs.
    pub(super) fn next_boundary(&self, t_us: u64) -> Option<u64> {
        self.sc
            .load
            .schedule
            .iter()
            .flat_map(|s| [s.start_ms * 1000, s.end_ms * 1000])
            .filter(|&b| b > t_us)
            .min()
    }

    /// Schedules the next open-loop arrival after `now` (the gap uses the rate at `now`).
    pub(super) fn schedule_arrival(&mut self, now: u64) {
        if let Some(mean_us) = self.const_gap_us {
            // No schedule: the rate is `rate_per_s` throughout (the loop below, unrolled).
            let gap = match self.sc.load.arrivals {
                Arrivals::Constant => mean_us,
                Arrivals::Poisson => math::exponential(&mut self.rng, mean_us),
            };
            let next = self.arrival_clock.max(now as f64) + gap;
            self.arrival_clock = next;
            // An arrival is an instant, not a duration: it happens in the microsecond
            // that holds it (floor). The gaps are kept exactly on the fractional clock,
            // so no error accumulates; rounding up would push `now` past the clock and
            // lengthen the next gap.
            let at = next as u64;
            if at < self.end {
                self.q.push(at, Kind::Arrival, 0, 0);
            }
            return;
        }
        let mut t = now;
        loop {
            let rate = self.rate_at(t);
            if rate > 0.0 {
                let mean_us = 1e6 / rate;
                let gap = match self.sc.load.arrivals {
                    Arrivals::Constant => mean_us,
                    Arrivals::Poisson => math::exponential(&mut self.rng, mean_us),
                };
                // A fractional clock keeps constant-rate spacing exact on average.
                let base = self.arrival_clock.max(t as f64);
                let next = base + gap;
                self.arrival_clock = next;
                let at = next as u64;
                if at < self.end {
                    self.q.push(at, Kind::Arrival, 0, 0);
                }
                return;
            }
            match self.next_boundary(t) {
                Some(b) if b < self.end => {
                    t = b;
                    self.arrival_clock = b as f64;
                }
                _ => return,
            }
        }
    }

    pub(super) fn sample_us(&mut self, d: &Dist) -> u64 {
        let ms = match *d {
            Dist::Constant { ms } => ms,
            Dist::Exponential { mean_ms } => math::exponential(&mut self.rng, mean_ms),
            Dist::Lognormal { p50_ms, p99_ms } => {
                let sigma = math::lognormal_sigma(p50_ms, p99_ms);
                let z = self.normal.sample(&mut self.rng);
                p50_ms * math::exp(sigma * z)
            }
        };
        us_of_ms(ms)
    }
}
