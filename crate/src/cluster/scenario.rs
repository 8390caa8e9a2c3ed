//! The cluster scenario: load, a chain of tiers with their client policies, and faults.
//!
//! Units: every `_ms` field is milliseconds of simulated time; the engine itself runs in
//! integer microseconds. Every field is range-checked by [`Scenario::validate`] so that
//! no input can panic, overflow or run away.

use crate::validate::{in_range, in_range_f64, name, ValidationError};
use serde::{Deserialize, Serialize};

/// Upper bound for `max_events`.
pub const MAX_EVENTS_LIMIT: u64 = 200_000_000;
/// Most tiers in a chain.
pub const MAX_TIERS: usize = 16;
/// Most instances in one tier.
pub const MAX_INSTANCES: u32 = 10_000;
/// Most instances over all tiers.
pub const MAX_TOTAL_INSTANCES: u64 = 20_000;
/// Longest simulated run: one day.
pub const MAX_DURATION_MS: u64 = 86_400_000;
/// Most time buckets in a result (duration / bucket).
pub const MAX_BUCKETS: u64 = 100_000;
/// Highest arrival rate, per second.
pub const MAX_RATE: f64 = 10_000_000.0;
/// Longest single time parameter (timeouts, backoffs, service times): one hour.
pub const MAX_TIME_MS: u64 = 3_600_000;
/// Most faults in a scenario.
pub const MAX_FAULTS: usize = 1_000;
/// Most segments in the load schedule.
pub const MAX_SEGMENTS: usize = 1_000;

fn default_bucket_ms() -> u64 {
    1000
}
fn default_max_events() -> u64 {
    50_000_000
}
fn default_one_f64() -> f64 {
    1.0
}
fn default_one_u32() -> u32 {
    1
}

/// A complete cluster scenario (the JSON document minus its `"model": "cluster"` key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short title, 1..=80 characters.
    pub name: String,
    /// One paragraph saying what the scenario shows (≤ 4000 characters).
    #[serde(default)]
    pub description: String,
    /// Default seed of the run (any i64; above 2^53 written as a string).
    #[serde(with = "crate::seed")]
    pub seed: i64,
    /// Simulated time, 1..=86400000 ms.
    pub duration_ms: u64,
    /// Width of a metrics bucket, 10..=3600000 ms (1000 by default; 100 for fine charts).
    #[serde(default = "default_bucket_ms")]
    pub bucket_ms: u64,
    /// Most events the run may process, 1..=200000000; more is an error, never a hang.
    #[serde(default = "default_max_events")]
    pub max_events: u64,
    /// What arrives at the first tier.
    pub load: Load,
    /// The chain, first tier (the entry) first; tier `i` calls tier `i + 1`.
    pub tiers: Vec<Tier>,
    /// Faults on a schedule.
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// How steady state and recovery are judged.
    #[serde(default)]
    pub steady: Steady,
}

/// Arrival process of the open loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// Exponential gaps at the current rate.
    #[default]
    Poisson,
    /// Evenly spaced arrivals at the current rate.
    Constant,
}

/// Load offered to the first tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    /// Poisson or constant spacing of open-loop arrivals.
    #[serde(default)]
    pub arrivals: Arrivals,
    /// Base open-loop rate, requests per second (0 for closed loop only).
    pub rate_per_s: f64,
    /// Segments overriding the base rate (ramps and spikes); later segments win.
    #[serde(default)]
    pub schedule: Vec<RateSegment>,
    /// Closed-loop callers in addition to the open loop.
    #[serde(default)]
    pub closed_loop: Option<ClosedLoop>,
    /// End-to-end deadline of an entry request: the user gives up after it (timeout).
    #[serde(default)]
    pub deadline_ms: Option<u64>,
    /// Fraction of requests that are idempotent (may be retried under `idempotent_only`).
    #[serde(default = "default_one_f64")]
    pub idempotent_fraction: f64,
}

