//! Results: per-bucket, per-tier counters, run totals, and the steady-state analysis.
//!
//! # Counting conventions
//! For tier `k`, the counters describe the *calls made to tier k* (by tier `k-1`'s
//! client, or by the users for tier 0):
//! - `first_attempts`, `retries`: attempts sent to an instance of tier `k` (over a hop's
//!   `network`, counted when sent, before they reach it);
//! - `successes`, `timeouts`, `overloads`, `errors`: how those attempts ended *as the
//!   caller saw it* (a callee that answers after the caller gave up counts as the
//!   caller's `timeout`, plus one `wasted`);
//! - `breaker_rejected`, `budget_rejected`, `bulkhead_rejected`: attempts the caller
//!   wanted to make but did not send (its breaker refused, its budget refused a retry or
//!   a retry while the breaker was not closed, its bulkhead was full);
//! - so `first_attempts + retries = successes + timeouts + overloads + errors + pending`.
//!
//! For tier 0 the "caller" is the user: outcomes are end-to-end outcomes.
//!
//! # Queueing figures
//! Per bucket and tier: `services_started`/`wait_us` (time from arrival at the instance
//! to the start of service), `services_ended`/`service_us` (local work, pauses
//! included), and the time integrals `queue_us`, `in_flight_us`, `busy_us` (area under
//! the step function, so a time average is the integral over the bucket's length and
//! utilisation is `busy_us` over slots × length). `queue_depth`, `in_flight` and
//! `breakers_*` are gauges at the bucket's end; a tier's run totals leave them at 0 and
//! [`TierSummary`] carries the run's time averages and the end-of-run values instead.
//! The summary's latency percentiles and moments cover the entry requests that arrived
//! after `steady.warmup_ms`.
//!
//! # Steady state and recovery (the health rule)
//! Health is judged per **cohort**: the entry requests that *arrived* in a bucket, by
//! how they ended however late ([`Cohort`]), so slow completions never count against
//! the bucket they land in. A request still unanswered at the end of the run counts as
//! a failure of its cohort once it has waited longer than `steady.late_ms` (default
//! 10 s); younger ones are not judged.
//! - **Baseline**: the buckets that start at or after `steady.warmup_ms` (default 2 s)
//!   and end at or before the first trigger (a fault start or a schedule segment above
//!   the base rate). Its failure probability `p₀` is Σ cohort failures / Σ judged
//!   requests, and its amplification `a_k` at tier k is Σ cohort attempts at tier k /
//!   Σ arrivals. Without baseline arrivals: `p₀ = 0`, `a_k = 1`.
//! - The baseline is **unhealthy** when its own failures already exceed what a healthy
//!   system allows: `F > N·t + z·√(N·t·(1−t))` for the `N` entry requests that *ended*
//!   in the baseline buckets, `F` of them failed, and `t = steady.success_tolerance`
//!   (the bound below with `p₀ = 0`; by ending, not by cohort, so the baseline's last
//!   requests, still in flight when the trigger strikes, do not count against it). Health
//!   measured against such a baseline means nothing (a run failing 99% of its requests
//!   would look "healthy" when it keeps failing them), so then there is neither a
//!   recovery time nor a metastable verdict: the run is "unhealthy before the trigger".
//! - A cohort of `n` judged requests with `f` failures is **failing** when
//!   `f > n·p + z·√(n·p·(1−p))` with `p = p₀ + steady.success_tolerance` (default 0.02)
//!   and `z = steady.z_score` (default 3): a one-sided normal bound on the binomial
//!   count, so sampling noise at 5 requests per second is not sickness.
//! - It is **amplified** when at some tier its attempts `A` exceed
//!   `m + z·√m` with `m = arrivals·a_k·(1 + steady.amplification_tolerance)` (default
//!   0.25), the same bound for a Poisson-like count.
//! - A bucket is **healthy** unless its cohort is failing or amplified. A cohort with no
//!   judged request (no arrivals, or all still young at the end) keeps the verdict of
//!   the bucket before it (healthy at the start).
//! - **Recovered** from bucket b (ending after the last trigger's end) when b and every
//!   later bucket are healthy. The instant of recovery is measured at the resolution of
//!   events, not buckets: the trigger's end when b holds it; otherwise the arrival of
//!   the last failed request of the (unhealthy) cohort just before b, or the start of b
//!   when that cohort has no failure (it was unhealthy by amplification, or inherited
//!   its verdict), and never before the trigger's end. That instant to the end of the
//!   run must last at least `steady.hold_ms` (default 5 s). `recovery_time_ms` = the
//!   instant − end of the last trigger, rounded up to the millisecond.
//! - **Goodput recovery**, the figure a successes-per-second chart shows, beside the
//!   cohorts' (which credits a request to when it arrived, not when it succeeded): the
//!   baseline goodput `g₀` is the entry successes that ended in the baseline buckets per
//!   second; a bucket of length `L` s is **low** when its successes (by the time they
//!   ended) fall below `m − z·√m` with `m = g₀·L·(1 − steady.success_tolerance)` (at
//!   the same load, a failure rate higher by the tolerance lowers goodput by as much).
//!   At a low rate a single bucket cannot be low (when `m ≤ z²`, `m − z·√m ≤ 0`), so
//!   buckets are judged in windows of the fewest consecutive buckets `w` for which one
//!   can be (`w = ⌊z²/m⌋ + 1` with `m` a whole bucket's; `w = 1` otherwise), their
//!   successes and `m` summed. Recovered from the first bucket ending after the last
//!   trigger's end from which the stretch to the end holds at least one window and no
//!   window within it is low, for at least `steady.hold_ms`; `goodput_recovery_ms` =
//!   that bucket's start (the trigger's end if earlier) − the trigger's end. A rate needs
//!   a window, so this one is to the bucket. It is not judged without a trigger or with
//!   an unhealthy baseline, and is compared with the baseline's rate (a load that drops
//!   below the baseline after the trigger reads as goodput not back).
//! - **Metastable**: there was a trigger, the baseline was healthy and no such bucket
//!   exists before the end. Without a trigger there is neither a recovery time nor a
//!   metastable verdict.
//! - **Overload duration**: total length of unhealthy buckets over the whole run, by the
//!   same rule (with or without a trigger).
//!
//! # Requests in flight at the end, and draining
//! Without `steady.drain` the run stops at its end: the entry requests still unanswered
//! are the summary's `pending_at_end`, neither successes nor failures, but the success
//! ratio (successes ÷ requests) counts them as not succeeded, and each counts as a
//! failure of its cohort once older than `steady.late_ms` (above).
//! With `steady.drain` the run's figures are the same (built at the end, so no bucket,
//! tier, cohort or verdict changes), and then the simulation goes on without new
//! requests (no arrival, no closed-loop caller sends again) until no entry request is in
//! flight, at most [`DRAIN_LIMIT_MS`](crate::cluster::DRAIN_LIMIT_MS) (or until the run
//! has processed `max_events` events). The requests that end in it are counted apart by
//! their own outcome, the summary's `drained_successes` and `drained_failures` (the rest
//! of `pending_at_end`, still in flight at the bound, is unfinished), its length is
//! `drain_ms`, and each tier's counters during the drain are its `drained`. The success ratio is then (successes + drained successes) ÷ (requests −
//! unfinished), as a simulator that runs until every request is answered reports it.

