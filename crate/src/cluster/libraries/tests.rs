//! The delay rules against the real libraries (vectors printed by each library's own code,
//! `tests/libraries/`) and against cases computed by hand from the cited sources.

use super::*;
use crate::cluster::backoff::sleep;
use crate::cluster::{Backoff, Jitter};
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
                wait_duration_ms: num(s, "wait_ms").unwrap() as u64,
                exponential_backoff_multiplier: num(s, "multiplier"),
                randomized_wait_factor: num(s, "randomized_factor"),
                exponential_max_wait_duration_ms: num(s, "max_wait_ms").map(|m| m as u64),
            };
            b.wait_ms(n, d) as f64
        },
    );
    assert_eq!(n, 200);
}

#[test]
fn tenacity_botocore_backoff_and_stamina_match_their_python_code() {
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
                        max_s: num(s, "max"),
                        jitter_s: num(s, "jitter").unwrap_or(1.0),
                    };
                    b.wait_s(n, d)
                }
                // PyPI `backoff`'s default full jitter over `expo` is tenacity's
                // `wait_random_exponential` (the cap before the jitter, from 0); over
                // `constant` it is the same with base 1.
                "backoff" => {
                    let (multiplier, exp_base, max_s) = match s["gen"].as_str().unwrap() {
                        "expo" => (
                            num(s, "factor").unwrap(),
                            num(s, "base").unwrap(),
                            num(s, "max_value"),
                        ),
                        _ => (num(s, "interval").unwrap(), 1.0, None),
                    };
                    let b = TenacityBackoff {
                        wait: TenacityWait::RandomExponential,
                        multiplier,
                        exp_base,
                        min_s: 0.0,
                        max_s,
                        jitter_s: 1.0,
                    };
                    b.wait_s(n, d)
                }
                // stamina's `_compute_backoff` is tenacity's `wait_exponential_jitter`
                // (min 0): the jitter added before the cap.
                "stamina" => {
                    let b = TenacityBackoff {
                        wait: TenacityWait::ExponentialJitter,
                        multiplier: num(s, "wait_initial").unwrap(),
                        exp_base: num(s, "wait_exp_base").unwrap(),
                        min_s: 0.0,
                        max_s: num(s, "wait_max"),
                        jitter_s: num(s, "wait_jitter").unwrap(),
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
    assert_eq!(n, 340);
}

#[test]
fn grpc_js_matches_its_retrying_call() {
    let n = replay(
        include_str!("../../../tests/data/library_vectors_node.txt"),
        |c, n, d| {
            let s = &c.settings;
            // The vectors hold seconds as grpc-js reads them; the engine's settings are ms.
            let b = GrpcBackoff {
                initial_backoff_ms: num(s, "initial_s").unwrap() * 1000.0,
                backoff_multiplier: num(s, "multiplier").unwrap(),
                max_backoff_ms: num(s, "max_s").unwrap() * 1000.0,
                randomization: GrpcJitter::Plus20Percent,
                implementation: GrpcClient::Node,
            };
            b.node_wait_ms(n, d)
        },
    );
    assert_eq!(n, 120);
}

#[test]
fn cenkalti_matches_its_exponential_backoff() {
    // The library returns whole ns; the engine sleeps whole µs, flooring its own ns (the same
    // float64 formula and truncation as `exponential.go`). So the engine's wait must equal the
    // library's ns floored to µs, exactly: no tolerance beyond that floor.
    let all = cases(include_str!("../../../tests/data/library_vectors_go.txt"));
    for c in &all {
        let s = &c.settings;
        let b = CenkaltiBackoff {
            initial_interval_ms: num(s, "initial_ms").unwrap(),
            randomization_factor: num(s, "randomization_factor").unwrap(),
            multiplier: num(s, "multiplier").unwrap(),
            max_interval_ms: num(s, "max_ms").unwrap(),
        };
        let mut d = Draws(c.draws.clone(), 0);
        for (i, ns) in c.waits.iter().enumerate() {
            let want = (*ns as u64) / 1000;
            let got = b.sleep_us(i as u32 + 1, &mut d);
            assert_eq!(
                got,
                want,
                "{} retry {}: {got} µs ≠ {ns} ns",
                c.settings,
                i + 1
            );
        }
        assert_eq!(d.1, c.draws.len(), "{}: draws used", c.settings);
    }
    assert_eq!(all.len(), 300);
}

#[test]
fn npm_exponential_backoff_is_the_common_exponential_rule() {
    // npm's exponential-backoff waits min(startingDelay · timeMultiple^(n-1), maxDelay) ms
    // before retry n, the cap before the jitter, as the engine's `Backoff::Exponential`.
    // Documented difference: its full jitter waits Math.round(u · delay) whole ms (0 and the
    // delay at half weight), the engine's a whole µs in [0, delay] (floor of u · (delay + 1)),
    // so for the same draw the two differ by at most ½ ms + 1 µs; without jitter they agree
    // to the µs (the engine rounds the float ms to µs).
    let all = cases(include_str!(
        "../../../tests/data/library_vectors_node_exponential_backoff.txt"
    ));
    let mut off_whole_ms = 0;
    for c in &all {
        let s = &c.settings;
        let b = Backoff::Exponential {
            base_ms: num(s, "starting_delay_ms").unwrap() as u64,
            multiplier: num(s, "time_multiple").unwrap(),
            cap_ms: num(s, "max_delay_ms").map_or(u64::MAX, |ms| ms as u64),
        };
        let jitter = match s["jitter"].as_str().unwrap() {
            "full" => Jitter::Full,
            _ => Jitter::None,
        };
        let mut d = Draws(c.draws.clone(), 0);
        let mut carry = 0;
        for (i, &want) in c.waits.iter().enumerate() {
            let n = i as u32 + 1;
            let delay_ms = crate::cluster::backoff::base_delay(&b, n) as f64 / 1000.0;
            let got = sleep(&b, &jitter, n, &mut carry, &mut d);
            let ctx = format!(
                "{} retry {n}: engine {got} µs, library {want} ms",
                c.settings
            );
            if jitter == Jitter::None {
                assert_eq!(got, (want * 1000.0).round() as u64, "{ctx}");
                continue;
            }
            // The library's own formula, on the engine's un-jittered delay and the same draw.
            assert_eq!(want, (c.draws[i] * delay_ms).round(), "{ctx}");
            assert!((got as f64 - want * 1000.0).abs() <= 501.0, "{ctx}");
            off_whole_ms += usize::from(got % 1000 != 0);
        }
        assert_eq!(d.1, c.draws.len(), "{}: one draw per retry", c.settings);
    }
    assert_eq!(all.len(), 160);
    // The difference is real: the engine's full-jitter sleeps are mostly not whole ms.
    assert!(off_whole_ms > 300, "{off_whole_ms}");
}

/// Draws `u` every time.
struct Same(f64);

impl UnitDouble for Same {
    fn next_unit(&mut self) -> f64 {
        self.0
    }
}

/// The engine's sleeps before retries 1..=`retries` of one request, every draw `u`.
fn sequence(b: &Backoff, u: f64, retries: u32) -> Vec<u64> {
    let mut carry = 0;
    (1..=retries)
        .map(|n| sleep(b, &Jitter::None, n, &mut carry, &mut Same(u)))
        .collect()
}

#[test]
fn resilience4j_randomized_wait_vanishes_at_the_cap() {
    // wait 500, ×1.5, ±50%, max 600: w = 500, 750, 1125…; randomized then capped, so from
    // the second retry on w(1 − 0.5) = 375… only the draw's upper part reaches 600;
    // with U = 0.99 every wait is exactly 600, with U = 0 the first is 250.
    let b = Backoff::Resilience4j(Resilience4jBackoff {
        wait_duration_ms: 500,
        exponential_backoff_multiplier: Some(1.5),
        randomized_wait_factor: Some(0.5),
        exponential_max_wait_duration_ms: Some(600),
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
    let b = Backoff::Grpc(GrpcBackoff {
        initial_backoff_ms: 100.0,
        backoff_multiplier: 2.0,
        max_backoff_ms: 300.0,
        randomization: GrpcJitter::Plus20Percent,
        implementation: GrpcClient::Go,
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
        base_interval_ms: 25,
        max_interval_ms: None,
    };
    let intervals: Vec<u64> = (1..=6).map(|n| b.interval_ms(n)).collect();
    assert_eq!(intervals, vec![25, 50, 100, 200, 250, 250]);
    // U just below 1 gives next − 1 (random() % next), never next.
    let w = sequence(&Backoff::Envoy(b), 0.999_999_999, 6);
    assert_eq!(w, vec![24_000, 49_000, 99_000, 199_000, 249_000, 249_000]);
}

#[test]
fn polly_delays_follow_retry_helper() {
    let p = |backoff_type, use_jitter, max| {
        Backoff::Polly(PollyBackoff {
            backoff_type,
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
    let b = Backoff::Aws(AwsBackoff {
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
    let b = Backoff::CenkaltiBackoff(CenkaltiBackoff {
        initial_interval_ms: 500.0,
        randomization_factor: 0.5,
        multiplier: 1.5,
        max_interval_ms: 60_000.0,
    });
    let w = sequence(&b, 0.999_999, 20);
    assert!(w[19] > 89_000_000 && w[19] <= 90_000_000, "{w:?}");
    // U = 0.5: the interval itself plus half of the formula's +1 ns, floored to µs.
    assert_eq!(sequence(&b, 0.5, 3), vec![500_000, 750_000, 1_125_000]);
}

#[test]
fn failsafe_jitters_after_the_cap() {
    // WithBackoff(100 ms, 1 s) + WithJitterFactor(0.25): 100, 200, 400, 800, 1000, 1000
    // un-jittered; U = 0 gives × 1.25, so a capped wait is 1.25 s.
    let b = Backoff::FailsafeGo(FailsafeBackoff {
        delay_ms: 100.0,
        max_delay_ms: Some(1000.0),
        delay_factor: 2.0,
        jitter_factor: 0.25,
        jitter_ms: 0.0,
    });
    assert_eq!(
        sequence(&b, 0.5, 6),
        vec![100_000, 200_000, 400_000, 800_000, 1_000_000, 1_000_000]
    );
    assert_eq!(sequence(&b, 0.0, 6)[5], 1_250_000);
}

#[test]
fn failsafe_adds_an_absolute_jitter_before_the_factor() {
    // WithDelay(100 ms) + WithJitter(30 ms) + WithJitterFactor(0.5): `adjustForJitter`
    // (retrypolicy/retryexecutor.go, failsafe-go 5759a5e6) uses the jitter, not the
    // factor: 100 + (1 − 2U) × 30 ms, so U = 0 gives 130 ms, U = 0.75 gives 85 ms.
    let b = Backoff::FailsafeGo(FailsafeBackoff {
        delay_ms: 100.0,
        max_delay_ms: None,
        delay_factor: 2.0,
        jitter_factor: 0.5,
        jitter_ms: 30.0,
    });
    assert_eq!(sequence(&b, 0.0, 2), vec![130_000, 130_000]);
    assert_eq!(sequence(&b, 0.75, 1), vec![85_000]);
    // A jitter larger than the delay can make it negative: no wait.
    let b = Backoff::FailsafeGo(FailsafeBackoff {
        delay_ms: 10.0,
        max_delay_ms: None,
        delay_factor: 2.0,
        jitter_factor: 0.0,
        jitter_ms: 50.0,
    });
    assert_eq!(sequence(&b, 0.999, 1), vec![0]);
}

#[test]
fn gateway_grows_the_previous_delay_within_its_bounds() {
    // first 10 ms, max 100, ×2: 10, 20, 40, 80, 100, with or without basedOnPreviousValue
    // (no jitter: the gateway has none, so both forms agree).
    for based_on_previous_value in [true, false] {
        let b = Backoff::SpringCloudGateway(GatewayBackoff {
            first_backoff_ms: 10,
            max_backoff_ms: Some(100),
            backoff_factor: 2,
            based_on_previous_value,
        });
        assert_eq!(
            sequence(&b, 0.5, 5),
            vec![10_000, 20_000, 40_000, 80_000, 100_000]
        );
    }
}

#[test]
fn a_library_backoff_reads_and_writes_with_its_own_setting_names() {
    let text =
        r#"{"kind":"resilience4j","wait_duration_ms":500,"exponential_backoff_multiplier":1.5}"#;
    let b: Backoff = serde_json::from_str(text).unwrap();
    assert_eq!(
        serde_json::to_string(&b).unwrap(),
        r#"{"kind":"resilience4j","wait_duration_ms":500,"exponential_backoff_multiplier":1.5,"randomized_wait_factor":null,"exponential_max_wait_duration_ms":null}"#
    );
    // An unknown setting is refused by name, inside the library's kind.
    let err =
        serde_json::from_str::<Backoff>(r#"{"kind":"envoy","base_interval_ms":25,"max_ms":9}"#)
            .unwrap_err();
    assert!(err.to_string().contains("max_ms"), "{err}");
}

#[test]
fn every_library_backoff_runs_in_the_engine_and_refuses_a_second_jitter() {
    let d = crate::cluster::defaults::defaults();
    let mut seen = 0;
    for b in d.backoff.iter().filter(|b| b.is_library()) {
        let mut s = d.scenario.clone();
        let c = s.tiers[0].client.as_mut().unwrap();
        c.backoff = b.clone();
        c.jitter = Jitter::Full;
        let problems = s.problems();
        assert!(
            problems
                .iter()
                .any(|e| e.field == "tiers[0].client.jitter.kind" && e.value == "full"),
            "{b:?}: {problems:?}"
        );
        s.tiers[0].client.as_mut().unwrap().jitter = Jitter::None;
        let one = crate::cluster::run(&s, 7).unwrap();
        let two = crate::cluster::run(&s, 7).unwrap();
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            serde_json::to_string(&two).unwrap()
        );
        // The rule is the one the engine waits by: with a wait, the run is not the
        // run of immediate retries (failsafe-go's default retries at once).
        s.tiers[0].client.as_mut().unwrap().backoff = Backoff::None;
        let none = crate::cluster::run(&s, 7).unwrap();
        let same = serde_json::to_string(&one).unwrap() == serde_json::to_string(&none).unwrap();
        assert_eq!(
            same,
            crate::cluster::backoff::base_delay(b, 1) == 0,
            "{b:?}"
        );
        seen += 1;
    }
    assert_eq!(seen, 9);
}

#[test]
fn a_library_setting_out_of_range_is_named_by_its_path() {
    let d = crate::cluster::defaults::defaults();
    let mut s = d.scenario.clone();
    let c = s.tiers[0].client.as_mut().unwrap();
    c.jitter = Jitter::None;
    c.backoff = Backoff::Resilience4j(Resilience4jBackoff {
        wait_duration_ms: 0,
        exponential_backoff_multiplier: Some(99.0),
        randomized_wait_factor: Some(1.5),
        exponential_max_wait_duration_ms: None,
    });
    let fields: Vec<String> = s.problems().into_iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        vec![
            "tiers[0].client.backoff.wait_duration_ms",
            "tiers[0].client.backoff.exponential_backoff_multiplier",
            "tiers[0].client.backoff.randomized_wait_factor",
        ]
    );
}