/// A segment of the rate schedule: in `[start_ms, end_ms)` the rate goes linearly from
/// `rate_per_s` to `to_rate_per_s` (constant when that is absent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateSegment {
    /// Segment start, ms.
    pub start_ms: u64,
    /// Segment end (exclusive), ms.
    pub end_ms: u64,
    /// Rate at the start of the segment, per second.
    pub rate_per_s: f64,
    /// Rate at the end of the segment (a ramp), per second.
    #[serde(default)]
    pub to_rate_per_s: Option<f64>,
}

/// Closed-loop callers: each sends a request, waits for its end, thinks, repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClosedLoop {
    /// Number of callers, 1..=1000000.
    pub callers: u32,
    /// Think time between a response and the next request.
    pub think: Dist,
}

/// A duration distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Dist {
    /// Always `ms`.
    Constant {
        /// The duration, ms.
        ms: f64,
    },
    /// Exponential with the given mean.
    Exponential {
        /// Mean, ms.
        mean_ms: f64,
    },
    /// Lognormal fitted to a median and a 99th percentile.
    Lognormal {
        /// Median, ms.
        p50_ms: f64,
        /// 99th percentile, ms (≥ p50).
        p99_ms: f64,
    },
}

/// How a caller spreads its calls over the instances of the next tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Balancer {
    /// Each caller instance cycles through the callees from its own seeded starting point.
    #[default]
    RoundRobin,
    /// Uniformly random callee per attempt.
    Random,
}

/// One tier of the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// Tier name for reports, 1..=40 characters.
    pub name: String,
    /// Instances (pods), 1..=10000.
    pub instances: u32,
    /// Requests each instance serves at once (threads), 1..=100000.
    pub concurrency: u32,
    /// Requests each instance may hold waiting, 0..=1000000.
    pub queue_capacity: u32,
    /// A queued request older than this is dropped when it reaches the head (503).
    #[serde(default)]
    pub queue_timeout_ms: Option<u64>,
    /// Local service time of one request (before calling the next tier).
    pub service: Dist,
    /// Service time × (1 + this × requests held by the instance when service starts).
    #[serde(default)]
    pub slowdown_per_in_flight: f64,
    /// Probability that a served request fails with `error` (a 500), 0..=1.
    #[serde(default)]
    pub error_rate: f64,
    /// How callers pick an instance of this tier.
    #[serde(default)]
    pub balancer: Balancer,
    /// How this tier calls the next one: required on every tier but the last, absent on it.
    #[serde(default)]
    pub client: Option<Client>,
}

/// A failure kind a client may retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetryOn {
    /// The attempt timed out at the caller.
    Timeout,
    /// The callee refused (queue full, queue timeout, bulkhead full): a 503.
    Overload,
    /// The callee failed (outage, injected error, failed dependency): a 500.
    Error,
    /// The caller's own breaker refused the attempt (a naive retry loop around a breaker).
    BreakerRejected,
}

fn default_retry_on() -> Vec<RetryOn> {
    vec![RetryOn::Timeout, RetryOn::Overload, RetryOn::Error]
}

/// The client policy of a tier for its calls to the next tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Client {
    /// Per-attempt timeout, 1..=3600000 ms.
    pub timeout_ms: u64,
    /// Attempt timeout = min(timeout, what remains of this request's deadline), and the
    /// callee learns that deadline (it drops expired queued work).
    #[serde(default)]
    pub deadline_propagation: bool,
    /// Attempts per call including the first, 1..=10.
    #[serde(default = "default_one_u32")]
    pub max_attempts: u32,
    /// Delay before each retry.
    #[serde(default)]
    pub backoff: Backoff,
    /// Randomisation of that delay.
    #[serde(default)]
    pub jitter: Jitter,
    /// Which failures are retried.
    #[serde(default = "default_retry_on")]
    pub retry_on: Vec<RetryOn>,
    /// Retry only idempotent requests.
    #[serde(default)]
    pub idempotent_only: bool,
    /// Never retry while the breaker is open or half-open (seed 003).
    #[serde(default)]
    pub no_retry_while_breaker_open: bool,
    /// Retry budget.
    #[serde(default)]
    pub budget: Budget,
    /// Circuit breaker.
    #[serde(default)]
    pub breaker: Breaker,
    /// Concurrency cap on calls to the next tier.
    #[serde(default)]
    pub bulkhead: Option<Bulkhead>,
}

