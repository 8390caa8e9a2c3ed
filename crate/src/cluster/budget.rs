//! Retry budgets: the state that may veto a retry the client policy would make.
//!
//! Every budget sees three things: a call sent (first attempt or retry), an attempt's
//! outcome, and the question "may I retry now?". Token amounts are kept in integer
//! thousandths where the original does (gRPC, Finagle), so the arithmetic is exact.

use super::retry_gates::SuccessBucket;
use super::scenario::Budget;
use super::window::{Window, WindowedAdder};

/// The state of one budget (one per caller instance, or one per tier when shared).
#[derive(Debug, Clone)]
pub enum BudgetState {
    /// No budget: every retry is allowed.
    None,
    /// Retries in the current aligned second against a fixed allowance.
    CapacityPercent {
        /// Retries allowed per second.
        per_sec: u64,
        /// The current second.
        second: u64,
        /// Retries used in it.
        used: u64,
    },
    /// Token bucket fed by first attempts.
    TokenBucket {
        /// Milli-tokens.
        milli: u64,
        /// Bucket size in milli-tokens.
        max_milli: u64,
        /// Milli-tokens added per first attempt.
        deposit_milli: u64,
    },
    /// gRPC retry throttling (gRFC A6).
    Grpc {
        /// Milli-tokens.
        milli: u64,
        /// `max_tokens` × 1000.
        max_milli: u64,
        /// `token_ratio` × 1000.
        ratio_milli: u64,
    },
    /// Finagle `RetryBudget` (leaky token bucket over `ttl`).
    Windowed {
        /// Deposits minus withdrawals over the window.
        window: WindowedAdder,
        /// `min_retries_per_sec × ttl_seconds × withdrawal`.
        reserve: i64,
        /// What a request deposits (1000, or 0 without a percentage).
        deposit: i64,
        /// Cost of a retry.
        withdrawal: i64,
    },
    /// Finagle `RetryBudget.Empty`: no percentage and no reserve, never a retry.
    Empty,
    /// Envoy's retry budget or `max_retries`: retries outstanding against a limit.
    Envoy {
        /// Attempts in flight (Envoy's active requests).
        active: u64,
        /// Retries scheduled and not yet answered.
        retries: u64,
        /// `budget_percent` for a budget, `None` for `max_retries`.
        percent: Option<f64>,
        /// `min_retry_concurrency`, or `max_retries`.
        floor: u64,
    },
    /// Seed 003: retries / requests over a window, with a minimum sample.
    Ratio {
        /// Counter 0 = requests, 1 = retries.
        window: Window<2>,
        /// Allowed ratio, percent.
        ratio_percent: f64,
        /// Minimum sample.
        min_requests: i64,
    },
    /// A token bucket that successes fill (see [`super::retry_gates`]).
    SuccessBucket(SuccessBucket),
    /// AWS SDK standard mode retry quota.
    Aws {
        /// Available capacity.
        capacity: u64,
        /// Maximum (= initial) capacity.
        max: u64,
        /// Retry cost.
        cost: u64,
        /// Retry cost after a timeout.
        timeout_cost: u64,
        /// Added by a first-attempt success.
        increment: u64,
    },
}

/// Finagle's scale for one request's deposit.
pub const FINAGLE_DEPOSIT: i64 = 1000;

