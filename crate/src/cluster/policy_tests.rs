//! Budgets checked against the formulas they follow, breakers transition by transition
//! (unit tests of the crate-internal `breaker` and `budget` modules).

use super::breaker::{BreakerState, Status};
use super::budget::BudgetState;
use super::{Breaker, Budget, Scope, WindowKind};
use crate::rng::JavaRandom;

const S: u64 = 1_000_000; // one second in µs

// ------------------------------------------------------------------ budgets

/// gRFC A6 (gRPC retry throttling): token_count starts at max_tokens, −1 per failed RPC,
/// +token_ratio per success, capped at max_tokens; retries only while
/// token_count > max_tokens / 2.
#[test]
fn grpc_a6_throttling() {
    let mut b = BudgetState::new(&Budget::GrpcThrottle {
        max_tokens: 10,
        token_ratio: 0.1,
        scope: Scope::Shared,
    });
    assert_eq!(b.try_retry(0, false), Some(0)); // 10 > 5
    for _ in 0..4 {
        b.on_outcome(false, true, None);
    }
    assert_eq!(b.try_retry(0, false), Some(0)); // 6 > 5
    b.on_outcome(false, true, None);
    assert_eq!(b.try_retry(0, false), None); // 5 is not > 5
    b.on_outcome(true, false, None); // 5.1
    assert_eq!(b.try_retry(0, false), Some(0));
    // Never below 0 nor above max.
    for _ in 0..100 {
        b.on_outcome(false, true, None);
    }
    for _ in 0..50 {
        b.on_outcome(true, false, None); // +5.0 exactly in thousandths
    }
    assert_eq!(b.try_retry(0, false), None); // exactly 5.000
    b.on_outcome(true, false, None);
    assert_eq!(b.try_retry(0, false), Some(0));
    for _ in 0..1000 {
        b.on_outcome(true, false, None);
    }
    for _ in 0..4 {
        b.on_outcome(false, true, None);
    }
    assert_eq!(b.try_retry(0, false), Some(0)); // capped at 10, −4 = 6
}

/// Finagle `RetryBudget(ttl, minRetriesPerSec, percentCanRetry)`: deposits of 1000 per
/// request, withdrawals of 1000 / percentCanRetry per retry, a reserve of
/// minRetriesPerSec × ttl_seconds × withdrawal, deposits expiring after ttl.
#[test]
fn finagle_retry_budget() {
    let cfg = Budget::Windowed {
        ttl_ms: 10_000,
        min_retries_per_sec: 0,
        percent_can_retry: 20.0,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg);
    assert_eq!(b.try_retry(0, false), None); // empty, no reserve
    for _ in 0..10 {
        b.on_sent(0, true);
    }
    // 10 requests × 20% = 2 retries.
    assert_eq!(b.try_retry(S, false), Some(0));
    assert_eq!(b.try_retry(S, false), Some(0));
    assert_eq!(b.try_retry(S, false), None);
    // After the ttl the deposits (and withdrawals) are gone.
    for _ in 0..5 {
        b.on_sent(11 * S, true);
    }
    assert_eq!(b.try_retry(11 * S, false), Some(0));
    assert_eq!(b.try_retry(11 * S, false), None);
    // The reserve: 1 retry/s over a 10 s ttl = 10 retries with no traffic at all.
    let cfg = Budget::Windowed {
        ttl_ms: 10_000,
        min_retries_per_sec: 1,
        percent_can_retry: 20.0,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg);
    let granted = (0..100).filter(|_| b.try_retry(0, false).is_some()).count();
    assert_eq!(granted, 10);
}

/// Finagle `RetryBudget.apply` (finagle-core `service/RetryBudget.scala`, finagle
/// 4feb34cb): with `percentCanRetry` 0 a request deposits nothing and a retry withdraws
/// 1, so only the reserve of `minRetriesPerSec × ttl` retries is left; with
/// `minRetriesPerSec` 0 too the budget is `RetryBudget.Empty`, which never allows one.
#[test]
fn finagle_budget_without_a_percentage() {
    let cfg = |min| Budget::Windowed {
        ttl_ms: 10_000,
        min_retries_per_sec: min,
        percent_can_retry: 0.0,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg(2));
    for _ in 0..100 {
        b.on_sent(0, true);
    }
    let granted = (0..200).filter(|_| b.try_retry(S, false).is_some()).count();
    assert_eq!(granted, 20, "2 retries/s × 10 s, whatever the traffic");
    let mut b = BudgetState::new(&cfg(0));
    for _ in 0..100 {
        b.on_sent(0, true);
    }
    assert_eq!(b.try_retry(S, false), None, "RetryBudget.Empty");
}

