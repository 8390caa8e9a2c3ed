//! Retry budgets: the state that may veto a retry the client policy would make.
//!
//! Every budget sees three things: a call sent (first attempt or retry), an attempt's
//! outcome, and the question "may I retry now?". Token amounts are kept in integer
//! thousandths where the original does (gRPC, Finagle), so the arithmetic is exact.

use super::scenario::Budget;
use super::window::Window;

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
        window: Window<1>,
        /// `min_retries_per_sec × ttl_seconds × withdrawal`.
        reserve: i64,
        /// Cost of a retry.
        withdrawal: i64,
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
            // Finagle `RetryBudget.apply(ttl, minRetriesPerSec, percentCanRetry)`:
            //   depositAmount = 1000; withdrawalAmount = 1000 / percentCanRetry (or 1001 when 0);
            //   reserve = minRetriesPerSec × ttl.inSeconds × withdrawalAmount;
            //   a leaky bucket (WindowedAdder of 10 slices) over ttl holding deposits − withdrawals.
            // (tower's `TpsBudget` is the same design.)
            Budget::Windowed {
                ttl_ms,
                min_retries_per_sec,
                percent_can_retry,
                ..
            } => {
                let frac = percent_can_retry / 100.0;
                let withdrawal = if frac <= 0.0 {
                    FINAGLE_DEPOSIT + 1
                } else {
                    ((FINAGLE_DEPOSIT as f64 / frac) as i64).max(1)
                };
                let ttl_s = (ttl_ms / 1000) as i64;
                BudgetState::Windowed {
                    window: Window::new(ttl_ms * 1000),
                    reserve: (min_retries_per_sec as i64)
                        .saturating_mul(ttl_s)
                        .saturating_mul(withdrawal),
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

    /// A first attempt of a call is being sent (retries are accounted in `try_retry`).
    #[inline]
    pub fn on_first_attempt(&mut self, now: u64) {
        match self {
            BudgetState::TokenBucket {
                milli,
                max_milli,
                deposit_milli,
            } => {
                *milli = (*milli + *deposit_milli).min(*max_milli);
            }
            // Finagle's RetryFilter deposits once per original request.
            BudgetState::Windowed { window, .. } => window.add(now, 0, FINAGLE_DEPOSIT),
            // Seed 003: totalRequests.incrementAndGet() once per call.
            BudgetState::Ratio { window, .. } => window.add(now, 0, 1),
            _ => {}
        }
    }

    /// An attempt ended. `failure`: it failed (timeout, overload or error); `retry_cost`:
    /// `None` for a first attempt, else what its retry took from an AWS quota.
    #[inline]
    pub fn on_outcome(&mut self, success: bool, failure: bool, retry_cost: Option<u32>) {
        match self {
            // gRFC A6: every failed RPC (original or retry) decrements token_count by 1,
            // every success increments it by token_ratio; it stays within [0, max_tokens].
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
            // AWS SDKs, standard retry mode: on success release the acquired retry cost,
            // or add NO_RETRY_INCREMENT when the request needed no retry; capped at the max.
            BudgetState::Aws {
                capacity,
                max,
                increment,
                ..
            } if success => {
                let add = match retry_cost {
                    Some(c) => c as u64,
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
            } => {
                if window.sum(now, 0).saturating_add(*reserve) >= *withdrawal {
                    window.add(now, 0, -*withdrawal);
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
}