/// Backoff before retry number `n` (n = 1 for the first retry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Backoff {
    /// Retry at once.
    #[default]
    None,
    /// `delays_ms[n - 1]`, the last one repeating.
    Fixed {
        /// The list, 1..=10 entries.
        delays_ms: Vec<u64>,
    },
    /// Always `ms`.
    Constant {
        /// The delay.
        ms: u64,
    },
    /// `min(cap_ms, base_ms × multiplier^(n-1))`.
    Exponential {
        /// First delay.
        base_ms: u64,
        /// Growth factor, 1..=10.
        multiplier: f64,
        /// Upper bound.
        cap_ms: u64,
    },
}

/// Jitter applied to a backoff delay `d`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Jitter {
    /// `d`.
    #[default]
    None,
    /// Uniform in `[0, d]` (AWS "full jitter").
    Full,
    /// `d/2 + uniform[0, d/2]` (AWS "equal jitter").
    Equal,
    /// `min(cap, uniform[base, 3 × previous sleep])` (AWS "decorrelated jitter"); base is
    /// the first delay of the backoff, cap its cap (largest delay for fixed/constant).
    Decorrelated,
    /// `d × (1 + uniform[-percent, +percent] / 100)`.
    Percent {
        /// Spread, 0..=100.
        percent: f64,
    },
}

/// Whether each caller instance has its own budget/breaker or the tier shares one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// One per caller instance (50 gateways = 50 breakers).
    #[default]
    PerInstance,
    /// One for the whole calling tier.
    Shared,
}

