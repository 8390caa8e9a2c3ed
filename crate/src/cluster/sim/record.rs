//! Metrics recording: the run's accumulators ([`Recorder`], which the event handlers
//! reach through its methods), closing buckets (gauges sampled at bucket ends) and
//! building the [`RunResult`] at the end of the run.

use super::*;
use crate::cluster::metrics::{
    Analysis, Bucket, BucketLatency, Cohort, Histogram, Moments, Percentiles, RouteSummary,
    Summary, TierSummary, Verdict, Welford,
};

/// Every metric accumulator of a run: per-bucket counters and gauges, latency
/// histograms and moments, the entry requests' totals and their cohorts. Its fields are
/// this module's: the event handlers record through the methods below, and only the
/// bucket closing and [`Simulation::finish`] (here too) read them.
#[derive(Debug)]
pub(super) struct Recorder {
    bucket_us: u64,
    n_buckets: usize,
    n_tiers: usize,
    /// End of the run, µs (the last bucket ends there).
    end: u64,
    counters: Vec<TierBucket>,
    /// Per bucket × route: `[open, half-open, closed]` breaker gauges, when some tier has
    /// several routes with breakers of their own (see `Bucket::route_breakers`); else empty.
    route_breakers: Vec<[u32; 3]>,
    /// Per bucket × route: the attempts and refusals of each route counted on its own
    /// (`RouteRt::own_counts`), when some route shares its callee with another route of
    /// its tier; else empty.
    route_counts: Vec<TierBucket>,
    /// Routes per bucket in `route_counts` (0 when it is empty).
    n_counted: usize,
    /// Offset in `route_counts` of the bucket holding `now`.
    route_row: usize,
    sample_idx: usize,
    hist: Histogram,
    /// Latencies of the successes in the bucket being filled.
    bucket_hist: BucketLatency,
    /// Per bucket, its successes' latency percentiles (set when the bucket closes).
    bucket_latency: Vec<Percentiles>,
    entries: u64,
    entry_ok: u64,
    entry_fail: u64,
    /// Per bucket: successes and failures of the entry requests that arrived in it, and
    /// the arrival of its last failed one + 1 µs (0: none failed), which places recovery
    /// between events rather than at bucket starts.
    cohort_end: Vec<[u64; 3]>,
    /// Per bucket × tier: attempts caused by the entry requests that arrived in it.
    cohort_attempts: Vec<u64>,
    /// Latency moments of the successes and failures that arrived after the warm-up.
    ok_moments: Welford,
    fail_moments: Welford,
    /// The same for the bucket being filled (by the time requests end), and per bucket
    /// once closed.
    bucket_moments: [Welford; 2],
    /// Per tier: histograms of queue wait and of service time (after the warm-up), µs.
    tier_hist: Vec<[Histogram; 2]>,
    closed_moments: Vec<[Moments; 2]>,
    /// Arrivals before this (µs) are warm-up: left out of the run's latency figures.
    warmup_us: u64,
    /// End of bucket `sample_idx` (when the next gauges are due), µs; `NEVER` after the last.
    next_close: u64,
    /// Offset in `counters` of the bucket holding `now` (= `sample_idx` × tiers).
    row: usize,
    /// That bucket's index (`row` / tiers, kept to spare a division per entry request).
    cohort: u32,
}

impl Recorder {
    /// Empty accumulators for `sc`; `route_gauges` is the number of routes when each
    /// route's breakers are gauged on their own (see `route_breakers`), else `None`;
    /// `route_counts` the same when some route's attempts are counted on their own.
    pub(super) fn new(
        sc: &Scenario,
        route_gauges: Option<usize>,
        route_counts: Option<usize>,
    ) -> Recorder {
        let n_tiers = sc.tiers.len();
        let n_buckets = sc.duration_ms.div_ceil(sc.bucket_ms) as usize;
        let mut rec = Recorder {
            bucket_us: sc.bucket_ms * 1000,
            n_buckets,
            n_tiers,
            end: sc.duration_ms * 1000,
            counters: vec![TierBucket::default(); n_buckets * n_tiers],
            route_breakers: route_gauges.map_or_else(Vec::new, |n| vec![[0; 3]; n_buckets * n]),
            route_counts: route_counts
                .map_or_else(Vec::new, |n| vec![TierBucket::default(); n_buckets * n]),
            n_counted: route_counts.unwrap_or(0),
            route_row: 0,
            sample_idx: 0,
            hist: Histogram::default(),
            bucket_hist: BucketLatency::default(),
            bucket_latency: vec![Percentiles::default(); n_buckets],
            entries: 0,
            entry_ok: 0,
            entry_fail: 0,
            cohort_end: vec![[0; 3]; n_buckets],
            cohort_attempts: vec![0; n_buckets * n_tiers],
            ok_moments: Welford::default(),
            fail_moments: Welford::default(),
            bucket_moments: [Welford::default(); 2],
            tier_hist: vec![Default::default(); n_tiers],
            closed_moments: vec![[Moments::default(); 2]; n_buckets],
            warmup_us: sc.steady.warmup_ms.saturating_mul(1000),
            next_close: 0,
            row: 0,
            cohort: 0,
        };
        rec.next_close = rec.bucket_end(0);
        rec
    }

