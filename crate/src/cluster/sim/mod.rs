//! The event loop: jobs moving through tiers, client retry loops, faults and metrics.
//!
//! # Model
//! - Time is integer **microseconds** (`u64`); scenario fields are milliseconds.
//! - A *job* is one attempt being handled by one instance of one tier. It waits in the
//!   instance's FIFO queue, holds one of its `concurrency` slots while served, and (on
//!   every tier but the last) keeps holding the slot while its client calls the next
//!   tier, retries and backs off (a thread-per-request server). It ends exactly once:
//!   success, or a failure kind.
//! - Without a hop's `network`, calls and responses travel in zero time: a callee's end is
//!   delivered to its caller in the same event, so an effect never precedes its cause and
//!   the chain unwinds in order. Anything that could cascade sideways (a retry, a freed
//!   bulkhead slot) goes through the queue instead, so the call depth stays bounded by the
//!   number of tiers. With a `network`, an attempt reaches its callee (`Kind::Reach`) and
//!   the answer its caller (`Kind::Reply`) through the queue, each leg its own draw; the
//!   attempt's timer runs from the send, so it spans both legs.
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
use super::math::{self, us_of_ms, Normal};
use super::metrics::{RunResult, TierBucket};
use super::queue::{Event, EventQueue, Kind};
use super::scenario::{
    Arrivals, Backoff, Balancer, Breaker, Bulkhead, Client, Dist, FaultEffect, Jitter, RetryOn,
    Scenario, Tier,
};
use crate::rng::{JavaRandom, UnitDouble};
use crate::validate::ValidationError;
use std::collections::VecDeque;

mod client;
mod fault_edges;
pub(crate) mod footprint;
mod jobs;
mod load;
mod network;
mod record;

/// Most requests alive at once (memory bound); more is an error.
pub const MAX_LIVE_JOBS: u64 = 4_000_000;

/// Longest drain after the end of a run (`steady.drain`), ms: an hour of simulated time,
/// the longest time one field may set. A request still in flight then is unfinished.
pub const DRAIN_LIMIT_MS: u64 = super::scenario::MAX_TIME_MS;

const NONE: u32 = u32::MAX;
const ROOT: u32 = u32::MAX - 1;
const NEVER: u64 = u64::MAX;

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
    /// Sent over a hop's network, not yet at its callee (held by no instance).
    Travelling,
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

/// One request at one tier (see the model above): 64 bytes, one cache line, as every
/// event touches one or two jobs at random places in `Simulation::jobs`.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Job {
    arrived: u64,
    deadline: u64,
    /// When the job's current state began, read only in that state: its service's start
    /// (`Serving`), its outstanding attempt's send (`Calling`), or the start of its wait
    /// for a bulkhead slot (`BulkheadWait`). One word serves the three: each state writes
    /// it on entry, and a job is in one state at a time.
    since: u64,
    /// What the backoff carries between retries (see `backoff::sleep`).
    carry: u64,
    uid: u32,
    gen: u32,
    /// Bucket in which the entry request this job serves arrived (its cohort).
    cohort: u32,
    parent: u32,
    child: u32,
    /// Until its service starts: the extra service time decided when the instance
    /// admitted the job (a `latency_admitted` fault), µs, added when its service starts
    /// (saturated at `u32::MAX`, 71 minutes: one fault adds at most an hour; a u32 keeps
    /// the job's size). From its first call on: the breaker permit of its outstanding
    /// attempt. One word serves both: a job's service starts once, before its first call.
    admitted_or_permit: u32,
    /// Below `MAX_INSTANCES` (10,000): validation bounds a tier's instances.
    instance: u16,
    tier: u8,
    /// The route of the tier's client this job's current call uses (picked per call), an
    /// index into `Simulation::routes` (at most 16 tiers × 8 routes).
    route: u8,
    st: St,
    calls: u8,
    /// The outcome of the outstanding attempt while its answer crosses the network.
    reply: Outcome,
    /// Yes-or-no facts, one bit each (see [`flag`]).
    flags: u8,
}