/// Finagle's budget forgets deposits in the slices of util's `WindowedAdder`
/// (util-core `WindowedAdder.scala`, `TokenBucket.newLeakyBucket`, twitter/util
/// 17c8187d): 10 slices of ttl/10 ms, 9 kept besides the one being written, and a new
/// slice starts at the first access at least ttl/10 after the last one started, not at a
/// multiple of ttl/10. Hand-computed with ttl 10 s (1000 ms slices), 20% (5000 a retry):
/// - 0 ms: 5 requests, 5000 in the slice being written (started at 0, when the budget
///   was made);
/// - 1500 ms: a request: the slice of 0 is put away in `buf(0)`, a new one starts at 1500
///   and holds 1000;
/// - 10 200 ms: the 1500 slice goes to `buf(1)`, 7 slices are skipped (`buf(2..9)`
///   cleared), and `buf(0)` still holds the 5000 of 0 ms: 6000 ≥ 5000, one retry.
#[test]
fn finagle_budget_slices_start_at_an_access() {
    let cfg = Budget::Windowed {
        ttl_ms: 10_000,
        min_retries_per_sec: 0,
        percent_can_retry: 20.0,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg);
    for _ in 0..5 {
        b.on_sent(0, true);
    }
    b.on_sent(1_500_000, true);
    assert!(
        b.try_retry(10_200_000, false).is_some(),
        "5000 + 1000 ≥ 5000"
    );
    assert_eq!(b.try_retry(10_200_000, false), None, "1000 left");
    // The slice of 0 ms is overwritten at the next turn of the ring: the first access
    // 1000 ms after 10 200 puts the 10 200 slice into buf(0).
    let mut b = BudgetState::new(&cfg);
    for _ in 0..5 {
        b.on_sent(0, true);
    }
    b.on_sent(1_500_000, true);
    for _ in 0..4 {
        b.on_sent(10_200_000, true);
    }
    // At 11 199 ms: 5000 (0 ms) + 1000 (1500 ms) + 4000 (10 200 ms) = 10 000: two retries.
    assert!(b.try_retry(11_199_000, false).is_some());
    assert!(b.try_retry(11_199_000, false).is_some());
    assert_eq!(b.try_retry(11_199_000, false), None);
    let mut b = BudgetState::new(&cfg);
    for _ in 0..5 {
        b.on_sent(0, true);
    }
    b.on_sent(1_500_000, true);
    for _ in 0..4 {
        b.on_sent(10_200_000, true);
    }
    // At 11 200 ms the 0 ms slice is gone: 1000 + 4000 = 5000, one retry.
    assert!(b.try_retry(11_200_000, false).is_some());
    assert_eq!(b.try_retry(11_200_000, false), None);
}

/// Envoy's retry budget (`source/common/upstream/resource_manager_impl.h`
/// `RetryBudgetImpl`, envoy 01c2c1fa): a retry may be scheduled while the retries
/// outstanding are fewer than max(⌊budget_percent / 100 × (active + pending requests)⌋,
/// min_retry_concurrency); `RetryStateImpl::shouldRetry` takes one (`retries().inc()`)
/// when it schedules the retry, and gives it back (`resetRetry`) when that retry's
/// answer comes or the request ends.
#[test]
fn envoy_retry_budget_is_a_concurrency_limit() {
    let mut b = BudgetState::new(&Budget::EnvoyRetryBudget {
        budget_percent: 20.0,
        min_retry_concurrency: 3,
        scope: Scope::Shared,
    });
    for _ in 0..10 {
        b.on_sent(0, true);
    }
    // 20% of 10 active = 2 < 3: the minimum holds.
    assert_eq!(
        (0..10).filter(|_| b.try_retry(0, false).is_some()).count(),
        3
    );
    b.release_retry();
    assert!(b.try_retry(0, false).is_some(), "a slot came back");
    assert!(b.try_retry(0, false).is_none());
    // 34 active: ⌊6.8⌋ = 6 retries at once.
    for _ in 0..24 {
        b.on_sent(0, true);
    }
    assert_eq!(
        (0..10).filter(|_| b.try_retry(0, false).is_some()).count(),
        3
    );
    // Attempts that end leave the active count: back to 9 active, the minimum of 3.
    for _ in 0..25 {
        b.on_outcome(false, true, None);
    }
    b.release_retry();
    assert!(b.try_retry(0, false).is_none(), "6 held, limit 3");
}

/// Without a budget, Envoy's `max_retries` circuit breaker (default 3) caps the retries
/// outstanding on the cluster, counted the same way.
#[test]
fn envoy_max_retries_caps_concurrent_retries() {
    let mut b = BudgetState::new(&Budget::EnvoyMaxRetries {
        max_retries: 2,
        scope: Scope::Shared,
    });
    for _ in 0..1000 {
        b.on_sent(0, true);
    }
    assert_eq!(
        (0..10).filter(|_| b.try_retry(0, false).is_some()).count(),
        2
    );
    b.release_retry();
    assert!(b.try_retry(0, false).is_some());
}