/// A retry budget: what may veto a retry the policy would otherwise make.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Budget {
    /// No budget.
    #[default]
    None,
    /// Classic: at most `percent`% of `capacity_per_s` retries in each aligned second.
    CapacityPercent {
        /// Percent, 0..=1000.
        percent: f64,
        /// Capacity the percentage applies to, per second per scope.
        capacity_per_s: f64,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// Token bucket: each first attempt adds `percent`/100 token (up to `max_tokens`), a retry takes 1.
    TokenBucket {
        /// Percent of requests that may be retried, 0..=100.
        percent: f64,
        /// Bucket size (and initial content), 1..=1000000 tokens.
        max_tokens: u32,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// gRPC retry throttling (gRFC A6).
    GrpcThrottle {
        /// Bucket size and initial tokens, 1..=1000.
        max_tokens: u32,
        /// Tokens a success adds, 0.001..=max_tokens (three decimals kept).
        token_ratio: f64,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// Finagle `RetryBudget` / tower `TpsBudget`: a leaky window of deposits.
    Windowed {
        /// Window, 1000..=60000 ms.
        ttl_ms: u64,
        /// Retries always allowed per second, 0..=1000000.
        min_retries_per_sec: u32,
        /// Percent of requests that may be retried, 0..=1000.
        percent_can_retry: f64,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// Seed 003: retries / requests ≤ ratio over a window, free below a minimum sample.
    Ratio {
        /// Allowed retries as a percent of requests, 0..=1000.
        ratio_percent: f64,
        /// Window, 0 (cumulative, as in the seed's code) or 100..=3600000 ms.
        window_ms: u64,
        /// Below this many requests in the window every retry is allowed.
        min_requests: u32,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// AWS SDK standard retry mode quota.
    AwsQuota {
        /// Initial and maximum capacity (500 in the SDKs).
        #[serde(default = "aws_initial")]
        initial_tokens: u32,
        /// Cost of a retry (5).
        #[serde(default = "aws_cost")]
        retry_cost: u32,
        /// Cost of a retry after a timeout (10).
        #[serde(default = "aws_timeout_cost")]
        timeout_cost: u32,
        /// Added by a success that needed no retry (1).
        #[serde(default = "default_one_u32")]
        no_retry_increment: u32,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
}

fn aws_initial() -> u32 {
    500
}
fn aws_cost() -> u32 {
    5
}
fn aws_timeout_cost() -> u32 {
    10
}

/// Count- or time-based sliding window (Resilience4j).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowKind {
    /// The last `window_size` calls.
    #[default]
    Count,
    /// The calls of the last `window_size` seconds.
    Time,
}

/// A circuit breaker on the calls to the next tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Breaker {
    /// No breaker.
    #[default]
    None,
    /// Opens after `failures` consecutive failures.
    Consecutive {
        /// Threshold, 1..=1000000.
        failures: u32,
        /// Time open before half-open, ms.
        open_ms: u64,
        /// Uniform extra open time in `[0, open_jitter_ms]`.
        #[serde(default)]
        open_jitter_ms: u64,
        /// Trial calls in half-open, 1..=100000; all must succeed to close.
        #[serde(default = "default_one_u32")]
        half_open_calls: u32,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// Resilience4j `CircuitBreaker` with optional gradual recovery (seed 004).
    Resilience4j {
        /// Window type.
        #[serde(default)]
        window: WindowKind,
        /// Calls (count) or seconds (time) in the window, 1..=10000 / 1..=3600.
        window_size: u32,
        /// Calls needed before rates are judged.
        minimum_calls: u32,
        /// Open when failure rate ≥ this, 1..=100.
        failure_rate_percent: f64,
        /// Calls slower than this are slow.
        #[serde(default)]
        slow_call_ms: Option<u64>,
        /// Open when slow-call rate ≥ this, 1..=100.
        #[serde(default = "hundred")]
        slow_call_rate_percent: f64,
        /// Time open before half-open, ms.
        wait_open_ms: u64,
        /// Uniform extra open time in `[0, open_jitter_ms]` (seed 002: 500).
        #[serde(default)]
        open_jitter_ms: u64,
        /// Calls permitted in half-open, 1..=100000.
        half_open_calls: u32,
        /// When set, closing goes through 25% and 50% admission stages of this length.
        #[serde(default)]
        ramp_stage_ms: Option<u64>,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
    /// Google SRE client-side adaptive throttling: reject with
    /// `max(0, (requests - k × accepts) / (requests + 1))`.
    SreAdaptive {
        /// Multiplier K, 1..=10.
        k: f64,
        /// History window, 1000..=3600000 ms.
        window_ms: u64,
        /// Scope.
        #[serde(default)]
        scope: Scope,
    },
}

fn hundred() -> f64 {
    100.0
}

/// A bulkhead: at most `max_concurrent` outstanding attempts per caller instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bulkhead {
    /// Outstanding attempts allowed, 1..=1000000.
    pub max_concurrent: u32,
    /// Calls that may wait for a slot, 0..=1000000.
    pub max_queue: u32,
    /// A call that waited longer is rejected when its turn comes.
    pub max_wait_ms: u64,
}

/// What a fault does to the instances it covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FaultEffect {
    /// Hard outage: requests fail at once with `error`; held work is lost.
    Outage,
    /// Nothing answers; held responses fail with `error` when the hang ends.
    Hang,
    /// A stop-the-world pause: work queues up and resumes when it ends.
    Pause,
    /// Service rate × factor (0.01..=1).
    Brownout {
        /// Capacity factor.
        factor: f64,
    },
    /// Extra probability of `error`, 0..=1.
    ErrorRate {
        /// Probability.
        rate: f64,
    },
    /// Added service latency.
    Latency {
        /// Extra ms.
        added_ms: f64,
    },
}

/// A fault on a schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    /// Index of the tier in `tiers`.
    pub tier: u32,
    /// Start, ms.
    pub start_ms: u64,
    /// Length, ms.
    pub duration_ms: u64,
    /// The first N instances of the tier (all when absent).
    #[serde(default)]
    pub instances: Option<u32>,
    /// The effect.
    pub effect: FaultEffect,
}

/// How "steady state" and "recovered" are judged (see [`crate::cluster::metrics`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Steady {
    /// Buckets starting before this are warm-up and never part of the baseline, ms.
    pub warmup_ms: u64,
    /// A healthy cohort's failure probability may exceed the baseline's by this, 0..=1.
    pub success_tolerance: f64,
    /// A healthy cohort's attempts per request at every tier may exceed the baseline's
    /// by this factor (1 + this), 0..=100.
    pub amplification_tolerance: f64,
    /// Recovered only if healthy from then to the end, and for at least this long, ms.
    pub hold_ms: u64,
    /// Sampling-noise allowance: a cohort is unhealthy only when its count exceeds the
    /// tolerated mean by more than this many standard deviations, 0..=10.
    pub z_score: f64,
    /// A request still unanswered at the end of the run counts as a failure of its
    /// cohort once it has waited longer than this, ms (younger ones are not judged).
    pub late_ms: u64,
}

impl Default for Steady {
    fn default() -> Self {
        Steady {
            warmup_ms: 2000,
            success_tolerance: 0.02,
            amplification_tolerance: 0.25,
            hold_ms: 5000,
            z_score: 3.0,
            late_ms: 10_000,
        }
    }
}

fn at(i: usize, parent: &str) -> impl Fn(ValidationError) -> ValidationError + '_ {
    move |e| e.within(&format!("{parent}[{i}]"))
}

