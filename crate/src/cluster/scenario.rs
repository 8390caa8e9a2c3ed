//! The cluster scenario: load, a chain of tiers with their client policies, and faults.
//!
//! Units: every `_ms` field is milliseconds of simulated time; the engine itself runs in
//! integer microseconds. Every field is range-checked by [`Scenario::validate`] so that
//! no input can panic, overflow or run away.

use crate::validate::{Problems, ValidationError};
use serde::{Deserialize, Serialize};

/// Upper bound for `max_events`.
pub const MAX_EVENTS_LIMIT: u64 = 200_000_000;
/// `max_events` when the scenario does not say.
pub const DEFAULT_MAX_EVENTS: u64 = 50_000_000;
/// Longest scenario name, in characters.
pub const MAX_SCENARIO_NAME_CHARS: usize = 80;
/// Longest scenario description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 4_000;
/// Most tiers in a chain.
pub const MAX_TIERS: usize = 16;
/// Longest tier name, in characters.
pub const MAX_TIER_NAME_CHARS: usize = 40;
/// Most instances in one tier.
pub const MAX_INSTANCES: u32 = 10_000;
/// Most instances over all tiers.
pub const MAX_TOTAL_INSTANCES: u64 = 20_000;
/// Most requests one instance serves at once.
pub const MAX_CONCURRENCY: u32 = 100_000;
/// Upper bound of the plain counts: queue capacity, closed-loop callers, breaker
/// thresholds and minimum calls, bulkhead sizes, retries per second.
pub const MAX_COUNT: u32 = 1_000_000;
/// Longest simulated run: one day.
pub const MAX_DURATION_MS: u64 = 86_400_000;
/// Narrowest metrics bucket.
pub const MIN_BUCKET_MS: u64 = 10;
/// `bucket_ms` when the scenario does not say.
pub const DEFAULT_BUCKET_MS: u64 = 1_000;
/// Most time buckets in a result (duration / bucket).
pub const MAX_BUCKETS: u64 = 100_000;
/// Highest arrival rate, per second.
pub const MAX_RATE: f64 = 10_000_000.0;
/// Longest single time parameter (timeouts, backoffs, service times): one hour.
pub const MAX_TIME_MS: u64 = 3_600_000;
/// Smallest median of a lognormal distribution (its logarithm must exist).
pub const MIN_P50_MS: f64 = 0.001;
/// Most faults in a scenario.
pub const MAX_FAULTS: usize = 1_000;
/// Most segments in the load schedule.
pub const MAX_SEGMENTS: usize = 1_000;
/// Most attempts per call, the first included.
pub const MAX_ATTEMPTS: u32 = 10;
/// Most downstream routes of one tier.
pub const MAX_ROUTES: usize = 8;
/// Smallest weight of a route (relative to its siblings').
pub const MIN_ROUTE_WEIGHT: f64 = 0.001;
/// Largest weight of a route.
pub const MAX_ROUTE_WEIGHT: f64 = 1_000.0;
/// Attempts per call when the client does not say: no retries.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 1;
/// Most entries of a fixed backoff list.
pub const MAX_DELAYS: usize = 10;
/// Largest exponential-backoff multiplier.
pub const MAX_MULTIPLIER: f64 = 10.0;
/// Largest budget percentage of the capacity, windowed and ratio budgets.
pub const MAX_BUDGET_PERCENT: f64 = 1_000.0;
/// Largest token count of a token bucket or an AWS quota (and largest AWS cost).
pub const MAX_TOKENS: u32 = 1_000_000;
/// Largest gRPC throttling bucket.
pub const MAX_GRPC_TOKENS: u32 = 1_000;
/// Smallest gRPC token ratio (gRFC A6 keeps three decimals).
pub const MIN_GRPC_TOKEN_RATIO: f64 = 0.001;
/// Shortest window of a windowed (Finagle/tower) budget.
pub const MIN_TTL_MS: u64 = 1_000;
/// Longest window of a windowed (Finagle/tower) budget.
pub const MAX_TTL_MS: u64 = 60_000;
/// Shortest non-cumulative window of a ratio budget.
pub const MIN_RATIO_WINDOW_MS: u64 = 100;
/// Largest minimum sample of a ratio budget.
pub const MAX_MIN_REQUESTS: u32 = 1_000_000_000;
/// The AWS SDKs' initial retry quota.
pub const DEFAULT_AWS_TOKENS: u32 = 500;
/// The AWS SDKs' cost of a retry.
pub const DEFAULT_AWS_RETRY_COST: u32 = 5;
/// The AWS SDKs' cost of a retry after a timeout.
pub const DEFAULT_AWS_TIMEOUT_COST: u32 = 10;
/// The AWS SDKs' refund of a success that needed no retry.
pub const DEFAULT_AWS_NO_RETRY_INCREMENT: u32 = 1;
/// Most trial calls of a half-open breaker.
pub const MAX_HALF_OPEN_CALLS: u32 = 100_000;
/// Trial calls of a half-open consecutive breaker when the scenario does not say.
pub const DEFAULT_HALF_OPEN_CALLS: u32 = 1;
/// Largest count window of a Resilience4j breaker, in calls.
pub const MAX_COUNT_WINDOW: u32 = 10_000;
/// Largest time window of a Resilience4j breaker, in seconds.
pub const MAX_TIME_WINDOW_S: u32 = 3_600;
/// Most window cells over all breakers of a tier (`window_size × breakers`).
pub const MAX_WINDOW_CELLS: u64 = 20_000_000;
/// Resilience4j's slow-call rate threshold when the scenario does not say (percent).
pub const DEFAULT_SLOW_CALL_RATE_PERCENT: f64 = 100.0;
/// Largest multiplier K of SRE adaptive throttling.
pub const MAX_SRE_K: f64 = 10.0;
/// Shortest history window of SRE adaptive throttling.
pub const MIN_SRE_WINDOW_MS: u64 = 1_000;
/// Smallest capacity factor of a brownout.
pub const MIN_BROWNOUT_FACTOR: f64 = 0.01;
/// Largest amplification tolerance of the steady-state judgement.
pub const MAX_AMPLIFICATION_TOLERANCE: f64 = 100.0;
/// Largest z-score of the steady-state judgement's sampling-noise allowance.
pub const MAX_Z_SCORE: f64 = 10.0;

