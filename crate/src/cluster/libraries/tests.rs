//! The delay rules against the real libraries (vectors printed by each library's own code,
//! `tests/libraries/`) and against cases computed by hand from the cited sources.

use super::*;
use crate::rng::UnitDouble;
use serde_json::Value;

/// Replays recorded draws; panics when the engine draws more than the library did.
struct Draws(Vec<f64>, usize);

impl UnitDouble for Draws {
    fn next_unit(&mut self) -> f64 {
        let u = *self
            .0
            .get(self.1)
            .expect("the engine drew more than the library");
        self.1 += 1;
        u
    }
}

/// One vector line: library, settings, draws, waits.
struct Case {
    library: String,
    settings: Value,
    draws: Vec<f64>,
    waits: Vec<f64>,
}

fn cases(text: &str) -> Vec<Case> {
    let floats =
        |s: &str| -> Vec<f64> { s.split_whitespace().map(|x| x.parse().unwrap()).collect() };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, " | ");
            let head = parts.next().unwrap();
            let (library, settings) = head.split_once(' ').unwrap();
            Case {
                library: library.to_string(),
                settings: serde_json::from_str(settings).unwrap(),
                draws: floats(parts.next().unwrap()),
                waits: floats(parts.next().unwrap()),
            }
        })
        .collect()
}

fn num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// Replays each case's draws through `wait` and checks every wait and that every draw is used.
fn replay(text: &str, mut wait: impl FnMut(&Case, u32, &mut Draws) -> f64) -> usize {
    let all = cases(text);
    for c in &all {
        let mut d = Draws(c.draws.clone(), 0);
        for (i, want) in c.waits.iter().enumerate() {
            let got = wait(c, i as u32 + 1, &mut d);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{} {} retry {}: {got} ≠ {want}",
                c.library,
                c.settings,
                i + 1
            );
        }
        assert_eq!(
            d.1,
            c.draws.len(),
            "{} {}: draws used",
            c.library,
            c.settings
        );
    }
    all.len()
}

#[test]
fn resilience4j_matches_its_interval_function() {
    let n = replay(
        include_str!("../../../tests/data/library_vectors_resilience4j.txt"),
        |c, n, d| {
            let s = &c.settings;
            let b = Resilience4jBackoff {
                wait_ms: num(s, "wait_ms").unwrap() as u64,
                multiplier: num(s, "multiplier"),
                randomized_factor: num(s, "randomized_factor"),
                max_wait_ms: num(s, "max_wait_ms").map(|m| m as u64),
            };
            b.wait_ms(n, d) as f64
        },
    );
    assert_eq!(n, 200);
}

#[test]
fn tenacity_and_botocore_match_their_python_code() {
    let n = replay(
        include_str!("../../../tests/data/library_vectors_python.txt"),
        |c, n, d| {
            let s = &c.settings;
            match c.library.as_str() {
                "tenacity" => {
                    let wait = match s["wait"].as_str().unwrap() {
                        "exponential" => TenacityWait::Exponential,
                        "random_exponential" => TenacityWait::RandomExponential,
                        _ => TenacityWait::ExponentialJitter,
                    };
                    let b = TenacityBackoff {
                        wait,
                        multiplier: num(s, "multiplier").unwrap(),
                        exp_base: num(s, "exp_base").unwrap(),
                        min_s: num(s, "min").unwrap(),
                        max_s: num(s, "max").unwrap(),
                        jitter_s: num(s, "jitter").unwrap_or(1.0),
                    };
                    b.wait_s(n, d)
                }
                _ => {
                    let mode = if s["mode"] == "legacy" {
                        AwsMode::Legacy
                    } else {
                        AwsMode::Standard
                    };
                    AwsBackoff { mode }.python_wait_s(n, d)
                }
            }
        },
    );
    assert_eq!(n, 260);
}

#[test]
fn grpc_js_matches_its_retrying_call() {
    let n = replay(
        include_str!("../../../tests/data/library_vectors_node.txt"),
        |c, n, d| {
            let s = &c.settings;
            let b = GrpcBackoff {
                initial_s: num(s, "initial_s").unwrap(),
                multiplier: num(s, "multiplier").unwrap(),
                max_s: num(s, "max_s").unwrap(),
                jitter: GrpcJitter::Plus20Percent,
                client: GrpcClient::Node,
            };
            b.node_wait_ms(n, d)
        },
    );
    assert_eq!(n, 120);
}