/// The bits of [`Job::flags`]: five `bool`s would not fit the job's cache line.
mod flag {
    /// The request may be retried under `idempotent_only` (drawn for the entry request,
    /// inherited by its calls).
    pub const IDEMPOTENT: u8 = 1;
    /// The job holds a slot of its route's bulkhead.
    pub const BH_HELD: u8 = 1 << 1;
    /// The current retry holds a slot of an Envoy budget until its answer.
    pub const RETRY_SLOT: u8 = 1 << 2;
    /// The current retry was granted after a timeout: an AWS quota charged it its timeout
    /// cost, not its cost (see `BudgetState::on_outcome`), which a success gives back.
    pub const RETRY_AFTER_TIMEOUT: u8 = 1 << 3;
    /// An entry request sent by a closed-loop caller, who thinks and sends the next one
    /// when it ends (which caller is not kept: nothing tells them apart).
    pub const CLOSED_LOOP: u8 = 1 << 4;
}

impl Job {
    const EMPTY: Job = Job {
        arrived: 0,
        deadline: NEVER,
        since: 0,
        carry: 0,
        uid: 0,
        gen: 0,
        cohort: 0,
        parent: NONE,
        child: NONE,
        admitted_or_permit: 0,
        instance: 0,
        tier: 0,
        route: 0,
        st: St::Free,
        calls: 0,
        reply: Outcome::Success,
        flags: flag::IDEMPOTENT,
    };

    /// Whether flag `f` (one of [`flag`]'s) is set.
    #[inline(always)]
    fn has(&self, f: u8) -> bool {
        self.flags & f != 0
    }

    /// Sets flag `f` (one of [`flag`]'s) to `on`.
    #[inline(always)]
    fn set(&mut self, f: u8, on: bool) {
        self.flags = if on { self.flags | f } else { self.flags & !f };
    }
}

#[derive(Debug, Clone, Default)]
struct Inst {
    busy: u32,
    held: u32,
    queue: VecDeque<u32>,
    hung: Vec<u32>,
}

/// One route of a tier's client: the callee tier, its share of the calls, its client
/// policy (copied out of the scenario so the hot path does not walk it), and per caller
/// instance its round-robin position and bulkhead. A chain's tier has one route (its
/// `client`, to the next tier); the last tier none.
#[derive(Debug)]
struct RouteRt {
    to: usize,
    /// Cumulative share of the calls up to and including this route (the last one's is 1).
    upto: f64,
    rr: Vec<u32>,
    bh_active: Vec<u32>,
    bh_queue: Vec<VecDeque<u32>>,
    /// Where this route's breakers and budgets start in its tier's `breakers` and
    /// `budgets` (routes that share one have the same start), and whether one serves
    /// every instance of the tier.
    breaker_base: usize,
    budget_base: usize,
    breaker_shared: bool,
    budget_shared: bool,
    retry_mask: u8,
    timeout_us: u64,
    max_attempts: u8,
    propagate: bool,
    idempotent_only: bool,
    /// No retry while the breaker is not closed: asked for, or the breaker is a retry-only one.
    no_retry_open: bool,
    /// The breaker counts the calls (a retry-only breaker), told of each first attempt.
    counts_calls: bool,
    /// Another route of the tier calls the same tier: this route's attempts and refusals
    /// are also counted on their own (the callee's counters hold every route's).
    own_counts: bool,
    breaker_cfg: Breaker,
    bulkhead: Option<Bulkhead>,
    backoff: (Backoff, Jitter),
    /// The network's request and response legs (`None`: zero time, nothing drawn).
    network: Option<[Sampler; 2]>,
}

/// Per-tier runtime: instances, breakers and budgets of its client, precomputed params.
#[derive(Debug)]
struct TierRt {
    inst: Vec<Inst>,
    queued: u64,
    held: u64,
    /// Concurrency slots held, all instances.
    busy: u64,
    /// Time integrals of `queued`, `held` and `busy`, kept as Σ ±t over their changes
    /// (wrapping): the integral from 0 to `t` is `count(t)·t − Σ`, so a change costs one
    /// addition and no branch, and each bucket takes the difference at its end.
    queued_m: u64,
    held_m: u64,
    busy_m: u64,
    /// The integrals at the end of the last closed bucket.
    areas: [u64; 3],
    active: Vec<u32>,
    /// The breakers and budgets of every route, in route order (see `RouteRt::breaker_base`).
    breakers: Vec<BreakerState>,
    budgets: Vec<BudgetState>,
    concurrency: u32,
    queue_cap: usize,
    queue_timeout_us: u64,
    slowdown: f64,
    error_rate: f64,
    random_lb: bool,
    /// This tier's routes in `Simulation::routes` (empty for a tier that calls nothing).
    routes: core::ops::Range<usize>,
}