impl BudgetState {
    /// Fresh state for a budget configuration.
    pub fn new(b: &Budget) -> Self {
        match *b {
            Budget::None => BudgetState::None,
            Budget::CapacityPercent {
                percent,
                capacity_per_s,
                ..
            } => BudgetState::CapacityPercent {
                per_sec: (percent * capacity_per_s / 100.0) as u64,
                second: 0,
                used: 0,
            },
            Budget::TokenBucket {
                percent,
                max_tokens,
                ..
            } => BudgetState::TokenBucket {
                milli: max_tokens as u64 * 1000,
                max_milli: max_tokens as u64 * 1000,
                deposit_milli: (percent * 10.0).round() as u64,
            },
            // gRFC A6: "token_count" starts at max_tokens; gRPC keeps it in thousandths.
            Budget::GrpcThrottle {
                max_tokens,
                token_ratio,
                ..
            } => BudgetState::Grpc {
                milli: max_tokens as u64 * 1000,
                max_milli: max_tokens as u64 * 1000,
                ratio_milli: (token_ratio * 1000.0).round() as u64,
            },
            // Finagle `RetryBudget.apply(ttl, minRetriesPerSec, percentCanRetry)`
            // (finagle-core `service/RetryBudget.scala`, finagle 4feb34cb):
            //   both 0 → `RetryBudget.Empty`;
            //   depositAmount = 1000, or 0 when percentCanRetry is 0;
            //   withdrawalAmount = (1000 / percentCanRetry).toInt, or 1 when it is 0;
            //   reserve = minRetriesPerSec × ttl.inSeconds × withdrawalAmount (Scala Ints,
            //   here saturating instead of wrapping);
            //   `TokenBucket.newLeakyBucket(ttl, reserve)`: a `WindowedAdder` of 10 slices
            //   over ttl holding deposits − withdrawals, made when the client is (time 0).
            Budget::Windowed {
                ttl_ms,
                min_retries_per_sec,
                percent_can_retry,
                ..
            } => {
                let frac = percent_can_retry / 100.0;
                if min_retries_per_sec == 0 && frac == 0.0 {
                    return BudgetState::Empty;
                }
                let (deposit, withdrawal) = if frac == 0.0 {
                    (0, 1)
                } else {
                    (
                        FINAGLE_DEPOSIT,
                        ((FINAGLE_DEPOSIT as f64 / frac) as i64).max(1),
                    )
                };
                let ttl_s = (ttl_ms / 1000) as i64;
                BudgetState::Windowed {
                    window: WindowedAdder::new(ttl_ms, 0),
                    reserve: (min_retries_per_sec as i64)
                        .saturating_mul(ttl_s)
                        .saturating_mul(withdrawal),
                    deposit,
                    withdrawal,
                }
            }
            Budget::Ratio {
                ratio_percent,
                window_ms,
                min_requests,
                ..
            } => BudgetState::Ratio {
                window: Window::new(window_ms * 1000),
                ratio_percent,
                min_requests: min_requests as i64,
            },
            Budget::EnvoyRetryBudget {
                budget_percent,
                min_retry_concurrency,
                ..
            } => BudgetState::Envoy {
                active: 0,
                retries: 0,
                percent: Some(budget_percent),
                floor: min_retry_concurrency as u64,
            },
            Budget::EnvoyMaxRetries { max_retries, .. } => BudgetState::Envoy {
                active: 0,
                retries: 0,
                percent: None,
                floor: max_retries as u64,
            },
            Budget::SuccessBucket {
                percent,
                max_tokens,
                ..
            } => BudgetState::SuccessBucket(SuccessBucket::new(percent, max_tokens)),
            Budget::AwsQuota {
                initial_tokens,
                retry_cost,
                timeout_cost,
                no_retry_increment,
                ..
            } => BudgetState::Aws {
                capacity: initial_tokens as u64,
                max: initial_tokens as u64,
                cost: retry_cost as u64,
                timeout_cost: timeout_cost as u64,
                increment: no_retry_increment as u64,
            },
        }
    }

    /// An attempt is being sent (`first`: the call's first; retries are charged in
    /// `try_retry`).
    #[inline]
    pub fn on_sent(&mut self, now: u64, first: bool) {
        match self {
            // Envoy: one more active request, whichever attempt it is.
            BudgetState::Envoy { active, .. } => *active += 1,
            _ if !first => {}
            BudgetState::TokenBucket {
                milli,
                max_milli,
                deposit_milli,
            } => {
                *milli = (*milli + *deposit_milli).min(*max_milli);
            }
            // Finagle's RetryFilter deposits once per original request (its clock: ms).
            BudgetState::Windowed {
                window, deposit, ..
            } => window.add(now / 1000, *deposit),
            // Seed 003: totalRequests.incrementAndGet() once per call.
            BudgetState::Ratio { window, .. } => window.add(now, 0, 1),
            _ => {}
        }
    }

