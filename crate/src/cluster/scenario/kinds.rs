//! Every type's default object, and every enum's `kinds()`: one default per kind, in the
//! order the editor lists them (the editor's defaults, [`crate::cluster::defaults`], are
//! gathered from here).

use super::libraries;
use super::*;

// Defaults live here once: serde's field defaults (in the types' module) return named
// constants, and every kind of every enum has one default object in its `kinds()` list,
// which the editor offers and the tests check for validity.

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
            Backoff::ExponentialDistributed { mean_ms: 100.0 },
            // Each library's rule with that library's own defaults (gRPC has none: its
            // documentation's example).
            Backoff::Resilience4j(libraries::Resilience4jBackoff {
                wait_duration_ms: 500,
                exponential_backoff_multiplier: None,
                randomized_wait_factor: None,
                exponential_max_wait_duration_ms: None,
            }),
            Backoff::Grpc(libraries::GrpcBackoff {
                initial_backoff_ms: 100.0,
                backoff_multiplier: 2.0,
                max_backoff_ms: 1000.0,
                randomization: libraries::GrpcJitter::default(),
                implementation: libraries::GrpcClient::default(),
            }),
            Backoff::Envoy(libraries::EnvoyBackoff {
                base_interval_ms: 25,
                max_interval_ms: None,
            }),
            Backoff::Polly(libraries::PollyBackoff {
                backoff_type: libraries::PollyDelay::Constant,
                delay_ms: 2000.0,
                use_jitter: false,
                max_delay_ms: None,
            }),
            Backoff::Aws(libraries::AwsBackoff {
                mode: libraries::AwsMode::Standard,
            }),
            Backoff::Tenacity(libraries::TenacityBackoff {
                wait: libraries::TenacityWait::Exponential,
                multiplier: 1.0,
                exp_base: 2.0,
                min_s: 0.0,
                max_s: None,
                jitter_s: 1.0,
            }),
            Backoff::CenkaltiBackoff(libraries::CenkaltiBackoff {
                initial_interval_ms: 500.0,
                randomization_factor: 0.5,
                multiplier: 1.5,
                max_interval_ms: 60_000.0,
            }),
            Backoff::FailsafeGo(libraries::FailsafeBackoff {
                delay_ms: 0.0,
                max_delay_ms: None,
                delay_factor: 2.0,
                jitter_factor: 0.0,
                jitter_ms: 0.0,
            }),
            Backoff::SpringCloudGateway(libraries::GatewayBackoff {
                first_backoff_ms: 5,
                max_backoff_ms: None,
                backoff_factor: 2,
                based_on_previous_value: true,
            }),
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
            // Brooker's adaptive retries: a tenth of a token per success, 5 tokens.
            Budget::SuccessBucket {
                percent: 10.0,
                max_tokens: 5,
                scope,
            },
            Budget::AwsQuota {
                initial_tokens: DEFAULT_AWS_TOKENS,
                retry_cost: DEFAULT_AWS_RETRY_COST,
                timeout_cost: DEFAULT_AWS_TIMEOUT_COST,
                no_retry_increment: DEFAULT_AWS_NO_RETRY_INCREMENT,
                scope,
            },
            Budget::EnvoyRetryBudget {
                budget_percent: DEFAULT_ENVOY_BUDGET_PERCENT,
                min_retry_concurrency: DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY,
                scope,
            },
            Budget::EnvoyMaxRetries {
                max_retries: DEFAULT_ENVOY_MAX_RETRIES,
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
                automatic_half_open: false,
                scope,
            },
            // Brooker's retry_sim: retries stop above 10% failures, counted for ever.
            Breaker::RetryOnly {
                failure_percent: 10.0,
                window_ms: 0,
                scope,
            },
            Breaker::SreAdaptive {
                k: 2.0,
                window_ms: 120_000,
                scope,
            },
            Breaker::Polly {
                failure_ratio: DEFAULT_POLLY_FAILURE_RATIO,
                minimum_throughput: DEFAULT_POLLY_MINIMUM_THROUGHPUT,
                sampling_duration_ms: DEFAULT_POLLY_SAMPLING_MS,
                break_duration_ms: DEFAULT_POLLY_BREAK_MS,
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
            FaultEffect::LatencyAdmitted { added_ms: 200.0 },
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
            network: None,
        }
    }
}

impl Default for Network {
    /// 1 ms each way, as within a region: a round trip of 2 ms.
    fn default() -> Self {
        Network {
            request: Dist::Constant { ms: 1.0 },
            response: Dist::Constant { ms: 1.0 },
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
            jitter_ms: 0.0,
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
