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
        // With jitter, `now` (an arrival) may lie up to `jitter_us` after its slot: the
        // next slot follows the slot, not the arrival. Without, this is `now` itself.
        let since = now as f64 - self.jitter_us;
        if let Some(mean_us) = self.const_gap_us {
            // No schedule: the rate is `rate_per_s` throughout (the loop below, unrolled).
            loop {
                let gap = match self.sc.load.arrivals {
                    Arrivals::Constant => mean_us,
                    Arrivals::Poisson => math::exponential(&mut self.rng, mean_us),
                };
                let next = self.arrival_clock.max(since) + gap;
                self.arrival_clock = next;
                // An arrival is an instant, not a duration: it happens in the microsecond
                // that holds it (floor). The gaps are kept exactly on the fractional clock,
                // so no error accumulates; rounding up would push `now` past the clock and
                // lengthen the next gap.
                let at = self.arrival_at(next, now);
                if at < self.end {
                    self.q.push(at, Kind::Arrival, 0, 0);
                    return;
                }
                // Jittered past the end: a later slot may still land before it.
                if next - self.jitter_us >= self.end as f64 {
                    return;
                }
            }
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
                let base = self.arrival_clock.max(since.min(t as f64));
                let next = base + gap;
                self.arrival_clock = next;
                let at = self.arrival_at(next, now);
                if at < self.end {
                    self.q.push(at, Kind::Arrival, 0, 0);
                    return;
                }
                if next - self.jitter_us >= self.end as f64 {
                    return;
                }
                // Jittered past the end: the next slot, at the rate of this one's time.
                t = next as u64;
                continue;
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

    /// When the arrival of the slot at `slot` µs happens: in the microsecond that holds
    /// it, or with jitter that of `slot` ± a uniform draw, never before `now` (arrivals
    /// keep their order, and stay within the jitter of their slot: the previous one came
    /// no later than its own slot + jitter). Without jitter nothing is drawn.
    #[inline]
    fn arrival_at(&mut self, slot: f64, now: u64) -> u64 {
        if self.jitter_us > 0.0 {
            let u = (2.0 * self.rng.next_unit() - 1.0) * self.jitter_us;
            ((slot + u) as u64).max(now)
        } else {
            slot as u64
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The open-loop arrival times of `load` over `duration_ms` with `seed`: the arrival
    /// process alone (each arrival schedules the next, as `dispatch` does; no request is
    /// made).
    fn arrivals(load: serde_json::Value, duration_ms: u64, seed: i64) -> Vec<u64> {
        let v = serde_json::json!({
            "name": "arrivals", "seed": 1, "duration_ms": duration_ms, "load": load,
            "tiers": [{"name": "s", "instances": 1, "concurrency": 1, "queue_capacity": 0,
                       "service": {"kind": "constant", "ms": 1}}]
        });
        let sc: Scenario = serde_json::from_value(v).expect("scenario");
        let mut sim = Simulation::new(&sc, seed).expect("valid");
        let mut out = Vec::new();
        while let Some(ev) = sim.q.pop() {
            assert_eq!(ev.kind(), Kind::Arrival);
            out.push(ev.time);
            sim.schedule_arrival(ev.time);
        }
        out
    }

    #[test]
    fn without_jitter_constant_arrivals_are_on_their_slots_whatever_the_seed() {
        let load = serde_json::json!({"arrivals": "constant", "rate_per_s": 300});
        let a = arrivals(load.clone(), 1000, 1);
        // Slots every 3333.3… µs on the fractional clock, each in the microsecond that
        // holds it.
        let gap = 1e6 / 300.0;
        let slots: Vec<u64> = (1..300)
            .scan(0.0, |clock, _| {
                *clock += gap;
                Some(*clock as u64)
            })
            .collect();
        assert!(slots
            .iter()
            .enumerate()
            .all(|(k, &t)| t.abs_diff((k as u64 + 1) * 10_000 / 3) <= 1));
        assert_eq!(a, slots);
        assert_eq!(arrivals(load, 1000, 99), a);
    }

    #[test]
    fn jittered_arrivals_stay_within_the_jitter_of_their_slot_in_order() {
        // A jitter below half the gap (2 ms of 10) and one above the gap (15 ms): every
        // arrival within ±jitter of its slot k × 10 ms, never before the previous one,
        // and another seed another sequence.
        for jitter_ms in [2.0, 15.0] {
            let load = serde_json::json!({"arrivals": "constant", "rate_per_s": 100,
                                          "jitter_ms": jitter_ms});
            let j = (jitter_ms * 1000.0) as u64;
            for seed in 1..=3 {
                let a = arrivals(load.clone(), 10_000, seed);
                // 999 slots before the end, and perhaps the 1000th jittered before it.
                assert!((999..=1000).contains(&a.len()), "{}", a.len());
                for (k, &t) in a.iter().enumerate() {
                    let slot = (k as u64 + 1) * 10_000;
                    assert!(t + j >= slot && t <= slot + j, "seed {seed}: {t} vs {slot}");
                }
                assert!(a.windows(2).all(|w| w[0] <= w[1]), "seed {seed}");
                // Off the slots, not merely shifted: some early, some late.
                let early = a
                    .iter()
                    .enumerate()
                    .filter(|&(k, &t)| t < (k as u64 + 1) * 10_000);
                assert!(early.count() > 100, "seed {seed}");
                assert_ne!(a, arrivals(load.clone(), 10_000, seed + 10), "seed {seed}");
            }
        }
    }

    #[test]
    fn jitter_follows_a_rate_schedule() {
        // 100/s, and 1000/s in [1, 2) s: slots every 10 ms, then every 1 ms; 0.4 ms of
        // jitter keeps each of the fast ones within its own millisecond's neighbourhood.
        let load = serde_json::json!({"arrivals": "constant", "rate_per_s": 100,
            "jitter_ms": 0.4,
            "schedule": [{"start_ms": 1000, "end_ms": 2000, "rate_per_s": 1000}]});
        let a = arrivals(load, 3000, 5);
        let fast = a
            .iter()
            .filter(|&&t| (1_000_500..1_999_500).contains(&t))
            .count();
        assert!((997..=1000).contains(&fast), "{fast}");
        assert!(a.windows(2).all(|w| w[0] <= w[1]));
    }
}