/// Seed 003 `checkRetryBudget`: below `min_requests` every retry passes; above,
/// retries / requests ≤ ratio.
#[test]
fn seed_003_ratio_budget() {
    let cfg = Budget::Ratio {
        ratio_percent: 10.0,
        window_ms: 0,
        min_requests: 100,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg);
    for _ in 0..99 {
        b.on_sent(0, true);
    }
    let free = (0..50).filter(|_| b.try_retry(0, false).is_some()).count();
    assert_eq!(free, 50); // 99 < 100 requests: no limit
    for _ in 0..401 {
        b.on_sent(0, true);
    }
    // 500 requests, 50 retries: 50/500 = 10% ≤ 10% → one more; 51/500 > 10% → no.
    assert!(b.try_retry(0, false).is_some());
    assert!(b.try_retry(0, false).is_none());
    for _ in 0..10 {
        b.on_sent(0, true);
    }
    assert!(b.try_retry(0, false).is_some()); // 51/510 = 10%
                                              // A windowed one forgets.
    let cfg = Budget::Ratio {
        ratio_percent: 10.0,
        window_ms: 1000,
        min_requests: 10,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg);
    for _ in 0..20 {
        b.on_sent(0, true);
    }
    // 0/20, 1/20 and 2/20 are ≤ 10%; 3/20 is not.
    assert_eq!(
        (0..10).filter(|_| b.try_retry(0, false).is_some()).count(),
        3
    );
    assert!(b.try_retry(2 * S, false).is_some()); // new window: 0 requests < 10
}

/// AWS SDK standard retry mode: a 500-token quota, 5 per retry, 10 per retry after a
/// timeout, the cost refunded when the retry succeeds, +1 for a first-try success.
#[test]
fn aws_standard_retry_quota() {
    let cfg = Budget::AwsQuota {
        initial_tokens: 500,
        retry_cost: 5,
        timeout_cost: 10,
        no_retry_increment: 1,
        scope: Scope::Shared,
    };
    let mut b = BudgetState::new(&cfg);
    let n = (0..1000)
        .take_while(|_| b.try_retry(0, false) == Some(5))
        .count();
    assert_eq!(n, 100);
    let mut b = BudgetState::new(&cfg);
    let n = (0..1000)
        .take_while(|_| b.try_retry(0, true) == Some(10))
        .count();
    assert_eq!(n, 50);
    assert_eq!(b.try_retry(0, false), None);
    b.on_outcome(true, false, Some(true)); // a retry after a timeout succeeded: refund 10
    assert_eq!(b.try_retry(0, false), Some(5));
    assert_eq!(b.try_retry(0, false), Some(5));
    assert_eq!(b.try_retry(0, false), None);
    for _ in 0..5 {
        b.on_outcome(true, false, None); // first-try successes: +1 each
    }
    assert_eq!(b.try_retry(0, false), Some(5));
    assert_eq!(b.try_retry(0, false), None);
    b.on_outcome(false, true, Some(false)); // failures refund nothing
    assert_eq!(b.try_retry(0, false), None);
    // Never above the initial capacity.
    let mut b = BudgetState::new(&cfg);
    for _ in 0..100 {
        b.on_outcome(true, false, None);
    }
    assert_eq!(
        (0..1000)
            .take_while(|_| b.try_retry(0, false).is_some())
            .count(),
        100
    );
}

/// Seed 002's token bucket: each request adds 20% of a token, a retry takes one.
#[test]
fn token_bucket_twenty_percent() {
    let mut b = BudgetState::new(&Budget::TokenBucket {
        percent: 20.0,
        max_tokens: 3,
        scope: Scope::Shared,
    });
    assert_eq!(
        (0..10).filter(|_| b.try_retry(0, false).is_some()).count(),
        3
    );
    for _ in 0..9 {
        b.on_sent(0, true);
    }
    // 9 × 0.2 = 1.8 tokens: one retry, then none.
    assert!(b.try_retry(0, false).is_some());
    assert!(b.try_retry(0, false).is_none());
}

/// The classic budget: percent of capacity per aligned second.
#[test]
fn capacity_percent_per_second() {
    let mut b = BudgetState::new(&Budget::CapacityPercent {
        percent: 10.0,
        capacity_per_s: 200.0,
        scope: Scope::Shared,
    });
    assert_eq!(
        (0..100)
            .filter(|_| b.try_retry(S / 2, false).is_some())
            .count(),
        20
    );
    assert_eq!(
        (0..100)
            .filter(|_| b.try_retry(S + 1, false).is_some())
            .count(),
        20
    );
}

// ------------------------------------------------------------------ breakers

fn r4j(
    window: WindowKind,
    size: u32,
    min: u32,
    half: u32,
    ramp: Option<u64>,
    jitter: u64,
) -> Breaker {
    Breaker::Resilience4j {
        window,
        window_size: size,
        minimum_calls: min,
        failure_rate_percent: 50.0,
        slow_call_ms: Some(100),
        slow_call_rate_percent: 100.0,
        wait_open_ms: 1000,
        open_jitter_ms: jitter,
        half_open_calls: half,
        ramp_stage_ms: ramp,
        automatic_half_open: false,
        scope: Scope::Shared,
    }
}

