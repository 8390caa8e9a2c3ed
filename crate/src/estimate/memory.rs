//! The heap a job holds, from the types that hold it: a run's working arrays and
//! result, an ensemble's samples and summary, a sweep's points.

use super::{Unit, CLASSIC_REQUESTS_PER_S, CLUSTER_EVENTS_PER_S, PREFIX_EVENTS, PREFIX_MS};
use crate::classic::{self, Jitter, StrategyResult};
use crate::cluster::scenario::MAX_EVENTS_LIMIT;
use crate::cluster::sim::footprint;
use crate::cluster::{self, Simulation};
use crate::cost::CostResult;
use crate::ensemble::{self, Band, Count, Ensemble, Group, MetricSpread, Sample};
use crate::scenario::AnyScenario;
use crate::sweep::{Plan, Point};
use std::mem::size_of;

fn bytes<T>(n: usize) -> u64 {
    (n * size_of::<T>()) as u64
}

/// The capacity a `Vec` grown by pushes ends with for `n` items (doubling from 4).
fn pushed(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        n.next_power_of_two().max(4)
    }
}

/// Bytes of the (item, sample) pairs a shard's samples are sorted in, and of the samples'
/// own list: per item, beyond the sample's heap.
pub(super) const ITEM_BYTES: u64 = (size_of::<Sample>() + size_of::<(usize, Sample)>()) as u64;

/// What one run of a scenario costs: its work and the heap it holds.
pub(super) struct RunShape {
    /// What the work is counted in.
    pub unit: Unit,
    /// Work of the first run (every strategy).
    pub work_first: u64,
    /// Work each further seed adds (strategies that draw random numbers; every event).
    pub work_seeded: u64,
    /// Work once per batch of seeds (classic strategies without jitter).
    pub work_fixed: u64,
    /// The most work one run can do.
    pub bound: u64,
    /// Heap of one run with its result, bytes.
    pub run_bytes: u64,
    /// Heap of its result alone (what is left while the output is written).
    pub result_bytes: u64,
    /// Classic: heap of one kept strategy result (a batch keeps a few).
    kept_bytes: u64,
    /// Classic: results a single run keeps.
    kept_per_run: usize,
    /// Heap of the sample a run of an ensemble gives.
    sample: u64,
}

impl RunShape {
    /// The shape of one run of `sc`.
    pub fn of(sc: &AnyScenario) -> RunShape {
        match sc {
            AnyScenario::Classic(c) => classic_shape(c),
            AnyScenario::Cluster(c) => cluster_shape(c),
        }
    }

    /// Work per second of one core.
    pub fn rate(&self) -> f64 {
        match self.unit {
            Unit::Requests => CLASSIC_REQUESTS_PER_S,
            Unit::Events => CLUSTER_EVENTS_PER_S,
        }
    }

    /// Heap one thread holds while it runs a batch of `batch` runs of an ensemble: the
    /// run and the results its `classic::Runs` keeps, and the sample being built.
    pub fn thread_bytes(&self, batch: usize) -> u64 {
        let kept = (self.kept_per_run * batch).min(classic::Runs::KEEP);
        let extra = kept.saturating_sub(self.kept_per_run) as u64 * self.kept_bytes;
        self.run_bytes + extra + self.sample
    }
}

/// A classic strategy's result heap: its name, attempts per second, cost per second.
fn strategy_result_bytes(st: &classic::Strategy, dur: usize) -> u64 {
    st.name.len() as u64
        + bytes::<u32>(dur)
        + if st.cost.is_some() {
            bytes::<f64>(dur)
        } else {
            0
        }
}