fn ms(field: &str, v: u64) -> Result<(), ValidationError> {
    in_range(field, v, 0, MAX_TIME_MS)
}

fn ms_f(field: &str, v: f64) -> Result<(), ValidationError> {
    in_range_f64(field, v, 0.0, MAX_TIME_MS as f64)
}

impl Dist {
    /// The distribution's mean, ms, by the same math the sampler draws with
    /// (lognormal: `p50 · exp(σ²/2)` with σ = ln(p99/p50) / z₀.₉₉).
    pub fn mean_ms(&self) -> f64 {
        match *self {
            Dist::Constant { ms } => ms,
            Dist::Exponential { mean_ms } => mean_ms,
            Dist::Lognormal { p50_ms, p99_ms } => {
                let sigma = super::math::lognormal_sigma(p50_ms, p99_ms);
                p50_ms * super::math::exp(sigma * sigma / 2.0)
            }
        }
    }

    fn validate(&self) -> Result<(), ValidationError> {
        match *self {
            Dist::Constant { ms } => ms_f("ms", ms),
            Dist::Exponential { mean_ms } => ms_f("mean_ms", mean_ms),
            Dist::Lognormal { p50_ms, p99_ms } => {
                in_range_f64("p50_ms", p50_ms, 0.001, MAX_TIME_MS as f64)?;
                in_range_f64("p99_ms", p99_ms, p50_ms, MAX_TIME_MS as f64)
            }
        }
    }
}

impl Scope {
    /// Number of budget/breaker states a tier with `instances` instances needs.
    pub fn slots(self, instances: u32) -> usize {
        match self {
            Scope::PerInstance => instances as usize,
            Scope::Shared => 1,
        }
    }
}

impl Budget {
    /// Its scope (per instance for `None`).
    pub fn scope(&self) -> Scope {
        match self {
            Budget::None => Scope::PerInstance,
            Budget::CapacityPercent { scope, .. }
            | Budget::TokenBucket { scope, .. }
            | Budget::GrpcThrottle { scope, .. }
            | Budget::Windowed { scope, .. }
            | Budget::Ratio { scope, .. }
            | Budget::AwsQuota { scope, .. } => *scope,
        }
    }

