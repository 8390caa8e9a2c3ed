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
        b.on_first_attempt(0);
    }
    // 10 requests × 20% = 2 retries.
    assert_eq!(b.try_retry(S, false), Some(0));
    assert_eq!(b.try_retry(S, false), Some(0));
    assert_eq!(b.try_retry(S, false), None);
    // After the ttl the deposits (and withdrawals) are gone.
    for _ in 0..5 {
        b.on_first_attempt(11 * S);
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
        b.on_first_attempt(0);
    }
    let free = (0..50).filter(|_| b.try_retry(0, false).is_some()).count();
    assert_eq!(free, 50); // 99 < 100 requests: no limit
    for _ in 0..401 {
        b.on_first_attempt(0);
    }
    // 500 requests, 50 retries: 50/500 = 10% ≤ 10% → one more; 51/500 > 10% → no.
    assert!(b.try_retry(0, false).is_some());
    assert!(b.try_retry(0, false).is_none());
    for _ in 0..10 {
        b.on_first_attempt(0);
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
        b.on_first_attempt(0);
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
    b.on_outcome(true, false, Some(10)); // a retry that succeeded: refund 10
    assert_eq!(b.try_retry(0, false), Some(5));
    assert_eq!(b.try_retry(0, false), Some(5));
    assert_eq!(b.try_retry(0, false), None);
    for _ in 0..5 {
        b.on_outcome(true, false, None); // first-try successes: +1 each
    }
    assert_eq!(b.try_retry(0, false), Some(5));
    assert_eq!(b.try_retry(0, false), None);
    b.on_outcome(false, true, Some(5)); // failures refund nothing
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
        b.on_first_attempt(0);
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
    // OPEN → HALF_OPEN after wait; 3 permits; 2 successes + 1 failure = 33% < 50% → CLOSED.
    let t = 1000 * 1000;
    assert!(b.acquire(&cfg, t - 1, rng).is_none());
    let es: Vec<u32> = (0..3).map(|_| b.acquire(&cfg, t, rng).unwrap()).collect();
    assert!(b.acquire(&cfg, t, rng).is_none());
    b.record(&cfg, t, es[0], true, 0, rng);
    b.record(&cfg, t, es[1], false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::HalfOpen);
    b.record(&cfg, t, es[2], false, 0, rng);
    assert_eq!(b.status(&cfg, t), Status::Closed);
    // A permit from before the transition is ignored now.
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
        let t = until;
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
    let t = S;
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
    let e = b.acquire(&cfg, S, rng).unwrap();
    b.record(&cfg, S, e, false, 0, rng);
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