    fn bucket_end(&self, b: usize) -> u64 {
        ((b as u64 + 1) * self.bucket_us).min(self.end)
    }

    /// True when an event at `t` is past the end of the bucket being filled, so the
    /// buckets up to `t` must be closed first ([`Simulation::close_buckets`]).
    #[inline(always)]
    pub(super) fn due(&self, t: u64) -> bool {
        t >= self.next_close
    }

    /// The counters of `tier` in the bucket holding `now` (the current event's time:
    /// `close_buckets(now)` has run, so that bucket is `sample_idx`).
    #[inline]
    pub(super) fn bucket(&mut self, tier: usize, now: u64) -> &mut TierBucket {
        debug_assert_eq!(
            self.row,
            ((now / self.bucket_us) as usize).min(self.n_buckets - 1) * self.n_tiers
        );
        &mut self.counters[self.row + tier]
    }

    /// The own counters of route `r` (one counted on its own) in the bucket holding `now`.
    #[inline]
    pub(super) fn route_bucket(&mut self, r: usize) -> &mut TierBucket {
        &mut self.route_counts[self.route_row + r]
    }

    /// Entry requests that arrived and have not ended yet.
    #[inline]
    pub(super) fn open_entries(&self) -> u64 {
        self.entries - self.entry_ok - self.entry_fail
    }

    /// The run's result is built (at its end) and a drain begins: the bucket that held
    /// `now` (the last), already read, counts the drain's events from here.
    pub(super) fn begin_drain(&mut self) {
        let row = self.row;
        self.counters[row..row + self.n_tiers].fill(TierBucket::default());
    }

    /// A new entry request arrived now: counted, with its first attempt in its cohort
    /// (the bucket being filled), which it returns.
    #[inline(always)]
    pub(super) fn entry_arrived(&mut self, now: u64) -> u32 {
        self.entries += 1;
        self.cohort_attempts[self.row] += 1;
        self.bucket(0, now).first_attempts += 1;
        self.cohort
    }

    /// An attempt into `callee` caused by an entry request of `cohort`.
    #[inline(always)]
    pub(super) fn attempt_sent(&mut self, cohort: u32, callee: usize) {
        self.cohort_attempts[cohort as usize * self.n_tiers + callee] += 1;
    }

    /// A job of `tier` that arrived at `arrived` starts its service now.
    #[inline(always)]
    pub(super) fn service_started(&mut self, tier: usize, now: u64, arrived: u64) {
        let b = self.bucket(tier, now);
        b.services_started += 1;
        b.wait_us += now - arrived;
        if now >= self.warmup_us {
            self.tier_hist[tier][0].record(now - arrived);
        }
    }

    /// A job of `tier` whose service started at `started` ends its service now.
    #[inline(always)]
    pub(super) fn service_ended(&mut self, tier: usize, now: u64, started: u64) {
        let b = self.bucket(tier, now);
        b.services_ended += 1;
        b.service_us += now - started;
        if now >= self.warmup_us {
            self.tier_hist[tier][1].record(now - started);
        }
    }