/// serde needs a function for a field's default: each of these returns its named constant.
macro_rules! serde_defaults {
    ($($name:ident: $ty:ty = $value:expr;)*) => {
        $(fn $name() -> $ty { $value })*
    };
}

serde_defaults! {
    default_bucket_ms: u64 = DEFAULT_BUCKET_MS;
    default_max_events: u64 = DEFAULT_MAX_EVENTS;
    default_idempotent_fraction: f64 = 1.0;
    default_max_attempts: u32 = DEFAULT_MAX_ATTEMPTS;
    default_half_open_calls: u32 = DEFAULT_HALF_OPEN_CALLS;
    default_slow_call_rate: f64 = DEFAULT_SLOW_CALL_RATE_PERCENT;
    aws_initial: u32 = DEFAULT_AWS_TOKENS;
    aws_cost: u32 = DEFAULT_AWS_RETRY_COST;
    aws_timeout_cost: u32 = DEFAULT_AWS_TIMEOUT_COST;
    aws_no_retry_increment: u32 = DEFAULT_AWS_NO_RETRY_INCREMENT;
}

/// A complete cluster scenario (the JSON document minus its `"model": "cluster"` key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short title, 1..=[`MAX_SCENARIO_NAME_CHARS`] characters.
    pub name: String,
    /// One paragraph saying what the scenario shows, 0..=[`MAX_DESCRIPTION_CHARS`] characters.
    #[serde(default)]
    pub description: String,
    /// Default seed of the run (any i64; above 2^53 written as a string).
    #[serde(with = "crate::seed")]
    pub seed: i64,
    /// Simulated time, 1..=[`MAX_DURATION_MS`] ms.
    pub duration_ms: u64,
    /// Width of a metrics bucket, [`MIN_BUCKET_MS`]..=[`MAX_TIME_MS`] ms, at most
    /// [`MAX_BUCKETS`] buckets ([`DEFAULT_BUCKET_MS`] when absent; 100 for fine charts).
    #[serde(default = "default_bucket_ms")]
    pub bucket_ms: u64,
    /// Most events the run may process, 1..=[`MAX_EVENTS_LIMIT`] ([`DEFAULT_MAX_EVENTS`] when
    /// absent); more is an error, never a hang.
    #[serde(default = "default_max_events")]
    pub max_events: u64,
    /// What arrives at the first tier.
    pub load: Load,
    /// The chain, 1..=[`MAX_TIERS`] tiers, first tier (the entry) first; tier `i` calls
    /// tier `i + 1`.
    pub tiers: Vec<Tier>,
    /// Faults on a schedule, 0..=[`MAX_FAULTS`].
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
    /// Base open-loop rate, 0..=[`MAX_RATE`] requests per second (0 for closed loop only).
    pub rate_per_s: f64,
    /// Segments overriding the base rate (ramps and spikes), 0..=[`MAX_SEGMENTS`]; later
    /// segments win.
    #[serde(default)]
    pub schedule: Vec<RateSegment>,
    /// Closed-loop callers in addition to the open loop.
    #[serde(default)]
    pub closed_loop: Option<ClosedLoop>,
    /// End-to-end deadline of an entry request, 1..=[`MAX_TIME_MS`] ms: the user gives up
    /// after it (timeout).
    #[serde(default)]
    pub deadline_ms: Option<u64>,
    /// Fraction of requests that are idempotent (may be retried under `idempotent_only`),
    /// 0..=1 (1 when absent).
    #[serde(default = "default_idempotent_fraction")]
    pub idempotent_fraction: f64,
}

/// A segment of the rate schedule: in `[start_ms, end_ms)` the rate goes linearly from
/// `rate_per_s` to `to_rate_per_s` (constant when that is absent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateSegment {
    /// Segment start, 0..=[`MAX_DURATION_MS`] ms.
    pub start_ms: u64,
    /// Segment end (exclusive), `start_ms`..=[`MAX_DURATION_MS`] ms.
    pub end_ms: u64,
    /// Rate at the start of the segment, 0..=[`MAX_RATE`] per second.
    pub rate_per_s: f64,
    /// Rate at the end of the segment (a ramp), 0..=[`MAX_RATE`] per second.
    #[serde(default)]
    pub to_rate_per_s: Option<f64>,
}

/// Closed-loop callers: each sends a request, waits for its end, thinks, repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClosedLoop {
    /// Number of callers, 1..=[`MAX_COUNT`].
    pub callers: u32,
    /// Think time between a response and the next request.
    pub think: Dist,
}

crate::kind_enum! {
    tag = "kind";
    /// A duration distribution.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Dist {
        /// Always `ms`.
        Constant {
            /// The duration, 0..=[`MAX_TIME_MS`] ms.
            ms: f64,
        },
        /// Exponential with the given mean.
        Exponential {
            /// Mean, 0..=[`MAX_TIME_MS`] ms.
            mean_ms: f64,
        },
        /// Lognormal fitted to a median and a 99th percentile.
        Lognormal {
            /// Median, [`MIN_P50_MS`]..=[`MAX_TIME_MS`] ms.
            p50_ms: f64,
            /// 99th percentile, `p50_ms`..=[`MAX_TIME_MS`] ms.
            p99_ms: f64,
        },
    }
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
    /// Tier name for reports, 1..=[`MAX_TIER_NAME_CHARS`] characters.
    pub name: String,
    /// Instances (pods), 1..=[`MAX_INSTANCES`] ([`MAX_TOTAL_INSTANCES`] over all tiers).
    pub instances: u32,
    /// Requests each instance serves at once (threads), 1..=[`MAX_CONCURRENCY`].
    pub concurrency: u32,
    /// Requests each instance may hold waiting, 0..=[`MAX_COUNT`].
    pub queue_capacity: u32,
    /// A queued request older than this (0..=[`MAX_TIME_MS`] ms) is dropped when it reaches
    /// the head (503).
    #[serde(default)]
    pub queue_timeout_ms: Option<u64>,
    /// Local service time of one request (before calling the next tier).
    pub service: Dist,
    /// Service time × (1 + this × requests held by the instance when service starts), 0..=1.
    #[serde(default)]
    pub slowdown_per_in_flight: f64,
    /// Probability that a served request fails with `error` (a 500), 0..=1.
    #[serde(default)]
    pub error_rate: f64,
    /// How callers pick an instance of this tier.
    #[serde(default)]
    pub balancer: Balancer,
    /// How this tier calls the next one: required on every tier but the last, absent on
    /// it (in a scenario without `routes`).
    #[serde(default)]
    pub client: Option<Client>,
    /// Instead of `client`: the downstream pools this tier calls, one picked per call by
    /// weight, each with its own client policy; 0..=[`MAX_ROUTES`] routes. With routes
    /// anywhere the chain becomes a tree: every tier but the first is called by exactly
    /// one tier (through `client` from the tier before it, or through one route), and a
    /// tier with neither calls nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    /// Which of the routes' policies are one state shared by all of them (default: each
    /// route has its own budget and breaker).
    #[serde(default, skip_serializing_if = "RouteSharing::is_per_route")]
    pub route_sharing: RouteSharing,
}

