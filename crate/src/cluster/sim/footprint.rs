//! The heap a run holds, in bytes, for the cost estimate (`crate::estimate`): what a
//! scenario makes the simulation allocate before its first event (instances, breaker
//! windows, routes, the metric accumulators), what grows with the requests in flight
//! (jobs, the event calendar, queues), read off a running simulation, and the result
//! that `finish` builds. Kept beside the types it sizes, so a field added to them is
//! sized where it is added.

use super::*;
use crate::cluster::metrics::{Bucket, Percentiles, RouteSummary, TierSummary, HISTOGRAM_BYTES};
use crate::cluster::scenario::WindowKind;
use std::mem::size_of;

/// Bytes of one job in `Simulation::jobs` (one cache line).
pub(crate) const JOB_SIZE: u64 = size_of::<Job>() as u64;

fn bytes<T>(n: usize) -> u64 {
    (n * size_of::<T>()) as u64
}

/// Heap bytes of a scenario's own fields (its clone lives in every run and every sweep point).
pub(crate) fn scenario_bytes(sc: &Scenario) -> u64 {
    let tiers: u64 = sc
        .tiers
        .iter()
        .map(|t| {
            let clients = t.client.iter().chain(t.routes.iter().map(|r| &r.client));
            t.name.len() as u64
                + bytes::<super::super::scenario::Route>(t.routes.len())
                + clients
                    .map(|c| bytes::<RetryOn>(c.retry_on.len()))
                    .sum::<u64>()
        })
        .sum();
    (sc.name.len() + sc.description.len()) as u64
        + bytes::<Tier>(sc.tiers.len())
        + tiers
        + bytes::<super::super::scenario::Fault>(sc.faults.len())
        + bytes::<super::super::scenario::RateSegment>(sc.load.schedule.len())
}

/// The breaker window cells one breaker of `cfg` allocates (a count ring of one byte
/// per call, or a time window of three counters per second).
fn window_bytes(cfg: &Breaker) -> u64 {
    match *cfg {
        Breaker::Resilience4j {
            window: WindowKind::Count,
            window_size,
            ..
        } => window_size as u64,
        Breaker::Resilience4j {
            window: WindowKind::Time,
            window_size,
            ..
        } => window_size as u64 * size_of::<[u32; 3]>() as u64,
        _ => 0,
    }
}

/// Bytes `Simulation::new` allocates for `sc` before any event (instances, routes,
/// breakers and budgets, the recorder's per-bucket arrays and histograms, the empty
/// calendar), without allocating them.
pub(crate) fn setup_bytes(sc: &Scenario) -> u64 {
    let n_t = sc.tiers.len();
    let mut total = scenario_bytes(sc) + bytes::<TierRt>(n_t) + bytes::<Sampler>(n_t);
    let mut n_routes = 0usize;
    for (k, t) in sc.tiers.iter().enumerate() {
        let inst = t.instances as usize;
        total += bytes::<Inst>(inst);
        let chain = t.client.as_ref().map(|c| (k + 1, c));
        let clients: Vec<&Client> = match chain {
            Some((_, c)) => vec![c],
            None => t.routes.iter().map(|r| &r.client).collect(),
        };
        for (r, c) in clients.iter().enumerate() {
            n_routes += 1;
            // Per caller instance: its round-robin position, bulkhead count and queue.
            total += bytes::<u32>(inst) * 2 + bytes::<VecDeque<u32>>(inst);
            let shared = r > 0;
            if !(shared && t.route_sharing.breaker) {
                let n = c.breaker.scope().slots(t.instances);
                total += bytes::<BreakerState>(n) + n as u64 * window_bytes(&c.breaker);
            }
            if !(shared && t.route_sharing.budget) {
                total += bytes::<BudgetState>(c.budget.scope().slots(t.instances));
            }
        }
    }
    total += bytes::<RouteRt>(n_routes);
    // The calendar's rings of empty buckets and their bitmaps; their events are `held_bytes`.
    total += super::super::queue::EventQueue::EMPTY_BYTES;
    total + recorder_bytes(sc, n_routes)
}

/// The recorder's arrays: per bucket × tier counters and cohort attempts, per bucket
/// latency percentiles, cohort ends and moments, the run's and each tier's histograms.
fn recorder_bytes(sc: &Scenario, n_routes: usize) -> u64 {
    let n_t = sc.tiers.len();
    let n_b = sc.duration_ms.div_ceil(sc.bucket_ms.max(1)) as usize;
    // Per-route gauges only when some tier has several routes (a chain has none), and
    // per-route counters only when two routes of a tier call one tier.
    let per_route = sc.tiers.iter().any(|t| t.routes.len() > 1);
    let counted = sc
        .tiers
        .iter()
        .any(|t| (0..t.routes.len()).any(|r| t.route_shares_callee(r)));
    bytes::<TierBucket>(n_b * n_t)
        + if per_route {
            bytes::<[u32; 3]>(n_b * n_routes)
        } else {
            0
        }
        + if counted {
            bytes::<TierBucket>(n_b * n_routes)
        } else {
            0
        }
        + bytes::<Percentiles>(n_b)
        + bytes::<[u64; 3]>(n_b)
        + bytes::<u64>(n_b * n_t)
        + bytes::<[crate::cluster::metrics::Moments; 2]>(n_b)
        + (2 + 2 * n_t as u64) * HISTOGRAM_BYTES
}

/// Bytes of the [`RunResult`] `finish` builds for `sc` (its buckets, tiers and routes),
/// with the temporary per-bucket arrays it uses on the way.
pub(crate) fn result_bytes(sc: &Scenario) -> u64 {
    let n_t = sc.tiers.len();
    let n_b = sc.duration_ms.div_ceil(sc.bucket_ms.max(1)) as usize;
    let n_routes: usize = sc
        .tiers
        .iter()
        .map(|t| usize::from(t.client.is_some()) + t.routes.len())
        .sum();
    let per_route = sc.tiers.iter().any(|t| t.routes.len() > 1);
    let bucket = size_of::<Bucket>()
        + n_t * (size_of::<TierBucket>() + size_of::<u64>())
        + if per_route { n_routes * 12 } else { 0 };
    let names: usize = sc.tiers.iter().map(|t| 2 * t.name.len() + 8).sum();
    (n_b * bucket) as u64
        // `pending`'s late entries per cohort, and each cohort's last failure.
        + bytes::<[u64; 3]>(n_b)
        + bytes::<u64>(n_b)
        + bytes::<TierSummary>(n_t)
        + bytes::<RouteSummary>(n_routes)
        + (names + sc.name.len()) as u64
}

impl Simulation {
    /// Heap bytes that grow with the requests in flight, as they stand: the jobs and
    /// their free list, the calendar's events, the instances' queues and hung jobs and
    /// the bulkheads' queues (their capacity, which is what is allocated).
    pub(crate) fn held_bytes(&self) -> u64 {
        let inst: u64 = self
            .tiers
            .iter()
            .flat_map(|t| &t.inst)
            .map(|i| bytes::<u32>(i.queue.capacity() + i.hung.capacity()))
            .sum();
        let bulkheads: u64 = self
            .routes
            .iter()
            .flat_map(|r| &r.bh_queue)
            .map(|q| bytes::<u32>(q.capacity()))
            .sum();
        let active: u64 = self
            .tiers
            .iter()
            .map(|t| bytes::<u32>(t.active.capacity()))
            .sum();
        bytes::<Job>(self.jobs.capacity())
            + bytes::<u32>(self.free.capacity())
            + self.q.held_bytes()
            + inst
            + bulkheads
            + active
    }
}