use serde::{Deserialize, Serialize};

/// Counters of one tier in one time bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierBucket {
    /// First attempts that reached the tier.
    pub first_attempts: u64,
    /// Retries that reached the tier.
    pub retries: u64,
    /// Attempts that succeeded (caller's view).
    pub successes: u64,
    /// Attempts the caller timed out on.
    pub timeouts: u64,
    /// Attempts refused by the tier (queue full, queue timeout, deadline expired in queue).
    pub overloads: u64,
    /// Attempts that failed with an error (outage, injected error, failed dependency).
    pub errors: u64,
    /// Attempts the caller's breaker refused to send.
    pub breaker_rejected: u64,
    /// Retries the caller's budget refused (or refused while the breaker was not closed).
    pub budget_rejected: u64,
    /// Attempts the caller's bulkhead refused.
    pub bulkhead_rejected: u64,
    /// Work the tier finished after its caller had given up.
    pub wasted: u64,
    /// Requests that started service at the tier (left its queue for a slot).
    pub services_started: u64,
    /// Their total time in the queue (arrival at the instance to start of service), µs.
    pub wait_us: u64,
    /// Services that ended (the local work done, whatever the outcome).
    pub services_ended: u64,
    /// Their total local service time (start to end of the work, pauses included), µs.
    pub service_us: u64,
    /// Time integral of the requests waiting in the tier's queues over the bucket
    /// (request·µs: divide by the bucket's length for the time-averaged queue length).
    pub queue_us: u64,
    /// Time integral of the requests the tier holds (queued, in service, waiting on the
    /// next tier), request·µs.
    pub in_flight_us: u64,
    /// Time integral of the busy concurrency slots, slot·µs (utilisation = this over
    /// instances × concurrency × the bucket's length).
    pub busy_us: u64,
    /// Gauge: requests waiting in the tier's queues at the end of the bucket (0 in a
    /// tier's run totals: see [`TierSummary`] for averages and end-of-run values).
    pub queue_depth: u64,
    /// Gauge: requests held by the tier at the end of the bucket (0 in run totals).
    pub in_flight: u64,
    /// Gauge: instances of this tier whose breaker (on calls to the next tier) is open at
    /// the end of the bucket (0 in run totals).
    pub breakers_open: u32,
    /// Gauge: … half-open (or ramping, or SRE-throttling).
    pub breakers_half_open: u32,
    /// Gauge: … closed.
    pub breakers_closed: u32,
}