fn classic_shape(sc: &classic::Scenario) -> RunShape {
    let dur = sc.duration_s as usize;
    let business = sc.business_requests();
    let jittered = |st: &classic::Strategy| st.jitter == Jitter::Full;
    let n = sc.strategies.len() as u64;
    let seeded = sc.strategies.iter().filter(|s| jittered(s)).count() as u64;
    // The acceptance checks re-run S3 and S4 with the budget forced to 100: new runs
    // unless their budget is 100 already.
    let forced: Vec<&classic::Strategy> = if sc.strategies.len() >= 4 {
        sc.strategies[2..4]
            .iter()
            .filter(|s| s.budget_pct < 100)
            .collect()
    } else {
        Vec::new()
    };
    let forced_seeded = forced.iter().filter(|s| jittered(s)).count() as u64;
    let forced_fixed = forced.len() as u64 - forced_seeded;
    // The latency histogram is reused from one strategy to the next: it grows as a
    // `Vec` does, to the longest one's length at least.
    let mut hist_cap = 0usize;
    for st in &sc.strategies {
        let max_wait = (0..st.max_retry).fold(0u64, |acc, k| acc.saturating_add(st.base_ms << k));
        let len = (st.deadline_ms.min(max_wait) + sc.upstream_latency_ms as u64 + 1) as usize;
        if len > hist_cap {
            hist_cap = (2 * hist_cap).max(len);
        }
    }
    let cost = sc.strategies.iter().any(|s| s.cost.is_some());
    let scratch = bytes::<[u32; 2]>(dur)
        + bytes::<u32>(hist_cap)
        + if cost { bytes::<[u32; 2]>(dur) } else { 0 };
    let results: u64 = sc
        .strategies
        .iter()
        .map(|s| strategy_result_bytes(s, dur))
        .sum::<u64>()
        + bytes::<StrategyResult>(sc.strategies.len());
    // `Runs` keeps each result (with its strategy) and answers a renamed clone.
    let kept_one = (size_of::<StrategyResult>() + 2 * size_of::<classic::Strategy>() + 64) as u64
        + results / n.max(1);
    let kept_per_run = sc.strategies.len() + forced.len();
    let kept = bytes::<(classic::Strategy, StrategyResult, u64)>(pushed(kept_per_run))
        + kept_per_run as u64 * (kept_one - size_of::<StrategyResult>() as u64);
    let scenario = classic_scenario_bytes(sc);
    RunShape {
        unit: Unit::Requests,
        work_first: business * n,
        work_seeded: business * (seeded + forced_seeded),
        work_fixed: business * (n - seeded + forced_fixed),
        bound: business * (n + forced.len() as u64),
        run_bytes: 2 * scenario + scratch + results + kept,
        result_bytes: scenario + results,
        kept_bytes: kept_one,
        kept_per_run,
        sample: sample_bytes(&AnyScenario::Classic(sc.clone()), true),
    }
}

/// Heap bytes of a classic scenario's fields.
fn classic_scenario_bytes(sc: &classic::Scenario) -> u64 {
    bytes::<classic::Strategy>(sc.strategies.len())
        + sc.strategies
            .iter()
            .map(|s| s.name.len() as u64)
            .sum::<u64>()
}

/// Heap bytes of a scenario of either model (its clone lives in each run and point).
pub(super) fn scenario_bytes(sc: &AnyScenario) -> u64 {
    match sc {
        AnyScenario::Classic(c) => classic_scenario_bytes(c),
        AnyScenario::Cluster(c) => footprint::scenario_bytes(c),
    }
}

/// Events of a run and the heap its requests in flight hold, from a prefix of it.
struct Prefix {
    events: u64,
    held: u64,
}

/// Runs the first [`PREFIX_MS`] ms of `sc` (at most [`PREFIX_EVENTS`] events) and
/// extrapolates its events over the whole run, capped by `max_events`.
fn prefix(sc: &cluster::Scenario) -> Prefix {
    let mut p = sc.clone();
    p.duration_ms = sc.duration_ms.min(PREFIX_MS);
    p.max_events = MAX_EVENTS_LIMIT;
    // Without a bounded setup (huge breaker windows) the prefix itself would be the
    // cost; the events then follow from the offered load alone.
    let offered = || {
        let per_s = sc.load.rate_per_s
            + sc.load
                .closed_loop
                .as_ref()
                .map_or(0.0, |c| c.callers as f64);
        (per_s * sc.duration_ms as f64 / 1000.0 * 3.0 * sc.tiers.len() as f64) as u64
    };
    if footprint::setup_bytes(&p) > 64 << 20 {
        return Prefix {
            events: offered().min(sc.max_events),
            held: 0,
        };
    }
    let Ok(mut sim) = Simulation::new(&p, sc.seed) else {
        return Prefix {
            events: offered().min(sc.max_events),
            held: 0,
        };
    };
    let finished = sim.advance(PREFIX_EVENTS).unwrap_or(false);
    let held = sim.held_bytes();
    let events = if finished && p.duration_ms == sc.duration_ms {
        sim.events()
    } else {
        let t = if finished {
            p.duration_ms * 1000
        } else {
            sim.now_us().max(1)
        };
        (sim.events() as f64 * (sc.duration_ms * 1000) as f64 / t as f64) as u64
    };
    Prefix {
        events: events.min(sc.max_events),
        held,
    }
}