#[test]
fn consecutive_breaker_transitions() {
    let cfg = Breaker::Consecutive {
        failures: 3,
        open_ms: 1000,
        open_jitter_ms: 0,
        half_open_calls: 2,
        scope: Scope::Shared,
    };
    let mut b = BreakerState::new(&cfg);
    let rng = &mut JavaRandom::new(1);
    let call = |b: &mut BreakerState, t: u64, fail: bool, rng: &mut JavaRandom| {
        let p = b.acquire(&cfg, t, rng);
        if let Some(e) = p {
            b.record(&cfg, t, e, fail, 0, rng);
        }
        p.is_some()
    };
    // CLOSED: a success resets the count.
    assert!(
        call(&mut b, 0, true, rng) && call(&mut b, 0, true, rng) && call(&mut b, 0, false, rng)
    );
    assert_eq!(b.status(&cfg, 0), Status::Closed);
    // CLOSED → OPEN on the 3rd consecutive failure.
    call(&mut b, 0, true, rng);
    call(&mut b, 0, true, rng);
    call(&mut b, 10, true, rng);
    assert_eq!(b.status(&cfg, 10), Status::Open);
    // OPEN rejects until open_ms.
    assert!(!call(&mut b, 1000 * 1000 + 9, false, rng));
    // OPEN → HALF_OPEN after open_ms; 2 probes; a 3rd is rejected while they are out.
    let t = 1000 * 1000 + 10;
    assert_eq!(b.status(&cfg, t), Status::HalfOpen);
    let e1 = b.acquire(&cfg, t, rng).unwrap();
    let e2 = b.acquire(&cfg, t, rng).unwrap();
    assert!(b.acquire(&cfg, t, rng).is_none());
    // HALF_OPEN → CLOSED after both succeed.
    b.record(&cfg, t, e1, false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::HalfOpen);
    b.record(&cfg, t, e2, false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::Closed);
    // HALF_OPEN → OPEN on a failed probe.
    for _ in 0..3 {
        call(&mut b, t, true, rng);
    }
    let t2 = t + 1000 * 1000;
    let e = b.acquire(&cfg, t2, rng).unwrap();
    b.record(&cfg, t2, e, true, 0, rng);
    assert_eq!(b.status(&cfg, t2), Status::Open);
    assert_eq!(b.opened, 3);
}

#[test]
fn resilience4j_count_window_transitions() {
    let cfg = r4j(WindowKind::Count, 10, 5, 3, None, 0);
    let mut b = BreakerState::new(&cfg);
    let rng = &mut JavaRandom::new(2);
    let rec = |b: &mut BreakerState, t: u64, fail: bool, dur: u64, rng: &mut JavaRandom| {
        let e = b.acquire(&cfg, t, rng).expect("permitted");
        b.record(&cfg, t, e, fail, dur, rng);
    };
    // Below minimum_calls nothing trips, even at 100% failures.
    for _ in 0..4 {
        rec(&mut b, 0, true, 0, rng);
    }
    assert_eq!(b.status(&cfg, 0), Status::Closed);
    // The 5th call: 5/5 failed ≥ 50% → OPEN.
    rec(&mut b, 0, true, 0, rng);
    assert_eq!(b.status(&cfg, 0), Status::Open);
    // Exactly at the threshold also trips (rate ≥ threshold), window slides.
    let mut b2 = BreakerState::new(&cfg);
    for i in 0..10 {
        rec(&mut b2, 0, i >= 8, 0, rng); // 2 failures in 10, the last two
    }
    assert_eq!(b2.status(&cfg, 0), Status::Closed);
    for _ in 0..3 {
        rec(&mut b2, 0, true, 0, rng); // the 3 oldest (successes) slide out
    }
    assert_eq!(b2.status(&cfg, 0), Status::Open, "5 of the last 10 failed");
    // OPEN → HALF_OPEN at the first call strictly after the wait; 3 permits; 2 successes
    // + 1 failure = 33% < 50% → CLOSED.
    assert!(b.acquire(&cfg, 1000 * 1000, rng).is_none());
    let t = 1000 * 1000 + 1;
    let es: Vec<u32> = (0..3).map(|_| b.acquire(&cfg, t, rng).unwrap()).collect();
    assert!(b.acquire(&cfg, t, rng).is_none());
    b.record(&cfg, t, es[0], true, 0, rng);
    b.record(&cfg, t, es[1], false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::HalfOpen);
    b.record(&cfg, t, es[2], false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::Closed);
    // A late answer lands in the new closed window: 1 call, below the 5 needed.
    b.record(&cfg, t, es[0], true, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::Closed);
    // Slow calls (> 100 ms) count toward the slow-call rate (100% → OPEN).
    let mut b3 = BreakerState::new(&cfg);
    for _ in 0..5 {
        let e = b3.acquire(&cfg, 0, rng).unwrap();
        b3.record(&cfg, 0, e, false, 200_000, rng);
    }
    assert_eq!(b3.status(&cfg, 0), Status::Open);
}

// Resilience4j's state machine as its source has it (resilience4j af9e7c97, 2026-05-05:
// `resilience4j-circuitbreaker/.../internal/CircuitBreakerStateMachine.java` and
// `CircuitBreakerMetrics.java`, `resilience4j-core/.../metrics/SnapshotImpl.java`).