    /// An entry request of `cohort` that arrived at `arrived` ended now with `outcome`
    /// (the user's view).
    #[inline(always)]
    pub(super) fn entry_ended(&mut self, outcome: Outcome, cohort: u32, arrived: u64, now: u64) {
        let latency = now - arrived;
        let after_warmup = arrived >= self.warmup_us;
        let b = self.bucket(0, now);
        match outcome {
            Outcome::Success => b.successes += 1,
            Outcome::Timeout => b.timeouts += 1,
            Outcome::Error => b.errors += 1,
            Outcome::Overload | Outcome::BreakerRejected => b.overloads += 1,
        }
        let ok = outcome == Outcome::Success;
        // Credited to the bucket the request arrived in, however late it ends.
        let end = &mut self.cohort_end[cohort as usize];
        end[usize::from(!ok)] += 1;
        if !ok {
            end[2] = end[2].max(arrived + 1);
        }
        self.bucket_moments[usize::from(!ok)].record(latency);
        if ok {
            self.entry_ok += 1;
            if after_warmup {
                self.hist.record(latency);
                self.ok_moments.record(latency);
            }
            // Always the bucket `close_buckets` left open: the one holding `now`.
            self.bucket_hist.record(latency);
        } else {
            self.entry_fail += 1;
            if after_warmup {
                self.fail_moments.record(latency);
            }
        }
    }
}

impl Simulation {
    /// Samples gauges for every bucket that ends at or before `t`.
    pub(super) fn close_buckets(&mut self, t: u64) {
        while self.rec.sample_idx < self.rec.n_buckets {
            let b_end = self.rec.bucket_end(self.rec.sample_idx);
            if b_end > t {
                break;
            }
            self.sample(self.rec.sample_idx, b_end);
            self.rec.sample_idx += 1;
        }
        let rec = &mut self.rec;
        rec.next_close = if rec.sample_idx < rec.n_buckets {
            rec.bucket_end(rec.sample_idx)
        } else {
            NEVER
        };
        let current = rec.sample_idx.min(rec.n_buckets - 1);
        rec.row = current * rec.n_tiers;
        rec.route_row = current * rec.n_counted;
        rec.cohort = current as u32;
    }