/// Heap a request in flight holds: its job (in a `Vec` that doubles, so half as much
/// again on average), two pending events (a service end or a timeout, each in a calendar
/// bucket that keeps its room) and its place in a queue and in the free list.
const JOB_BYTES: u64 = footprint::JOB_SIZE * 3 / 2 + 2 * 24 * 3 / 2 + 8;

/// Requests in flight at the height of a fault's retry storm, by Little's law: into
/// each tier, the attempts per second (the entry rate times every caller's attempts)
/// times the longest a job there can be held (its own client's attempts, timeouts and
/// backoffs; for a tier that calls nothing, its caller's timeout), at most what its
/// instances can hold (slots and queues). Without a fault there is no storm.
fn storm_jobs(sc: &cluster::Scenario) -> u64 {
    if sc.faults.is_empty() {
        return 0;
    }
    let rate = sc.load.rate_per_s
        + sc.load
            .closed_loop
            .as_ref()
            .map_or(0.0, |c| c.callers as f64);
    // Attempts per second into each tier, and the timeout its callers wait.
    let mut into = vec![0.0f64; sc.tiers.len()];
    let mut caller_timeout = vec![sc.load.deadline_ms.unwrap_or(0) as f64 / 1000.0; sc.tiers.len()];
    into[0] = rate;
    let mut jobs = 0.0;
    for (k, t) in sc.tiers.iter().enumerate() {
        let clients: Vec<(usize, &cluster::Client)> = match &t.client {
            Some(c) => vec![(k + 1, c)],
            None => t
                .routes
                .iter()
                .map(|r| (r.to as usize, &r.client))
                .collect(),
        };
        let held_s = clients
            .iter()
            .map(|(_, c)| {
                let backoffs: u64 = (1..c.max_attempts)
                    .map(|n| cluster::backoff::base_delay(&c.backoff, n) / 1000)
                    .sum();
                (c.max_attempts as u64 * c.timeout_ms + backoffs) as f64 / 1000.0
            })
            .fold(0.0, f64::max);
        let held_s = if clients.is_empty() {
            caller_timeout[k]
        } else {
            held_s
        };
        let room = t.instances as f64 * (t.concurrency as f64 + t.queue_capacity as f64);
        jobs += (into[k] * held_s).min(room);
        let here = into[k];
        for (to, c) in clients {
            if let Some(x) = into.get_mut(to) {
                *x += here * c.max_attempts as f64;
                caller_timeout[to] = c.timeout_ms as f64 / 1000.0;
            }
        }
    }
    (jobs as u64).min(cluster::MAX_LIVE_JOBS)
}

fn cluster_shape(sc: &cluster::Scenario) -> RunShape {
    let pre = prefix(sc);
    let held = pre.held.max(storm_jobs(sc) * JOB_BYTES);
    let run_bytes = footprint::setup_bytes(sc) + held + footprint::result_bytes(sc);
    RunShape {
        unit: Unit::Events,
        work_first: pre.events,
        work_seeded: pre.events,
        work_fixed: 0,
        bound: sc.max_events,
        run_bytes,
        result_bytes: footprint::result_bytes(sc) + footprint::scenario_bytes(sc),
        kept_bytes: 0,
        kept_per_run: 0,
        sample: sample_bytes(&AnyScenario::Cluster(sc.clone()), true),
    }
}

/// The names of each group's figures, in [`Sample::groups`]' order: the ensemble's own
/// ([`ensemble::metric_names`]), read from the scenario's structure.
pub(super) fn leaf_names(sc: &AnyScenario) -> Vec<Vec<String>> {
    ensemble::metric_names(sc)
}

