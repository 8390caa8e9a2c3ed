//! The bounds of every cluster field, and the defaults serde fills in: named constants the
//! checks ([`super::problems`]'s) and `docs/scenarios.md` (checked by
//! `crate/tests/scenario_reference.rs`) both use.

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
/// Largest jitter of constant arrivals, as a share of the gap between arrivals at the
/// load's highest rate: half, so an arrival never passes its neighbour's slot and the
/// arrivals keep their order.
pub const MAX_JITTER_GAP_SHARE: f64 = 0.5;
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
/// Envoy's retry budget: percent of the active requests when the budget does not say.
pub const DEFAULT_ENVOY_BUDGET_PERCENT: f64 = 20.0;
/// Envoy's retry budget: retries always allowed at once when the budget does not say.
pub const DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY: u32 = 3;
/// Envoy's `max_retries` circuit breaker when the cluster does not say.
pub const DEFAULT_ENVOY_MAX_RETRIES: u32 = 3;
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
/// Polly's shortest sampling and break durations (`[Range]` on its options).
pub const MIN_POLLY_DURATION_MS: u64 = 500;
/// Polly's longest sampling and break durations: one day.
pub const MAX_POLLY_DURATION_MS: u64 = 86_400_000;
/// Polly's smallest `MinimumThroughput` (`CircuitBreakerConstants.MinimumValidThroughput`).
pub const MIN_POLLY_THROUGHPUT: u32 = 2;
/// Polly's `FailureRatio` when the breaker does not say.
pub const DEFAULT_POLLY_FAILURE_RATIO: f64 = 0.1;
/// Polly's `MinimumThroughput` when the breaker does not say.
pub const DEFAULT_POLLY_MINIMUM_THROUGHPUT: u32 = 100;
/// Polly's `SamplingDuration` when the breaker does not say, ms.
pub const DEFAULT_POLLY_SAMPLING_MS: u64 = 30_000;
/// Polly's `BreakDuration` when the breaker does not say, ms.
pub const DEFAULT_POLLY_BREAK_MS: u64 = 5_000;
/// Largest threshold of a retry-only breaker: failed attempts per 100 calls (retries
/// fail too, so the ratio can pass 100).
pub const MAX_RETRY_FAILURE_PERCENT: f64 = 1_000.0;
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