    /// An attempt ended. `failure`: it failed in a way the policy retries (its kind is in
    /// `retry_on`); `retry_after_timeout`: `None` for a first attempt, else whether its
    /// retry was granted after a timeout, which tells what [`try_retry`](Self::try_retry)
    /// took from an AWS quota (its timeout cost or its cost).
    #[inline]
    pub fn on_outcome(&mut self, success: bool, failure: bool, retry_after_timeout: Option<bool>) {
        match self {
            BudgetState::Envoy { active, .. } => *active = active.saturating_sub(1),
            // gRFC A6: every failed RPC (original or retry) decrements token_count by 1,
            // every success increments it by token_ratio; it stays within [0, max_tokens].
            // A failure counts only with a retryable status code (grpc-go `stream.go`
            // `csAttempt.shouldRetry`, grpc-js `retrying-call.ts` `handleProcessedStatus`).
            BudgetState::Grpc {
                milli,
                max_milli,
                ratio_milli,
            } => {
                if success {
                    *milli = (*milli + *ratio_milli).min(*max_milli);
                } else if failure {
                    *milli = milli.saturating_sub(1000);
                }
            }
            BudgetState::SuccessBucket(b) if success => b.on_success(),
            // AWS SDKs, standard retry mode: on success release the acquired retry cost,
            // or add NO_RETRY_INCREMENT when the request needed no retry; capped at the max.
            BudgetState::Aws {
                capacity,
                max,
                increment,
                cost,
                timeout_cost,
            } if success => {
                let add = match retry_after_timeout {
                    Some(true) => *timeout_cost,
                    Some(false) => *cost,
                    None => *increment,
                };
                *capacity = (*capacity + add).min(*max);
            }
            _ => {}
        }
    }

    /// May a retry be sent now after a failure (`timeout` tells the AWS cost)? On yes,
    /// the retry is charged; the returned cost is what an AWS quota took (else 0).
    #[inline]
    pub fn try_retry(&mut self, now: u64, timeout: bool) -> Option<u32> {
        match self {
            BudgetState::None => Some(0),
            BudgetState::CapacityPercent {
                per_sec,
                second,
                used,
            } => {
                let s = now / 1_000_000;
                if s != *second {
                    *second = s;
                    *used = 0;
                }
                if *used < *per_sec {
                    *used += 1;
                    Some(0)
                } else {
                    None
                }
            }
            BudgetState::TokenBucket { milli, .. } => {
                if *milli >= 1000 {
                    *milli -= 1000;
                    Some(0)
                } else {
                    None
                }
            }
            // gRFC A6: retries are allowed only while token_count > max_tokens / 2.
            BudgetState::Grpc {
                milli, max_milli, ..
            } => (*milli > *max_milli / 2).then_some(0),
            // Finagle LeakyBucket.tryGet(n): allowed when reserve + window sum ≥ n, then −n.
            BudgetState::Windowed {
                window,
                reserve,
                withdrawal,
                ..
            } => {
                let ms = now / 1000;
                if window.sum(ms).saturating_add(*reserve) >= *withdrawal {
                    window.add(ms, -*withdrawal);
                    Some(0)
                } else {
                    None
                }
            }
            BudgetState::Empty => None,
            // Envoy `RetryBudgetImpl::max()`: the double product truncated to an integer,
            // then at least the minimum; `canCreate()`: retries outstanding < max.
            BudgetState::Envoy {
                active,
                retries,
                percent,
                floor,
            } => {
                let limit = match percent {
                    Some(p) => ((*p / 100.0 * *active as f64) as u64).max(*floor),
                    None => *floor,
                };
                if *retries < limit {
                    *retries += 1;
                    Some(0)
                } else {
                    None
                }
            }
            // Seed 003 `checkRetryBudget`: total < min → allow; else retries/total ≤ ratio.
            BudgetState::Ratio {
                window,
                ratio_percent,
                min_requests,
            } => {
                let total = window.sum(now, 0);
                let retries = window.sum(now, 1);
                let ok = total < *min_requests
                    || (total > 0 && retries as f64 / total as f64 <= *ratio_percent / 100.0);
                if ok {
                    window.add(now, 1, 1);
                    Some(0)
                } else {
                    None
                }
            }
            BudgetState::SuccessBucket(b) => b.try_retry().then_some(0),
            // AWS standard mode: acquire RETRY_COST (5), or RETRY_TIMEOUT_COST (10) after a
            // timeout; not enough capacity → no retry.
            BudgetState::Aws {
                capacity,
                cost,
                timeout_cost,
                ..
            } => {
                let c = if timeout { *timeout_cost } else { *cost };
                if *capacity >= c {
                    *capacity -= c;
                    Some(c.min(u32::MAX as u64) as u32)
                } else {
                    None
                }
            }
        }
    }

    /// Whether a granted retry holds a slot until its answer (Envoy's budgets).
    #[inline]
    pub fn holds_retries(&self) -> bool {
        matches!(self, BudgetState::Envoy { .. })
    }

    /// A retry granted by a budget that [`holds_retries`](Self::holds_retries) got its
    /// answer, or its request ended (Envoy `RetryStateImpl::resetRetry`).
    #[inline]
    pub fn release_retry(&mut self) {
        if let BudgetState::Envoy { retries, .. } = self {
            *retries = retries.saturating_sub(1);
        }
    }
}