/// `CircuitBreakerMetrics.forHalfOpen`: the half-open state judges a fresh COUNT window
/// of `permittedNumberOfCallsInHalfOpenState` calls whose minimum is
/// `min(minimumNumberOfCalls, permitted)`, so with 2 minimum calls and 5 permits it
/// decides after the second answer.
#[test]
fn resilience4j_half_open_judges_at_the_capped_minimum() {
    let cfg = r4j(WindowKind::Count, 10, 2, 5, None, 0);
    let rng = &mut JavaRandom::new(8);
    let trip = |b: &mut BreakerState, rng: &mut JavaRandom| {
        for _ in 0..2 {
            let e = b.acquire(&cfg, 0, rng).unwrap();
            b.record(&cfg, 0, e, true, 0, rng);
        }
        assert_eq!(b.status(&cfg, 0), Status::Open);
    };
    let t = S + 1;
    let mut b = BreakerState::new(&cfg);
    trip(&mut b, rng);
    let es: Vec<u32> = (0..5).map(|_| b.acquire(&cfg, t, rng).unwrap()).collect();
    b.record(&cfg, t, es[0], false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::HalfOpen, "1 call < 2");
    b.record(&cfg, t, es[1], false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::Closed, "0% of 2 calls");
    let mut b = BreakerState::new(&cfg);
    trip(&mut b, rng);
    let es: Vec<u32> = (0..5).map(|_| b.acquire(&cfg, t, rng).unwrap()).collect();
    b.record(&cfg, t, es[0], false, 0, rng);
    b.record(&cfg, t, es[1], true, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::Open, "50% of 2 calls ≥ 50%");
}

/// `CircuitBreakerStateMachine.onError`/`onSuccess` record into whatever state is
/// current, so a call let through while closed that fails after the breaker went
/// half-open counts among the half-open calls (the OPEN state records it into metrics
/// it then throws away).
#[test]
fn resilience4j_records_a_late_answer_in_the_current_state() {
    let cfg = r4j(WindowKind::Count, 4, 4, 2, None, 0);
    let rng = &mut JavaRandom::new(9);
    let mut b = BreakerState::new(&cfg);
    let es: Vec<u32> = (0..6).map(|_| b.acquire(&cfg, 0, rng).unwrap()).collect();
    for &e in &es[..4] {
        b.record(&cfg, 0, e, true, 0, rng);
    }
    assert_eq!(b.status(&cfg, 0), Status::Open);
    // While open: recorded and forgotten.
    b.record(&cfg, S / 2, es[4], true, 0, rng);
    let t = S + 1;
    let probe = b.acquire(&cfg, t, rng).unwrap();
    // Half-open: the late failure is one of the two calls judged.
    b.record(&cfg, t, es[5], true, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::HalfOpen, "1 call < 2");
    b.record(&cfg, t, probe, false, 0, rng);
    assert_eq!(
        b.status(&cfg, t),
        Status::Open,
        "1 failure in 2 calls ≥ 50%"
    );
}

/// Without `automaticTransitionFromOpenToHalfOpenEnabled` the breaker stays OPEN until
/// a call comes strictly after the wait (`clock.instant().isAfter(retryAfterWaitDuration)`
/// in `OpenState.tryAcquirePermission`), and an answer that arrives in between is
/// thrown away with the open state's metrics. With it, a scheduler moves it to HALF_OPEN
/// when the wait ends, and such an answer is judged there.
#[test]
fn resilience4j_lazy_and_automatic_half_open() {
    let lazy = r4j(WindowKind::Count, 2, 2, 1, None, 0);
    let auto = match lazy.clone() {
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
            ..
        } => Breaker::Resilience4j {
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
            automatic_half_open: true,
            scope,
        },
        _ => unreachable!(),
    };
    let rng = &mut JavaRandom::new(10);
    for (cfg, automatic) in [(&lazy, false), (&auto, true)] {
        let mut b = BreakerState::new(cfg);
        let es: Vec<u32> = (0..3).map(|_| b.acquire(cfg, 0, rng).unwrap()).collect();
        b.record(cfg, 0, es[0], true, 0, rng);
        b.record(cfg, 0, es[1], true, 0, rng);
        // The wait ends at exactly 1 s.
        assert_eq!(b.acquire(cfg, S, rng).is_some(), automatic, "at the end");
        let mut b = BreakerState::new(cfg);
        let es: Vec<u32> = (0..3).map(|_| b.acquire(cfg, 0, rng).unwrap()).collect();
        b.record(cfg, 0, es[0], true, 0, rng);
        b.record(cfg, 0, es[1], true, 0, rng);
        // A late success after the wait, before any call: judged only when automatic.
        b.record(cfg, S + 5, es[2], false, 0, rng);
        let closed = b.status(cfg, S + 5) == Status::Closed;
        assert_eq!(closed, automatic, "automatic: {automatic}");
        // Lazy: the next call gets the one half-open permit.
        if !automatic {
            assert!(b.acquire(cfg, S + 6, rng).is_some());
            assert!(b.acquire(cfg, S + 6, rng).is_none());
        }
    }
}