    fn validate(&self) -> Result<(), ValidationError> {
        match *self {
            Budget::None => Ok(()),
            Budget::CapacityPercent {
                percent,
                capacity_per_s,
                ..
            } => {
                in_range_f64("percent", percent, 0.0, 1000.0)?;
                in_range_f64("capacity_per_s", capacity_per_s, 0.0, MAX_RATE)
            }
            Budget::TokenBucket {
                percent,
                max_tokens,
                ..
            } => {
                in_range_f64("percent", percent, 0.0, 100.0)?;
                in_range("max_tokens", max_tokens, 1, 1_000_000)
            }
            Budget::GrpcThrottle {
                max_tokens,
                token_ratio,
                ..
            } => {
                in_range("max_tokens", max_tokens, 1, 1000)?;
                in_range_f64("token_ratio", token_ratio, 0.001, max_tokens as f64)
            }
            Budget::Windowed {
                ttl_ms,
                min_retries_per_sec,
                percent_can_retry,
                ..
            } => {
                in_range("ttl_ms", ttl_ms, 1000, 60_000)?;
                in_range("min_retries_per_sec", min_retries_per_sec, 0, 1_000_000)?;
                in_range_f64("percent_can_retry", percent_can_retry, 0.0, 1000.0)
            }
            Budget::Ratio {
                ratio_percent,
                window_ms,
                min_requests,
                ..
            } => {
                in_range_f64("ratio_percent", ratio_percent, 0.0, 1000.0)?;
                if window_ms != 0 {
                    in_range("window_ms", window_ms, 100, MAX_TIME_MS)?;
                }
                in_range("min_requests", min_requests, 0, 1_000_000_000)
            }
            Budget::AwsQuota {
                initial_tokens,
                retry_cost,
                timeout_cost,
                no_retry_increment,
                ..
            } => {
                in_range("initial_tokens", initial_tokens, 1, 1_000_000)?;
                in_range("retry_cost", retry_cost, 0, 1_000_000)?;
                in_range("timeout_cost", timeout_cost, 0, 1_000_000)?;
                in_range("no_retry_increment", no_retry_increment, 0, 1_000_000)
            }
        }
    }
}

impl Breaker {
    /// Its scope (per instance for `None`).
    pub fn scope(&self) -> Scope {
        match self {
            Breaker::None => Scope::PerInstance,
            Breaker::Consecutive { scope, .. }
            | Breaker::Resilience4j { scope, .. }
            | Breaker::SreAdaptive { scope, .. } => *scope,
        }
    }

    fn validate(&self, instances: u32) -> Result<(), ValidationError> {
        match *self {
            Breaker::None => Ok(()),
            Breaker::Consecutive {
                failures,
                open_ms,
                open_jitter_ms,
                half_open_calls,
                ..
            } => {
                in_range("failures", failures, 1, 1_000_000)?;
                ms("open_ms", open_ms)?;
                ms("open_jitter_ms", open_jitter_ms)?;
                in_range("half_open_calls", half_open_calls, 1, 100_000)
            }
            Breaker::Resilience4j {
                window,
                window_size,
                minimum_calls,
                failure_rate_percent,
                slow_call_ms,
                slow_call_rate_percent,
                wait_open_ms,
                open_jitter_ms,
                half_open_calls,
                ramp_stage_ms,
                scope,
            } => {
                let max = match window {
                    WindowKind::Count => 10_000,
                    WindowKind::Time => 3600,
                };
                in_range("window_size", window_size, 1, max)?;
                // Memory: one ring of window_size cells per breaker.
                let cells = window_size as u64 * scope.slots(instances) as u64;
                if cells > 20_000_000 {
                    return Err(ValidationError::new(
                        "window_size",
                        window_size,
                        "window_size × breakers ≤ 20000000 (use a smaller window or a shared scope)",
                    ));
                }
                in_range("minimum_calls", minimum_calls, 1, 1_000_000)?;
                in_range_f64("failure_rate_percent", failure_rate_percent, 1.0, 100.0)?;
                if let Some(s) = slow_call_ms {
                    in_range("slow_call_ms", s, 1, MAX_TIME_MS)?;
                }
                in_range_f64("slow_call_rate_percent", slow_call_rate_percent, 1.0, 100.0)?;
                ms("wait_open_ms", wait_open_ms)?;
                ms("open_jitter_ms", open_jitter_ms)?;
                in_range("half_open_calls", half_open_calls, 1, 100_000)?;
                if let Some(r) = ramp_stage_ms {
                    in_range("ramp_stage_ms", r, 1, MAX_TIME_MS)?;
                }
                Ok(())
            }
            Breaker::SreAdaptive { k, window_ms, .. } => {
                in_range_f64("k", k, 1.0, 10.0)?;
                in_range("window_ms", window_ms, 1000, MAX_TIME_MS)
            }
        }
    }
}