    fn sample(&mut self, b: usize, at: u64) {
        let rec = &mut self.rec;
        rec.bucket_latency[b] = rec.bucket_hist.take();
        rec.closed_moments[b] = rec.bucket_moments.each_mut().map(|w| w.take());
        let n = self.tiers.len();
        for k in 0..n {
            let (mut open, mut half, mut closed) = (0u32, 0u32, 0u32);
            let tr = &self.tiers[k];
            let inst = self.sc.tiers[k].instances;
            // Every breaker group once (routes sharing one count it once); a chain's
            // tier has one group, the last tier none (all closed).
            let routes = &self.routes[tr.routes.clone()];
            let per_route = !self.rec.route_breakers.is_empty();
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
                    self.rec.route_breakers[b * nr + tr.routes.start + r] = g;
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
            let c = &mut self.rec.counters[b * n + k];
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

    /// Every route's totals and cost, with `pending` (attempts outstanding per route): a
    /// route that is its callee's only caller has the callee tier's totals; one that
    /// shares its callee with another route of its tier has its own attempts and
    /// refusals, and none of the callee's own figures (services, queue, waste: see the
    /// callee's tier).
    fn route_summaries(&self, tiers: &[TierSummary], pending: &[u64]) -> Vec<RouteSummary> {
        let rec = &self.rec;
        let mut out = Vec::new();
        for (k, t) in self.sc.tiers.iter().enumerate() {
            let clients: Vec<&super::super::scenario::Client> = match &t.client {
                Some(c) => vec![c],
                None => t.routes.iter().map(|r| &r.client).collect(),
            };
            let range = self.tiers[k].routes.clone();
            let mut before = 0.0;
            for ((r, route), client) in range.clone().zip(&self.routes[range.clone()]).zip(clients)
            {
                let to = route.to;
                let in_bucket = |b: usize| -> &TierBucket {
                    if route.own_counts {
                        &rec.route_counts[b * rec.n_counted + r]
                    } else {
                        &rec.counters[b * rec.n_tiers + to]
                    }
                };
                let x = if route.own_counts {
                    let mut x = TierBucket::default();
                    (0..rec.n_buckets).for_each(|b| x.add(in_bucket(b)));
                    x
                } else {
                    tiers[to].totals.clone()
                };
                let cost = client.cost.as_ref().map(|c| {
                    let bills: Vec<crate::cost::Bill> = (0..rec.n_buckets)
                        .map(|b| {
                            let y = in_bucket(b);
                            c.bill(y.successes, [y.errors, y.overloads, y.timeouts])
                        })
                        .collect();
                    crate::cost::CostResult::new(c, &bills, x.first_attempts, x.successes)
                });
                let callee = &self.sc.tiers[to].name;
                out.push(RouteSummary {
                    // Routes that share a callee are told apart by their number in the tier.
                    name: if route.own_counts {
                        format!("{} → {callee} #{}", t.name, r - range.start + 1)
                    } else {
                        format!("{} → {callee}", t.name)
                    },
                    from: k as u32,
                    to: to as u32,
                    share: route.upto - before,
                    pending_at_end: pending[r],
                    retry_amplification: if x.first_attempts > 0 {
                        x.attempts() as f64 / x.first_attempts as f64
                    } else {
                        0.0
                    },
                    totals: x,
                    cost,
                });
                before = route.upto;
            }
        }
        out
    }

    /// Builds the result (call after `advance` returned `Ok(true)`; earlier, the result
    /// covers the time simulated so far and counts the rest as pending, or what a drain
    /// has drained so far).
    pub fn finish(mut self) -> RunResult {
        if let Some(ended) = self.ended.take() {
            return self.drained(*ended);
        }
        let at = if self.finished { self.end } else { self.now };
        self.result_at(at)
    }

    /// The run's result `ended`, built at its end, with what the drain since then did:
    /// its own figures, and the success ratio of every request by its own outcome.
    fn drained(&self, mut ended: RunResult) -> RunResult {
        let rec = &self.rec;
        let s = &mut ended.summary;
        let successes = rec.entry_ok - s.successes;
        let failures = rec.entry_fail - s.failures;
        let unfinished = s.pending_at_end.saturating_sub(successes + failures);
        let answered = s.requests - unfinished;
        s.success_ratio = if answered > 0 {
            (s.successes + successes) as f64 / answered as f64
        } else {
            0.0
        };
        s.drained_successes = Some(successes);
        s.drained_failures = Some(failures);
        s.drain_ms = Some((self.now - self.end) as f64 / 1000.0);
        for (t, c) in ended.tiers.iter_mut().zip(&rec.counters[rec.row..]) {
            t.drained = Some(c.clone());
        }
        ended
    }

    /// The result of the run simulated up to `at` (its end, or earlier).
    pub(super) fn result_at(&mut self, at: u64) -> RunResult {
        self.close_buckets(at);
        let pending = self.pending(at);
        let buckets = self.buckets(&pending.cohort_late);
        let trigger = self.sc.trigger_window();
        let last_failure_us: Vec<u64> = (self.rec.cohort_end.iter())
            .zip(&pending.cohort_late)
            .map(|(e, late)| e[2].max(late[2]))
            .collect();
        let verdict = Analysis {
            bucket_ms: self.sc.bucket_ms,
            duration_ms: self.sc.duration_ms,
            buckets: &buckets,
            last_failure_us: &last_failure_us,
            trigger,
            steady: &self.sc.steady,
        }
        .run();
        let tiers = self.tier_summaries(&buckets, &pending.attempts, &verdict, at);
        let summary = self.summary(&tiers, pending.entries, &verdict, trigger);
        let routes = self.route_summaries(&tiers, &pending.routes);
        RunResult {
            routes,
            scenario: self.sc.name.clone(),
            seed: self.seed,
            duration_ms: self.sc.duration_ms,
            bucket_ms: self.sc.bucket_ms,
            events: self.events,
            tiers,
            buckets,
            summary,
        }
    }

    /// What is still pending at `at`, counted from the live jobs (not by subtraction, so
    /// that the conservation tests check something): an attempt into tier k+1 is pending
    /// while its caller at tier k is `Calling`; an entry is pending while its job is
    /// alive. An entry pending for longer than `late_ms` counts as a failure of its cohort.
    fn pending(&self, at: u64) -> Pending {
        let late_us = self.sc.steady.late_ms.saturating_mul(1000);
        let mut p = Pending {
            attempts: vec![0; self.tiers.len()],
            routes: vec![0; self.routes.len()],
            entries: 0,
            cohort_late: vec![[0; 3]; self.rec.n_buckets],
        };
        for j in &self.jobs {
            if j.st == St::Free {
                continue;
            }
            if j.parent == ROOT {
                p.entries += 1;
                let late = at.saturating_sub(j.arrived) > late_us;
                let c = &mut p.cohort_late[j.cohort as usize];
                c[usize::from(!late)] += 1;
                if late {
                    c[2] = c[2].max(j.arrived + 1);
                }
            }
            if j.st == St::Calling {
                if let Some(route) = self.routes.get(j.route as usize) {
                    p.attempts[route.to] += 1;
                    p.routes[j.route as usize] += 1;
                }
            }
        }
        p.attempts[0] = p.entries;
        p
    }

    /// Every bucket's figures, its cohort's late entries (see [`Pending`]) counted.
    fn buckets(&self, cohort_late: &[[u64; 3]]) -> Vec<Bucket> {
        let rec = &self.rec;
        let n = rec.n_tiers;
        (0..rec.n_buckets)
            .map(|b| Bucket {
                latency_ms: rec.bucket_latency[b].clone(),
                success_latency: rec.closed_moments[b][0],
                failure_latency: rec.closed_moments[b][1],
                start_ms: b as u64 * self.sc.bucket_ms,
                tiers: rec.counters[b * n..(b + 1) * n].to_vec(),
                route_breakers: if rec.route_breakers.is_empty() {
                    Vec::new()
                } else {
                    let nr = self.routes.len();
                    rec.route_breakers[b * nr..(b + 1) * nr].to_vec()
                },
                cohort: Cohort {
                    successes: rec.cohort_end[b][0],
                    failures: rec.cohort_end[b][1] + cohort_late[b][0],
                    pending: cohort_late[b][1],
                    attempts: rec.cohort_attempts[b * n..(b + 1) * n].to_vec(),
                },
            })
            .collect()
    }

    /// Every tier's totals over the run simulated up to `at`, with its attempts pending.
    fn tier_summaries(
        &self,
        buckets: &[Bucket],
        pending: &[u64],
        verdict: &Verdict,
        at: u64,
    ) -> Vec<TierSummary> {
        let entries = self.rec.entries.max(1) as f64;
        let bucket_s = self.sc.bucket_ms as f64 / 1000.0;
        let mut tiers = Vec::with_capacity(pending.len());
        for (k, pend) in pending.iter().copied().enumerate() {
            let mut tot = TierBucket::default();
            let mut peak = 0u64;
            for b in buckets {
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
                amplification: if self.rec.entries > 0 {
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
                wait_ms: self.rec.tier_hist[k][0].percentiles_ms(),
                service_ms: self.rec.tier_hist[k][1].percentiles_ms(),
                queue_depth_at_end: at_end.map_or(0, |t| t.queue_depth),
                in_flight_at_end: at_end.map_or(0, |t| t.in_flight),
                breakers_open_at_end: at_end.map_or(0, |t| t.breakers_open),
                drained: None,
                totals: tot,
            });
        }
        tiers
    }

    /// The entry requests' figures: the users' view of the run.
    fn summary(
        &self,
        tiers: &[TierSummary],
        pending_entries: u64,
        verdict: &Verdict,
        trigger: Option<(u64, u64)>,
    ) -> Summary {
        let rec = &self.rec;
        let entries = rec.entries.max(1) as f64;
        let secs = self.sc.duration_ms as f64 / 1000.0;
        Summary {
            requests: rec.entries,
            successes: rec.entry_ok,
            failures: rec.entry_fail,
            pending_at_end: pending_entries,
            goodput_per_s: rec.entry_ok as f64 / secs,
            success_ratio: if rec.entries > 0 {
                rec.entry_ok as f64 / entries
            } else {
                0.0
            },
            latency_ms: rec.hist.percentiles_ms(),
            success_latency: rec.ok_moments.moments(),
            failure_latency: rec.fail_moments.moments(),
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
            baseline_goodput_per_s: verdict.goodput_per_s,
            goodput_recovery_ms: verdict.goodput_recovery_ms,
            metastable: verdict.metastable,
            unhealthy_baseline: verdict.unhealthy_baseline,
            drained_successes: None,
            drained_failures: None,
            drain_ms: None,
        }
    }
}

/// What [`Simulation::finish`] finds still pending: attempts into each tier (entries
/// for tier 0) and on each route, entry requests, and per bucket its cohort's pending entries `[late,
/// not late, arrival of the last late one + 1 µs]` (the late ones count as failures).
struct Pending {
    attempts: Vec<u64>,
    routes: Vec<u64>,
    entries: u64,
    cohort_late: Vec<[u64; 3]>,
}