/// `SnapshotImpl.getFailureRate` is a float: `failed * 100.0f / total`, compared with
/// the float `failureRateThreshold`. 1 failure in 3 calls is 33.333332f, which a
/// threshold of 33.3333334 reaches as a float (it rounds to the same 33.333332f) though
/// not as a double.
#[test]
fn resilience4j_rates_are_floats() {
    let cfg = match r4j(WindowKind::Count, 3, 3, 1, None, 0) {
        Breaker::Resilience4j {
            window,
            window_size,
            minimum_calls,
            slow_call_ms,
            slow_call_rate_percent,
            wait_open_ms,
            open_jitter_ms,
            half_open_calls,
            ramp_stage_ms,
            automatic_half_open,
            scope,
            ..
        } => Breaker::Resilience4j {
            window,
            window_size,
            minimum_calls,
            failure_rate_percent: 33.333_333_4,
            slow_call_ms,
            slow_call_rate_percent,
            wait_open_ms,
            open_jitter_ms,
            half_open_calls,
            ramp_stage_ms,
            automatic_half_open,
            scope,
        },
        _ => unreachable!(),
    };
    let rng = &mut JavaRandom::new(11);
    let mut b = BreakerState::new(&cfg);
    for fail in [true, false, false] {
        let e = b.acquire(&cfg, 0, rng).unwrap();
        b.record(&cfg, 0, e, fail, 0, rng);
    }
    assert_eq!(b.status(&cfg, 0), Status::Open);
}

