//! The event loop: jobs moving through tiers, client retry loops, faults and metrics.
//!
//! # Model
//! - Time is integer **microseconds** (`u64`); scenario fields are milliseconds.
//! - A *job* is one attempt being handled by one instance of one tier. It waits in the
//!   instance's FIFO queue, holds one of its `concurrency` slots while served, and (on
//!   every tier but the last) keeps holding the slot while its client calls the next
//!   tier, retries and backs off (a thread-per-request server). It ends exactly once:
//!   success, or a failure kind.
//! - Responses travel in zero time: a callee's end is delivered to its caller in the
//!   same event, so an effect never precedes its cause and the chain unwinds in order.
//!   Anything that could cascade sideways (a retry, a freed bulkhead slot) goes through
//!   the queue instead, so the call depth stays bounded by the number of tiers.
//! - A caller that times out forgets its callee; the callee keeps working (wasted work)
//!   unless it knows the propagated deadline, in which case it drops the request when it
//!   reaches the head of its queue after that deadline.
//! - Load balancing: each caller instance walks the callee instances round-robin from a
//!   seeded random starting point (or picks uniformly at random, per tier); the users'
//!   requests are spread over tier 0 the same way.
//! - Randomness: one `java.util.Random` stream, drawn in event order.

use super::backoff;
use super::breaker::{BreakerState, Status};
use super::budget::BudgetState;
use super::faults::Effect;
use super::math::{self, Normal, Z99};
use super::metrics::{
    Analysis, Bucket, BucketLatency, Histogram, Percentiles, RunResult, Summary, TierBucket,
    TierSummary,
};
use super::queue::{EventQueue, Kind};
use super::scenario::{
    Arrivals, Backoff, Balancer, Breaker, Bulkhead, Dist, FaultEffect, Jitter, RetryOn, Scenario,
};
use crate::rng::{JavaRandom, UnitDouble};
use crate::validate::ValidationError;
use std::collections::VecDeque;

/// Most requests alive at once (memory bound); more is an error.
pub const MAX_LIVE_JOBS: u64 = 4_000_000;

const NONE: u32 = u32::MAX;
const ROOT: u32 = u32::MAX - 1;
const NEVER: u64 = u64::MAX;

/// Milliseconds to whole microseconds, clamped to [0, 1e15].
#[inline]
fn us_of_ms(ms: f64) -> u64 {
    (ms * 1000.0).clamp(0.0, 1e15) as u64
}

/// How an attempt (or a job) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Answered successfully.
    Success,
    /// The caller timed out (or the deadline expired).
    Timeout,
    /// Refused: queue full, queue timeout, bulkhead full, breaker open upstream.
    Overload,
    /// Failed: outage, injected error, hang released.
    Error,
    /// The caller's breaker refused to send (never leaves the caller).
    BreakerRejected,
}

impl Outcome {
    /// What a tier returns to its own caller when its call failed this way.
    fn propagate(self) -> Outcome {
        match self {
            Outcome::BreakerRejected => Outcome::Overload,
            o => o,
        }
    }

