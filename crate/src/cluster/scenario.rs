//! The cluster scenario: load, a chain of tiers with their client policies, and faults.
//!
//! Units: every `_ms` field is milliseconds of simulated time; the engine itself runs in
//! integer microseconds. Every field is range-checked by [`Scenario::validate`] so that
//! no input can panic, overflow or run away.
//!
//! This file holds the types; beside it, `bounds.rs` (the named limits), `kinds.rs`
//! (each type's default and each enum's kinds) and `problems.rs` (the checks).

use super::libraries;
use serde::{Deserialize, Serialize};

mod bounds;
mod kinds;
mod problems;

pub use bounds::*;

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
    envoy_budget_percent: f64 = DEFAULT_ENVOY_BUDGET_PERCENT;
    envoy_min_retry_concurrency: u32 = DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY;
    envoy_max_retries: u32 = DEFAULT_ENVOY_MAX_RETRIES;
    polly_failure_ratio: f64 = DEFAULT_POLLY_FAILURE_RATIO;
    polly_minimum_throughput: u32 = DEFAULT_POLLY_MINIMUM_THROUGHPUT;
    polly_sampling_ms: u64 = DEFAULT_POLLY_SAMPLING_MS;
    polly_break_ms: u64 = DEFAULT_POLLY_BREAK_MS;
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
    /// Jitter of `constant` arrivals, ms (0, none, when absent): each arrival moves from
    /// its slot by a uniform draw in `[-jitter_ms, +jitter_ms)` from the run's random
    /// stream, the noise evenly spaced load lacks (with constant arrivals and constant
    /// service every seed is otherwise the same run). At most [`MAX_JITTER_GAP_SHARE`] of
    /// the gap between arrivals at the load's highest rate, so arrivals keep their order;
    /// 0 with `poisson` arrivals. Left out of the document when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub jitter_ms: f64,
}

/// True for 0: an amount left out of the document while it is off, so every scenario
/// written before it keeps its bytes.
fn is_zero(v: &f64) -> bool {
    *v == 0.0
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

crate::validate::kind_enum! {
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
    /// The network between the caller and the callee: each attempt takes a delay to reach
    /// the callee and its answer a delay to come back (absent: both in zero time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Network>,
}

/// The network delay on both legs of a hop, one draw per leg from the run's random stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// Caller to callee: drawn when an attempt is sent; it reaches the callee that much later.
    pub request: Dist,
    /// Callee to caller: drawn when the callee answers (success, failure or refusal); the
    /// caller learns the outcome that much later.
    pub response: Dist,
}

crate::validate::kind_enum! {
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
        /// Resilience4j's `IntervalFunction` (its own randomization: jitter must be none).
        Resilience4j(libraries::Resilience4jBackoff),
        /// gRPC's retry policy backoff, ±20% (or full) jitter built in.
        Grpc(libraries::GrpcBackoff),
        /// Envoy's jittered exponential back-off.
        Envoy(libraries::EnvoyBackoff),
        /// Polly v8's retry delays (`UseJitter` built in).
        Polly(libraries::PollyBackoff),
        /// AWS SDK retry modes (full jitter built in).
        Aws(libraries::AwsBackoff),
        /// Python tenacity's `wait_exponential`, `wait_random_exponential`,
        /// `wait_exponential_jitter`.
        Tenacity(libraries::TenacityBackoff),
        /// Go cenkalti/backoff's `ExponentialBackOff`.
        CenkaltiBackoff(libraries::CenkaltiBackoff),
        /// failsafe-go's `RetryPolicy` delays.
        FailsafeGo(libraries::FailsafeBackoff),
        /// Spring Cloud Gateway's `Retry` filter backoff.
        SpringCloudGateway(libraries::GatewayBackoff),
        /// An exponentially distributed delay of mean `mean_ms` before every retry, the
        /// same for each (memoryless: the retry model of continuous-time Markov chain
        /// analyses, where retries leave an orbit at a constant rate). Random by itself,
        /// so jitter must be none.
        ExponentialDistributed {
            /// Mean delay, 0..=[`MAX_TIME_MS`] ms.
            mean_ms: f64,
        },
    }
}