/// A route's settings for one caller instance, copied out in one lookup (see `hop`).
#[derive(Debug, Clone, Copy)]
struct Hop {
    to: usize,
    /// Index of this instance's breaker and budget in the tier's `breakers`, `budgets`.
    breaker: usize,
    budget: usize,
    timeout_us: u64,
    max_attempts: u8,
    retry_mask: u8,
    propagate: bool,
    idempotent_only: bool,
    no_retry_open: bool,
    counts_calls: bool,
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
    /// Every tier's routes, tier by tier (see `TierRt::routes`).
    routes: Vec<RouteRt>,
    jobs: Vec<Job>,
    free: Vec<u32>,
    live: u64,
    next_uid: u32,
    entry_rr: u32,
    arrival_clock: f64,
    /// Every metric accumulator, recorded through its methods (see [`record`]).
    rec: record::Recorder,
    /// Service-time samplers per tier (derived parameters computed once).
    service: Vec<Sampler>,
    /// `Some(mean gap µs)` when the open-loop rate never changes (no schedule).
    const_gap_us: Option<f64>,
    /// `load.jitter_ms` in µs (0: arrivals in their slots' microseconds, nothing drawn).
    jitter_us: f64,
    /// While draining (`steady.drain`): the run's result, built at its end.
    ended: Option<Box<RunResult>>,
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
            Dist::Constant { ms } => Sampler::Constant { us: us_of_ms(ms) },
            Dist::Exponential { mean_ms } => Sampler::Exponential { mean_ms },
            Dist::Lognormal { p50_ms, p99_ms } => Sampler::Lognormal {
                p50_ms,
                sigma: math::lognormal_sigma(p50_ms, p99_ms),
            },
        }
    }

    /// One draw, µs, from `rng` (a lognormal's through `normal`).
    #[inline(always)]
    fn draw(self, rng: &mut JavaRandom, normal: &mut Normal) -> u64 {
        match self {
            Sampler::Constant { us } => us,
            Sampler::Exponential { mean_ms } => us_of_ms(math::exponential(rng, mean_ms)),
            Sampler::Lognormal { p50_ms, sigma } => {
                us_of_ms(p50_ms * normal.lognormal_factor(rng, sigma))
            }
        }
    }
}