impl TierBucket {
    /// Attempts that reached the tier.
    pub fn attempts(&self) -> u64 {
        self.first_attempts + self.retries
    }

    /// Attempts that ended in failure.
    pub fn failures(&self) -> u64 {
        self.timeouts + self.overloads + self.errors
    }

    pub(crate) fn add(&mut self, o: &TierBucket) {
        self.first_attempts += o.first_attempts;
        self.retries += o.retries;
        self.successes += o.successes;
        self.timeouts += o.timeouts;
        self.overloads += o.overloads;
        self.errors += o.errors;
        self.breaker_rejected += o.breaker_rejected;
        self.budget_rejected += o.budget_rejected;
        self.bulkhead_rejected += o.bulkhead_rejected;
        self.wasted += o.wasted;
        self.services_started += o.services_started;
        self.wait_us += o.wait_us;
        self.services_ended += o.services_ended;
        self.service_us += o.service_us;
        self.queue_us += o.queue_us;
        self.in_flight_us += o.in_flight_us;
        self.busy_us += o.busy_us;
    }

    /// Mean time in the queue of the requests that started service, ms (0 without any).
    pub fn mean_wait_ms(&self) -> f64 {
        ratio(self.wait_us as f64 / 1000.0, self.services_started)
    }

    /// Mean local service time of the services that ended, ms (0 without any).
    pub fn mean_service_ms(&self) -> f64 {
        ratio(self.service_us as f64 / 1000.0, self.services_ended)
    }
}

fn ratio(x: f64, n: u64) -> f64 {
    if n > 0 {
        x / n as f64
    } else {
        0.0
    }
}

/// The entry requests that arrived in one bucket (a cohort), by how they ended however
/// late that was: what the health rule judges.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cohort {
    /// Succeeded (arrivals are the bucket's tier-0 `first_attempts`).
    pub successes: u64,
    /// Failed, plus those still unanswered at the end after more than `steady.late_ms`.
    pub failures: u64,
    /// Still unanswered at the end of the run after at most `steady.late_ms` (not judged).
    pub pending: u64,
    /// Attempts these requests caused at each tier (tier 0: the requests themselves).
    pub attempts: Vec<u64>,
}

/// Mean and standard deviation of a set of latencies (Welford's running algorithm).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Moments {
    /// Values counted.
    pub count: u64,
    /// Mean, ms (0 without values).
    pub mean_ms: f64,
    /// Population standard deviation, ms (0 with fewer than two values).
    pub std_ms: f64,
}

/// Running mean and variance (Welford's algorithm: no cancellation when the spread is
/// small against the mean).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Welford {
    n: u64,
    mean: f64,
    m2: f64,
}

impl Welford {
    /// Counts one value, µs.
    #[inline]
    pub(crate) fn record(&mut self, us: u64) {
        let x = us as f64 / 1000.0;
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// The moments so far, then empties the accumulator.
    pub(crate) fn take(&mut self) -> Moments {
        std::mem::take(self).moments()
    }

    /// The moments so far, ms.
    pub(crate) fn moments(&self) -> Moments {
        Moments {
            count: self.n,
            mean_ms: self.mean,
            std_ms: if self.n > 1 {
                (self.m2 / self.n as f64).sqrt()
            } else {
                0.0
            },
        }
    }
}

/// One time bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    /// Bucket start, ms.
    pub start_ms: u64,
    /// Per tier, in chain order.
    pub tiers: Vec<TierBucket>,
    /// End-to-end latency of the entry requests that succeeded in this bucket (all zero
    /// when none did), from the same log-linear histogram as the run's percentiles.
    pub latency_ms: Percentiles,
    /// Mean and standard deviation of the end-to-end latency of those successes.
    pub success_latency: Moments,
    /// Mean and standard deviation of the time to failure of the entry requests that
    /// failed in this bucket.
    pub failure_latency: Moments,
    /// How the entry requests that arrived in this bucket ended (the health rule's input).
    pub cohort: Cohort,
    /// Gauge per route (in [`RunResult::routes`]' order): instances of the calling tier
    /// whose breaker on that route is `[open, half-open, closed]` at the bucket's end.
    /// Only when some tier has several routes with breakers of their own (the tier's
    /// `breakers_*` sum them); empty otherwise, and then absent from the JSON.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub route_breakers: Vec<[u32; 3]>,
}