/// First time at or after `from` when the breaker is no longer open, µs.
fn open_until(b: &BreakerState, cfg: &Breaker, from: u64) -> u64 {
    assert_eq!(b.status(cfg, from), Status::Open);
    let (mut lo, mut hi) = (from, from + 10_000_000);
    assert_ne!(b.status(cfg, hi), Status::Open);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if b.status(cfg, mid) == Status::Open {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

#[test]
fn resilience4j_half_open_failure_reopens_with_jitter() {
    // Open for 1000 ms + uniform [0, 500] ms, both when tripping and when a half-open
    // probe fails; the jitter differs between seeds and covers its range.
    let cfg = r4j(WindowKind::Count, 4, 4, 2, None, 500);
    let (mut trips, mut reopens) = (Vec::new(), Vec::new());
    for k in 0..20i64 {
        // Spread seeds: java.util.Random's first draws from neighbouring seeds are
        // nearly equal, which would hide a jitter that ignores the stream.
        let seed = k.wrapping_mul(0x9E37_79B9_7F4A_7C15_u64 as i64);
        let rng = &mut JavaRandom::new(seed);
        let mut b = BreakerState::new(&cfg);
        for _ in 0..4 {
            let e = b.acquire(&cfg, 0, rng).unwrap();
            b.record(&cfg, 0, e, true, 0, rng);
        }
        let until = open_until(&b, &cfg, 0);
        assert!(
            (1_000_000..=1_500_001).contains(&until),
            "seed {seed}: {until}"
        );
        assert_eq!(b.status(&cfg, until), Status::HalfOpen);
        // The first call strictly after the wait is the half-open one.
        let t = until + 1;
        let e1 = b.acquire(&cfg, t, rng).unwrap();
        let e2 = b.acquire(&cfg, t, rng).unwrap();
        b.record(&cfg, t, e1, true, 0, rng);
        b.record(&cfg, t, e2, true, 0, rng);
        let again = open_until(&b, &cfg, t) - t;
        assert!(
            (1_000_000..=1_500_001).contains(&again),
            "seed {seed}: {again}"
        );
        trips.push(until);
        reopens.push(again);
    }
    for (what, v) in [("trip", &mut trips), ("reopen", &mut reopens)] {
        v.sort_unstable();
        v.dedup();
        assert!(v.len() >= 15, "{what}: jitter varies by seed: {v:?}");
        assert!(
            v[0] < 1_200_000 && v[v.len() - 1] > 1_300_000,
            "{what}: {v:?}"
        );
    }
}

#[test]
fn resilience4j_time_window_evicts_old_seconds() {
    let cfg = r4j(WindowKind::Time, 2, 4, 1, None, 0);
    let mut b = BreakerState::new(&cfg);
    let rng = &mut JavaRandom::new(4);
    let rec = |b: &mut BreakerState, t: u64, fail: bool, rng: &mut JavaRandom| {
        let e = b.acquire(&cfg, t, rng).unwrap();
        b.record(&cfg, t, e, fail, 0, rng);
    };
    for _ in 0..3 {
        rec(&mut b, 0, true, rng); // second 0: 3 failures (below min calls)
    }
    for _ in 0..10 {
        rec(&mut b, 2 * S, false, rng); // second 2: second 0 has left the 2 s window
    }
    rec(&mut b, 2 * S, true, rng);
    assert_eq!(
        b.status(&cfg, 2 * S),
        Status::Closed,
        "old failures were evicted"
    );
    // Seconds 2..3 hold 1 failure in 11 calls; the 9th new failure makes 10 of 20 ≥ 50%,
    // so the 10th call is refused.
    let cfg2 = cfg.clone();
    let mut opened_at = None;
    for i in 1..=12 {
        match b.acquire(&cfg2, 3 * S, rng) {
            Some(e) => b.record(&cfg2, 3 * S, e, true, 0, rng),
            None => {
                opened_at = Some(i);
                break;
            }
        }
    }
    assert_eq!(opened_at, Some(10));
    assert_eq!(b.status(&cfg, 3 * S), Status::Open);
}

#[test]
fn resilience4j_gradual_ramp_25_50_100() {
    let cfg = r4j(WindowKind::Count, 4, 4, 1, Some(1000), 0);
    let mut b = BreakerState::new(&cfg);
    let rng = &mut JavaRandom::new(5);
    for _ in 0..4 {
        let e = b.acquire(&cfg, 0, rng).unwrap();
        b.record(&cfg, 0, e, true, 0, rng);
    }
    let t = S + 1;
    let e = b.acquire(&cfg, t, rng).unwrap();
    b.record(&cfg, t, e, false, 0, rng); // half-open probe succeeds → ramp 25%
    assert_eq!(b.status(&cfg, t), Status::HalfOpen);
    let admitted = |b: &mut BreakerState, t: u64, rng: &mut JavaRandom| {
        (0..4000)
            .filter(|_| b.acquire(&cfg, t, rng).is_some())
            .count()
    };
    let a25 = admitted(&mut b, t + 1, rng);
    assert!((900..1100).contains(&a25), "{a25}");
    let a50 = admitted(&mut b, t + S, rng);
    assert!((1900..2100).contains(&a50), "{a50}");
    assert_eq!(admitted(&mut b, t + 2 * S, rng), 4000);
    assert_eq!(b.status(&cfg, t + 2 * S), Status::Closed);
}

#[test]
fn ramp_failures_reopen() {
    let cfg = r4j(WindowKind::Count, 4, 4, 1, Some(1000), 0);
    let mut b = BreakerState::new(&cfg);
    let rng = &mut JavaRandom::new(6);
    for _ in 0..4 {
        let e = b.acquire(&cfg, 0, rng).unwrap();
        b.record(&cfg, 0, e, true, 0, rng);
    }
    let e = b.acquire(&cfg, S + 1, rng).unwrap();
    b.record(&cfg, S + 1, e, false, 0, rng);
    let mut n = 0;
    while n < 4 {
        if let Some(e) = b.acquire(&cfg, S + 10, rng) {
            b.record(&cfg, S + 10, e, true, 0, rng);
            n += 1;
        }
    }
    assert_eq!(b.status(&cfg, S + 10), Status::Open);
}

/// Google SRE book, "Handling Overload": reject with probability
/// max(0, (requests − K × accepts) / (requests + 1)).
#[test]
fn sre_adaptive_throttling_probability() {
    let cfg = Breaker::SreAdaptive {
        k: 2.0,
        window_ms: 10_000,
        scope: Scope::Shared,
    };
    let mut b = BreakerState::new(&cfg);
    let rng = &mut JavaRandom::new(7);
    // 100 requests, 50 accepted: 100 − 2 × 50 = 0 → never rejects.
    for i in 0..100 {
        let e = b.acquire(&cfg, 0, rng).unwrap();
        b.record(&cfg, 0, e, i % 2 == 1, 0, rng);
    }
    assert_eq!(b.status(&cfg, 0), Status::Closed);
    // 1000 more requests, none accepted: p = (1100 − 100) / 1101 ≈ 0.908 at the end.
    let mut rejected = 0;
    for _ in 0..1000 {
        match b.acquire(&cfg, 0, rng) {
            Some(e) => b.record(&cfg, 0, e, true, 0, rng),
            None => rejected += 1,
        }
    }
    // Mean of p over the ramp ≈ ∫ (n − 100)/(n + 1) for n = 100..1100 ≈ 0.70.
    assert!((620..780).contains(&rejected), "{rejected}");
    assert_eq!(b.status(&cfg, 0), Status::HalfOpen);
    // Forgotten after the window.
    assert_eq!(b.status(&cfg, 11 * S), Status::Closed);
}

// Polly v8's circuit breaker as its source has it (App-vNext/Polly 173d6d1d, 8.7.x:
// `src/Polly.Core/CircuitBreaker/Controller/AdvancedCircuitBehavior.cs`,
// `Controller/CircuitStateController.cs`, `Health/RollingHealthMetrics.cs`).

fn polly(ratio: f64, min: u32, sampling_ms: u64, break_ms: u64) -> Breaker {
    Breaker::Polly {
        failure_ratio: ratio,
        minimum_throughput: min,
        sampling_duration_ms: sampling_ms,
        break_duration_ms: break_ms,
        scope: Scope::Shared,
    }
}

/// Sends one call at `t` and records its answer; false when the breaker refused it.
fn call(b: &mut BreakerState, cfg: &Breaker, t: u64, fail: bool, rng: &mut JavaRandom) -> bool {
    match b.acquire(cfg, t, rng) {
        Some(e) => {
            b.record(cfg, t, e, fail, 0, rng);
            true
        }
        None => false,
    }
}

/// `AdvancedCircuitBehavior.OnActionFailure`: judged on a failure only, breaking when
/// throughput ≥ MinimumThroughput and failures / throughput ≥ FailureRatio.
#[test]
fn polly_breaks_on_a_failure_at_the_ratio() {
    let cfg = polly(0.5, 4, 10_000, 5_000);
    let rng = &mut JavaRandom::new(12);
    let mut b = BreakerState::new(&cfg);
    for _ in 0..3 {
        call(&mut b, &cfg, 0, true, rng);
    }
    assert_eq!(b.status(&cfg, 0), Status::Closed, "3 calls < 4");
    // A success at 75% failures is not judged.
    call(&mut b, &cfg, 0, false, rng);
    assert_eq!(b.status(&cfg, 0), Status::Closed);
    call(&mut b, &cfg, 0, true, rng);
    assert_eq!(b.status(&cfg, 0), Status::Open, "4 of 5 failed");
    let mut b = BreakerState::new(&cfg);
    for fail in [false, false, false, true, true] {
        call(&mut b, &cfg, 0, fail, rng);
    }
    assert_eq!(b.status(&cfg, 0), Status::Closed, "2 of 5 = 40%");
    call(&mut b, &cfg, 0, true, rng);
    assert_eq!(b.status(&cfg, 0), Status::Open, "3 of 6 = 50%");
}

/// `RollingHealthMetrics`: sub-windows of SamplingDuration / 10 that start at the
/// access that finds the last one over, each dropped once it started SamplingDuration
/// ago. With 10 s: three failures in the window started at 0.3 s still count at
/// 10.299 s and are gone at 10.3 s.
#[test]
fn polly_windows_start_at_an_access() {
    let cfg = polly(0.5, 4, 10_000, 5_000);
    let rng = &mut JavaRandom::new(13);
    let setup = |rng: &mut JavaRandom| {
        let mut b = BreakerState::new(&cfg);
        for _ in 0..3 {
            call(&mut b, &cfg, 300_000, true, rng);
        }
        b
    };
    let mut b = setup(rng);
    call(&mut b, &cfg, 10_299_999, true, rng);
    assert_eq!(b.status(&cfg, 10_299_999), Status::Open, "4 of 4");
    let mut b = setup(rng);
    call(&mut b, &cfg, 10_300_000, true, rng);
    assert_eq!(b.status(&cfg, 10_300_000), Status::Closed, "1 call left");
}

/// `CircuitStateController`: open for BreakDuration, then the first call at or after
/// `_blockedUntil` (`now >= _blockedUntil`) is the one half-open probe and every other
/// call is refused until it answers; a success closes and resets the health metrics, a
/// failure opens again for BreakDuration from then.
#[test]
fn polly_half_open_admits_one_probe() {
    let cfg = polly(0.5, 2, 10_000, 5_000);
    let rng = &mut JavaRandom::new(14);
    let mut b = BreakerState::new(&cfg);
    call(&mut b, &cfg, 0, true, rng);
    call(&mut b, &cfg, 0, true, rng);
    assert_eq!(b.status(&cfg, 0), Status::Open);
    assert!(b.acquire(&cfg, 5 * S - 1, rng).is_none());
    let probe = b.acquire(&cfg, 5 * S, rng).expect("the probe");
    assert!(b.acquire(&cfg, 5 * S, rng).is_none(), "one probe");
    assert!(
        b.acquire(&cfg, 9 * S, rng).is_none(),
        "still waiting for it"
    );
    b.record(&cfg, 9 * S, probe, true, 0, rng);
    assert_eq!(b.status(&cfg, 9 * S), Status::Open, "failed probe");
    assert!(
        b.acquire(&cfg, 14 * S - 1, rng).is_none(),
        "5 s from the failure"
    );
    let probe = b.acquire(&cfg, 14 * S, rng).expect("the next probe");
    b.record(&cfg, 14 * S, probe, false, 0, rng);
    assert_eq!(b.status(&cfg, 14 * S), Status::Closed);
    // Closing reset the metrics: one failure is below the minimum throughput again.
    call(&mut b, &cfg, 14 * S, true, rng);
    assert_eq!(b.status(&cfg, 14 * S), Status::Closed);
}

/// `OnUnhandledOutcomeAsync` closes a half-open circuit on any success, so a call let
/// through before the break that answers during the probe closes it too.
#[test]
fn polly_late_success_closes_a_half_open_circuit() {
    let cfg = polly(0.5, 2, 10_000, 5_000);
    let rng = &mut JavaRandom::new(15);
    let mut b = BreakerState::new(&cfg);
    let early = b.acquire(&cfg, 0, rng).unwrap();
    call(&mut b, &cfg, 0, true, rng);
    call(&mut b, &cfg, 0, true, rng);
    let _probe = b.acquire(&cfg, 5 * S, rng).unwrap();
    b.record(&cfg, 6 * S, early, false, 0, rng);
    assert_eq!(b.status(&cfg, 6 * S), Status::Closed);
}