impl Client {
    fn validate(&self, instances: u32) -> Result<(), ValidationError> {
        in_range("timeout_ms", self.timeout_ms, 1, MAX_TIME_MS)?;
        in_range("max_attempts", self.max_attempts, 1, 10)?;
        match &self.backoff {
            Backoff::None => {}
            Backoff::Fixed { delays_ms } => {
                in_range("backoff.delays_ms.len()", delays_ms.len(), 1, 10)?;
                for (i, d) in delays_ms.iter().enumerate() {
                    ms(&format!("backoff.delays_ms[{i}]"), *d)?;
                }
            }
            Backoff::Constant { ms: d } => ms("backoff.ms", *d)?,
            Backoff::Exponential {
                base_ms,
                multiplier,
                cap_ms,
            } => {
                ms("backoff.base_ms", *base_ms)?;
                in_range_f64("backoff.multiplier", *multiplier, 1.0, 10.0)?;
                in_range("backoff.cap_ms", *cap_ms, *base_ms, MAX_TIME_MS)?;
            }
        }
        if let Jitter::Percent { percent } = self.jitter {
            in_range_f64("jitter.percent", percent, 0.0, 100.0)?;
        }
        in_range("retry_on.len()", self.retry_on.len(), 0, 4)?;
        self.budget.validate().map_err(|e| e.within("budget"))?;
        self.breaker
            .validate(instances)
            .map_err(|e| e.within("breaker"))?;
        if let Some(b) = &self.bulkhead {
            in_range("bulkhead.max_concurrent", b.max_concurrent, 1, 1_000_000)?;
            in_range("bulkhead.max_queue", b.max_queue, 0, 1_000_000)?;
            ms("bulkhead.max_wait_ms", b.max_wait_ms)?;
        }
        Ok(())
    }
}

impl Tier {
    fn validate(&self, last: bool) -> Result<(), ValidationError> {
        name("name", &self.name, 40)?;
        in_range("instances", self.instances, 1, MAX_INSTANCES)?;
        in_range("concurrency", self.concurrency, 1, 100_000)?;
        in_range("queue_capacity", self.queue_capacity, 0, 1_000_000)?;
        if let Some(q) = self.queue_timeout_ms {
            ms("queue_timeout_ms", q)?;
        }
        self.service.validate().map_err(|e| e.within("service"))?;
        in_range_f64(
            "slowdown_per_in_flight",
            self.slowdown_per_in_flight,
            0.0,
            1.0,
        )?;
        in_range_f64("error_rate", self.error_rate, 0.0, 1.0)?;
        match (&self.client, last) {
            (Some(_), true) => Err(ValidationError::new(
                "client",
                "present",
                "absent on the last tier (it calls nothing)",
            )),
            (None, false) => Err(ValidationError::new(
                "client",
                "absent",
                "present on every tier but the last",
            )),
            (Some(c), false) => c.validate(self.instances).map_err(|e| e.within("client")),
            (None, true) => Ok(()),
        }
    }
}

impl Scenario {
    /// Checks every field; the error names the field path, its value and the allowed range.
    pub fn validate(&self) -> Result<(), ValidationError> {
        name("name", &self.name, 80)?;
        if self.description.chars().count() > 4000 {
            return Err(ValidationError::new(
                "description",
                format!("{} characters", self.description.chars().count()),
                "0..=4000 characters",
            ));
        }
        in_range("duration_ms", self.duration_ms, 1, MAX_DURATION_MS)?;
        in_range("bucket_ms", self.bucket_ms, 10, MAX_TIME_MS)?;
        let buckets = self.duration_ms.div_ceil(self.bucket_ms);
        if buckets > MAX_BUCKETS {
            return Err(ValidationError::new(
                "bucket_ms",
                self.bucket_ms,
                format!("duration_ms / bucket_ms ≤ {MAX_BUCKETS} buckets"),
            ));
        }
        in_range("max_events", self.max_events, 1, MAX_EVENTS_LIMIT)?;
        self.validate_load().map_err(|e| e.within("load"))?;
        in_range("tiers.len()", self.tiers.len(), 1, MAX_TIERS)?;
        let mut total = 0u64;
        for (i, t) in self.tiers.iter().enumerate() {
            t.validate(i + 1 == self.tiers.len())
                .map_err(at(i, "tiers"))?;
            total += t.instances as u64;
        }
        if total > MAX_TOTAL_INSTANCES {
            return Err(ValidationError::new(
                "tiers",
                format!("{total} instances"),
                format!("at most {MAX_TOTAL_INSTANCES} instances over all tiers"),
            ));
        }
        in_range("faults.len()", self.faults.len(), 0, MAX_FAULTS)?;
        for (i, f) in self.faults.iter().enumerate() {
            self.validate_fault(f).map_err(at(i, "faults"))?;
        }
        let s = &self.steady;
        (|| {
            ms("warmup_ms", s.warmup_ms)?;
            in_range_f64("success_tolerance", s.success_tolerance, 0.0, 1.0)?;
            in_range_f64(
                "amplification_tolerance",
                s.amplification_tolerance,
                0.0,
                100.0,
            )?;
            ms("hold_ms", s.hold_ms)?;
            in_range_f64("z_score", s.z_score, 0.0, 10.0)?;
            ms("late_ms", s.late_ms)
        })()
        .map_err(|e| e.within("steady"))
    }

