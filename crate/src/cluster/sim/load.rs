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

    /// Schedules the next open-loop arrival after the one at `now` (the gap uses the rate
    /// at the latter's slot).
    pub(super) fn schedule_arrival(&mut self, now: u64) {
        // The arrival at `now` happened in the microsecond of its slot (the fractional
        // clock), or with jitter up to `jitter_us` from it: the slots go on from the slot.
        let (now, prev) = if self.jitter_us > 0.0 {
            (self.arrival_clock as u64, now)
        } else {
            (now, now)
        };
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
            let at = self.arrival_at(next, prev);
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
                let at = self.arrival_at(next, prev);
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

    /// The microsecond of the arrival of the slot at `slot` µs: the one that holds it,
    /// or with jitter the one that holds `slot` ± a uniform draw of at most `jitter_us`,
    /// never before the previous arrival, at `prev` (the jitter is at most half the gap,
    /// so only rounding could put it there).
    #[inline]
    fn arrival_at(&mut self, slot: f64, prev: u64) -> u64 {
        if self.jitter_us > 0.0 {
            let u = 2.0 * self.rng.next_unit() - 1.0;
            ((slot + u * self.jitter_us) as u64).max(prev)
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
                p50_ms * self.normal.lognormal_factor(&mut self.rng, sigma)
            }
        };
        us_of_ms(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The open-loop arrival times of `load` over `duration_ms` with `seed`, µs: the
    /// arrival process alone (each arrival schedules the next, as `dispatch` does; no
    /// request is made, so nothing else draws from the random stream).
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

    /// `load` with `jitter_ms`.
    fn jittered(mut load: serde_json::Value, jitter_ms: f64) -> serde_json::Value {
        load["jitter_ms"] = serde_json::json!(jitter_ms);
        load
    }

    #[test]
    fn jittered_arrivals_by_hand() {
        // 100/s for 60 ms: slots at 10, 20, …, 60 ms. Seed 42's stream, after the two
        // draws of the set-up (the round-robin starting points of the tier and of the
        // users' requests, `nextInt(1)` each), gives nextDouble() = 0.68322…, 0.30872…,
        // 0.27708…, 0.66555…, 0.90337…, 0.36878…; each arrival is its slot +
        // (2u − 1) × 2000 µs, in the microsecond that holds it: 10000 + 732.89,
        // 20000 − 765.12, 30000 − 891.69, 40000 + 662.20, 50000 + 1613.49, and the slot
        // at the end, 60000 − 524.87, drawn early enough to come in.
        let load = serde_json::json!({"arrivals": "constant", "rate_per_s": 100});
        let a = arrivals(jittered(load.clone(), 2.0), 60, 42);
        assert_eq!(a, [10_732, 19_234, 29_108, 40_662, 51_613, 59_475]);
        // The same draws, from the generator itself.
        let mut rng = JavaRandom::new(42);
        rng.next_bits(31);
        rng.next_bits(31);
        for (k, &t) in a.iter().enumerate() {
            let slot = (k as f64 + 1.0) * 10_000.0;
            assert_eq!(t, (slot + (2.0 * rng.next_double() - 1.0) * 2000.0) as u64);
        }
        // Without jitter, on the slots and nothing drawn.
        assert_eq!(
            arrivals(load, 60, 42),
            [10_000, 20_000, 30_000, 40_000, 50_000]
        );
    }

    #[test]
    fn without_jitter_constant_arrivals_are_the_same_for_every_seed() {
        let load = serde_json::json!({"arrivals": "constant", "rate_per_s": 300,
            "schedule": [{"start_ms": 400, "end_ms": 700, "rate_per_s": 50, "to_rate_per_s": 900}]});
        let a = arrivals(load.clone(), 1000, 1);
        for seed in [2, 99, -7] {
            assert_eq!(arrivals(load.clone(), 1000, seed), a);
            assert_eq!(arrivals(jittered(load.clone(), 0.0), 1000, seed), a);
        }
    }

    #[test]
    fn jittered_arrivals_stay_within_the_jitter_of_their_slot_in_order() {
        // A constant rate, and a schedule with a ramp and a spike (its jitter bound is
        // half the gap at the spike's 1000/s): each arrival within ±jitter of its slot
        // (the unjittered arrival is the microsecond holding the slot), never before the
        // previous one, the same seed the same run, another seed another one.
        let steady = serde_json::json!({"arrivals": "constant", "rate_per_s": 100});
        let shaped = serde_json::json!({"arrivals": "constant", "rate_per_s": 100,
            "schedule": [{"start_ms": 1000, "end_ms": 2000, "rate_per_s": 100, "to_rate_per_s": 600},
                         {"start_ms": 2500, "end_ms": 3000, "rate_per_s": 1000}]});
        for (load, jitter_ms) in [(steady, 5.0), (shaped, 0.5)] {
            let plain = arrivals(load.clone(), 4000, 1);
            let j = jitter_ms * 1000.0;
            for seed in 1..=4 {
                let a = arrivals(jittered(load.clone(), jitter_ms), 4000, seed);
                assert!(a.len().abs_diff(plain.len()) <= 1, "seed {seed}");
                for (&t, &slot) in a.iter().zip(&plain) {
                    assert!(
                        (t as f64 - slot as f64).abs() < j + 1.0,
                        "seed {seed}: {t} vs {slot}"
                    );
                }
                assert!(a.windows(2).all(|w| w[0] <= w[1]), "seed {seed}");
                let early = a.iter().zip(&plain).filter(|(t, s)| t < s).count();
                let late = a.iter().zip(&plain).filter(|(t, s)| t > s).count();
                assert!(
                    early > a.len() / 3 && late > a.len() / 3,
                    "seed {seed}: {early}, {late}"
                );
                assert_eq!(arrivals(jittered(load.clone(), jitter_ms), 4000, seed), a);
                assert_ne!(
                    arrivals(jittered(load.clone(), jitter_ms), 4000, seed + 10),
                    a
                );
            }
        }
    }
}