/// Run totals of one tier.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TierSummary {
    /// Tier name.
    pub name: String,
    /// Sums of the bucket counters; the gauge fields (`queue_depth`, `in_flight`,
    /// `breakers_*`) are 0 here: a snapshot is no total (see the fields below).
    pub totals: TierBucket,
    /// Time-averaged queue length over the run (all instances of the tier together).
    pub mean_queue_length: f64,
    /// Time-averaged requests held by the tier over the run.
    pub mean_in_flight: f64,
    /// Concurrency slots of the tier: instances × concurrency.
    pub slots: u64,
    /// Busy slot time over slot time (`slots` × run length), 0..=1.
    pub utilisation: f64,
    /// Mean queue wait of the requests that started service, ms.
    pub mean_wait_ms: f64,
    /// Mean local service time, ms.
    pub mean_service_ms: f64,
    /// Percentiles of the queue wait of the services that started after the warm-up, ms.
    pub wait_ms: Percentiles,
    /// Percentiles of the local service time of the services that ended after the
    /// warm-up, ms.
    pub service_ms: Percentiles,
    /// Requests waiting in the tier's queues at the end of the run.
    pub queue_depth_at_end: u64,
    /// Requests held by the tier at the end of the run.
    pub in_flight_at_end: u64,
    /// Instances whose breaker was open at the end of the run.
    pub breakers_open_at_end: u32,
    /// Attempts still unanswered at the end.
    pub pending_at_end: u64,
    /// Attempts at this tier per entry request.
    pub amplification: f64,
    /// Attempts per first attempt (retry amplification of the hop into this tier).
    pub retry_amplification: f64,
    /// Mean attempts per second over the baseline buckets.
    pub baseline_arrivals_per_s: f64,
    /// Highest attempts per second in a bucket.
    pub peak_arrivals_per_s: f64,
    /// Peak / baseline (0 without a baseline).
    pub peak_arrival_ratio: f64,
    /// Times the breakers of this tier opened.
    pub breaker_openings: u64,
    /// With `steady.drain`: the tier's counters during the drain, after the end (as a
    /// bucket's; gauges and time integrals 0); absent without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drained: Option<TierBucket>,
}

/// End-to-end latency percentiles of successful requests, ms.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
}

/// Whole-run figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Entry requests.
    pub requests: u64,
    /// Entry requests that succeeded.
    pub successes: u64,
    /// Entry requests that failed.
    pub failures: u64,
    /// Entry requests still open at the end.
    pub pending_at_end: u64,
    /// Successes per second of simulated time.
    pub goodput_per_s: f64,
    /// successes / requests.
    pub success_ratio: f64,
    /// End-to-end latency of successes (log-linear histogram: exact for up to 256
    /// values, for a constant latency and below 128 µs; otherwise within
    /// [`Histogram::MAX_RELATIVE_ERROR`] of the exact nearest-rank percentile),
    /// of the requests that arrived after the warm-up (`steady.warmup_ms`).
    pub latency_ms: Percentiles,
    /// Mean and standard deviation of the end-to-end latency of those successes.
    pub success_latency: Moments,
    /// Mean and standard deviation of the time to failure of the requests that arrived
    /// after the warm-up and failed.
    pub failure_latency: Moments,
    /// Attempts at the last tier per entry request.
    pub amplification: f64,
    /// Highest per-tier peak arrival ratio.
    pub peak_arrival_ratio: f64,
    /// Success ratio of the baseline.
    pub baseline_success_ratio: f64,
    /// Number of baseline buckets (0: ideal values were used).
    pub baseline_buckets: u64,
    /// End of the last trigger, ms (`None` without faults or spikes).
    pub trigger_end_ms: Option<u64>,
    /// Total length of unhealthy buckets, ms.
    pub overload_duration_ms: u64,
    /// Time from the end of the last trigger to lasting recovery of the arrival
    /// cohorts, ms (see [the health rule](self)).
    pub recovery_time_ms: Option<u64>,
    /// Successes per second (by the time they ended) over the baseline.
    #[serde(default)]
    pub baseline_goodput_per_s: f64,
    /// Time from the end of the last trigger until the successes per second are back to
    /// the baseline's for good, ms, to the bucket (see [the goodput rule](self)).
    #[serde(default)]
    pub goodput_recovery_ms: Option<u64>,
    /// A trigger happened and the run never recovered before its end.
    pub metastable: bool,
    /// The baseline already failed more requests than `steady.success_tolerance` allows
    /// (see [the health rule](self)): recovery and metastability are then not judged.
    #[serde(default)]
    pub unhealthy_baseline: bool,
    /// With `steady.drain` (absent without it; see [draining](self)): entry requests in
    /// flight at the end that succeeded in the drain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drained_successes: Option<u64>,
    /// … that failed in the drain (timed out, refused or errored: their own outcome). The
    /// rest of `pending_at_end` was still in flight when the drain stopped at its bound:
    /// unfinished, neither succeeded nor failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drained_failures: Option<u64>,
    /// How long the drain lasted: from the end of the run to the end of the last request
    /// in flight, or to the bound, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drain_ms: Option<f64>,
}

