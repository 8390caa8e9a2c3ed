//! Export: import ∘ export is the identity on every policy a library can express
//! (random policies of the library's own kinds), and what it cannot express is said.

use super::*;
use crate::cluster::libraries::{
    CenkaltiBackoff, FailsafeBackoff, GrpcBackoff, GrpcClient, GrpcJitter, PollyBackoff,
    PollyDelay, Resilience4jBackoff, TenacityBackoff, TenacityWait,
};
use crate::cluster::{Breaker, Budget, Scope, WindowKind};
use crate::import::{import, Imported};
use proptest::prelude::*;

/// `export` then `import` of its text, both in English, the error's message on failure.
fn again(p: &Policy, lib: Library) -> (Exported, Imported) {
    let e = export(p, lib, "backend", Lang::En).unwrap_or_else(|e| panic!("{e}"));
    let i = import(&e.text, lib, None, Lang::En).unwrap_or_else(|err| panic!("{err}\n{}", e.text));
    assert_eq!(Library::detect(&e.text).unwrap(), lib, "{}", e.text);
    (e, i)
}

/// A Resilience4j interval as the starter can build it.
fn r4j_backoff() -> impl Strategy<Value = Backoff> {
    prop_oneof![
        Just(Backoff::None),
        (
            1..=600_000u64,
            prop::option::of(100..=1000u32),
            prop::option::of(0.0..1.0f64),
            prop::option::of(1..=3_600_000u64),
        )
            .prop_map(|(wait, mult, factor, max)| {
                let mult = mult.map(|m| f64::from(m) / 100.0);
                Backoff::Resilience4j(Resilience4jBackoff {
                    wait_duration_ms: wait,
                    exponential_backoff_multiplier: mult,
                    randomized_wait_factor: factor,
                    // The starter keeps a max wait only beside a multiplier.
                    exponential_max_wait_duration_ms: mult.and(max),
                })
            }),
    ]
}

/// A Resilience4j circuit breaker as the starter can build it.
fn r4j_breaker() -> impl Strategy<Value = Breaker> {
    let windows = (any::<bool>(), 1..=100u32, 1..=200u32);
    let rates = (1.0..=100.0f64, 1..=600_000u64, 1.0..=100.0f64);
    let open = (1..=600_000u64, 0..=10_000u64, 1..=50u32, any::<bool>());
    prop_oneof![
        Just(Breaker::None),
        (windows, rates, open).prop_map(
            |((time, size, minimum), (failure, slow, slow_rate), (wait, jitter, half, auto))| {
                Breaker::Resilience4j {
                    window: if time {
                        WindowKind::Time
                    } else {
                        WindowKind::Count
                    },
                    window_size: size,
                    minimum_calls: minimum,
                    failure_rate_percent: failure,
                    slow_call_ms: Some(slow),
                    slow_call_rate_percent: slow_rate,
                    wait_open_ms: wait,
                    open_jitter_ms: jitter,
                    half_open_calls: half,
                    ramp_stage_ms: None,
                    automatic_half_open: auto,
                    scope: Scope::PerInstance,
                }
            }
        ),
    ]
}

/// A gRPC duration as a service config writes it: whole nanoseconds in decimal seconds,
/// read as the reader reads it.
fn grpc_ms(ns: u64) -> f64 {
    let text = format!("{}.{:09}s", ns / 1_000_000_000, ns % 1_000_000_000);
    crate::import::duration::proto_ms(&text).unwrap()
}