/// A classic result of `st`'s shape (its cost too) over `dur` seconds, every count 0.
pub(super) fn dummy_strategy_result(st: &classic::Strategy, dur: usize) -> StrategyResult {
    StrategyResult {
        name: st.name.clone(),
        attempts: 0,
        delivered: 0,
        failed: 0,
        amplification: 0.0,
        delivery_pct: 0.0,
        peak: 0,
        overload_seconds: 0,
        p50_ms: 0,
        p99_ms: 0,
        breaker_trips: 0,
        trip_at: Vec::new(),
        breaker_harmful: 0,
        per_sec: vec![0; dur],
        recovery_window_total: 0,
        answered_pct: 0.0,
        ended_upstream: 0,
        ended_deadline: 0,
        ended_budget: 0,
        ended_breaker: 0,
        cost: st.cost.as_ref().map(|c| CostResult {
            per_sec: vec![0.0; dur],
            ..CostResult::new(c, &[], 0, 0)
        }),
    }
}

/// Per series of the model's chart, its length in buckets.
pub(super) fn curve_lengths(sc: &AnyScenario) -> Vec<usize> {
    match sc {
        AnyScenario::Classic(c) => vec![c.duration_s as usize; c.strategies.len()],
        AnyScenario::Cluster(c) => {
            vec![c.duration_ms.div_ceil(c.bucket_ms.max(1)) as usize; c.tiers.len()]
        }
    }
}

fn verdict_count(sc: &AnyScenario) -> usize {
    ensemble::verdict_names(sc).len()
}

/// Heap of one sample of `sc` (with the chart's curves when `curves`).
pub(super) fn sample_bytes(sc: &AnyScenario, curves: bool) -> u64 {
    let groups = leaf_names(sc);
    let leaves: u64 = groups
        .iter()
        .map(|g| {
            bytes::<(String, Option<f64>)>(pushed(g.len()))
                + g.iter().map(|n| n.len() as u64).sum::<u64>()
        })
        .sum();
    let curve = if curves {
        let lens = curve_lengths(sc);
        bytes::<Vec<f64>>(lens.len()) + lens.iter().map(|&l| bytes::<f64>(l)).sum::<u64>()
    } else {
        0
    };
    size_of::<Sample>() as u64
        + bytes::<Vec<(String, Option<f64>)>>(groups.len())
        + leaves
        + verdict_count(sc) as u64
        + curve
}

/// Heap of the summary of `seeds` samples of `sc` (its bands when `curves`).
pub(super) fn ensemble_bytes(sc: &AnyScenario, seeds: usize, curves: bool) -> u64 {
    let groups = leaf_names(sc);
    let n = seeds;
    let metrics: u64 = groups
        .iter()
        .map(|g| {
            bytes::<MetricSpread>(g.len())
                + g.iter()
                    .map(|m| m.len() as u64 + bytes::<Option<f64>>(n))
                    .sum::<u64>()
                + 32
        })
        .sum();
    let verdicts = verdict_count(sc);
    let bands = if curves {
        let lens = curve_lengths(sc);
        bytes::<Band>(lens.len()) + lens.iter().map(|&l| 3 * bytes::<f64>(l) + 24).sum::<u64>()
    } else {
        0
    };
    size_of::<Ensemble>() as u64
        + bytes::<i64>(n)
        + bytes::<Group>(groups.len())
        + metrics
        + bytes::<Count>(verdicts)
        + verdicts as u64 * (n as u64 + 40)
        + bands
}

/// Heap of a plan: its points' values and scenarios, its seeds.
pub(super) fn plan_bytes(plan: &Plan) -> u64 {
    let point: u64 = plan
        .points
        .iter()
        .map(|(v, sc)| bytes::<f64>(v.len()) + scenario_bytes(sc))
        .sum();
    bytes::<(Vec<f64>, AnyScenario)>(plan.points.len())
        + point
        + bytes::<i64>(plan.seeds.len())
        + scenario_bytes(&plan.base)
}

/// Heap of a sweep's result: every point's ensemble.
pub(super) fn sweep_result_bytes(plan: &Plan) -> u64 {
    let curves = plan.sweep.params.is_empty();
    let per_point = size_of::<Point>() as u64
        + bytes::<f64>(plan.sweep.params.len())
        + ensemble_bytes(&plan.base, plan.seeds.len(), curves);
    per_point * plan.points.len() as u64
}