/// Everything a run produces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Scenario name.
    pub scenario: String,
    /// Seed used.
    #[serde(with = "crate::seed")]
    pub seed: i64,
    /// Simulated time, ms.
    pub duration_ms: u64,
    /// Bucket width, ms.
    pub bucket_ms: u64,
    /// Events processed.
    pub events: u64,
    /// Per tier totals.
    pub tiers: Vec<TierSummary>,
    /// Per bucket, per tier.
    pub buckets: Vec<Bucket>,
    /// Whole-run figures.
    pub summary: Summary,
    /// Per route of every tier's client (a chain's tier has one: its `client`).
    #[serde(default)]
    pub routes: Vec<RouteSummary>,
}

/// One route of a tier's client over the whole run: what was sent on it and how it
/// ended: attempts sent = successes + timeouts + overloads + errors + pending at the
/// end; refusals (breaker, budget, bulkhead) never left. Every tier but the first has
/// one calling tier, so a route that is its callee's only route has the callee tier's
/// counts (`tiers[to].totals`); routes of one tier that call the same tier (caller
/// populations with policies of their own) count their own, which sum to the callee's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteSummary {
    /// `caller → callee`, by tier name; `caller → callee #k` when another route of the
    /// caller calls the same tier (`k`: the route's number in its tier, from 1).
    pub name: String,
    /// Index of the calling tier.
    pub from: u32,
    /// Index of the called tier.
    pub to: u32,
    /// Share of the caller's calls this route gets (its weight over the routes' sum).
    pub share: f64,
    /// What was sent on the route and how it ended (`first_attempts` are the calls made
    /// on it): its callee tier's totals, or, when another route calls the same tier,
    /// its own attempts, outcomes and refusals, the callee's own figures (services,
    /// waits, queue, waste) left at 0.
    pub totals: TierBucket,
    /// Attempts still outstanding at the end.
    pub pending_at_end: u64,
    /// Attempts sent over calls made.
    pub retry_amplification: f64,
    /// What the attempts cost, when the route's client has a cost model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::CostResult>,
}

/// Log-linear latency histogram (µs): exact below 128 µs, then 64 sub-buckets per octave.
/// Its quantiles are the nearest-rank ones: exact while it holds at most [`EXACT`]
/// values (it keeps them), otherwise the midpoint of the rank's sub-bucket clamped to
/// the smallest and largest value seen (so a constant latency reads exactly), within
/// [`Histogram::MAX_RELATIVE_ERROR`] of the exact value.
#[derive(Debug, Clone)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    /// Smallest value recorded (`u64::MAX` when empty).
    min: u64,
    /// Largest value recorded.
    max: u64,
    /// The first [`EXACT`] values as recorded: all of them in a small sample.
    small: Vec<u64>,
}

const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;
/// Cells of a [`Histogram`].
const CELLS: u64 = 2 * SUB + (64 - SUB_BITS as u64) * SUB;
/// A sample of up to this many values reads exactly (a percentile of a handful of
/// requests is no place for a bucket's error).
pub const EXACT: usize = 256;
/// Heap bytes of one [`Histogram`]: its counts and its small sample (what a run's cost
/// estimate counts per histogram).
pub(crate) const HISTOGRAM_BYTES: u64 = (CELLS + EXACT as u64) * 8;

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            counts: vec![0; CELLS as usize],
            total: 0,
            min: u64::MAX,
            max: 0,
            small: Vec::new(),
        }
    }
}

impl Histogram {
    /// The largest relative error of a quantile of more than [`EXACT`] values against
    /// the exact nearest-rank one: half a sub-bucket's width over its lower bound, 1/128.
    pub const MAX_RELATIVE_ERROR: f64 = 1.0 / (2 * SUB) as f64;

    #[inline]
    fn index(v: u64) -> usize {
        if v < 2 * SUB {
            return v as usize;
        }
        let e = 63 - v.leading_zeros() as u64; // ≥ SUB_BITS + 1
        let shift = e - SUB_BITS as u64;
        (2 * SUB + (e - SUB_BITS as u64 - 1) * SUB + ((v >> shift) - SUB)) as usize
    }

    fn bounds(i: usize) -> (u64, u64) {
        let i = i as u64;
        if i < 2 * SUB {
            return (i, i + 1);
        }
        let r = i - 2 * SUB;
        let e = r / SUB + SUB_BITS as u64 + 1;
        let shift = e - SUB_BITS as u64;
        let lo = (SUB + r % SUB) << shift;
        (lo, lo.saturating_add(1 << shift))
    }

    /// Counts one value.
    #[inline]
    pub fn record(&mut self, v: u64) {
        let i = Self::index(v);
        if let Some(c) = self.counts.get_mut(i) {
            *c += 1;
            self.total += 1;
            self.min = self.min.min(v);
            self.max = self.max.max(v);
            if self.small.len() < EXACT {
                self.small.push(v);
            }
        }
    }