/// Draws `u` every time.
struct Same(f64);

impl UnitDouble for Same {
    fn next_unit(&mut self) -> f64 {
        self.0
    }
}

fn sequence(b: &LibraryBackoff, u: f64, retries: u32) -> Vec<u64> {
    let mut carry = Carry::default();
    (1..=retries)
        .map(|n| b.sleep_us(n, &mut carry, &mut Same(u)))
        .collect()
}

#[test]
fn resilience4j_randomized_wait_vanishes_at_the_cap() {
    // wait 500, ×1.5, ±50%, max 600: w = 500, 750, 1125…; randomized then capped, so from
    // the second retry on w(1 − 0.5) = 375… only the draw's upper part reaches 600;
    // with U = 0.99 every wait is exactly 600, with U = 0 the first is 250.
    let b = LibraryBackoff::Resilience4j(Resilience4jBackoff {
        wait_ms: 500,
        multiplier: Some(1.5),
        randomized_factor: Some(0.5),
        max_wait_ms: Some(600),
    });
    assert_eq!(sequence(&b, 0.99, 4), vec![600_000; 4]);
    // U = 0: lo = w/2 = 250, 375, 562, 843 → capped 600 from the fourth.
    assert_eq!(
        sequence(&b, 0.0, 4),
        vec![250_000, 375_000, 562_000, 600_000]
    );
}

#[test]
fn grpc_go_caps_before_the_jitter_and_truncates_nanoseconds() {
    // initial 0.1 s, ×2, max 0.3 s: 100, 200, 300, 300 ms before jitter; U = 0.5 → ×1.0.
    let b = LibraryBackoff::Grpc(GrpcBackoff {
        initial_s: 0.1,
        multiplier: 2.0,
        max_s: 0.3,
        jitter: GrpcJitter::Plus20Percent,
        client: GrpcClient::Go,
    });
    assert_eq!(
        sequence(&b, 0.5, 4),
        vec![100_000, 200_000, 300_000, 300_000]
    );
    // U → 1: ×1.2 at most, so a capped wait reaches 360 ms, never more.
    assert!(sequence(&b, 0.999_999, 4).iter().all(|&us| us < 360_000));
    // go_pow is Go's math.Pow for whole exponents: 1.1^7 in Go prints 1.9487171000000012.
    assert_eq!(go_pow(1.1, 7), 1.948_717_100_000_001_2);
}

#[test]
fn envoy_waits_below_a_doubling_interval() {
    // base 25, max 250: next = 25, 50, 100, 200, 250, 250.
    let b = EnvoyBackoff {
        base_ms: 25,
        max_ms: 250,
    };
    let intervals: Vec<u64> = (1..=6).map(|n| b.interval_ms(n)).collect();
    assert_eq!(intervals, vec![25, 50, 100, 200, 250, 250]);
    // U just below 1 gives next − 1 (random() % next), never next.
    let w = sequence(&LibraryBackoff::Envoy(b), 0.999_999_999, 6);
    assert_eq!(w, vec![24_000, 49_000, 99_000, 199_000, 249_000, 249_000]);
}

#[test]
fn polly_delays_follow_retry_helper() {
    let p = |kind, use_jitter, max| {
        LibraryBackoff::Polly(PollyBackoff {
            kind,
            delay_ms: 2000.0,
            use_jitter,
            max_delay_ms: max,
        })
    };
    // Constant, linear, exponential without jitter: 2, 2, 2; 2, 4, 6; 2, 4, 8 s.
    assert_eq!(
        sequence(&p(PollyDelay::Constant, false, None), 0.5, 3),
        vec![2_000_000; 3]
    );
    assert_eq!(
        sequence(&p(PollyDelay::Linear, false, None), 0.5, 3),
        vec![2_000_000, 4_000_000, 6_000_000]
    );
    assert_eq!(
        sequence(&p(PollyDelay::Exponential, false, Some(5000.0)), 0.5, 3),
        vec![2_000_000, 4_000_000, 5_000_000]
    );
    // Jittered constant: [0.75 d, 1.25 d); U = 0 → 1.5 s, U = 0.5 → 2 s.
    assert_eq!(
        sequence(&p(PollyDelay::Constant, true, None), 0.0, 1),
        vec![1_500_000]
    );
    assert_eq!(
        sequence(&p(PollyDelay::Constant, true, None), 0.5, 1),
        vec![2_000_000]
    );
    // Decorrelated V2, U = 0 every time: t = 0, 1, 2 → next = 0, 2 tanh 2, 4 tanh √8;
    // delays (next − prev) / 1.4 × 2 s in ticks: 0, 27 543 645.1, 29 201 346.0 (tanh 2 =
    // 0.9640275800758169, tanh √8 = 0.9930373454058692), truncated to ticks, then µs.
    let d = sequence(&p(PollyDelay::Exponential, true, None), 0.0, 3);
    assert_eq!(d, vec![0, 2_754_364, 2_920_134]);
}

