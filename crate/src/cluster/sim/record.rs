//! Metrics recording: closing buckets (gauges sampled at bucket ends) and building
//! the [`RunResult`] at the end of the run.

use super::*;

impl Simulation {
    /// Samples gauges for every bucket that ends at or before `t`.
    pub(super) fn close_buckets(&mut self, t: u64) {
        while self.sample_idx < self.n_buckets {
            let b_end = self.bucket_end(self.sample_idx);
            if b_end > t {
                break;
            }
            self.sample(self.sample_idx, b_end);
            self.sample_idx += 1;
        }
        self.next_close = if self.sample_idx < self.n_buckets {
            self.bucket_end(self.sample_idx)
        } else {
            NEVER
        };
        self.row = self.sample_idx.min(self.n_buckets - 1) * self.tiers.len();
    }

    pub(super) fn bucket_end(&self, b: usize) -> u64 {
        ((b as u64 + 1) * self.bucket_us).min(self.end)
    }

    pub(super) fn sample(&mut self, b: usize, at: u64) {
        self.bucket_latency[b] = self.bucket_hist.take();
        self.closed_moments[b] = self.bucket_moments.each_mut().map(|w| w.take());
        let n = self.tiers.len();
        for k in 0..n {
            let (mut open, mut half, mut closed) = (0u32, 0u32, 0u32);
            let tr = &self.tiers[k];
            let inst = self.sc.tiers[k].instances;
            // Every breaker group once (routes sharing one count it once); a chain's
            // tier has one group, the last tier none (all closed).
            let routes = &self.routes[tr.routes.clone()];
            let per_route = !self.route_breakers.is_empty();
            for (r, route) in routes.iter().enumerate() {
                let seen = routes[..r]
                    .iter()
                    .any(|x| x.breaker_base == route.breaker_base);
                // The tier counts every group once; per route, each route its own group.
                if seen && !per_route {
                    continue;
                }
                let cfg = &route.breaker_cfg;
                let n_slots = if route.breaker_shared {
                    1
                } else {
                    inst as usize
                };
                let group = &tr.breakers[route.breaker_base..route.breaker_base + n_slots];
                let weight = if route.breaker_shared { inst } else { 1 };
                let mut g = [0u32; 3];
                for s in group {
                    match s.status(cfg, at) {
                        Status::Open => g[0] += weight,
                        Status::HalfOpen => g[1] += weight,
                        Status::Closed => g[2] += weight,
                    }
                }
                if per_route {
                    let nr = self.routes.len();
                    self.route_breakers[b * nr + tr.routes.start + r] = g;
                }
                if !seen {
                    open += g[0];
                    half += g[1];
                    closed += g[2];
                }
            }
            if tr.routes.is_empty() {
                closed = inst;
            }
            let (queued, held) = (tr.queued, tr.held);
            // Integrals from 0 to `at` (see `TierRt::queued_m`); the bucket's share is the
            // difference from the previous bucket's end.
            let areas = [
                (queued.wrapping_mul(at)).wrapping_sub(tr.queued_m),
                (held.wrapping_mul(at)).wrapping_sub(tr.held_m),
                (tr.busy.wrapping_mul(at)).wrapping_sub(tr.busy_m),
            ];
            let prev = tr.areas;
            self.tiers[k].areas = areas;
            let c = &mut self.counters[b * n + k];
            c.queue_us = areas[0].wrapping_sub(prev[0]);
            c.in_flight_us = areas[1].wrapping_sub(prev[1]);
            c.busy_us = areas[2].wrapping_sub(prev[2]);
            c.queue_depth = queued;
            c.in_flight = held;
            c.breakers_open = open;
            c.breakers_half_open = half;
            c.breakers_closed = closed;
        }
    }