    /// The value that stands for cell `i`: its midpoint (its value when exact), kept
    /// within the values seen, µs.
    fn estimate(&self, i: usize) -> f64 {
        let (lo, hi) = Self::bounds(i);
        let mid = if hi - lo <= 1 {
            lo as f64
        } else {
            (lo + hi) as f64 / 2.0
        };
        mid.clamp(self.min as f64, self.max as f64)
    }

    /// The value of nearest rank `rank` (1-based) when the sample is small enough to
    /// have been kept whole; `sorted` says whether `small` is already in order.
    fn exact_rank(&self, rank: u64, sorted: bool) -> Option<f64> {
        if self.total > EXACT as u64 {
            return None;
        }
        let i = rank.saturating_sub(1) as usize;
        if sorted {
            return self.small.get(i).map(|&v| v as f64);
        }
        let mut v = self.small.clone();
        v.sort_unstable();
        v.get(i).map(|&v| v as f64)
    }

    /// Empties the small sample and the extremes (the counts are the caller's).
    fn clear_extremes(&mut self) {
        self.total = 0;
        self.min = u64::MAX;
        self.max = 0;
        self.small.clear();
    }

    /// Values recorded.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// p50, p90, p99 and p99.9, ms.
    pub fn percentiles_ms(&self) -> Percentiles {
        let q = |x: f64| self.quantile(x) / 1000.0;
        Percentiles {
            p50: q(0.5),
            p90: q(0.9),
            p99: q(0.99),
            p999: q(0.999),
        }
    }

    /// The `q` quantile (0..=1) by nearest rank, µs (0 when empty): exact for a small
    /// sample, else its cell's estimate (see [`Histogram`]).
    pub fn quantile(&self, q: f64) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        if let Some(v) = self.exact_rank(rank, false) {
            return v;
        }
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return self.estimate(i);
            }
        }
        0.0
    }
}

/// The latency histogram of the bucket being filled. It remembers which cells it
/// touched, so reading and clearing it at every bucket end costs the number of distinct
/// latencies seen, not the histogram's size (a run may have 100,000 buckets).
#[derive(Debug, Clone, Default)]
pub struct BucketLatency {
    hist: Histogram,
    touched: Vec<u32>,
}

impl BucketLatency {
    /// Counts one latency, µs.
    #[inline]
    pub fn record(&mut self, v: u64) {
        let i = Histogram::index(v);
        if self.hist.counts.get(i) == Some(&0) {
            self.touched.push(i as u32);
        }
        self.hist.record(v);
    }

    /// The bucket's percentiles in ms, by the same rank rule as [`Histogram::quantile`];
    /// then empties the histogram for the next bucket.
    pub fn take(&mut self) -> Percentiles {
        let total = self.hist.total;
        let mut out = Percentiles::default();
        if total > 0 {
            self.touched.sort_unstable();
            let targets = [0.5, 0.9, 0.99, 0.999]
                .map(|q: f64| ((q * total as f64).ceil() as u64).clamp(1, total));
            let mut values = [0.0f64; 4];
            // A small sample is read exactly (sorted in place: it is emptied below); a
            // larger one is read from the cells, and its first values are not looked at.
            if total <= EXACT as u64 {
                self.hist.small.sort_unstable();
            }
            let mut next = 0;
            let mut seen = 0u64;
            for &i in &self.touched {
                seen += self.hist.counts[i as usize];
                while next < 4 && seen >= targets[next] {
                    let v = self.hist.exact_rank(targets[next], true);
                    values[next] = v.unwrap_or_else(|| self.hist.estimate(i as usize)) / 1000.0;
                    next += 1;
                }
            }
            out = Percentiles {
                p50: values[0],
                p90: values[1],
                p99: values[2],
                p999: values[3],
            };
        }
        for &i in &self.touched {
            self.hist.counts[i as usize] = 0;
        }
        self.touched.clear();
        self.hist.clear_extremes();
        out
    }
}

/// Inputs of the steady-state analysis.
pub(crate) struct Analysis<'a> {
    /// Bucket width, ms.
    pub bucket_ms: u64,
    /// Length of the run, ms (the last bucket may be shorter than the others).
    pub duration_ms: u64,
    /// Per bucket, per tier counters, with their cohorts.
    pub buckets: &'a [Bucket],
    /// Per bucket, the arrival of its cohort's last failed request + 1 µs (0: none).
    pub last_failure_us: &'a [u64],
    /// First trigger start and last trigger end, ms.
    pub trigger: Option<(u64, u64)>,
    /// Steady-state settings.
    pub steady: &'a super::scenario::Steady,
}