    fn retry_kind(self) -> RetryOn {
        match self {
            Outcome::Timeout => RetryOn::Timeout,
            Outcome::Overload => RetryOn::Overload,
            Outcome::BreakerRejected => RetryOn::BreakerRejected,
            _ => RetryOn::Error,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    Free,
    Queued,
    Serving,
    Calling,
    Backoff,
    BulkheadWait,
    Hung,
}

impl St {
    /// True when the job holds one of its instance's concurrency slots.
    fn holds_slot(self) -> bool {
        matches!(
            self,
            St::Serving | St::Calling | St::Backoff | St::BulkheadWait
        )
    }
}

#[derive(Debug, Clone, Copy)]
struct Job {
    uid: u32,
    gen: u32,
    parent: u32,
    child: u32,
    instance: u32,
    caller: u32,
    permit: u32,
    retry_cost: u32,
    arrived: u64,
    deadline: u64,
    sent_at: u64,
    prev_sleep: u64,
    bh_since: u64,
    tier: u8,
    st: St,
    calls: u8,
    idempotent: bool,
    bh_held: bool,
}

impl Job {
    const EMPTY: Job = Job {
        uid: 0,
        gen: 0,
        parent: NONE,
        child: NONE,
        instance: 0,
        caller: NONE,
        permit: 0,
        retry_cost: 0,
        arrived: 0,
        deadline: NEVER,
        sent_at: 0,
        prev_sleep: 0,
        bh_since: 0,
        tier: 0,
        st: St::Free,
        calls: 0,
        idempotent: true,
        bh_held: false,
    };
}

#[derive(Debug, Clone, Default)]
struct Inst {
    busy: u32,
    held: u32,
    rr: u32,
    queue: VecDeque<u32>,
    bh_active: u32,
    bh_queue: VecDeque<u32>,
    hung: Vec<u32>,
}

/// Per-tier runtime: instances, breakers and budgets of its client, precomputed params.
#[derive(Debug)]
struct TierRt {
    inst: Vec<Inst>,
    queued: u64,
    held: u64,
    active: Vec<u32>,
    breakers: Vec<BreakerState>,
    budgets: Vec<BudgetState>,
    breaker_shared: bool,
    budget_shared: bool,
    concurrency: u32,
    queue_cap: usize,
    queue_timeout_us: u64,
    slowdown: f64,
    error_rate: f64,
    retry_mask: u8,
    timeout_us: u64,
    max_attempts: u8,
    propagate: bool,
    idempotent_only: bool,
    no_retry_open: bool,
    last: bool,
    random_lb: bool,
    /// The client's breaker, bulkhead, backoff and jitter (copied out of the scenario so
    /// the hot path does not walk `sc.tiers[t].client`); `Breaker::None` etc. without one.
    breaker_cfg: Breaker,
    bulkhead: Option<Bulkhead>,
    backoff: Option<(Backoff, Jitter)>,
}

fn retry_bit(k: RetryOn) -> u8 {
    match k {
        RetryOn::Timeout => 1,
        RetryOn::Overload => 2,
        RetryOn::Error => 4,
        RetryOn::BreakerRejected => 8,
    }
}

/// A cluster run that can be advanced in slices (for a web worker with progress and
/// cancel); [`super::run`] is `new` + `advance` until finished + `finish`.
#[derive(Debug)]
pub struct Simulation {
    sc: Scenario,
    seed: i64,
    rng: JavaRandom,
    normal: Normal,
    q: EventQueue,
    now: u64,
    end: u64,
    events: u64,
    finished: bool,
    error: Option<ValidationError>,
    tiers: Vec<TierRt>,
    jobs: Vec<Job>,
    free: Vec<u32>,
    live: u64,
    next_uid: u32,
    entry_rr: u32,
    arrival_clock: f64,
    bucket_us: u64,
    n_buckets: usize,
    counters: Vec<TierBucket>,
    sample_idx: usize,
    hist: Histogram,
    /// Latencies of the successes in the bucket being filled.
    bucket_hist: BucketLatency,
    /// Per bucket, its successes' latency percentiles (set when the bucket closes).
    bucket_latency: Vec<Percentiles>,
    entries: u64,
    entry_ok: u64,
    entry_fail: u64,
    /// End of bucket `sample_idx` (when the next gauges are due), µs; `NEVER` after the last.
    next_close: u64,
    /// Offset in `counters` of the bucket holding `now` (= `sample_idx` × tiers).
    row: usize,
    /// Service-time samplers per tier (derived parameters computed once).
    service: Vec<Sampler>,
    /// `Some(mean gap µs)` when the open-loop rate never changes (no schedule).
    const_gap_us: Option<f64>,
}

/// A service-time distribution with its derived parameters computed once (the same
/// expressions as per sample, so the values are bit-identical).
#[derive(Debug, Clone, Copy)]
enum Sampler {
    Constant { us: u64 },
    Exponential { mean_ms: f64 },
    Lognormal { p50_ms: f64, sigma: f64 },
}

impl Sampler {
    fn new(d: &Dist) -> Sampler {
        match *d {
            Dist::Constant { ms } => Sampler::Constant {
                us: (ms * 1000.0) as u64,
            },
            Dist::Exponential { mean_ms } => Sampler::Exponential { mean_ms },
            Dist::Lognormal { p50_ms, p99_ms } => Sampler::Lognormal {
                p50_ms,
                sigma: math::ln(p99_ms / p50_ms) / Z99,
            },
        }
    }
}

impl Simulation {
    /// Validates the scenario and sets up a run with `seed` (which overrides the scenario's).
    pub fn new(scenario: &Scenario, seed: i64) -> Result<Simulation, ValidationError> {
        scenario.validate()?;
        let sc = scenario.clone();
        let mut rng = JavaRandom::new(seed);
        let n_tiers = sc.tiers.len();
        let mut tiers = Vec::with_capacity(n_tiers);
        for (k, t) in sc.tiers.iter().enumerate() {
            let next_n = sc.tiers.get(k + 1).map_or(1, |n| n.instances);
            let mut inst = vec![Inst::default(); t.instances as usize];
            for i in inst.iter_mut() {
                // Seeded starting points, so 50 gateways do not all start at pod 0.
                i.rr = rng.next_int_bounded(next_n as i32).unwrap_or(0) as u32;
            }
            let (breakers, budgets, bs, gs, mask) = match &t.client {
                Some(c) => {
                    let bsc = c.breaker.scope();
                    let gsc = c.budget.scope();
                    (
                        vec![BreakerState::new(&c.breaker); bsc.slots(t.instances)],
                        vec![BudgetState::new(&c.budget); gsc.slots(t.instances)],
                        bsc.slots(t.instances) == 1,
                        gsc.slots(t.instances) == 1,
                        c.retry_on.iter().fold(0u8, |m, k| m | retry_bit(*k)),
                    )
                }
                None => (vec![], vec![], true, true, 0),
            };
            let c = t.client.as_ref();
            tiers.push(TierRt {
                inst,
                queued: 0,
                held: 0,
                active: vec![],
                breakers,
                budgets,
                breaker_shared: bs,
                budget_shared: gs,
                concurrency: t.concurrency,
                queue_cap: t.queue_capacity as usize,
                queue_timeout_us: t.queue_timeout_ms.map_or(NEVER, |q| q * 1000),
                slowdown: t.slowdown_per_in_flight,
                error_rate: t.error_rate,
                retry_mask: mask,
                timeout_us: c.map_or(NEVER, |c| c.timeout_ms * 1000),
                max_attempts: c.map_or(1, |c| c.max_attempts as u8),
                propagate: c.is_some_and(|c| c.deadline_propagation),
                idempotent_only: c.is_some_and(|c| c.idempotent_only),
                no_retry_open: c.is_some_and(|c| c.no_retry_while_breaker_open),
                last: k + 1 == n_tiers,
                random_lb: t.balancer == Balancer::Random,
                breaker_cfg: c.map_or(Breaker::None, |c| c.breaker.clone()),
                bulkhead: c.and_then(|c| c.bulkhead.clone()),
                backoff: c.map(|c| (c.backoff.clone(), c.jitter.clone())),
            });
        }
        let bucket_us = sc.bucket_ms * 1000;
        let n_buckets = sc.duration_ms.div_ceil(sc.bucket_ms) as usize;
        let mut sim = Simulation {
            seed,
            rng,
            normal: Normal::default(),
            q: EventQueue::new(),
            now: 0,
            end: sc.duration_ms * 1000,
            events: 0,
            finished: false,
            error: None,
            tiers,
            jobs: Vec::with_capacity(1 << 12),
            free: Vec::new(),
            live: 0,
            next_uid: 0,
            entry_rr: 0,
            arrival_clock: 0.0,
            bucket_us,
            n_buckets,
            counters: vec![TierBucket::default(); n_buckets * n_tiers],
            sample_idx: 0,
            hist: Histogram::default(),
            bucket_hist: BucketLatency::default(),
            bucket_latency: vec![Percentiles::default(); n_buckets],
            entries: 0,
            entry_ok: 0,
            entry_fail: 0,
            next_close: 0,
            row: 0,
            service: sc.tiers.iter().map(|t| Sampler::new(&t.service)).collect(),
            const_gap_us: (sc.load.schedule.is_empty() && sc.load.rate_per_s > 0.0)
                .then(|| 1e6 / sc.load.rate_per_s),
            sc,
        };
        sim.next_close = sim.bucket_end(0);
        sim.entry_rr = sim
            .rng
            .next_int_bounded(sim.sc.tiers[0].instances as i32)
            .unwrap_or(0) as u32;
        for (fi, f) in sim.sc.faults.iter().enumerate() {
            let start = f.start_ms * 1000;
            let end = f.start_ms.saturating_add(f.duration_ms) * 1000;
            if start < sim.end {
                sim.q.push(start, Kind::FaultEdge, fi as u32, 0);
                sim.q.push(end, Kind::FaultEdge, fi as u32, 1);
            }
        }
        if let Some(cl) = sim.sc.load.closed_loop.clone() {
            for c in 0..cl.callers {
                let t = sim.sample_us(&cl.think);
                sim.q.push(t, Kind::Think, c, 0);
            }
        }
        sim.schedule_arrival(0);
        Ok(sim)
    }

    /// Fraction of simulated time done, 0..=1.
    pub fn progress(&self) -> f64 {
        if self.finished {
            1.0
        } else {
            (self.now as f64 / self.end as f64).clamp(0.0, 1.0)
        }
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// True once the run has reached its end.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Processes up to `max_events` more events; `Ok(true)` once the run is finished.
    /// Exceeding the scenario's `max_events` (or the live-request bound) is an error.
    pub fn advance(&mut self, max_events: u64) -> Result<bool, ValidationError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let mut budget = max_events;
        while !self.finished && budget > 0 {
            // An event at or after the end is never run (nor counted): the run is over.
            let Some(ev) = self.q.pop().filter(|e| e.time < self.end) else {
                self.close_buckets(self.end);
                self.now = self.end;
                self.finished = true;
                break;
            };
            if self.events >= self.sc.max_events {
                return Err(self.too_many_events());
            }
            if ev.time >= self.next_close {
                self.close_buckets(ev.time);
            }
            debug_assert!(ev.time >= self.now, "event before its cause");
            self.now = ev.time;
            self.events += 1;
            budget -= 1;
            self.dispatch(ev.kind(), ev.a, ev.b);
            if let Some(e) = &self.error {
                return Err(e.clone());
            }
        }
        Ok(self.finished)
    }

    #[cold]
    fn too_many_events(&mut self) -> ValidationError {
        // No value: the sentence says it all ("max_events: the run needs more than …"),
        // where "max_events = N is out of range" would blame a value that is in range.
        let e = ValidationError::new(
            "max_events",
            "",
            format!(
                "the run needs more than max_events = {} events (stopped at {} ms of {} ms); raise max_events (≤ {}) or shorten the run",
                self.sc.max_events,
                self.now / 1000,
                self.sc.duration_ms,
                super::scenario::MAX_EVENTS_LIMIT
            ),
        );
        self.error = Some(e.clone());
        e
    }

    #[inline]
    fn dispatch(&mut self, kind: Kind, a: u32, b: u32) {
        let now = self.now;
        match kind {
            Kind::Arrival => {
                self.new_entry(now, NONE);
                self.schedule_arrival(now);
            }
            Kind::Think => self.new_entry(now, a),
            Kind::ServiceEnd => {
                if self.valid(a, b, St::Serving) {
                    self.service_end(a, now);
                }
            }
            Kind::AttemptTimeout => {
                if self.valid(a, b, St::Calling) {
                    let c = self.jobs[a as usize].child;
                    if let Some(cj) = self.jobs.get_mut(c as usize) {
                        cj.parent = NONE; // orphaned: it keeps working, nobody waits for it
                    }
                    self.attempt_result(a, Outcome::Timeout, now);
                }
            }
            Kind::RetryFire => {
                if self.valid(a, b, St::Backoff) {
                    self.try_send(a, now);
                }
            }
            Kind::BulkheadGrant => {
                if self.valid(a, b, St::BulkheadWait) {
                    self.try_send(a, now);
                }
            }
            Kind::EntryTimeout => {
                let j = a as usize;
                if self.jobs[j].uid == b
                    && self.jobs[j].st != St::Free
                    && self.jobs[j].parent == ROOT
                {
                    self.jobs[j].parent = NONE;
                    let caller = self.jobs[j].caller;
                    self.entry_end(Outcome::Timeout, 0, caller, now);
                }
            }
            Kind::FaultEdge => self.fault_edge(a, b == 0, now),
        }
    }

    #[inline]
    fn valid(&self, j: u32, gen: u32, st: St) -> bool {
        self.jobs
            .get(j as usize)
            .is_some_and(|x| x.gen == gen && x.st == st)
    }

    // ---------------------------------------------------------------- load

    /// The open-loop rate at `t_us`: the rule the playground's timeline draws too.
    fn rate_at(&self, t_us: u64) -> f64 {
        self.sc.load.rate_at_ms(t_us as f64 / 1000.0)
    }

    /// Next schedule boundary strictly after `t_us`, µs.
    fn next_boundary(&self, t_us: u64) -> Option<u64> {
        self.sc
            .load
            .schedule
            .iter()
            .flat_map(|s| [s.start_ms * 1000, s.end_ms * 1000])
            .filter(|&b| b > t_us)
            .min()
    }

    /// Schedules the next open-loop arrival after `now` (the gap uses the rate at `now`).
    fn schedule_arrival(&mut self, now: u64) {
        if let Some(mean_us) = self.const_gap_us {
            // No schedule: the rate is `rate_per_s` throughout (the loop below, unrolled).
            let gap = match self.sc.load.arrivals {
                Arrivals::Constant => mean_us,
                Arrivals::Poisson => math::exponential(&mut self.rng, mean_us),
            };
            let next = self.arrival_clock.max(now as f64) + gap;
            self.arrival_clock = next;
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

    fn sample_us(&mut self, d: &Dist) -> u64 {
        let ms = match *d {
            Dist::Constant { ms } => ms,
            Dist::Exponential { mean_ms } => math::exponential(&mut self.rng, mean_ms),
            Dist::Lognormal { p50_ms, p99_ms } => {
                let sigma = math::ln(p99_ms / p50_ms) / Z99;
                let z = self.normal.sample(&mut self.rng);
                p50_ms * math::exp(sigma * z)
            }
        };
        us_of_ms(ms)
    }

    // ---------------------------------------------------------------- jobs

    #[inline(always)]
    fn alloc(
        &mut self,
        tier: usize,
        instance: u32,
        parent: u32,
        deadline: u64,
        idem: bool,
        now: u64,
    ) -> Option<u32> {
        if self.live >= MAX_LIVE_JOBS {
            self.error = Some(ValidationError::new(
                "load",
                format!("{} requests alive at {} ms", self.live, now / 1000),
                format!("at most {MAX_LIVE_JOBS} requests alive at once; lower the rate, queue capacities or fault lengths"),
            ));
            return None;
        }
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.jobs.push(Job::EMPTY);
                (self.jobs.len() - 1) as u32
            }
        };
        self.next_uid = self.next_uid.wrapping_add(1);
        let j = &mut self.jobs[id as usize];
        let gen = j.gen;
        *j = Job {
            uid: self.next_uid,
            gen,
            parent,
            instance,
            arrived: now,
            deadline,
            tier: tier as u8,
            idempotent: idem,
            ..Job::EMPTY
        };
        self.live += 1;
        let t = &mut self.tiers[tier];
        t.held += 1;
        t.inst[instance as usize].held += 1;
        Some(id)
    }

    #[inline(always)]
    fn release(&mut self, j: u32) {
        let job = &mut self.jobs[j as usize];
        let (t, i) = (job.tier as usize, job.instance as usize);
        job.st = St::Free;
        job.gen = job.gen.wrapping_add(1);
        job.uid = 0;
        self.free.push(j);
        self.live -= 1;
        let tr = &mut self.tiers[t];
        tr.held -= 1;
        tr.inst[i].held -= 1;
    }

    /// The counters of `tier` in the bucket holding `now` (the current event's time:
    /// `close_buckets(now)` has run, so that bucket is `sample_idx`).
    #[inline]
    fn bucket(&mut self, tier: usize, now: u64) -> &mut TierBucket {
        debug_assert_eq!(
            self.row,
            ((now / self.bucket_us) as usize).min(self.n_buckets - 1) * self.tiers.len()
        );
        &mut self.counters[self.row + tier]
    }

    #[inline(always)]
    fn pick(&mut self, callee: usize, caller: Option<(usize, u32)>) -> u32 {
        let n = self.tiers[callee].inst.len() as u32;
        if self.tiers[callee].random_lb {
            return self.rng.next_int_bounded(n as i32).unwrap_or(0) as u32;
        }
        let rr = match caller {
            Some((t, i)) => &mut self.tiers[t].inst[i as usize].rr,
            None => &mut self.entry_rr,
        };
        // `rr < n` always (it starts below n and wraps), so no division is needed.
        let mut r = *rr;
        if r >= n {
            r %= n;
        }
        *rr = if r + 1 >= n { 0 } else { r + 1 };
        r
    }

    #[inline(always)]
    fn new_entry(&mut self, now: u64, caller: u32) {
        let frac = self.sc.load.idempotent_fraction;
        let idem = frac >= 1.0 || self.rng.next_unit() < frac;
        let deadline = self.sc.load.deadline_ms.map_or(NEVER, |d| now + d * 1000);
        let inst = self.pick(0, None);
        let Some(j) = self.alloc(0, inst, ROOT, deadline, idem, now) else {
            return;
        };
        self.jobs[j as usize].caller = caller;
        self.entries += 1;
        self.bucket(0, now).first_attempts += 1;
        if deadline != NEVER {
            let uid = self.jobs[j as usize].uid;
            self.q.push(deadline, Kind::EntryTimeout, j, uid);
        }
        self.arrive(j, now);
    }

    /// A job reaches its instance: fail fast, hang, start, queue, or be refused.
    #[inline(always)]
    fn arrive(&mut self, j: u32, now: u64) {
        let (t, i) = {
            let job = &self.jobs[j as usize];
            (job.tier as usize, job.instance)
        };
        let fx = self.effect(t, i);
        if fx.outage {
            self.end_job(j, Outcome::Error, now);
            return;
        }
        if fx.hang {
            self.jobs[j as usize].st = St::Hung;
            self.tiers[t].inst[i as usize].hung.push(j);
            return;
        }
        let tr = &mut self.tiers[t];
        let conc = tr.concurrency;
        let cap = tr.queue_cap;
        let inst = &mut tr.inst[i as usize];
        if inst.busy < conc && fx.pause_until <= now && inst.queue.is_empty() {
            self.start_service(j, now, &fx);
        } else if inst.queue.len() < cap {
            inst.queue.push_back(j);
            tr.queued += 1;
            self.jobs[j as usize].st = St::Queued;
        } else {
            self.end_job(j, Outcome::Overload, now);
        }
    }

    #[inline]
    fn effect(&self, t: usize, i: u32) -> Effect {
        let active = &self.tiers[t].active;
        if active.is_empty() {
            Effect::NONE
        } else {
            Effect::of(&self.sc.faults, active, i)
        }
    }

    #[inline(always)]
    fn start_service(&mut self, j: u32, now: u64, fx: &Effect) {
        let (t, i) = {
            let job = &self.jobs[j as usize];
            (job.tier as usize, job.instance as usize)
        };
        let base = match self.service[t] {
            Sampler::Constant { us } => us,
            Sampler::Exponential { mean_ms } => us_of_ms(math::exponential(&mut self.rng, mean_ms)),
            Sampler::Lognormal { p50_ms, sigma } => {
                let z = self.normal.sample(&mut self.rng);
                us_of_ms(p50_ms * math::exp(sigma * z))
            }
        };
        let tr = &mut self.tiers[t];
        let inst = &mut tr.inst[i];
        inst.busy += 1;
        let dur = if tr.slowdown > 0.0 || fx.factor != 1.0 {
            let mut st = base as f64;
            if tr.slowdown > 0.0 {
                // In flight = everything the instance holds besides this request.
                st *= 1.0 + tr.slowdown * inst.held.saturating_sub(1) as f64;
            }
            st /= fx.factor;
            (st.min(1e15) as u64).saturating_add(fx.added_us)
        } else {
            // The same value without the float round trip: (base as f64).min(1e15) as u64.
            base.min(1_000_000_000_000_000).saturating_add(fx.added_us)
        };
        let job = &mut self.jobs[j as usize];
        job.st = St::Serving;
        let gen = job.gen;
        self.q
            .push(now.saturating_add(dur), Kind::ServiceEnd, j, gen);
    }

    #[inline(always)]
    fn service_end(&mut self, j: u32, now: u64) {
        let (t, i) = {
            let job = &self.jobs[j as usize];
            (job.tier as usize, job.instance)
        };
        let fx = self.effect(t, i);
        if fx.pause_until > now {
            // Stopped the world: the work resumes when the pause ends.
            let gen = self.jobs[j as usize].gen;
            self.q.push(fx.pause_until, Kind::ServiceEnd, j, gen);
            return;
        }
        if fx.outage {
            self.end_job(j, Outcome::Error, now);
            return;
        }
        if fx.hang {
            self.tiers[t].inst[i as usize].busy -= 1;
            self.jobs[j as usize].st = St::Hung;
            self.tiers[t].inst[i as usize].hung.push(j);
            self.kick(t, i, now);
            return;
        }
        let base = self.tiers[t].error_rate;
        let err = 1.0 - (1.0 - base) * (1.0 - fx.error_rate);
        if err > 0.0 && self.rng.next_unit() < err {
            self.end_job(j, Outcome::Error, now);
            return;
        }
        if self.tiers[t].last {
            self.end_job(j, Outcome::Success, now);
            return;
        }
        self.try_send(j, now);
    }

    /// Starts queued work on free slots (dropping expired entries at the head).
    fn kick(&mut self, t: usize, i: u32, now: u64) {
        loop {
            let fx = self.effect(t, i);
            if fx.pause_until > now || fx.outage {
                return;
            }
            let tr = &mut self.tiers[t];
            let qt = tr.queue_timeout_us;
            let inst = &mut tr.inst[i as usize];
            if inst.busy >= tr.concurrency {
                return;
            }
            let Some(j) = inst.queue.pop_front() else {
                return;
            };
            tr.queued -= 1;
            let job = &self.jobs[j as usize];
            if now.saturating_sub(job.arrived) > qt {
                self.end_job(j, Outcome::Overload, now);
            } else if job.deadline <= now {
                // The caller's propagated deadline has passed: nobody wants this answer.
                self.end_job(j, Outcome::Timeout, now);
            } else {
                self.start_service(j, now, &fx);
            }
        }
    }

    /// A job ends: free its slot, report to whoever waits for it, recycle it.
    fn end_job(&mut self, j: u32, outcome: Outcome, now: u64) {
        let job = self.jobs[j as usize];
        let (t, i) = (job.tier as usize, job.instance);
        let freed = job.st.holds_slot();
        if freed {
            self.tiers[t].inst[i as usize].busy -= 1;
        }
        if job.bh_held {
            self.jobs[j as usize].bh_held = false;
            self.bulkhead_release(t, i, now);
        }
        self.release(j);
        match job.parent {
            ROOT => self.entry_end(outcome, now - job.arrived, job.caller, now),
            NONE => self.bucket(t, now).wasted += 1,
            p => {
                let pj = &self.jobs[p as usize];
                if pj.st == St::Calling && pj.child == j {
                    if freed {
                        self.kick(t, i, now);
                    }
                    self.attempt_result(p, outcome, now);
                    return;
                }
                self.bucket(t, now).wasted += 1;
            }
        }
        if freed {
            self.kick(t, i, now);
        }
    }

    #[inline(always)]
    fn entry_end(&mut self, outcome: Outcome, latency: u64, caller: u32, now: u64) {
        let b = self.bucket(0, now);
        match outcome {
            Outcome::Success => b.successes += 1,
            Outcome::Timeout => b.timeouts += 1,
            Outcome::Error => b.errors += 1,
            Outcome::Overload | Outcome::BreakerRejected => b.overloads += 1,
        }
        if outcome == Outcome::Success {
            self.entry_ok += 1;
            self.hist.record(latency);
            // Always the bucket `close_buckets` left open: the one holding `now`.
            self.bucket_hist.record(latency);
        } else {
            self.entry_fail += 1;
        }
        if caller != NONE {
            if let Some(cl) = self.sc.load.closed_loop.clone() {
                let think = self.sample_us(&cl.think);
                self.q
                    .push(now.saturating_add(think), Kind::Think, caller, 0);
            }
        }
    }

    // ---------------------------------------------------------------- client side

    #[inline]
    fn breaker_idx(&self, t: usize, i: u32) -> usize {
        if self.tiers[t].breaker_shared {
            0
        } else {
            i as usize
        }
    }

    #[inline]
    fn budget_idx(&self, t: usize, i: u32) -> usize {
        if self.tiers[t].budget_shared {
            0
        } else {
            i as usize
        }
    }

    fn breaker_cfg(&self, t: usize) -> &Breaker {
        &self.tiers[t].breaker_cfg
    }

    /// Sends the next attempt of job `p`'s call to the next tier, if the bulkhead,
    /// breaker and deadline allow.
    fn try_send(&mut self, p: u32, now: u64) {
        let job = self.jobs[p as usize];
        let (t, i) = (job.tier as usize, job.instance);
        let callee = t + 1;
        let propagate = self.tiers[t].propagate;
        if propagate && job.deadline <= now {
            self.end_job(p, Outcome::Timeout, now);
            return;
        }
        // Bulkhead first (as Resilience4j decorates: the bulkhead sits inside the breaker,
        // but a call waiting for a bulkhead slot must not hold a half-open permit).
        if !job.bh_held {
            if let Some(bh) = self.tiers[t].bulkhead.clone() {
                let inst = &mut self.tiers[t].inst[i as usize];
                if inst.bh_active < bh.max_concurrent {
                    inst.bh_active += 1;
                    self.jobs[p as usize].bh_held = true;
                } else if inst.bh_queue.len() < bh.max_queue as usize {
                    inst.bh_queue.push_back(p);
                    let jm = &mut self.jobs[p as usize];
                    jm.st = St::BulkheadWait;
                    jm.bh_since = now;
                    return;
                } else {
                    self.jobs[p as usize].calls += 1;
                    self.bucket(callee, now).bulkhead_rejected += 1;
                    self.after_failure(p, Outcome::Overload, now);
                    return;
                }
            }
        }
        let bi = self.breaker_idx(t, i);
        let permit = {
            let tr = &mut self.tiers[t];
            match tr.breakers.get_mut(bi) {
                Some(b) => b.acquire(&tr.breaker_cfg, now, &mut self.rng),
                None => Some(0),
            }
        };
        let Some(permit) = permit else {
            if self.jobs[p as usize].bh_held {
                self.jobs[p as usize].bh_held = false;
                self.bulkhead_release(t, i, now);
            }
            self.jobs[p as usize].calls += 1;
            self.bucket(callee, now).breaker_rejected += 1;
            self.after_failure(p, Outcome::BreakerRejected, now);
            return;
        };
        let calls = job.calls.saturating_add(1);
        let mut timeout = self.tiers[t].timeout_us;
        let mut child_deadline = NEVER;
        if propagate {
            timeout = timeout.min(job.deadline.saturating_sub(now));
            child_deadline = now.saturating_add(timeout);
        }
        let ci = self.pick(callee, Some((t, i)));
        let Some(child) = self.alloc(callee, ci, p, child_deadline, job.idempotent, now) else {
            return;
        };
        {
            let b = self.bucket(callee, now);
            if calls == 1 {
                b.first_attempts += 1;
            } else {
                b.retries += 1;
            }
        }
        if calls == 1 {
            let gi = self.budget_idx(t, i);
            if let Some(b) = self.tiers[t].budgets.get_mut(gi) {
                b.on_first_attempt(now);
            }
        }
        let jm = &mut self.jobs[p as usize];
        jm.calls = calls;
        jm.permit = permit;
        jm.child = child;
        jm.st = St::Calling;
        jm.sent_at = now;
        let gen = jm.gen;
        self.q
            .push(now.saturating_add(timeout), Kind::AttemptTimeout, p, gen);
        // Last: the child may fail at once and unwind through `p` synchronously.
        self.arrive(child, now);
    }

    fn bulkhead_release(&mut self, t: usize, i: u32, now: u64) {
        let Some(bh) = self.tiers[t].bulkhead.clone() else {
            return;
        };
        let callee = t + 1;
        self.tiers[t].inst[i as usize].bh_active -= 1;
        loop {
            let Some(w) = self.tiers[t].inst[i as usize].bh_queue.pop_front() else {
                return;
            };
            let since = self.jobs[w as usize].bh_since;
            if now.saturating_sub(since) > bh.max_wait_ms * 1000 {
                self.jobs[w as usize].calls += 1;
                self.bucket(callee, now).bulkhead_rejected += 1;
                self.after_failure(w, Outcome::Overload, now);
                continue;
            }
            // Reserve the slot now, send from a fresh event: no recursion through chains
            // of waiters.
            self.tiers[t].inst[i as usize].bh_active += 1;
            let jm = &mut self.jobs[w as usize];
            jm.bh_held = true;
            let gen = jm.gen;
            self.q.push(now, Kind::BulkheadGrant, w, gen);
            return;
        }
    }

    /// The outstanding attempt of `p` ended with `outcome` (the callee answered, or the
    /// attempt timer fired).
    fn attempt_result(&mut self, p: u32, outcome: Outcome, now: u64) {
        let (t, i, permit, sent_at, calls, cost) = {
            let jm = &mut self.jobs[p as usize];
            jm.gen = jm.gen.wrapping_add(1); // the attempt timer is now stale
            jm.child = NONE;
            (
                jm.tier as usize,
                jm.instance,
                jm.permit,
                jm.sent_at,
                jm.calls,
                jm.retry_cost,
            )
        };
        let callee = t + 1;
        {
            let b = self.bucket(callee, now);
            match outcome {
                Outcome::Success => b.successes += 1,
                Outcome::Timeout => b.timeouts += 1,
                Outcome::Overload | Outcome::BreakerRejected => b.overloads += 1,
                Outcome::Error => b.errors += 1,
            }
        }
        if self.jobs[p as usize].bh_held {
            self.jobs[p as usize].bh_held = false;
            self.bulkhead_release(t, i, now);
        }
        let success = outcome == Outcome::Success;
        let bi = self.breaker_idx(t, i);
        let gi = self.budget_idx(t, i);
        {
            let tr = &mut self.tiers[t];
            if let Some(b) = tr.breakers.get_mut(bi) {
                b.record(
                    &tr.breaker_cfg,
                    now,
                    permit,
                    !success,
                    now - sent_at,
                    &mut self.rng,
                );
            }
        }
        if let Some(b) = self.tiers[t].budgets.get_mut(gi) {
            b.on_outcome(success, !success, if calls > 1 { Some(cost) } else { None });
        }
        if success {
            // The job's own response: for the last hop this is where the chain unwinds.
            self.end_job(p, Outcome::Success, now);
            return;
        }
        self.after_failure(p, outcome, now);
    }

    /// Decides whether job `p` retries after a failed (or unsent) attempt.
    fn after_failure(&mut self, p: u32, kind: Outcome, now: u64) {
        let job = self.jobs[p as usize];
        let (t, i) = (job.tier as usize, job.instance);
        let callee = t + 1;
        let tr = &self.tiers[t];
        let allowed = job.calls < tr.max_attempts
            && tr.retry_mask & retry_bit(kind.retry_kind()) != 0
            && (!tr.idempotent_only || job.idempotent)
            && !(tr.propagate && job.deadline <= now);
        if !allowed {
            self.end_job(p, kind.propagate(), now);
            return;
        }
        if tr.no_retry_open {
            let bi = self.breaker_idx(t, i);
            let open = self.tiers[t]
                .breakers
                .get(bi)
                .is_some_and(|b| b.status(self.breaker_cfg(t), now) != Status::Closed);
            if open {
                self.bucket(callee, now).budget_rejected += 1;
                self.end_job(p, kind.propagate(), now);
                return;
            }
        }
        let gi = self.budget_idx(t, i);
        let granted = match self.tiers[t].budgets.get_mut(gi) {
            Some(b) => b.try_retry(now, kind == Outcome::Timeout),
            None => Some(0),
        };
        let Some(cost) = granted else {
            self.bucket(callee, now).budget_rejected += 1;
            self.end_job(p, kind.propagate(), now);
            return;
        };
        let sleep = match &self.tiers[t].backoff {
            Some((b, j)) => backoff::sleep(b, j, job.calls as u32, job.prev_sleep, &mut self.rng),
            None => 0,
        };
        if self.tiers[t].propagate && now.saturating_add(sleep) >= job.deadline {
            // gRPC does not start a retry that cannot finish before the deadline.
            self.end_job(p, kind.propagate(), now);
            return;
        }
        let jm = &mut self.jobs[p as usize];
        jm.retry_cost = cost;
        jm.prev_sleep = sleep;
        jm.st = St::Backoff;
        let gen = jm.gen;
        self.q
            .push(now.saturating_add(sleep), Kind::RetryFire, p, gen);
    }

    // ---------------------------------------------------------------- faults

    fn fault_edge(&mut self, fi: u32, start: bool, now: u64) {
        let Some(f) = self.sc.faults.get(fi as usize) else {
            return;
        };
        let t = f.tier as usize;
        let n = f.instances.unwrap_or(self.sc.tiers[t].instances);
        let effect = f.effect.clone();
        {
            let active = &mut self.tiers[t].active;
            if start {
                let pos = active.partition_point(|&x| x < fi);
                active.insert(pos, fi);
            } else if let Some(pos) = active.iter().position(|&x| x == fi) {
                active.remove(pos);
            }
        }
        for i in 0..n {
            let fx = self.effect(t, i);
            match (&effect, start) {
                (FaultEffect::Outage, true) => {
                    // The process is gone: everything waiting in its queue fails.
                    while let Some(j) = self.tiers[t].inst[i as usize].queue.pop_front() {
                        self.tiers[t].queued -= 1;
                        self.end_job(j, Outcome::Error, now);
                    }
                }
                (FaultEffect::Hang, false) if !fx.hang => {
                    // Connections reset: held requests fail.
                    let hung = std::mem::take(&mut self.tiers[t].inst[i as usize].hung);
                    for j in hung {
                        if self.jobs[j as usize].st == St::Hung {
                            self.end_job(j, Outcome::Error, now);
                        }
                    }
                }
                (_, false) => self.kick(t, i, now),
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- metrics

    /// Samples gauges for every bucket that ends at or before `t`.
    fn close_buckets(&mut self, t: u64) {
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

    fn bucket_end(&self, b: usize) -> u64 {
        ((b as u64 + 1) * self.bucket_us).min(self.end)
    }

    fn sample(&mut self, b: usize, at: u64) {
        self.bucket_latency[b] = self.bucket_hist.take();
        let n = self.tiers.len();
        for k in 0..n {
            let (mut open, mut half, mut closed) = (0u32, 0u32, 0u32);
            let cfg = self.breaker_cfg(k);
            let tr = &self.tiers[k];
            let inst = self.sc.tiers[k].instances;
            if tr.breaker_shared {
                match tr.breakers.first().map(|s| s.status(cfg, at)) {
                    Some(Status::Open) => open = inst,
                    Some(Status::HalfOpen) => half = inst,
                    _ => closed = inst,
                }
            } else {
                for s in &tr.breakers {
                    match s.status(cfg, at) {
                        Status::Open => open += 1,
                        Status::HalfOpen => half += 1,
                        Status::Closed => closed += 1,
                    }
                }
            }
            let (queued, held) = (tr.queued, tr.held);
            let c = &mut self.counters[b * n + k];
            c.queue_depth = queued;
            c.in_flight = held;
            c.breakers_open = open;
            c.breakers_half_open = half;
            c.breakers_closed = closed;
        }
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
        let buckets: Vec<Bucket> = (0..self.n_buckets)
            .map(|b| Bucket {
                latency_ms: self.bucket_latency[b].clone(),
                start_ms: b as u64 * bucket_ms,
                tiers: self.counters[b * n..(b + 1) * n].to_vec(),
            })
            .collect();
        // Pending attempts, counted from the live jobs (not by subtraction, so that the
        // conservation tests check something): an attempt into tier k+1 is pending while
        // its caller at tier k is `Calling`; an entry is pending while its job is alive.
        let mut pending = vec![0u64; n];
        let mut pending_entries = 0u64;
        for j in &self.jobs {
            if j.st == St::Free {
                continue;
            }
            if j.parent == ROOT {
                pending_entries += 1;
            }
            if j.st == St::Calling {
                if let Some(p) = pending.get_mut(j.tier as usize + 1) {
                    *p += 1;
                }
            }
        }
        pending[0] = pending_entries;
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
            if let Some(last) = buckets.last() {
                let l = &last.tiers[k];
                tot.queue_depth = l.queue_depth;
                tot.in_flight = l.in_flight;
                tot.breakers_open = l.breakers_open;
                tot.breakers_half_open = l.breakers_half_open;
                tot.breakers_closed = l.breakers_closed;
            }
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
                totals: tot,
            });
        }
        let secs = self.sc.duration_ms as f64 / 1000.0;
        let q = |x: f64| self.hist.quantile(x) / 1000.0;
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
            latency_ms: Percentiles {
                p50: q(0.5),
                p90: q(0.9),
                p99: q(0.99),
                p999: q(0.999),
            },
            amplification: tiers.last().map_or(0.0, |t| t.amplification),
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
        RunResult {
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