/// One downstream route of a tier: the pool it calls, how often, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// The tier called: an index of a later tier.
    pub to: u32,
    /// Share of the calls, relative to the other routes' weights,
    /// [`MIN_ROUTE_WEIGHT`]..=[`MAX_ROUTE_WEIGHT`]. The route is picked once per call;
    /// its retries stay on it.
    pub weight: f64,
    /// The client policy of calls on this route.
    pub client: Client,
}

/// Whether a tier's routes share one retry budget and one breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteSharing {
    /// One retry budget for all routes (every route must then have the same `budget`):
    /// a slow route's retries spend what the fast route's would need.
    #[serde(default)]
    pub budget: bool,
    /// One breaker for all routes (every route must then have the same `breaker`).
    #[serde(default)]
    pub breaker: bool,
}

impl RouteSharing {
    /// True for the default: a budget and a breaker per route.
    pub fn is_per_route(&self) -> bool {
        !self.budget && !self.breaker
    }
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
    RetryOn::retried_by_default()
}

/// The client policy of a tier for its calls to the next tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Client {
    /// Per-attempt timeout, 1..=[`MAX_TIME_MS`] ms.
    pub timeout_ms: u64,
    /// Attempt timeout = min(timeout, what remains of this request's deadline), and the
    /// callee learns that deadline (it drops expired queued work).
    #[serde(default)]
    pub deadline_propagation: bool,
    /// Attempts per call including the first, 1..=[`MAX_ATTEMPTS`]
    /// ([`DEFAULT_MAX_ATTEMPTS`] when absent).
    #[serde(default = "default_max_attempts")]
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
    /// What each attempt costs (see [`crate::cost`]): a failed attempt is billed by the
    /// kind its caller saw (`error`, `overload`, `timeout`); one refused by the breaker,
    /// the bulkhead or the budget never left and is never billed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::Cost>,
}

crate::kind_enum! {
    tag = "kind";
    /// Backoff before retry number `n` (n = 1 for the first retry).
    #[derive(Debug, Clone, PartialEq, Default)]
    pub enum Backoff {
        /// Retry at once.
        #[default]
        None,
        /// `delays_ms[n - 1]`, the last one repeating.
        Fixed {
            /// The list, 1..=[`MAX_DELAYS`] entries of 0..=[`MAX_TIME_MS`] ms.
            delays_ms: Vec<u64>,
        },
        /// Always `ms`.
        Constant {
            /// The delay, 0..=[`MAX_TIME_MS`] ms.
            ms: u64,
        },
        /// `min(cap_ms, base_ms × multiplier^(n-1))`.
        Exponential {
            /// First delay, 0..=[`MAX_TIME_MS`] ms.
            base_ms: u64,
            /// Growth factor, 1..=[`MAX_MULTIPLIER`].
            multiplier: f64,
            /// Upper bound, `base_ms`..=[`MAX_TIME_MS`] ms.
            cap_ms: u64,
        },
    }
}