/// Output of the steady-state analysis.
pub(crate) struct Verdict {
    /// Baseline success ratio of the cohorts.
    pub success: f64,
    /// Baseline arrivals per second per tier.
    pub arrivals_per_s: Vec<f64>,
    /// Baseline buckets.
    pub n: u64,
    /// The baseline itself fails more than a healthy system may.
    pub unhealthy_baseline: bool,
    /// Unhealthy time, ms.
    pub unhealthy_ms: u64,
    /// Recovery time, ms.
    pub recovery_ms: Option<u64>,
    /// Baseline successes per second, by the time they ended.
    pub goodput_per_s: f64,
    /// Goodput recovery time, ms.
    pub goodput_recovery_ms: Option<u64>,
    /// Never recovered.
    pub metastable: bool,
}

/// True when `count` exceeds what `n` independent trials of probability `p` give,
/// by more than `z` standard deviations (a one-sided normal bound on the binomial).
fn above(count: u64, n: u64, p: f64, z: f64) -> bool {
    let p = p.clamp(0.0, 1.0);
    let mean = n as f64 * p;
    count as f64 > mean + z * (mean * (1.0 - p)).sqrt()
}

impl Analysis<'_> {
    /// Judges baseline, health of each bucket, recovery and metastability (the rule is
    /// in the module's documentation).
    pub fn run(&self) -> Verdict {
        let tiers = self.buckets.first().map_or(0, |b| b.tiers.len());
        let first_trigger = self.trigger.map_or(u64::MAX, |t| t.0);
        let mut sums = vec![0u64; tiers];
        let mut cohort_attempts = vec![0u64; tiers];
        let (mut arr0, mut ok0, mut judged0, mut n) = (0u64, 0u64, 0u64, 0u64);
        // Outcomes that happened within the baseline (by the time requests ended).
        let (mut ended_ok, mut ended_failed) = (0u64, 0u64);
        for b in self.buckets {
            if b.start_ms >= self.steady.warmup_ms
                && b.start_ms.saturating_add(self.bucket_ms) <= first_trigger
            {
                n += 1;
                arr0 += b.tiers[0].first_attempts;
                ok0 += b.cohort.successes;
                judged0 += b.cohort.successes + b.cohort.failures;
                ended_ok += b.tiers[0].successes;
                ended_failed += b.tiers[0].failures();
                for (s, t) in sums.iter_mut().zip(&b.tiers) {
                    *s += t.attempts();
                }
                for (s, a) in cohort_attempts.iter_mut().zip(&b.cohort.attempts) {
                    *s += a;
                }
            }
        }
        let success = if judged0 > 0 {
            ok0 as f64 / judged0 as f64
        } else {
            1.0
        };
        let amp: Vec<f64> = if arr0 > 0 {
            cohort_attempts
                .iter()
                .map(|&s| s as f64 / arr0 as f64)
                .collect()
        } else {
            vec![1.0; tiers]
        };
        let secs = n as f64 * self.bucket_ms as f64 / 1000.0;
        let arrivals_per_s = sums
            .iter()
            .map(|&s| if secs > 0.0 { s as f64 / secs } else { 0.0 })
            .collect();
        let st = self.steady;
        // Against a system that fails nothing: the tolerance is all the failure allowed.
        // By the outcomes before the first trigger, not by cohorts: a baseline cohort
        // still in flight when the trigger strikes fails by the trigger, not by itself.
        let unhealthy_baseline = above(
            ended_failed,
            ended_ok + ended_failed,
            st.success_tolerance,
            st.z_score,
        );
        let fail_p = 1.0 - success + st.success_tolerance;
        // Some(healthy) for a cohort with judged requests, None without evidence.
        let judge = |b: &Bucket| -> Option<bool> {
            let c = &b.cohort;
            let judged = c.successes + c.failures;
            let arrivals = b.tiers[0].first_attempts;
            if judged == 0 {
                return None;
            }
            let failing = above(c.failures, judged, fail_p, st.z_score);
            let amplified = c.attempts.iter().zip(&amp).any(|(&a, &base)| {
                // Attempts per request as a Poisson count around the tolerated mean.
                let mean = arrivals as f64 * base * (1.0 + st.amplification_tolerance);
                a as f64 > mean + st.z_score * mean.sqrt()
            });
            Some(!failing && !amplified)
        };
        // A cohort without evidence (no arrivals, or all still young at the end) keeps
        // the verdict of the bucket before it (healthy at the start).
        let mut flags = Vec::with_capacity(self.buckets.len());
        let mut last = true;
        for b in self.buckets {
            last = judge(b).unwrap_or(last);
            flags.push(last);
        }
        let unhealthy_ms = flags.iter().filter(|h| !**h).count() as u64 * self.bucket_ms;
        let (recovery_ms, metastable) = match self.trigger {
            None => (None, false),
            Some(_) if unhealthy_baseline => (None, false),
            Some((_, end)) => {
                // The earliest bucket from which every bucket to the end is healthy, the
                // one holding the trigger's end at the earliest.
                let mut first_ok = None;
                for (i, b) in self.buckets.iter().enumerate().rev() {
                    if !flags[i] || b.start_ms.saturating_add(self.bucket_ms) <= end {
                        break;
                    }
                    first_ok = Some(i);
                }
                let last_end_us = self
                    .buckets
                    .last()
                    .map_or(0, |b| b.start_ms.saturating_add(self.bucket_ms))
                    .saturating_mul(1000);
                let end_us = end.saturating_mul(1000);
                let recovered_us = first_ok.map(|i| self.recovered_at_us(i, end_us));
                match recovered_us {
                    Some(at) if last_end_us.saturating_sub(at) >= self.steady.hold_ms * 1000 => {
                        ((at - end_us).div_ceil(1000).into(), false)
                    }
                    _ => (None, true),
                }
            }
        };
        let goodput_per_s = if secs > 0.0 {
            ended_ok as f64 / secs
        } else {
            0.0
        };
        let goodput_recovery_ms = match self.trigger {
            Some((_, end)) if !unhealthy_baseline => self.goodput_recovery(goodput_per_s, end),
            _ => None,
        };
        Verdict {
            goodput_per_s,
            goodput_recovery_ms,
            success,
            arrivals_per_s,
            n,
            unhealthy_baseline,
            unhealthy_ms,
            recovery_ms,
            metastable,
        }
    }
}