/// The routes of tier `k`'s client (a chain's one route to the next tier, or its
/// `routes`), their breakers and budgets added to the tier's (a route that shares them
/// points at the first route's); each route's round-robin positions are drawn later.
fn route_runtimes(
    t: &Tier,
    k: usize,
    breakers: &mut Vec<BreakerState>,
    budgets: &mut Vec<BudgetState>,
) -> Vec<RouteRt> {
    let n_inst = t.instances as usize;
    // A chain's client is one route to the next tier.
    let chain = t.client.as_ref().map(|c| (k as u32 + 1, 1.0, c));
    let routes: Vec<(u32, f64, &Client)> = match chain {
        Some(r) => vec![r],
        None => t
            .routes
            .iter()
            .map(|r| (r.to, r.weight, &r.client))
            .collect(),
    };
    let total_weight: f64 = routes.iter().map(|r| r.1).sum();
    let mut rts: Vec<RouteRt> = Vec::with_capacity(routes.len());
    let mut upto = 0.0;
    for (r, &(to, weight, c)) in routes.iter().enumerate() {
        let bsc = c.breaker.scope();
        let gsc = c.budget.scope();
        let breaker_base = match rts.first() {
            Some(first) if t.route_sharing.breaker => first.breaker_base,
            _ => {
                let base = breakers.len();
                breakers.extend(vec![BreakerState::new(&c.breaker); bsc.slots(t.instances)]);
                base
            }
        };
        let budget_base = match rts.first() {
            Some(first) if t.route_sharing.budget => first.budget_base,
            _ => {
                let base = budgets.len();
                budgets.extend(vec![BudgetState::new(&c.budget); gsc.slots(t.instances)]);
                base
            }
        };
        upto += weight / total_weight;
        let retry_only = matches!(c.breaker, Breaker::RetryOnly { .. });
        rts.push(RouteRt {
            to: to as usize,
            upto: if r + 1 == routes.len() { 1.0 } else { upto },
            rr: Vec::new(),
            bh_active: vec![0; n_inst],
            bh_queue: vec![VecDeque::new(); n_inst],
            breaker_base,
            budget_base,
            breaker_shared: bsc.slots(t.instances) == 1,
            budget_shared: gsc.slots(t.instances) == 1,
            retry_mask: c.retry_on.iter().fold(0u8, |m, k| m | retry_bit(*k)),
            timeout_us: c.timeout_ms * 1000,
            max_attempts: c.max_attempts as u8,
            propagate: c.deadline_propagation,
            idempotent_only: c.idempotent_only,
            no_retry_open: c.no_retry_while_breaker_open || retry_only,
            counts_calls: retry_only,
            own_counts: chain.is_none() && t.route_shares_callee(r),
            breaker_cfg: c.breaker.clone(),
            bulkhead: c.bulkhead.clone(),
            backoff: (c.backoff.clone(), c.jitter.clone()),
            network: c
                .network
                .as_ref()
                .map(|n| [Sampler::new(&n.request), Sampler::new(&n.response)]),
        });
    }
    rts
}

/// Tier `k`'s runtime and its routes (placed from `first_route` in
/// `Simulation::routes`), drawing each route's round-robin starting points from `rng`.
fn tier_runtime(
    sc: &Scenario,
    k: usize,
    rng: &mut JavaRandom,
    first_route: usize,
) -> (TierRt, Vec<RouteRt>) {
    let t = &sc.tiers[k];
    let n_inst = t.instances as usize;
    let (mut breakers, mut budgets) = (Vec::new(), Vec::new());
    let mut rts = route_runtimes(t, k, &mut breakers, &mut budgets);
    // Seeded starting points, so 50 gateways do not all start at pod 0: one draw
    // per instance and route, route by route (a tier that calls nothing draws
    // once per instance all the same, so every chain keeps its random stream).
    if rts.is_empty() {
        for _ in 0..n_inst {
            let next_n = sc.tiers.get(k + 1).map_or(1, |n| n.instances);
            let _ = rng.next_int_bounded(next_n as i32);
        }
    }
    for route in &mut rts {
        let callee_n = sc.tiers[route.to].instances;
        route.rr = (0..n_inst)
            .map(|_| rng.next_int_bounded(callee_n as i32).unwrap_or(0) as u32)
            .collect();
    }
    let tier = TierRt {
        inst: vec![Inst::default(); n_inst],
        queued: 0,
        held: 0,
        busy: 0,
        queued_m: 0,
        held_m: 0,
        busy_m: 0,
        areas: [0; 3],
        active: vec![],
        breakers,
        budgets,
        concurrency: t.concurrency,
        queue_cap: t.queue_capacity as usize,
        queue_timeout_us: t.queue_timeout_ms.map_or(NEVER, |q| q * 1000),
        slowdown: t.slowdown_per_in_flight,
        error_rate: t.error_rate,
        random_lb: t.balancer == Balancer::Random,
        routes: first_route..first_route + rts.len(),
    };
    (tier, rts)
}

/// True when some tier's routes have breakers of their own (more than one breaker
/// group): only then are breakers gauged per route, so a chain's (and every earlier
/// scenario's) results stay as they were.
fn gauges_per_route(tiers: &[TierRt], routes: &[RouteRt]) -> bool {
    tiers.iter().any(|t| {
        let mut bases: Vec<usize> = routes[t.routes.clone()]
            .iter()
            .filter(|r| r.breaker_cfg != Breaker::None)
            .map(|r| r.breaker_base)
            .collect();
        bases.sort_unstable();
        bases.dedup();
        bases.len() > 1
    })
}