crate::kind_enum! {
    tag = "kind";
    /// Jitter applied to a backoff delay `d`.
    #[derive(Debug, Clone, PartialEq, Default)]
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

crate::kind_enum! {
    tag = "kind";
    /// A retry budget: what may veto a retry the policy would otherwise make.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub enum Budget {
        /// No budget.
        #[default]
        None,
        /// Classic: at most `percent`% of `capacity_per_s` retries in each aligned second.
        CapacityPercent {
            /// Percent, 0..=[`MAX_BUDGET_PERCENT`].
            percent: f64,
            /// Capacity the percentage applies to, 0..=[`MAX_RATE`] per second per scope.
            capacity_per_s: f64,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// Token bucket: each first attempt adds `percent`/100 token (up to `max_tokens`), a retry takes 1.
        TokenBucket {
            /// Percent of requests that may be retried, 0..=100.
            percent: f64,
            /// Bucket size (and initial content), 1..=[`MAX_TOKENS`] tokens.
            max_tokens: u32,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// gRPC retry throttling (gRFC A6).
        GrpcThrottle {
            /// Bucket size and initial tokens, 1..=[`MAX_GRPC_TOKENS`].
            max_tokens: u32,
            /// Tokens a success adds, [`MIN_GRPC_TOKEN_RATIO`]..=`max_tokens` (three decimals kept).
            token_ratio: f64,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// Finagle `RetryBudget` / tower `TpsBudget`: a leaky window of deposits.
        Windowed {
            /// Window, [`MIN_TTL_MS`]..=[`MAX_TTL_MS`] ms.
            ttl_ms: u64,
            /// Retries always allowed per second, 0..=[`MAX_COUNT`].
            min_retries_per_sec: u32,
            /// Percent of requests that may be retried, 0..=[`MAX_BUDGET_PERCENT`].
            percent_can_retry: f64,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// Seed 003: retries / requests ≤ ratio over a window, free below a minimum sample.
        Ratio {
            /// Allowed retries as a percent of requests, 0..=[`MAX_BUDGET_PERCENT`].
            ratio_percent: f64,
            /// Window, 0 (cumulative, as in the seed's code) or [`MIN_RATIO_WINDOW_MS`]..=[`MAX_TIME_MS`] ms.
            window_ms: u64,
            /// Below this many requests in the window every retry is allowed, 0..=[`MAX_MIN_REQUESTS`].
            min_requests: u32,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// AWS SDK standard retry mode quota.
        AwsQuota {
            /// Initial and maximum capacity, 1..=[`MAX_TOKENS`] ([`DEFAULT_AWS_TOKENS`] in the SDKs).
            #[serde(default = "aws_initial")]
            initial_tokens: u32,
            /// Cost of a retry, 0..=[`MAX_TOKENS`] ([`DEFAULT_AWS_RETRY_COST`]).
            #[serde(default = "aws_cost")]
            retry_cost: u32,
            /// Cost of a retry after a timeout, 0..=[`MAX_TOKENS`] ([`DEFAULT_AWS_TIMEOUT_COST`]).
            #[serde(default = "aws_timeout_cost")]
            timeout_cost: u32,
            /// Added by a success that needed no retry, 0..=[`MAX_TOKENS`]
            /// ([`DEFAULT_AWS_NO_RETRY_INCREMENT`]).
            #[serde(default = "aws_no_retry_increment")]
            no_retry_increment: u32,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
    }
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

crate::kind_enum! {
    tag = "kind";
    /// A circuit breaker on the calls to the next tier.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub enum Breaker {
        /// No breaker.
        #[default]
        None,
        /// Opens after `failures` consecutive failures.
        Consecutive {
            /// Threshold, 1..=[`MAX_COUNT`].
            failures: u32,
            /// Time open before half-open, ms.
            open_ms: u64,
            /// Uniform extra open time in `[0, open_jitter_ms]`.
            #[serde(default)]
            open_jitter_ms: u64,
            /// Trial calls in half-open, 1..=[`MAX_HALF_OPEN_CALLS`] ([`DEFAULT_HALF_OPEN_CALLS`]
            /// when absent); all must succeed to close.
            #[serde(default = "default_half_open_calls")]
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
            /// Calls (count) or seconds (time) in the window, 1..=[`MAX_COUNT_WINDOW`] /
            /// 1..=[`MAX_TIME_WINDOW_S`], and `window_size × breakers` ≤ [`MAX_WINDOW_CELLS`].
            window_size: u32,
            /// Calls needed before rates are judged, 1..=[`MAX_COUNT`].
            minimum_calls: u32,
            /// Open when failure rate ≥ this, 1..=100.
            failure_rate_percent: f64,
            /// Calls slower than this are slow.
            #[serde(default)]
            slow_call_ms: Option<u64>,
            /// Open when slow-call rate ≥ this, 1..=100 ([`DEFAULT_SLOW_CALL_RATE_PERCENT`] when absent).
            #[serde(default = "default_slow_call_rate")]
            slow_call_rate_percent: f64,
            /// Time open before half-open, ms.
            wait_open_ms: u64,
            /// Uniform extra open time in `[0, open_jitter_ms]` (seed 002: 500).
            #[serde(default)]
            open_jitter_ms: u64,
            /// Calls permitted in half-open, 1..=[`MAX_HALF_OPEN_CALLS`].
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
            /// Multiplier K, 1..=[`MAX_SRE_K`].
            k: f64,
            /// History window, [`MIN_SRE_WINDOW_MS`]..=[`MAX_TIME_MS`] ms.
            window_ms: u64,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
    }
}

/// A bulkhead: at most `max_concurrent` outstanding attempts per caller instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bulkhead {
    /// Outstanding attempts allowed, 1..=[`MAX_COUNT`].
    pub max_concurrent: u32,
    /// Calls that may wait for a slot, 0..=[`MAX_COUNT`].
    pub max_queue: u32,
    /// A call that waited longer is rejected when its turn comes.
    pub max_wait_ms: u64,
}

crate::kind_enum! {
    tag = "kind";
    /// What a fault does to the instances it covers.
    #[derive(Debug, Clone, PartialEq)]
    pub enum FaultEffect {
        /// Hard outage: requests fail at once with `error`; held work is lost.
        Outage,
        /// Nothing answers; held responses fail with `error` when the hang ends.
        Hang,
        /// A stop-the-world pause: work queues up and resumes when it ends.
        Pause,
        /// Service rate × factor ([`MIN_BROWNOUT_FACTOR`]..=1).
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
    /// by this factor (1 + this), 0..=[`MAX_AMPLIFICATION_TOLERANCE`].
    pub amplification_tolerance: f64,
    /// Recovered only if healthy from then to the end, and for at least this long, ms.
    pub hold_ms: u64,
    /// Sampling-noise allowance: a cohort is unhealthy only when its count exceeds the
    /// tolerated mean by more than this many standard deviations, 0..=[`MAX_Z_SCORE`].
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

// Defaults live here once: serde's field defaults above return named constants, and
// every kind of every enum has one default object in its `kinds()` list, which the
// editor offers (`present::defaults`) and the tests check for validity.

impl RetryOn {
    /// Every failure kind, in the order the editor lists them.
    pub fn kinds() -> Vec<RetryOn> {
        vec![
            RetryOn::Timeout,
            RetryOn::Overload,
            RetryOn::Error,
            RetryOn::BreakerRejected,
        ]
    }

    /// What a client retries when it does not say: every failure of the callee.
    pub fn retried_by_default() -> Vec<RetryOn> {
        vec![RetryOn::Timeout, RetryOn::Overload, RetryOn::Error]
    }
}

/// `kinds()` of the plain enumerations: every value, in the order the editor lists them.
macro_rules! kinds {
    ($($ty:ident: [$($v:ident),*];)*) => {
        $(impl $ty {
            /// Every value, in the order the editor lists them.
            pub fn kinds() -> Vec<$ty> {
                vec![$($ty::$v),*]
            }
        })*
    };
}

kinds! {
    Arrivals: [Poisson, Constant];
    Balancer: [RoundRobin, Random];
    Scope: [PerInstance, Shared];
    WindowKind: [Count, Time];
}

impl Default for Dist {
    /// A lognormal service time: median 12 ms, p99 40 ms.
    fn default() -> Self {
        Dist::Lognormal {
            p50_ms: 12.0,
            p99_ms: 40.0,
        }
    }
}

impl Dist {
    /// One default per distribution kind.
    pub fn kinds() -> Vec<Dist> {
        vec![
            Dist::Constant { ms: 10.0 },
            Dist::Exponential { mean_ms: 10.0 },
            Dist::default(),
        ]
    }
}

impl Backoff {
    /// One default per backoff kind.
    pub fn kinds() -> Vec<Backoff> {
        vec![
            Backoff::None,
            Backoff::Fixed {
                delays_ms: vec![200, 400, 800],
            },
            Backoff::Constant { ms: 100 },
            Backoff::Exponential {
                base_ms: 100,
                multiplier: 2.0,
                cap_ms: 2000,
            },
        ]
    }
}

impl Jitter {
    /// One default per jitter kind.
    pub fn kinds() -> Vec<Jitter> {
        vec![
            Jitter::None,
            Jitter::Full,
            Jitter::Equal,
            Jitter::Decorrelated,
            Jitter::Percent { percent: 20.0 },
        ]
    }
}

impl Budget {
    /// One default per retry-budget kind.
    pub fn kinds() -> Vec<Budget> {
        let scope = Scope::default();
        vec![
            Budget::None,
            Budget::CapacityPercent {
                percent: 20.0,
                capacity_per_s: 1000.0,
                scope,
            },
            Budget::TokenBucket {
                percent: 20.0,
                max_tokens: 10,
                scope,
            },
            Budget::GrpcThrottle {
                max_tokens: 10,
                token_ratio: 0.1,
                scope,
            },
            Budget::Windowed {
                ttl_ms: 10_000,
                min_retries_per_sec: 10,
                percent_can_retry: 20.0,
                scope,
            },
            Budget::Ratio {
                ratio_percent: 10.0,
                window_ms: 10_000,
                min_requests: 20,
                scope,
            },
            Budget::AwsQuota {
                initial_tokens: DEFAULT_AWS_TOKENS,
                retry_cost: DEFAULT_AWS_RETRY_COST,
                timeout_cost: DEFAULT_AWS_TIMEOUT_COST,
                no_retry_increment: DEFAULT_AWS_NO_RETRY_INCREMENT,
                scope,
            },
        ]
    }
}

impl Breaker {
    /// One default per breaker kind.
    pub fn kinds() -> Vec<Breaker> {
        let scope = Scope::default();
        vec![
            Breaker::None,
            Breaker::Consecutive {
                failures: 5,
                open_ms: 5000,
                open_jitter_ms: 0,
                half_open_calls: DEFAULT_HALF_OPEN_CALLS,
                scope,
            },
            Breaker::Resilience4j {
                window: WindowKind::default(),
                window_size: 100,
                minimum_calls: 20,
                failure_rate_percent: 50.0,
                slow_call_ms: None,
                slow_call_rate_percent: DEFAULT_SLOW_CALL_RATE_PERCENT,
                wait_open_ms: 10_000,
                open_jitter_ms: 0,
                half_open_calls: 10,
                ramp_stage_ms: None,
                scope,
            },
            Breaker::SreAdaptive {
                k: 2.0,
                window_ms: 120_000,
                scope,
            },
        ]
    }
}

impl FaultEffect {
    /// One default per fault effect kind.
    pub fn kinds() -> Vec<FaultEffect> {
        vec![
            FaultEffect::Outage,
            FaultEffect::Hang,
            FaultEffect::Pause,
            FaultEffect::Brownout { factor: 0.5 },
            FaultEffect::ErrorRate { rate: 0.5 },
            FaultEffect::Latency { added_ms: 200.0 },
        ]
    }
}

impl Default for Client {
    /// The policy a tier gets when it starts calling a next tier: 500 ms timeout, three
    /// attempts, exponential backoff with full jitter, no budget and no breaker.
    fn default() -> Self {
        Client {
            timeout_ms: 500,
            deadline_propagation: false,
            max_attempts: 3,
            backoff: Backoff::Exponential {
                base_ms: 100,
                multiplier: 2.0,
                cap_ms: 2000,
            },
            jitter: Jitter::Full,
            retry_on: RetryOn::retried_by_default(),
            idempotent_only: false,
            no_retry_while_breaker_open: false,
            budget: Budget::None,
            breaker: Breaker::None,
            bulkhead: None,
            cost: None,
        }
    }
}

impl Default for Route {
    /// A new route: to tier 1, weight 1, the default client policy.
    fn default() -> Self {
        Route {
            to: 1,
            weight: 1.0,
            client: Client::default(),
        }
    }
}

impl Default for Tier {
    /// A new tier: the last of a chain (no client), 4 instances of 10 threads.
    fn default() -> Self {
        Tier {
            name: "service".into(),
            instances: 4,
            concurrency: 10,
            queue_capacity: 100,
            queue_timeout_ms: None,
            service: Dist::default(),
            slowdown_per_in_flight: 0.0,
            error_rate: 0.0,
            balancer: Balancer::default(),
            client: None,
            routes: Vec::new(),
            route_sharing: RouteSharing::default(),
        }
    }
}

impl Default for Bulkhead {
    /// 100 outstanding attempts, no waiting.
    fn default() -> Self {
        Bulkhead {
            max_concurrent: 100,
            max_queue: 0,
            max_wait_ms: 0,
        }
    }
}

impl Default for ClosedLoop {
    /// 100 callers thinking 100 ms on average.
    fn default() -> Self {
        ClosedLoop {
            callers: 100,
            think: Dist::Exponential { mean_ms: 100.0 },
        }
    }
}

impl Default for RateSegment {
    /// A spike to 2000/s from 20 s to 30 s.
    fn default() -> Self {
        RateSegment {
            start_ms: 20_000,
            end_ms: 30_000,
            rate_per_s: 2000.0,
            to_rate_per_s: None,
        }
    }
}

impl Default for Fault {
    /// A 2 s stop-the-world pause of a whole tier at 10 s (the editor sets tier and start).
    fn default() -> Self {
        Fault {
            tier: 0,
            start_ms: 10_000,
            duration_ms: 2_000,
            instances: None,
            effect: FaultEffect::Pause,
        }
    }
}

impl Default for Load {
    /// 1000 Poisson arrivals per second, nothing else.
    fn default() -> Self {
        Load {
            arrivals: Arrivals::default(),
            rate_per_s: 1000.0,
            schedule: vec![],
            closed_loop: None,
            deadline_ms: None,
            idempotent_fraction: default_idempotent_fraction(),
        }
    }
}

impl Default for Scenario {
    /// A small complete scenario: a gateway calling a service that pauses at 20 s.
    fn default() -> Self {
        Scenario {
            name: "My cluster".into(),
            description: String::new(),
            seed: 1,
            duration_ms: 60_000,
            bucket_ms: DEFAULT_BUCKET_MS,
            max_events: DEFAULT_MAX_EVENTS,
            load: Load::default(),
            tiers: vec![
                Tier {
                    name: "gateway".into(),
                    instances: 4,
                    concurrency: 1000,
                    queue_capacity: 1000,
                    service: Dist::Constant { ms: 0.2 },
                    client: Some(Client::default()),
                    ..Tier::default()
                },
                Tier::default(),
            ],
            faults: vec![Fault {
                tier: 1,
                start_ms: 20_000,
                ..Fault::default()
            }],
            steady: Steady::default(),
        }
    }
}

fn ms(p: &mut Problems, field: &str, v: u64) {
    p.range(field, v, 0, MAX_TIME_MS);
}

fn ms_f(p: &mut Problems, field: &str, v: f64) {
    p.range_f64(field, v, 0.0, MAX_TIME_MS as f64);
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

    fn problems(&self, p: &mut Problems) {
        match *self {
            Dist::Constant { ms } => ms_f(p, "ms", ms),
            Dist::Exponential { mean_ms } => ms_f(p, "mean_ms", mean_ms),
            Dist::Lognormal { p50_ms, p99_ms } => {
                p.range_f64("p50_ms", p50_ms, MIN_P50_MS, MAX_TIME_MS as f64);
                p.range_f64("p99_ms", p99_ms, p50_ms, MAX_TIME_MS as f64);
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

    fn problems(&self, p: &mut Problems) {
        match *self {
            Budget::None => {}
            Budget::CapacityPercent {
                percent,
                capacity_per_s,
                ..
            } => {
                p.range_f64("percent", percent, 0.0, MAX_BUDGET_PERCENT);
                p.range_f64("capacity_per_s", capacity_per_s, 0.0, MAX_RATE);
            }
            Budget::TokenBucket {
                percent,
                max_tokens,
                ..
            } => {
                p.range_f64("percent", percent, 0.0, 100.0);
                p.range("max_tokens", max_tokens, 1, MAX_TOKENS);
            }
            Budget::GrpcThrottle {
                max_tokens,
                token_ratio,
                ..
            } => {
                p.range("max_tokens", max_tokens, 1, MAX_GRPC_TOKENS);
                p.range_f64(
                    "token_ratio",
                    token_ratio,
                    MIN_GRPC_TOKEN_RATIO,
                    max_tokens as f64,
                );
            }
            Budget::Windowed {
                ttl_ms,
                min_retries_per_sec,
                percent_can_retry,
                ..
            } => {
                p.range("ttl_ms", ttl_ms, MIN_TTL_MS, MAX_TTL_MS);
                p.range("min_retries_per_sec", min_retries_per_sec, 0, MAX_COUNT);
                p.range_f64(
                    "percent_can_retry",
                    percent_can_retry,
                    0.0,
                    MAX_BUDGET_PERCENT,
                );
            }
            Budget::Ratio {
                ratio_percent,
                window_ms,
                min_requests,
                ..
            } => {
                p.range_f64("ratio_percent", ratio_percent, 0.0, MAX_BUDGET_PERCENT);
                if window_ms != 0 {
                    p.range("window_ms", window_ms, MIN_RATIO_WINDOW_MS, MAX_TIME_MS);
                }
                p.range("min_requests", min_requests, 0, MAX_MIN_REQUESTS);
            }
            Budget::AwsQuota {
                initial_tokens,
                retry_cost,
                timeout_cost,
                no_retry_increment,
                ..
            } => {
                p.range("initial_tokens", initial_tokens, 1, MAX_TOKENS);
                p.range("retry_cost", retry_cost, 0, MAX_TOKENS);
                p.range("timeout_cost", timeout_cost, 0, MAX_TOKENS);
                p.range("no_retry_increment", no_retry_increment, 0, MAX_TOKENS);
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

    fn problems(&self, p: &mut Problems, instances: u32) {
        match *self {
            Breaker::None => {}
            Breaker::Consecutive {
                failures,
                open_ms,
                open_jitter_ms,
                half_open_calls,
                ..
            } => {
                p.range("failures", failures, 1, MAX_COUNT);
                ms(p, "open_ms", open_ms);
                ms(p, "open_jitter_ms", open_jitter_ms);
                p.range("half_open_calls", half_open_calls, 1, MAX_HALF_OPEN_CALLS);
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
                    WindowKind::Count => MAX_COUNT_WINDOW,
                    WindowKind::Time => MAX_TIME_WINDOW_S,
                };
                p.range("window_size", window_size, 1, max);
                // Memory: one ring of window_size cells per breaker.
                let cells = window_size as u64 * scope.slots(instances) as u64;
                if cells > MAX_WINDOW_CELLS {
                    p.push(ValidationError::new(
                        "window_size",
                        window_size,
                        format!("window_size × breakers ≤ {MAX_WINDOW_CELLS} (use a smaller window or a shared scope)"),
                    ));
                }
                p.range("minimum_calls", minimum_calls, 1, MAX_COUNT);
                p.range_f64("failure_rate_percent", failure_rate_percent, 1.0, 100.0);
                if let Some(s) = slow_call_ms {
                    p.range("slow_call_ms", s, 1, MAX_TIME_MS);
                }
                p.range_f64("slow_call_rate_percent", slow_call_rate_percent, 1.0, 100.0);
                ms(p, "wait_open_ms", wait_open_ms);
                ms(p, "open_jitter_ms", open_jitter_ms);
                p.range("half_open_calls", half_open_calls, 1, MAX_HALF_OPEN_CALLS);
                if let Some(r) = ramp_stage_ms {
                    p.range("ramp_stage_ms", r, 1, MAX_TIME_MS);
                }
            }
            Breaker::SreAdaptive { k, window_ms, .. } => {
                p.range_f64("k", k, 1.0, MAX_SRE_K);
                p.range("window_ms", window_ms, MIN_SRE_WINDOW_MS, MAX_TIME_MS);
            }
        }
    }
}

impl Backoff {
    fn problems(&self, p: &mut Problems) {
        match self {
            Backoff::None => {}
            Backoff::Fixed { delays_ms } => {
                p.len("delays_ms", delays_ms.len(), 1, MAX_DELAYS);
                for (i, d) in delays_ms.iter().enumerate() {
                    ms(p, &format!("delays_ms[{i}]"), *d);
                }
            }
            Backoff::Constant { ms: d } => ms(p, "ms", *d),
            Backoff::Exponential {
                base_ms,
                multiplier,
                cap_ms,
            } => {
                ms(p, "base_ms", *base_ms);
                p.range_f64("multiplier", *multiplier, 1.0, MAX_MULTIPLIER);
                p.range("cap_ms", *cap_ms, *base_ms, MAX_TIME_MS);
            }
        }
    }
}

impl Client {
    fn problems(&self, p: &mut Problems, instances: u32) {
        p.range("timeout_ms", self.timeout_ms, 1, MAX_TIME_MS);
        p.range("max_attempts", self.max_attempts, 1, MAX_ATTEMPTS);
        p.at("backoff", |p| self.backoff.problems(p));
        if let Jitter::Percent { percent } = self.jitter {
            p.range_f64("jitter.percent", percent, 0.0, 100.0);
        }
        p.len("retry_on", self.retry_on.len(), 0, RetryOn::kinds().len());
        p.at("budget", |p| self.budget.problems(p));
        p.at("breaker", |p| self.breaker.problems(p, instances));
        if let Some(b) = &self.bulkhead {
            p.at("bulkhead", |p| {
                p.range("max_concurrent", b.max_concurrent, 1, MAX_COUNT);
                p.range("max_queue", b.max_queue, 0, MAX_COUNT);
                ms(p, "max_wait_ms", b.max_wait_ms);
            });
        }
        if let Some(c) = &self.cost {
            p.at("cost", |p| c.problems(p));
        }
    }
}

impl Tier {
    /// The tiers this tier calls (`tiers` is the chain's length, `k` this tier's index).
    pub fn callees(&self, k: usize) -> Vec<usize> {
        if self.client.is_some() {
            vec![k + 1]
        } else {
            self.routes.iter().map(|r| r.to as usize).collect()
        }
    }

    fn route_problems(&self, p: &mut Problems, k: usize, n_tiers: usize) {
        if self.client.is_some() {
            p.push(ValidationError::new(
                "routes",
                format!("{} routes", self.routes.len()),
                "absent when `client` is set (a tier calls the next tier or its routes)",
            ));
        }
        p.len("routes", self.routes.len(), 0, MAX_ROUTES);
        for (r, route) in self.routes.iter().enumerate() {
            p.at(&format!("routes[{r}]"), |p| {
                if route.to as usize <= k || route.to as usize >= n_tiers {
                    p.push(ValidationError::new(
                        "to",
                        route.to,
                        format!("{}..={} (a later tier)", k + 1, n_tiers.saturating_sub(1)),
                    ));
                }
                p.range_f64("weight", route.weight, MIN_ROUTE_WEIGHT, MAX_ROUTE_WEIGHT);
                p.at("client", |p| route.client.problems(p, self.instances));
                let first = &self.routes[0].client;
                if self.route_sharing.budget && route.client.budget != first.budget {
                    p.push(ValidationError::new(
                        "client.budget",
                        "a different budget",
                        "the budget of routes[0] (route_sharing.budget shares one)",
                    ));
                }
                if self.route_sharing.breaker && route.client.breaker != first.breaker {
                    p.push(ValidationError::new(
                        "client.breaker",
                        "a different breaker",
                        "the breaker of routes[0] (route_sharing.breaker shares one)",
                    ));
                }
            });
        }
    }

    fn problems(&self, p: &mut Problems, last: bool) {
        p.name("name", &self.name, MAX_TIER_NAME_CHARS);
        p.range("instances", self.instances, 1, MAX_INSTANCES);
        p.range("concurrency", self.concurrency, 1, MAX_CONCURRENCY);
        p.range("queue_capacity", self.queue_capacity, 0, MAX_COUNT);
        if let Some(q) = self.queue_timeout_ms {
            ms(p, "queue_timeout_ms", q);
        }
        p.at("service", |p| self.service.problems(p));
        p.range_f64(
            "slowdown_per_in_flight",
            self.slowdown_per_in_flight,
            0.0,
            1.0,
        );
        p.range_f64("error_rate", self.error_rate, 0.0, 1.0);
        match (&self.client, last) {
            (Some(_), true) => p.push(ValidationError::new(
                "client",
                "present",
                "absent on the last tier (it calls nothing)",
            )),
            (None, false) => p.push(ValidationError::new(
                "client",
                "absent",
                "present on every tier but the last",
            )),
            (Some(c), false) => p.at("client", |p| c.problems(p, self.instances)),
            (None, true) => {}
        }
    }
}

impl Scenario {
    /// Every problem of the scenario, each naming its field by its full path
    /// (`tiers[1].client.budget.percent`), its value and the allowed range, in field
    /// order; empty when the scenario is valid.
    pub fn problems(&self) -> Vec<ValidationError> {
        let mut p = Problems::new();
        p.name("name", &self.name, MAX_SCENARIO_NAME_CHARS);
        let chars = self.description.chars().count();
        if chars > MAX_DESCRIPTION_CHARS {
            p.push(ValidationError::new(
                "description",
                format!("{chars} characters"),
                format!("0..={MAX_DESCRIPTION_CHARS} characters"),
            ));
        }
        p.range("duration_ms", self.duration_ms, 1, MAX_DURATION_MS);
        p.range("bucket_ms", self.bucket_ms, MIN_BUCKET_MS, MAX_TIME_MS);
        // Only a bucket width in range can be divided by.
        if self.bucket_ms >= MIN_BUCKET_MS
            && self.duration_ms.div_ceil(self.bucket_ms) > MAX_BUCKETS
        {
            p.push(ValidationError::new(
                "bucket_ms",
                self.bucket_ms,
                format!("duration_ms / bucket_ms ≤ {MAX_BUCKETS} buckets"),
            ));
        }
        p.range("max_events", self.max_events, 1, MAX_EVENTS_LIMIT);
        p.at("load", |p| self.load.problems(p));
        p.len("tiers", self.tiers.len(), 1, MAX_TIERS);
        let n = self.tiers.len();
        if self.tiers.iter().all(|t| t.routes.is_empty()) {
            // A chain: tier i calls tier i + 1 through its client.
            for (i, t) in self.tiers.iter().enumerate() {
                p.at(&format!("tiers[{i}]"), |p| t.problems(p, i + 1 == n));
            }
        } else {
            // A tree: each tier's client or routes name its callees.
            let mut callers = vec![0usize; n];
            for (i, t) in self.tiers.iter().enumerate() {
                p.at(&format!("tiers[{i}]"), |p| {
                    // A leaf needs no client; the last tier may have none.
                    t.problems(p, i + 1 == n || t.client.is_none());
                    if !t.routes.is_empty() {
                        t.route_problems(p, i, n);
                    }
                });
                for c in t.callees(i) {
                    if let Some(x) = callers.get_mut(c) {
                        *x += 1;
                    }
                }
            }
            for (j, &c) in callers.iter().enumerate().skip(1) {
                if c != 1 {
                    p.push(ValidationError::new(
                        format!("tiers[{j}]"),
                        format!("called by {c} tiers"),
                        "called by exactly one tier (a `client` on the tier before it, or one route)",
                    ));
                }
            }
        }
        let total: u64 = self.tiers.iter().map(|t| u64::from(t.instances)).sum();
        if total > MAX_TOTAL_INSTANCES {
            p.push(ValidationError::new(
                "tiers",
                format!("{total} instances"),
                format!("at most {MAX_TOTAL_INSTANCES} instances over all tiers"),
            ));
        }
        p.len("faults", self.faults.len(), 0, MAX_FAULTS);
        for (i, f) in self.faults.iter().enumerate() {
            p.at(&format!("faults[{i}]"), |p| self.fault_problems(p, f));
        }
        let s = &self.steady;
        p.at("steady", |p| {
            ms(p, "warmup_ms", s.warmup_ms);
            p.range_f64("success_tolerance", s.success_tolerance, 0.0, 1.0);
            p.range_f64(
                "amplification_tolerance",
                s.amplification_tolerance,
                0.0,
                MAX_AMPLIFICATION_TOLERANCE,
            );
            ms(p, "hold_ms", s.hold_ms);
            p.range_f64("z_score", s.z_score, 0.0, MAX_Z_SCORE);
            ms(p, "late_ms", s.late_ms);
        });
        p.into_vec()
    }

    /// The first problem, if any: what the engine refuses to run.
    pub fn validate(&self) -> Result<(), ValidationError> {
        self.problems().into_iter().next().map_or(Ok(()), Err)
    }

    fn fault_problems(&self, p: &mut Problems, f: &Fault) {
        // The tier must exist before its instance count can bound `instances`.
        let tier = self.tiers.get(f.tier as usize);
        if tier.is_none() {
            p.push(ValidationError::new(
                "tier",
                f.tier,
                format!(
                    "0..={} (an index into tiers)",
                    self.tiers.len().saturating_sub(1)
                ),
            ));
        }
        p.range("start_ms", f.start_ms, 0, MAX_DURATION_MS);
        p.range("duration_ms", f.duration_ms, 0, MAX_DURATION_MS);
        if let (Some(n), Some(t)) = (f.instances, tier) {
            p.range("instances", n, 1, t.instances);
        }
        p.at("effect", |p| match f.effect {
            FaultEffect::Brownout { factor } => {
                p.range_f64("factor", factor, MIN_BROWNOUT_FACTOR, 1.0)
            }
            FaultEffect::ErrorRate { rate } => p.range_f64("rate", rate, 0.0, 1.0),
            FaultEffect::Latency { added_ms } => ms_f(p, "added_ms", added_ms),
            FaultEffect::Outage | FaultEffect::Hang | FaultEffect::Pause => {}
        });
    }
}

impl Load {
    fn problems(&self, p: &mut Problems) {
        p.range_f64("rate_per_s", self.rate_per_s, 0.0, MAX_RATE);
        p.len("schedule", self.schedule.len(), 0, MAX_SEGMENTS);
        for (i, s) in self.schedule.iter().enumerate() {
            p.at(&format!("schedule[{i}]"), |p| {
                p.range("start_ms", s.start_ms, 0, MAX_DURATION_MS);
                p.range("end_ms", s.end_ms, s.start_ms, MAX_DURATION_MS);
                p.range_f64("rate_per_s", s.rate_per_s, 0.0, MAX_RATE);
                if let Some(r) = s.to_rate_per_s {
                    p.range_f64("to_rate_per_s", r, 0.0, MAX_RATE);
                }
            });
        }
        if let Some(c) = &self.closed_loop {
            p.at("closed_loop", |p| {
                p.range("callers", c.callers, 1, MAX_COUNT);
                p.at("think", |p| c.think.problems(p));
            });
        }
        if let Some(d) = self.deadline_ms {
            p.range("deadline_ms", d, 1, MAX_TIME_MS);
        }
        p.range_f64("idempotent_fraction", self.idempotent_fraction, 0.0, 1.0);
    }
}

impl Scenario {
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