/// A gRPC retry policy and throttling as a service config can say them.
fn grpc_policy() -> impl Strategy<Value = Policy> {
    (
        2..=5u32,
        1_000..=600_000_000_000u64,
        100..=1000u32,
        0..=10_000_000_000u64,
        prop::option::of((1..=1000u32, 1..=1_000_000u32)),
    )
        .prop_map(|(attempts, initial_ns, mult, extra_ns, throttle)| {
            let mut p = Policy::new(
                attempts,
                Backoff::Grpc(GrpcBackoff {
                    initial_backoff_ms: grpc_ms(initial_ns),
                    backoff_multiplier: f64::from(mult) / 100.0,
                    max_backoff_ms: grpc_ms((initial_ns + extra_ns).min(3_600_000_000_000)),
                    randomization: GrpcJitter::Plus20Percent,
                    implementation: GrpcClient::Go,
                }),
            );
            if let Some((tokens, milli)) = throttle {
                p.budget = Budget::GrpcThrottle {
                    max_tokens: tokens,
                    // Three decimals, at most the bucket.
                    token_ratio: f64::from(milli.min(tokens * 1000)) / 1000.0,
                    scope: Scope::PerInstance,
                };
            }
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn resilience4j_import_of_export_is_the_identity(
        attempts in 1..=10u32,
        backoff in r4j_backoff(),
        breaker in r4j_breaker(),
    ) {
        let mut p = Policy::new(attempts, backoff);
        p.breaker = breaker;
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Resilience4j);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }

    #[test]
    fn grpc_import_of_export_is_the_identity(p in grpc_policy()) {
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Grpc);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn aws_import_of_export_is_the_identity(attempts in 1..=10u32, mode in 0..2u8) {
        use crate::cluster::libraries::{AwsBackoff, AwsMode};
        let standard = mode == 1;
        let mut p = Policy::new(attempts, Backoff::Aws(AwsBackoff {
            mode: if standard { AwsMode::Standard } else { AwsMode::Legacy },
        }));
        if standard {
            p.budget = crate::import::aws::standard_quota();
        }
        let (e, i) = again(&p, Library::Aws);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}

/// Polly's options as the standard handler can say them (durations in whole ms, within
/// Polly's own bounds).
fn polly_policy() -> impl Strategy<Value = Policy> {
    (
        1..=9u32,
        0..3u8,
        0..=600_000u64,
        any::<bool>(),
        prop::option::of(1..=3_600_000u64),
        (1..=1000u32, 2..=1000u32, 500..=600_000u64, 500..=600_000u64),
    )
        .prop_map(
            |(retries, kind, delay, jitter, max, (ratio, throughput, sampling, brk))| {
                let mut p = Policy::new(
                    retries + 1,
                    Backoff::Polly(PollyBackoff {
                        backoff_type: [
                            PollyDelay::Constant,
                            PollyDelay::Linear,
                            PollyDelay::Exponential,
                        ][usize::from(kind)],
                        delay_ms: delay as f64,
                        use_jitter: jitter,
                        max_delay_ms: max.map(|m| m as f64),
                    }),
                );
                p.breaker = Breaker::Polly {
                    failure_ratio: f64::from(ratio) / 1000.0,
                    minimum_throughput: throughput,
                    sampling_duration_ms: sampling,
                    break_duration_ms: brk,
                    scope: Scope::PerInstance,
                };
                p
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn polly_import_of_export_is_the_identity(p in polly_policy()) {
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Polly);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}

#[test]
fn polly_says_it_has_no_budget_and_always_a_breaker() {
    let aws = import(
        crate::import::tests::example!("aws-config"),
        Library::Aws,
        Some("exporter"),
        Lang::En,
    )
    .unwrap();
    let (e, back) = again(&aws.policy, Library::Polly);
    assert_eq!(e.cannot.len(), 3, "{:?}", e.cannot);
    assert!(
        e.cannot[0].starts_with("Polly cannot write this wait exactly ("),
        "{:?}",
        e.cannot
    );
    assert!(
        e.cannot[1]
            .starts_with("Polly has no retry budget, so the policy's is left out (retry quota"),
        "{:?}",
        e.cannot
    );
    assert!(
        e.cannot[2].starts_with("the standard resilience handler always has a circuit breaker"),
        "{:?}",
        e.cannot
    );
    assert_eq!(back.policy.max_attempts, 6);
    assert!(matches!(back.policy.breaker, Breaker::Polly { .. }));
    // A constant wait without jitter is Polly's Constant exactly, and said nothing of.
    let mut constant = Policy::new(4, Backoff::Constant { ms: 50 });
    constant.breaker = back.policy.breaker.clone();
    let (e, back) = again(&constant, Library::Polly);
    assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    let Backoff::Polly(b) = &back.policy.backoff else {
        panic!()
    };
    for n in 1..=3 {
        assert_eq!(
            crate::cluster::backoff::sleep(
                &back.policy.backoff,
                &Jitter::None,
                n,
                &mut 0,
                &mut Draw(0.3)
            ),
            50_000,
            "{b:?}"
        );
    }
}

/// A tenacity wait as a decorator can say it: no wait, `wait_fixed` of whole ms, or an
/// exponential strategy with its arguments in hundredths of a second.
fn tenacity_backoff() -> impl Strategy<Value = Backoff> {
    prop_oneof![
        Just(Backoff::None),
        (0..=600_000u64).prop_map(|ms| Backoff::Constant { ms }),
        (
            0..3u8,
            0..=6000u32,
            100..=1000u32,
            0..=1000u32,
            prop::option::of(0..=360_000u32),
            0..=500u32,
        )
            .prop_map(|(kind, mult, base, min, max, jitter)| {
                let c = |x: u32| f64::from(x) / 100.0;
                let wait = [
                    TenacityWait::Exponential,
                    TenacityWait::RandomExponential,
                    TenacityWait::ExponentialJitter,
                ][usize::from(kind)];
                let jittered = wait == TenacityWait::ExponentialJitter;
                Backoff::Tenacity(TenacityBackoff {
                    wait,
                    multiplier: c(mult),
                    exp_base: c(base),
                    // wait_exponential_jitter has no min; the others no jitter.
                    min_s: if jittered { 0.0 } else { c(min) },
                    max_s: max.map(c),
                    jitter_s: if jittered { c(jitter) } else { 1.0 },
                })
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn tenacity_import_of_export_is_the_identity(attempts in 1..=10u32, backoff in tenacity_backoff()) {
        let p = Policy::new(attempts, backoff);
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Tenacity);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}

#[test]
fn tenacity_says_it_has_no_budget_or_breaker_in_comments_above_the_decorator() {
    let spring = import(
        crate::import::tests::example!("resilience4j-application.yml"),
        Library::Resilience4j,
        Some("inventory"),
        Lang::En,
    )
    .unwrap();
    let mut p = spring.policy.clone();
    p.budget = crate::import::aws::standard_quota();
    let (e, back) = again(&p, Library::Tenacity);
    // Resilience4j's constant 500 ms (its flags do nothing without their own
    // waitDuration) is tenacity's wait_fixed(0.5) exactly: nothing said of the wait.
    assert_eq!(e.cannot.len(), 2, "{:?}", e.cannot);
    assert!(e.cannot[0]
        .starts_with("tenacity has no retry budget, so the policy's is left out (retry quota"));
    assert!(e.cannot[1].starts_with(
        "tenacity has no circuit breaker, so the policy's is left out (breaker opens"
    ));
    assert!(
        e.text
            .starts_with("# cannot express: tenacity has no retry budget"),
        "{}",
        e.text
    );
    assert!(
        e.text
            .ends_with("\n@retry(stop=stop_after_attempt(3), wait=wait_fixed(0.5))\n"),
        "{}",
        e.text
    );
    assert_eq!(back.policy.max_attempts, 3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn envoy_import_of_export_is_the_identity(
        retries in 1..=9u32,
        base in 1..=60_000u64,
        extra in prop::option::of(0..=600_000u64),
        budget in 0..3u8,
        percent in 0..=1000u32,
        count in 0..=1000u32,
    ) {
        let mut p = Policy::new(
            retries + 1,
            Backoff::Envoy(crate::cluster::libraries::EnvoyBackoff {
                base_interval_ms: base,
                max_interval_ms: extra.map(|x| base + x),
            }),
        );
        p.budget = match budget {
            0 => Budget::None,
            1 => Budget::EnvoyMaxRetries { max_retries: count, scope: Scope::PerInstance },
            _ => Budget::EnvoyRetryBudget {
                budget_percent: f64::from(percent) / 10.0,
                min_retry_concurrency: count,
                scope: Scope::PerInstance,
            },
        };
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Envoy);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}

#[test]
fn envoy_says_its_circuit_breakers_are_not_a_breaker() {
    let polly = import(
        crate::import::tests::example!("polly-appsettings.json"),
        Library::Polly,
        Some("Inventory.Resilience"),
        Lang::En,
    )
    .unwrap();
    let (e, back) = again(&polly.policy, Library::Envoy);
    assert_eq!(e.cannot.len(), 2, "{:?}", e.cannot);
    assert!(e.cannot[0].starts_with("Envoy cannot write this wait exactly ("));
    assert!(e.cannot[1].starts_with(
        "Envoy's circuit_breakers are concurrency limits, not a breaker's state machine, so the policy's breaker is left out (breaker opens"
    ), "{:?}", e.cannot);
    assert_eq!(back.policy.max_attempts, 5);
    assert_eq!(back.policy.breaker, Breaker::None);
    assert_eq!(back.policy.budget, Budget::None);
}

#[test]
fn aws_says_its_waits_and_quota_are_fixed_by_the_mode() {
    let grpc = import(
        crate::import::tests::example!("grpc-service-config.json"),
        Library::Grpc,
        None,
        Lang::En,
    )
    .unwrap();
    let (e, back) = again(&grpc.policy, Library::Aws);
    assert_eq!(e.cannot.len(), 2, "{:?}", e.cannot);
    assert!(e.cannot[0].starts_with("the AWS SDKs' waits are fixed by retry_mode and cannot be set: the policy's (waits 100 ms"), "{:?}", e.cannot);
    assert!(
        e.cannot[1].starts_with("the AWS SDKs' only budget is standard mode's retry quota"),
        "{:?}",
        e.cannot
    );
    assert!(
        e.text
            .contains("[profile backend]\nretry_mode = standard\nmax_attempts = 5\n"),
        "{}",
        e.text
    );
    assert_eq!(back.policy.max_attempts, 5);
    assert_eq!(back.policy.budget, crate::import::aws::standard_quota());
}

#[test]
fn the_catalogues_are_sound() {
    assert_eq!(crate::lang::problems::<Cannot>(), Vec::<String>::new());
    assert_eq!(crate::lang::problems::<Header>(), Vec::<String>::new());
}

#[test]
fn the_example_files_come_back_as_they_were_read() {
    use crate::import::tests::example;
    for (text, lib, instance) in [
        (
            example!("resilience4j-application.yml"),
            Library::Resilience4j,
            "inventory",
        ),
        (
            example!("resilience4j-application.yml"),
            Library::Resilience4j,
            "payments",
        ),
        (
            example!("grpc-service-config.json"),
            Library::Grpc,
            "payments.v1.Payments",
        ),
        (example!("aws-config"), Library::Aws, "exporter"),
        (example!("aws-config"), Library::Aws, "legacy-cron"),
        (
            example!("polly-appsettings.json"),
            Library::Polly,
            "HttpClients.Inventory.Resilience",
        ),
        (example!("tenacity-client.py"), Library::Tenacity, "reserve"),
        (example!("cenkalti-backoff.go"), Library::Cenkalti, "b"),
        (example!("failsafe-go.go"), Library::Failsafe, "payments"),
        (
            example!("finagle-retry-budget.scala"),
            Library::Finagle,
            "orders",
        ),
        (example!("envoy-route.yaml"), Library::Envoy, "api"),
        (
            example!("istio-virtualservice.yaml"),
            Library::Envoy,
            "reviews-v2",
        ),
    ] {
        let first = import(text, lib, Some(instance), Lang::En).unwrap();
        let e = export(&first.policy, lib, instance, Lang::En).unwrap();
        let back = import(&e.text, lib, Some(instance), Lang::En).unwrap();
        assert_eq!(back.policy, first.policy, "{}", e.text);
        // The words past the source line (an Istio route comes back as Envoy's own).
        assert_eq!(back.words[1..], first.words[1..]);
    }
}

#[test]
fn resilience4j_says_it_has_no_retry_budget_and_leaves_it_out() {
    let grpc = import(
        crate::import::tests::example!("grpc-service-config.json"),
        Library::Grpc,
        Some("payments.v1.Payments"),
        Lang::En,
    )
    .unwrap();
    let (e, back) = again(&grpc.policy, Library::Resilience4j);
    assert!(
        e.cannot[0].starts_with("Resilience4j cannot write this wait exactly (waits "),
        "{:?}",
        e.cannot
    );
    assert!(
        e.cannot[1].starts_with(
            "Resilience4j has no retry budget, so the policy's is left out (retry throttling"
        ),
        "{:?}",
        e.cannot
    );
    assert_eq!(e.cannot.len(), 2, "{:?}", e.cannot);
    // Said in the file too, and nothing of the budget in the settings.
    assert!(e
        .text
        .contains("# cannot express: Resilience4j has no retry budget"));
    assert_eq!(back.policy.budget, Budget::None);
    assert_eq!(back.policy.max_attempts, grpc.policy.max_attempts);
    // The nearest wait starts where gRPC's does, at the middle of its ±20%: 250 ms.
    let Backoff::Resilience4j(b) = &back.policy.backoff else {
        panic!("{:?}", back.policy.backoff)
    };
    assert_eq!(b.wait_duration_ms, 250);
    assert_eq!(b.exponential_backoff_multiplier, Some(1.5));

    let zh = export(&grpc.policy, Library::Resilience4j, "backend", Lang::Zh).unwrap();
    assert!(
        zh.cannot[1].starts_with("Resilience4j 没有重试预算，"),
        "{:?}",
        zh.cannot
    );
    assert!(zh.text.contains("# 无法表达：Resilience4j 没有重试预算"));
}

#[test]
fn grpc_says_it_has_no_breaker_clamps_attempts_and_names_its_own_budget() {
    let spring = import(
        crate::import::tests::example!("resilience4j-application.yml"),
        Library::Resilience4j,
        Some("inventory"),
        Lang::En,
    )
    .unwrap();
    let mut p = spring.policy.clone();
    p.max_attempts = 8;
    p.budget = Budget::TokenBucket {
        percent: 10.0,
        max_tokens: 50,
        scope: Scope::PerInstance,
    };
    let (e, back) = again(&p, Library::Grpc);
    let starts = [
        "a gRPC channel clamps maxAttempts to 5: the policy's 8 attempts are written as 5",
        "gRPC cannot write this wait exactly (",
        "gRPC's only budget is its own retry throttling",
        "gRPC has no circuit breaker, so the policy's is left out (",
    ];
    assert_eq!(e.cannot.len(), starts.len(), "{:?}", e.cannot);
    for (c, s) in e.cannot.iter().zip(starts) {
        assert!(c.starts_with(s), "{c:?} should start {s:?}");
    }
    assert_eq!(back.policy.max_attempts, 5);
    assert_eq!(back.policy.budget, Budget::None);
    assert_eq!(back.policy.breaker, Breaker::None);
}

#[test]
fn a_cap_without_a_multiplier_is_written_as_times_one_and_waits_the_same() {
    let b = Resilience4jBackoff {
        wait_duration_ms: 800,
        exponential_backoff_multiplier: None,
        randomized_wait_factor: Some(0.5),
        exponential_max_wait_duration_ms: Some(900),
    };
    let p = Policy::new(4, Backoff::Resilience4j(b.clone()));
    let (e, back) = again(&p, Library::Resilience4j);
    assert!(e.cannot.is_empty());
    let Backoff::Resilience4j(got) = &back.policy.backoff else {
        panic!()
    };
    assert_eq!(got.exponential_backoff_multiplier, Some(1.0));
    for n in 1..=3 {
        for u in [0.0, 0.3, 0.999] {
            assert_eq!(
                got.wait_ms(n, &mut Draw(u)),
                b.wait_ms(n, &mut Draw(u)),
                "retry {n} at {u}"
            );
        }
    }
}

#[test]
fn retrying_at_once_is_a_zero_wait_and_one_attempt_has_no_retry_policy() {
    let p = Policy::new(3, Backoff::None);
    let (e, back) = again(&p, Library::Resilience4j);
    assert!(e.text.contains("waitDuration: 0ms"), "{}", e.text);
    assert_eq!(back.policy, p);
    let one = Policy::new(1, Backoff::None);
    let e = export(&one, Library::Grpc, "backend", Lang::En).unwrap();
    assert!(!e.text.contains("retryPolicy"), "{}", e.text);
    assert_eq!(
        e.cannot,
        vec!["a gRPC retryPolicy needs maxAttempts ≥ 2: one attempt is written as a methodConfig without one"]
    );
}

#[test]
fn a_name_the_file_cannot_hold_is_refused() {
    let p = Policy::new(3, Backoff::None);
    let e = export(&p, Library::Resilience4j, "a: b", Lang::En).unwrap_err();
    assert_eq!(e.field, "--instance");
    let e = export(&p, Library::Grpc, "x\"}", Lang::En).unwrap_err();
    assert_eq!(e.field, "--instance");
    let e = export(&p, Library::Polly, "Clients..Retry", Lang::En).unwrap_err();
    assert_eq!(e.value, "Clients..Retry");
    let e = export(&p, Library::Aws, "a b", Lang::En).unwrap_err();
    assert_eq!(e.field, "--instance");
}

/// A cenkalti/backoff wait as Go code can say it: none, a constant of whole ms, or an
/// exponential with its intervals in whole µs and its factors in hundredths.
fn cenkalti_backoff() -> impl Strategy<Value = Backoff> {
    prop_oneof![
        Just(Backoff::None),
        (1..=600_000u64).prop_map(|ms| Backoff::Constant { ms }),
        (
            1..=600_000_000u64,
            0..=100u32,
            100..=1000u32,
            0..=600_000_000u64
        )
            .prop_map(|(initial, factor, mult, extra)| {
                Backoff::CenkaltiBackoff(CenkaltiBackoff {
                    initial_interval_ms: initial as f64 / 1000.0,
                    randomization_factor: f64::from(factor) / 100.0,
                    multiplier: f64::from(mult) / 100.0,
                    max_interval_ms: (initial + extra) as f64 / 1000.0,
                })
            }),
    ]
}

/// A failsafe-go delay as its builder can say it: none, `WithDelay`, or `WithBackoff` /
/// `WithBackoffFactor`, each with `WithJitter` or `WithJitterFactor` or neither.
fn failsafe_backoff() -> impl Strategy<Value = Backoff> {
    prop_oneof![
        Just(Backoff::None),
        (
            0..=600_000_000u64,
            prop::option::of((0..=600_000_000u64, 100..=1000u32)),
            0..=100u32,
            0..=60_000_000u64,
        )
            .prop_map(|(delay, backoff, factor, jitter)| {
                let us = |x: u64| x as f64 / 1000.0;
                Backoff::FailsafeGo(FailsafeBackoff {
                    delay_ms: us(delay),
                    max_delay_ms: backoff.map(|(extra, _)| us(delay + extra)),
                    delay_factor: backoff.map_or(2.0, |(_, f)| f64::from(f) / 100.0),
                    jitter_factor: f64::from(factor) / 100.0,
                    jitter_ms: us(jitter),
                })
            }),
    ]
}

/// A breaker failsafe-go builds: failures in a row, a ratio over a count window, a rate
/// over a time window.
fn failsafe_breaker() -> impl Strategy<Value = Breaker> {
    let open = (1..=600u64, 1..=50u32);
    prop_oneof![
        Just(Breaker::None),
        (1..=100u32, open.clone()).prop_map(|(failures, (open_s, half))| Breaker::Consecutive {
            failures,
            open_ms: open_s * 1000,
            open_jitter_ms: 0,
            half_open_calls: half,
            scope: Scope::PerInstance,
        }),
        (1..=100u32, 1..=100u32, any::<bool>(), open).prop_map(|(a, b, time, (open_s, half))| {
            // k of n with k < n for a count window: k of k is failures in a row.
            let (k, n) = (a.min(b), a.max(b) + u32::from(!time));
            Breaker::Resilience4j {
                window: if time {
                    WindowKind::Time
                } else {
                    WindowKind::Count
                },
                window_size: n,
                minimum_calls: if time { k } else { n },
                failure_rate_percent: if time {
                    f64::from(k)
                } else {
                    f64::from(k) * 100.0 / f64::from(n)
                },
                slow_call_ms: None,
                slow_call_rate_percent: 100.0,
                wait_open_ms: open_s * 1000,
                open_jitter_ms: 0,
                half_open_calls: half,
                ramp_stage_ms: None,
                automatic_half_open: false,
                scope: Scope::PerInstance,
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn cenkalti_import_of_export_is_the_identity(attempts in 1..=10u32, backoff in cenkalti_backoff()) {
        let p = Policy::new(attempts, backoff);
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Cenkalti);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }

    #[test]
    fn failsafe_import_of_export_is_the_identity(
        attempts in 1..=10u32,
        backoff in failsafe_backoff(),
        breaker in failsafe_breaker(),
    ) {
        let mut p = Policy::new(attempts, backoff);
        p.breaker = breaker;
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Failsafe);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}

#[test]
fn the_go_libraries_say_what_they_cannot_build() {
    let spring = import(
        crate::import::tests::example!("resilience4j-application.yml"),
        Library::Resilience4j,
        Some("inventory"),
        Lang::En,
    )
    .unwrap();
    let mut p = spring.policy.clone();
    p.budget = crate::import::aws::standard_quota();
    let (e, back) = again(&p, Library::Cenkalti);
    assert!(
        e.cannot
            .iter()
            .any(|c| c.starts_with("cenkalti/backoff has no retry budget")),
        "{:?}",
        e.cannot
    );
    assert!(
        e.cannot
            .iter()
            .any(|c| c.starts_with("cenkalti/backoff has no circuit breaker")),
        "{:?}",
        e.cannot
    );
    assert!(
        e.text.starts_with(
            "// cenkalti/backoff (Go, v4), written by retrystorm\n// cannot express: "
        ),
        "{}",
        e.text
    );
    // Resilience4j's constant 500 ms is cenkalti's constant backoff exactly.
    assert_eq!(back.policy.backoff, Backoff::Constant { ms: 500 });
    assert_eq!(back.policy.max_attempts, p.max_attempts);
    let (e, back) = again(&p, Library::Failsafe);
    assert!(
        e.cannot[0]
            .starts_with("failsafe-go's budget (its budget package) limits the retries in flight"),
        "{:?}",
        e.cannot
    );
    // The example's breaker has slow calls: not one failsafe-go builds.
    assert!(
        e.cannot[1].starts_with("failsafe-go's breaker judges failures in a row"),
        "{:?}",
        e.cannot
    );
    assert_eq!(back.policy.breaker, Breaker::None);
    let zh = export(&p, Library::Failsafe, "x", Lang::Zh).unwrap();
    assert!(
        zh.text.contains("// 无法表达：failsafe-go 的预算"),
        "{}",
        zh.text
    );
}

/// A Finagle budget as its settings say it: none, empty, or a windowed budget of whole
/// ms and hundredths of a percent.
fn finagle_budget() -> impl Strategy<Value = Budget> {
    prop_oneof![
        Just(Budget::None),
        Just(Budget::Windowed {
            ttl_ms: 10_000,
            min_retries_per_sec: 0,
            percent_can_retry: 0.0,
            scope: Scope::PerInstance,
        }),
        (1_000..=60_000u64, 0..=100u32, 1..=100_000u32).prop_map(|(ttl_ms, min, pct)| {
            Budget::Windowed {
                ttl_ms,
                min_retries_per_sec: min,
                percent_can_retry: f64::from(pct) / 100.0,
                scope: Scope::PerInstance,
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn finagle_import_of_export_is_the_identity(
        attempts in 1..=10u32,
        wait in prop::option::of(0..=600_000u64),
        budget in finagle_budget(),
    ) {
        let mut p = Policy::new(attempts, wait.map_or(Backoff::None, |ms| Backoff::Constant { ms }));
        p.budget = budget;
        prop_assume!(p.check().is_ok());
        let (e, i) = again(&p, Library::Finagle);
        prop_assert_eq!(&i.policy, &p, "{}", e.text);
        prop_assert!(e.cannot.is_empty(), "{:?}", e.cannot);
    }
}