impl Analysis<'_> {
    /// The goodput recovery time after a trigger that ended at `end` ms, with a baseline
    /// goodput of `goodput` per second (the rule is in the module's documentation).
    fn goodput_recovery(&self, goodput: f64, end: u64) -> Option<u64> {
        let st = self.steady;
        // Expected successes over `len_s` seconds at the baseline, less the tolerance.
        let expected = |len_s: f64| goodput * len_s * (1.0 - st.success_tolerance);
        // At a low rate one bucket's expected count m is within z·√m of zero (m ≤ z²), so
        // no count could be low and a run whose successes never come back would read as
        // recovered at once: judge windows of the fewest buckets that can be low.
        let m1 = expected(self.bucket_ms as f64 / 1000.0);
        if m1 <= 0.0 {
            return None;
        }
        let z2 = st.z_score * st.z_score;
        let width = if m1 > z2 {
            1
        } else {
            (z2 / m1).floor() as usize + 1
        };
        let len_s = |b: &Bucket| {
            self.duration_ms
                .saturating_sub(b.start_ms)
                .min(self.bucket_ms) as f64
                / 1000.0
        };
        let low = |w: &[Bucket]| {
            let m = expected(w.iter().map(len_s).sum());
            let ok: u64 = w.iter().map(|b| b.tiers[0].successes).sum();
            (ok as f64) < m - st.z_score * m.sqrt()
        };
        // The stretch from bucket i to the end is recovered when it starts after the
        // trigger, holds at least one window, and no window within it is low.
        let mut first_ok = None;
        for i in (0..self.buckets.len()).rev() {
            if self.buckets[i].start_ms.saturating_add(self.bucket_ms) <= end {
                break;
            }
            match self.buckets.get(i..i + width) {
                Some(w) if low(w) => break,
                Some(_) => first_ok = Some(i),
                None => {}
            }
        }
        let at = self.buckets[first_ok?].start_ms.max(end);
        (self.duration_ms.saturating_sub(at) >= st.hold_ms).then_some(at - end)
    }

    /// When the system recovered, µs, given that bucket `i` starts the healthy stretch
    /// that lasts to the end and the trigger ended at `end_us`: at the trigger's end if
    /// the stretch holds it; else just after the last failed request of the unhealthy
    /// cohort before the stretch arrived (not at a bucket start, so a longer trigger never
    /// reads as a shorter recovery); at the stretch's start if that cohort has no failure
    /// to place it (unhealthy by amplification, or without evidence of its own).
    fn recovered_at_us(&self, i: usize, end_us: u64) -> u64 {
        let start_us = self.buckets[i].start_ms.saturating_mul(1000);
        if start_us <= end_us || i == 0 {
            return end_us;
        }
        match self.last_failure_us.get(i - 1).copied().unwrap_or(0) {
            0 => start_us,
            last => last.clamp(end_us, start_us),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_round_trips_its_buckets() {
        for v in [0u64, 1, 127, 128, 129, 1000, 45_000, 1 << 40, u64::MAX / 3] {
            let i = Histogram::index(v);
            let (lo, hi) = Histogram::bounds(i);
            assert!(lo <= v && (v < hi || hi == u64::MAX), "{v} in [{lo},{hi})");
        }
        let mut h = Histogram::default();
        for v in 1..=1000u64 {
            h.record(v * 1000);
        }
        let p50 = h.quantile(0.5);
        assert!((p50 - 500_000.0).abs() / 500_000.0 < 0.02, "{p50}");
        assert_eq!(Histogram::default().quantile(0.5), 0.0);
    }
}