impl Backoff {
    /// Whether this backoff randomizes by its library's own rule (then jitter must be none).
    pub fn is_library(&self) -> bool {
        !matches!(
            self,
            Backoff::None
                | Backoff::Fixed { .. }
                | Backoff::Constant { .. }
                | Backoff::Exponential { .. }
                | Backoff::ExponentialDistributed { .. }
        )
    }

    /// Whether this backoff draws its own random delay (a library's rule, or an
    /// exponentially distributed delay): then jitter must be none.
    pub fn randomizes(&self) -> bool {
        self.is_library() || matches!(self, Backoff::ExponentialDistributed { .. })
    }
}

crate::validate::kind_enum! {
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

crate::validate::kind_enum! {
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
        /// gRPC retry throttling (gRFC A6; grpc-go `clientconn.go` `retryThrottler`, grpc-js
        /// `retrying-call.ts` `RetryThrottler`): each failure of a kind in `retry_on` takes
        /// a token (not below 0), each success adds `token_ratio` (up to `max_tokens`), and
        /// a retry is refused while tokens ≤ `max_tokens` / 2. The check follows the drain,
        /// before the attempts check, as grpc-go and grpc-java make it; grpc-js makes it
        /// when the backoff ends instead.
        GrpcThrottle {
            /// Bucket size and initial tokens, 1..=[`MAX_GRPC_TOKENS`].
            max_tokens: u32,
            /// Tokens a success adds, [`MIN_GRPC_TOKEN_RATIO`]..=`max_tokens` (three decimals kept).
            token_ratio: f64,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// Finagle `RetryBudget` (finagle-core `service/RetryBudget.scala`): each call
        /// deposits 1000, a retry withdraws 1000 / (`percent_can_retry` / 100) from the
        /// deposits of the last `ttl_ms` (util's `WindowedAdder`) plus a reserve of
        /// `min_retries_per_sec` × ttl seconds retries. (tower's `TpsBudget` has the same
        /// settings but deposits 1 and withdraws ⌊1 / fraction⌋ for fractions up to 1, so
        /// its 30% allows a third: not this kind.)
        ///
        /// Linkerd's ServiceProfile `retryBudget` (`retryRatio`, `minRetriesPerSecond`,
        /// `ttl`) is not this kind either: linkerd2-proxy 29637b64 builds tower 0.5's
        /// `TpsBudget` from it (`linkerd/service-profiles/src/proto.rs`
        /// `convert_retry_budget`), so ⌊1 / `retryRatio`⌋ applies as above, its window is
        /// ten slices summed with the current one (`tps_budget.rs` `sum`), and, above all,
        /// it deposits once per *response not retried* (`linkerd/app/outbound/src/http/retry.rs`:
        /// `deposit()` only when the response is a success or not retryable), not per call:
        /// during an outage where every answer is a retryable failure nothing is
        /// deposited and only the reserve of `minRetriesPerSecond` × `ttl` remains, where
        /// Finagle still earns `percent_can_retry` of the calls. A ServiceProfile also
        /// has no per-request retry limit and no backoff; the newer `retry.linkerd.io/*`
        /// route annotations (policy-controller of linkerd2 b24cd405,
        /// `k8s/index/src/outbound/index/http.rs` `parse_http_retry` and
        /// `grpc/src/outbound/http.rs` `convert_retry`) have no budget at all: `limit`
        /// retries (default 1), waits of min(25 ms × 2ⁿ, 250 ms) plus up to 100% jitter
        /// (capped at 250 ms; linkerd2-proxy `linkerd/exp-backoff`), and a per-try
        /// `timeout`.
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
        /// A token bucket that successes fill (Brooker's adaptive retries as his post
        /// states them): each successful attempt adds `percent`/100 token (up to
        /// `max_tokens`, its initial content), a retry takes 1 whole token.
        SuccessBucket {
            /// Percent of a token a success adds, 0..=100.
            percent: f64,
            /// Bucket size (and initial content), 1..=[`MAX_TOKENS`] tokens.
            max_tokens: u32,
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
        /// Envoy's retry budget (`source/common/upstream/resource_manager_impl.h`
        /// `RetryBudgetImpl`, with `source/common/router/retry_state_impl.cc`; Envoy
        /// 1.2x–1.3x): a concurrency limit, not a rate. A retry may be scheduled while the
        /// retries outstanding are fewer than max(⌊`budget_percent` / 100 × attempts in
        /// flight⌋, `min_retry_concurrency`); a retry is outstanding from when it is
        /// scheduled, its backoff wait included, until its answer. Pending requests
        /// (waiting for a connection) are not modelled, so only attempts in flight count.
        EnvoyRetryBudget {
            /// Percent of the attempts in flight, 0..=100 ([`DEFAULT_ENVOY_BUDGET_PERCENT`]).
            #[serde(default = "envoy_budget_percent")]
            budget_percent: f64,
            /// Retries always allowed at once, 0..=[`MAX_COUNT`]
            /// ([`DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY`]).
            #[serde(default = "envoy_min_retry_concurrency")]
            min_retry_concurrency: u32,
            /// Scope (an Envoy's limits are per cluster of that Envoy: per instance).
            #[serde(default)]
            scope: Scope,
        },
        /// Envoy's `max_retries` circuit breaker (`resource_manager_impl.h`, used when
        /// no retry budget is set; default 3): at most this many retries outstanding at
        /// once, counted as for the retry budget. Over it the retry is refused and the
        /// failure returned (`upstream_rq_retry_overflow`).
        EnvoyMaxRetries {
            /// Retries outstanding at once, 0..=[`MAX_COUNT`] ([`DEFAULT_ENVOY_MAX_RETRIES`]).
            #[serde(default = "envoy_max_retries")]
            max_retries: u32,
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

crate::validate::kind_enum! {
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
        /// Resilience4j `CircuitBreaker` (resilience4j-circuitbreaker
        /// `internal/CircuitBreakerStateMachine.java` and `CircuitBreakerMetrics.java`,
        /// 2.x): a count or time window judged once it holds `minimum_calls` (capped at
        /// the window for a count window), opening when the failure or slow-call rate,
        /// a float, reaches its threshold; every answer is recorded in the state current
        /// when it arrives; half-open grants exactly `half_open_calls` permits and judges
        /// them as a fresh count window from min(`minimum_calls`, `half_open_calls`)
        /// answers. With optional gradual recovery (seed 004's own code, not the library's).
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
            /// `automaticTransitionFromOpenToHalfOpenEnabled`: half-open as soon as the
            /// wait ends (false, the default: at the first call after it).
            #[serde(default)]
            automatic_half_open: bool,
            /// Scope.
            #[serde(default)]
            scope: Scope,
        },
        /// A breaker of retries only (Brooker's retry_sim): first attempts always go
        /// through; a failed attempt is retried only while the failed attempts are at
        /// most `failure_percent`% of the calls (first attempts) over the window.
        RetryOnly {
            /// The threshold, failed attempts per 100 calls, 0..=[`MAX_RETRY_FAILURE_PERCENT`]
            /// (retries fail too, so it can exceed 100).
            failure_percent: f64,
            /// Window, 0 (cumulative, as in Brooker's code) or
            /// [`MIN_RATIO_WINDOW_MS`]..=[`MAX_TIME_MS`] ms.
            window_ms: u64,
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
        /// Polly v8's circuit breaker (Polly.Core `CircuitBreaker/Controller/
        /// AdvancedCircuitBehavior.cs`, `CircuitStateController.cs`,
        /// `Health/RollingHealthMetrics.cs`; Polly 8.x): the failure ratio of the last
        /// `sampling_duration_ms`, kept in 10 sub-windows that start at an access, judged
        /// at each failure once `minimum_throughput` calls are in it; open for
        /// `break_duration_ms`, then one probe at the first call after it: its success
        /// closes (and forgets the history), its failure opens again. An answer is
        /// judged in the state current when it arrives.
        Polly {
            /// `FailureRatio`: break at this share of failures or more, 0..=1
            /// ([`DEFAULT_POLLY_FAILURE_RATIO`]).
            #[serde(default = "polly_failure_ratio")]
            failure_ratio: f64,
            /// `MinimumThroughput`: calls needed in the window,
            /// [`MIN_POLLY_THROUGHPUT`]..=[`MAX_COUNT`] ([`DEFAULT_POLLY_MINIMUM_THROUGHPUT`]).
            #[serde(default = "polly_minimum_throughput")]
            minimum_throughput: u32,
            /// `SamplingDuration`, [`MIN_POLLY_DURATION_MS`]..=[`MAX_POLLY_DURATION_MS`] ms
            /// ([`DEFAULT_POLLY_SAMPLING_MS`]).
            #[serde(default = "polly_sampling_ms")]
            sampling_duration_ms: u64,
            /// `BreakDuration`, [`MIN_POLLY_DURATION_MS`]..=[`MAX_POLLY_DURATION_MS`] ms
            /// ([`DEFAULT_POLLY_BREAK_MS`]).
            #[serde(default = "polly_break_ms")]
            break_duration_ms: u64,
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

crate::validate::kind_enum! {
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
        /// Added service latency for the work whose service *starts* during the window.
        Latency {
            /// Extra ms, 0..=[`MAX_TIME_MS`].
            added_ms: f64,
        },
        /// Added service latency for the work the instance *admits* during the window
        /// (a request that arrives and starts or queues in `[start, end)`): decided at
        /// admission and added whenever its service starts, so a request queued a
        /// microsecond before the end is slowed even if it starts after the window, and
        /// one admitted at the end or later is not.
        LatencyAdmitted {
            /// Extra ms, 0..=[`MAX_TIME_MS`].
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
    /// Draining (false when absent, and then left out of the document): at the end no new
    /// request starts and the simulation goes on until nothing is in flight, at most
    /// [`DRAIN_LIMIT_MS`](crate::cluster::DRAIN_LIMIT_MS) longer; what ends then is counted
    /// apart (the summary's `drained_successes`, `drained_failures` and `drain_ms`, each
    /// tier's `drained`), and the success ratio counts every request by its own
    /// outcome. Nothing before the end changes (the verdict judges the run up to its end).
    #[serde(skip_serializing_if = "is_false")]
    pub drain: bool,
}

/// True for false: a switch left out of the document while it is off.
fn is_false(v: &bool) -> bool {
    !*v
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
            drain: false,
        }
    }
}

// What the engine reads off the scenario besides its fields.

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
            | Budget::SuccessBucket { scope, .. }
            | Budget::AwsQuota { scope, .. }
            | Budget::EnvoyRetryBudget { scope, .. }
            | Budget::EnvoyMaxRetries { scope, .. } => *scope,
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
            | Breaker::RetryOnly { scope, .. }
            | Breaker::SreAdaptive { scope, .. }
            | Breaker::Polly { scope, .. } => *scope,
        }
    }
}

impl Tier {
    /// The tiers this tier calls, each once, in the order its routes first name them
    /// (`k` is this tier's index): several routes may call one tier.
    pub fn callees(&self, k: usize) -> Vec<usize> {
        if self.client.is_some() {
            vec![k + 1]
        } else {
            let mut out: Vec<usize> = Vec::with_capacity(self.routes.len());
            for r in &self.routes {
                if !out.contains(&(r.to as usize)) {
                    out.push(r.to as usize);
                }
            }
            out
        }
    }

    /// Whether route `r` calls a tier that another of this tier's routes calls too (two
    /// caller populations of one callee): its attempts are then counted on their own.
    pub fn route_shares_callee(&self, r: usize) -> bool {
        let to = self.routes[r].to;
        self.routes.iter().filter(|x| x.to == to).count() > 1
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