    /// Every route's totals (its callee tier's, as each tier has one caller) and cost.
    fn route_summaries(&self, buckets: &[Bucket], tiers: &[TierSummary]) -> Vec<RouteSummary> {
        let mut out = Vec::new();
        for (k, t) in self.sc.tiers.iter().enumerate() {
            let clients: Vec<&super::super::scenario::Client> = match &t.client {
                Some(c) => vec![c],
                None => t.routes.iter().map(|r| &r.client).collect(),
            };
            let mut before = 0.0;
            for (route, client) in self.routes[self.tiers[k].routes.clone()]
                .iter()
                .zip(clients)
            {
                let to = route.to;
                let x = &tiers[to].totals;
                let cost = client.cost.as_ref().map(|c| {
                    let bills: Vec<crate::cost::Bill> = buckets
                        .iter()
                        .map(|b| {
                            let y = &b.tiers[to];
                            c.bill(y.successes, [y.errors, y.overloads, y.timeouts])
                        })
                        .collect();
                    crate::cost::CostResult::new(c, &bills, x.first_attempts, x.successes)
                });
                out.push(RouteSummary {
                    name: format!("{} → {}", t.name, self.sc.tiers[to].name),
                    from: k as u32,
                    to: to as u32,
                    share: route.upto - before,
                    totals: x.clone(),
                    pending_at_end: tiers[to].pending_at_end,
                    retry_amplification: tiers[to].retry_amplification,
                    cost,
                });
                before = route.upto;
            }
        }
        out
    }

    /// Latest event time processed, µs (for tests of causality).
    pub fn now_us(&self) -> u64 {
        self.now
    }