impl Simulation {
    /// Validates the scenario and sets up a run with `seed` (which overrides the scenario's).
    pub fn new(scenario: &Scenario, seed: i64) -> Result<Simulation, ValidationError> {
        scenario.validate()?;
        let sc = scenario.clone();
        let mut rng = JavaRandom::new(seed);
        let mut tiers = Vec::with_capacity(sc.tiers.len());
        // Every tier's routes in one array, so the hot path reaches one in one lookup.
        let mut routes: Vec<RouteRt> = Vec::new();
        for k in 0..sc.tiers.len() {
            let (tier, rts) = tier_runtime(&sc, k, &mut rng, routes.len());
            tiers.push(tier);
            routes.extend(rts);
        }
        let route_gauges = gauges_per_route(&tiers, &routes).then_some(routes.len());
        let route_counts = routes.iter().any(|r| r.own_counts).then_some(routes.len());
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
            routes,
            jobs: Vec::with_capacity(1 << 12),
            free: Vec::new(),
            live: 0,
            next_uid: 0,
            entry_rr: 0,
            arrival_clock: 0.0,
            rec: record::Recorder::new(&sc, route_gauges, route_counts),
            service: sc.tiers.iter().map(|t| Sampler::new(&t.service)).collect(),
            const_gap_us: (sc.load.schedule.is_empty() && sc.load.rate_per_s > 0.0)
                .then(|| 1e6 / sc.load.rate_per_s),
            jitter_us: sc.load.jitter_ms * 1000.0,
            ended: None,
            sc,
        };
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
            for _ in 0..cl.callers {
                let t = sim.sample_us(&cl.think);
                sim.q.push(t, Kind::Think, 0, 0);
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

    /// Simulated time reached so far, µs: the time of the latest event processed, which
    /// never decreases (events run in time order).
    pub fn now_us(&self) -> u64 {
        self.now
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
            let ev = match self.q.pop() {
                Some(ev) if ev.time < self.end => ev,
                // At or after the end: the run is over, or drains.
                ev => match self.after_end(ev) {
                    Some(ev) => ev,
                    None => break,
                },
            };
            if self.events >= self.sc.max_events {
                if self.ended.is_some() {
                    // A drain stops there; what is still in flight is unfinished.
                    self.finished = true;
                    break;
                }
                return Err(self.too_many_events());
            }
            if self.rec.due(ev.time) {
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

    /// The next event `ev` is at or after the end (or there is none). Without draining
    /// it is never run (nor counted): the run is over. With `steady.drain` the run's result
    /// is built now, and `ev` runs if a request is still in flight and it comes before the
    /// drain's bound; else the drain is over too.
    #[cold]
    fn after_end(&mut self, ev: Option<Event>) -> Option<Event> {
        if self.ended.is_none() {
            self.close_buckets(self.end);
            self.now = self.end;
            if !self.sc.steady.drain {
                self.finished = true;
                return None;
            }
            let ended = self.result_at(self.end);
            self.ended = Some(Box::new(ended));
            self.rec.begin_drain();
        }
        let until = self.end.saturating_add(DRAIN_LIMIT_MS * 1000);
        let open = self.rec.open_entries() > 0;
        match ev {
            Some(ev) if open && ev.time < until => return Some(ev),
            Some(_) if open => self.now = until,
            _ => {}
        }
        self.finished = true;
        None
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
                self.new_entry(now, false);
                self.schedule_arrival(now);
            }
            // A closed-loop caller never sends again once the run is over (draining).
            Kind::Think if self.ended.is_none() => self.new_entry(now, true),
            Kind::Think => {}
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
                    } else {
                        self.answer_dropped(a, now);
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
                    let job = self.jobs[j];
                    self.entry_end(Outcome::Timeout, &job, now);
                }
            }
            Kind::FaultEdge => self.fault_edge(a, b == 0, now),
            Kind::Reach => self.reach(a, b, now),
            Kind::Reply => self.reply(a, b, now),
        }
    }

    #[inline]
    fn valid(&self, j: u32, gen: u32, st: St) -> bool {
        self.jobs
            .get(j as usize)
            .is_some_and(|x| x.gen == gen && x.st == st)
    }
}

#[cfg(test)]
mod tests {
    use super::Job;

    #[test]
    fn a_job_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Job>(), 64);
    }
}