    fn validate_load(&self) -> Result<(), ValidationError> {
        let l = &self.load;
        in_range_f64("rate_per_s", l.rate_per_s, 0.0, MAX_RATE)?;
        in_range("schedule.len()", l.schedule.len(), 0, MAX_SEGMENTS)?;
        for (i, s) in l.schedule.iter().enumerate() {
            (|| {
                in_range("start_ms", s.start_ms, 0, MAX_DURATION_MS)?;
                in_range("end_ms", s.end_ms, s.start_ms, MAX_DURATION_MS)?;
                in_range_f64("rate_per_s", s.rate_per_s, 0.0, MAX_RATE)?;
                if let Some(r) = s.to_rate_per_s {
                    in_range_f64("to_rate_per_s", r, 0.0, MAX_RATE)?;
                }
                Ok(())
            })()
            .map_err(at(i, "schedule"))?;
        }
        if let Some(c) = &l.closed_loop {
            in_range("closed_loop.callers", c.callers, 1, 1_000_000)?;
            c.think
                .validate()
                .map_err(|e| e.within("closed_loop.think"))?;
        }
        if let Some(d) = l.deadline_ms {
            in_range("deadline_ms", d, 1, MAX_TIME_MS)?;
        }
        in_range_f64("idempotent_fraction", l.idempotent_fraction, 0.0, 1.0)
    }

    fn validate_fault(&self, f: &Fault) -> Result<(), ValidationError> {
        in_range("tier", f.tier as usize, 0, self.tiers.len() - 1)?;
        in_range("start_ms", f.start_ms, 0, MAX_DURATION_MS)?;
        in_range("duration_ms", f.duration_ms, 0, MAX_DURATION_MS)?;
        if let Some(n) = f.instances {
            in_range("instances", n, 1, self.tiers[f.tier as usize].instances)?;
        }
        match f.effect {
            FaultEffect::Brownout { factor } => in_range_f64("effect.factor", factor, 0.01, 1.0),
            FaultEffect::ErrorRate { rate } => in_range_f64("effect.rate", rate, 0.0, 1.0),
            FaultEffect::Latency { added_ms } => ms_f("effect.added_ms", added_ms),
            _ => Ok(()),
        }
    }

    /// The end of the last trigger (fault end, or end of a schedule segment above the
    /// base rate), ms; `None` when the scenario has neither.
    pub fn trigger_window(&self) -> Option<(u64, u64)> {
        let mut w: Option<(u64, u64)> = None;
        let mut add = |a: u64, b: u64| {
            w = Some(match w {
                None => (a, b),
                Some((s, e)) => (s.min(a), e.max(b)),
            });
        };
        for f in &self.faults {
            add(f.start_ms, f.start_ms.saturating_add(f.duration_ms));
        }
        for s in &self.load.schedule {
            if s.rate_per_s > self.load.rate_per_s
                || s.to_rate_per_s.is_some_and(|r| r > self.load.rate_per_s)
            {
                add(s.start_ms, s.end_ms);
            }
        }
        w
    }
}