#[test]
fn aws_go_v2_reaches_its_max_undrawn_from_the_fifth_retry() {
    let b = LibraryBackoff::Aws(AwsBackoff {
        mode: AwsMode::GoV2,
    });
    // U = 0.5: 1, 2, 4, 8 s, then exactly 20 s.
    assert_eq!(
        sequence(&b, 0.5, 6),
        vec![1_000_000, 2_000_000, 4_000_000, 8_000_000, 20_000_000, 20_000_000]
    );
}

#[test]
fn cenkalti_caps_the_interval_before_the_jitter() {
    // Defaults: 500 ms, ±50%, ×1.5, max 60 s. Interval sequence 500, 750, 1125 … 60 000;
    // with U → 1 a capped wait approaches 90 s, past the max.
    let b = CenkaltiBackoff {
        initial_ms: 500.0,
        randomization_factor: 0.5,
        multiplier: 1.5,
        max_interval_ms: 60_000.0,
    };
    let w = sequence(&LibraryBackoff::Cenkalti(b), 0.999_999, 20);
    assert!(w[19] > 89_000_000 && w[19] <= 90_000_000, "{w:?}");
    // U = 0.5: the interval itself plus the +1 ns of the formula, floored to µs.
    let mid = sequence(
        &LibraryBackoff::Cenkalti(CenkaltiBackoff {
            max_interval_ms: 60_000.0,
            ..b_defaults()
        }),
        0.5,
        3,
    );
    assert_eq!(mid, vec![500_000, 750_000, 1_125_000]);
}

fn b_defaults() -> CenkaltiBackoff {
    CenkaltiBackoff {
        initial_ms: 500.0,
        randomization_factor: 0.5,
        multiplier: 1.5,
        max_interval_ms: 60_000.0,
    }
}

#[test]
fn failsafe_jitters_after_the_cap() {
    // WithBackoff(100 ms, 1 s) + WithJitterFactor(0.25): 100, 200, 400, 800, 1000, 1000
    // un-jittered; U = 0 gives × 1.25, so a capped wait is 1.25 s.
    let b = LibraryBackoff::Failsafe(FailsafeBackoff {
        delay_ms: 100.0,
        max_delay_ms: Some(1000.0),
        delay_factor: 2.0,
        jitter_factor: 0.25,
    });
    assert_eq!(
        sequence(&b, 0.5, 6),
        vec![100_000, 200_000, 400_000, 800_000, 1_000_000, 1_000_000]
    );
    assert_eq!(sequence(&b, 0.0, 6)[5], 1_250_000);
}

#[test]
fn gateway_grows_the_previous_jittered_delay_and_stays_in_bounds() {
    // first 10 ms, max 100, ×2, based on the previous value: 10, 20, 40, 80, 100.
    let mut b = GatewayBackoff {
        first_ms: 10,
        max_ms: Some(100),
        factor: 2,
        based_on_previous_value: true,
        jitter: 0.0,
    };
    let plain = sequence(&LibraryBackoff::Gateway(b.clone()), 0.5, 5);
    assert_eq!(plain, vec![10_000, 20_000, 40_000, 80_000, 100_000]);
    // Jitter 0.5: the first retry only jitters upward (lo = max(first − d, −o) = 0), and
    // no delay leaves [first, max] whatever the draw.
    b.jitter = 0.5;
    for u in [0.0, 0.3, 0.999_999] {
        let w = sequence(&LibraryBackoff::Gateway(b.clone()), u, 8);
        assert!(w[0] >= 10_000, "{w:?}");
        assert!(
            w.iter().all(|&us| (10_000..=100_000).contains(&us)),
            "{w:?}"
        );
    }
}