    /// Builds the result (call after `advance` returned `Ok(true)`; earlier, the result
    /// covers the time simulated so far and counts the rest as pending).
    pub fn finish(mut self) -> RunResult {
        let at = if self.finished { self.end } else { self.now };
        self.close_buckets(at);
        let n = self.tiers.len();
        let bucket_ms = self.sc.bucket_ms;
        // Pending attempts, counted from the live jobs (not by subtraction, so that the
        // conservation tests check something): an attempt into tier k+1 is pending while
        // its caller at tier k is `Calling`; an entry is pending while its job is alive.
        // An entry pending for longer than `late_ms` counts as a failure of its cohort.
        let late_us = self.sc.steady.late_ms.saturating_mul(1000);
        let mut cohort_late = vec![[0u64; 2]; self.n_buckets];
        let mut pending = vec![0u64; n];
        let mut pending_entries = 0u64;
        for j in &self.jobs {
            if j.st == St::Free {
                continue;
            }
            if j.parent == ROOT {
                pending_entries += 1;
                let late = at.saturating_sub(j.arrived) > late_us;
                cohort_late[j.cohort as usize][usize::from(!late)] += 1;
            }
            if j.st == St::Calling {
                if let Some(route) = self.routes.get(j.route as usize) {
                    pending[route.to] += 1;
                }
            }
        }
        pending[0] = pending_entries;
        let buckets: Vec<Bucket> = (0..self.n_buckets)
            .map(|b| Bucket {
                latency_ms: self.bucket_latency[b].clone(),
                success_latency: self.closed_moments[b][0],
                failure_latency: self.closed_moments[b][1],
                start_ms: b as u64 * bucket_ms,
                tiers: self.counters[b * n..(b + 1) * n].to_vec(),
                route_breakers: if self.route_breakers.is_empty() {
                    Vec::new()
                } else {
                    let nr = self.routes.len();
                    self.route_breakers[b * nr..(b + 1) * nr].to_vec()
                },
                cohort: Cohort {
                    successes: self.cohort_end[b][0],
                    failures: self.cohort_end[b][1] + cohort_late[b][0],
                    pending: cohort_late[b][1],
                    attempts: self.cohort_attempts[b * n..(b + 1) * n].to_vec(),
                },
            })
            .collect();
        let trigger = self.sc.trigger_window();
        let verdict = Analysis {
            bucket_ms,
            buckets: &buckets,
            trigger,
            steady: &self.sc.steady,
        }
        .run();
        let entries = self.entries.max(1) as f64;
        let bucket_s = bucket_ms as f64 / 1000.0;
        let mut tiers = Vec::with_capacity(n);
        for (k, pend) in pending.iter().copied().enumerate() {
            let mut tot = TierBucket::default();
            let mut peak = 0u64;
            for b in &buckets {
                tot.add(&b.tiers[k]);
                peak = peak.max(b.tiers[k].attempts());
            }
            let at_end = buckets.last().map(|b| &b.tiers[k]);
            let run_us = at.max(1) as f64;
            let slots =
                f64::from(self.sc.tiers[k].instances) * f64::from(self.sc.tiers[k].concurrency);
            let attempts = tot.attempts();
            let peak_ps = peak as f64 / bucket_s;
            let base_ps = verdict.arrivals_per_s.get(k).copied().unwrap_or(0.0);
            tiers.push(TierSummary {
                name: self.sc.tiers[k].name.clone(),
                pending_at_end: pend,
                amplification: if self.entries > 0 {
                    attempts as f64 / entries
                } else {
                    0.0
                },
                retry_amplification: if tot.first_attempts > 0 {
                    attempts as f64 / tot.first_attempts as f64
                } else {
                    0.0
                },
                baseline_arrivals_per_s: base_ps,
                peak_arrivals_per_s: peak_ps,
                peak_arrival_ratio: if base_ps > 0.0 {
                    peak_ps / base_ps
                } else {
                    0.0
                },
                breaker_openings: self.tiers[k].breakers.iter().map(|b| b.opened as u64).sum(),
                slots: slots as u64,
                mean_queue_length: tot.queue_us as f64 / run_us,
                mean_in_flight: tot.in_flight_us as f64 / run_us,
                utilisation: if slots > 0.0 {
                    tot.busy_us as f64 / (slots * run_us)
                } else {
                    0.0
                },
                mean_wait_ms: tot.mean_wait_ms(),
                mean_service_ms: tot.mean_service_ms(),
                wait_ms: self.tier_hist[k][0].percentiles_ms(),
                service_ms: self.tier_hist[k][1].percentiles_ms(),
                queue_depth_at_end: at_end.map_or(0, |t| t.queue_depth),
                in_flight_at_end: at_end.map_or(0, |t| t.in_flight),
                breakers_open_at_end: at_end.map_or(0, |t| t.breakers_open),
                totals: tot,
            });
        }
        let secs = self.sc.duration_ms as f64 / 1000.0;
        let summary = Summary {
            requests: self.entries,
            successes: self.entry_ok,
            failures: self.entry_fail,
            pending_at_end: pending_entries,
            goodput_per_s: self.entry_ok as f64 / secs,
            success_ratio: if self.entries > 0 {
                self.entry_ok as f64 / entries
            } else {
                0.0
            },
            latency_ms: self.hist.percentiles_ms(),
            success_latency: self.ok_moments.moments(),
            failure_latency: self.fail_moments.moments(),
            // Attempts at the tiers that call nothing (a chain's last, a tree's leaves)
            // per entry request.
            amplification: tiers
                .iter()
                .zip(&self.tiers)
                .filter(|(_, rt)| rt.routes.is_empty())
                .map(|(t, _)| t.amplification)
                .sum(),
            peak_arrival_ratio: tiers
                .iter()
                .map(|t| t.peak_arrival_ratio)
                .fold(0.0, f64::max),
            baseline_success_ratio: verdict.success,
            baseline_buckets: verdict.n,
            trigger_end_ms: trigger.map(|t| t.1),
            overload_duration_ms: verdict.unhealthy_ms,
            recovery_time_ms: verdict.recovery_ms,
            metastable: verdict.metastable,
        };
        let routes = self.route_summaries(&buckets, &tiers);
        RunResult {
            routes,
            scenario: self.sc.name.clone(),
            seed: self.seed,
            duration_ms: self.sc.duration_ms,
            bucket_ms,
            events: self.events,
            tiers,
            buckets,
            summary,
        }
    }
}
