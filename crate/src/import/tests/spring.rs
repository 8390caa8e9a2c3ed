//! Spring Boot files: Resilience4j's retry and circuit breaker, YAML and `.properties`.

use super::*;
use crate::cluster::libraries::Resilience4jBackoff;
use crate::cluster::{Backoff, Breaker, Scope, WindowKind};

fn r4j(wait: u64, mult: Option<f64>, factor: Option<f64>, max: Option<u64>) -> Backoff {
    Backoff::Resilience4j(Resilience4jBackoff {
        wait_duration_ms: wait,
        exponential_backoff_multiplier: mult,
        randomized_wait_factor: factor,
        exponential_max_wait_duration_ms: max,
    })
}

const YML: &str = example!("resilience4j-application.yml");

#[test]
fn flags_beside_a_base_config_s_wait_do_nothing_as_the_starter_builds_them() {
    assert_eq!(Library::detect(YML).unwrap(), Library::Resilience4j);
    let got = en(YML, Library::Resilience4j, Some("inventory"));
    // The instance sets no waitDuration: the base config's interval stands, 500 ms
    // constant, and every flag of the instance is dropped.
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(got.policy.backoff, r4j(500, None, None, None));
    for flag in ["enable-exponential-backoff", "enable-randomized-wait"] {
        let q = format!(
            "`resilience4j.retry.instances.inventory.{flag}` has no effect: no waitDuration is set beside it"
        );
        assert!(got.quirks.contains(&q), "{:?}", got.quirks);
    }
    assert!(
        got.quirks
            .iter()
            .any(|q| q.contains("profile-specific document")),
        "{:?}",
        got.quirks
    );
    // The breaker: the default config's values.
    let Breaker::Resilience4j {
        window,
        window_size,
        minimum_calls,
        failure_rate_percent,
        wait_open_ms,
        half_open_calls,
        ..
    } = got.policy.breaker
    else {
        panic!("{:?}", got.policy.breaker)
    };
    assert_eq!(
        (
            window,
            window_size,
            minimum_calls,
            failure_rate_percent,
            wait_open_ms,
            half_open_calls
        ),
        (WindowKind::Count, 100, 100, 50.0, 60_000, 10)
    );
    let text = got.text(Lang::En);
    assert!(
        text.contains("Resilience4j (instance inventory)\n3 attempts = 1 call + 2 retries\nwaits 500 ms, 500 ms\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "breaker opens at ≥ 50% failures of the last 100 calls once 100 calls are recorded"
        ),
        "{text}"
    );
    assert!(text.contains("stays open 60 s; 10 probes"), "{text}");
    runs(&got.policy);
}

#[test]
fn a_merge_key_brings_the_wait_and_a_time_window_reads_as_it_is() {
    let got = en(YML, Library::Resilience4j, Some("payments"));
    assert_eq!(got.policy.max_attempts, 2);
    assert_eq!(got.policy.backoff, r4j(1000, None, None, None));
    assert_eq!(
        got.policy.breaker,
        Breaker::Resilience4j {
            window: WindowKind::Time,
            window_size: 10,
            minimum_calls: 20,
            failure_rate_percent: 25.0,
            slow_call_ms: Some(2000),
            slow_call_rate_percent: 80.0,
            wait_open_ms: 30_000,
            open_jitter_ms: 0,
            half_open_calls: 10,
            ramp_stage_ms: None,
            automatic_half_open: true,
            scope: Scope::PerInstance,
        }
    );
    let zh = import(YML, Library::Resilience4j, Some("payments"), Lang::Zh)
        .unwrap()
        .text(Lang::Zh);
    assert!(zh.contains("2 次尝试 = 1 次调用 + 1 次重试"), "{zh}");
    assert!(
        zh.contains("熔断器：最近 10 秒的调用中失败 ≥ 25% 时打开"),
        "{zh}"
    );
    runs(&got.policy);
}

#[test]
fn a_properties_file_reads_as_its_yaml_would() {
    let props = example!("resilience4j-application.properties");
    assert_eq!(Library::detect(props).unwrap(), Library::Resilience4j);
    let got = en(props, Library::Resilience4j, None);
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(got.policy.backoff, r4j(200, Some(2.0), None, None));
    let Breaker::Resilience4j {
        window_size,
        minimum_calls,
        wait_open_ms,
        open_jitter_ms,
        ..
    } = got.policy.breaker
    else {
        panic!()
    };
    // A randomized open wait of 10 s ± 20%: 8 s plus up to 4 s.
    assert_eq!(
        (window_size, minimum_calls, wait_open_ms, open_jitter_ms),
        (20, 40, 8000, 4000)
    );
    assert!(
        got.quirks.contains(
            &"minimumNumberOfCalls 40 is more than slidingWindowSize 20: a count window judges at 20 calls".to_string()
        ),
        "{:?}",
        got.quirks
    );
    assert!(
        got.defaults
            .contains(&"slidingWindowType = COUNT_BASED".to_string()),
        "{:?}",
        got.defaults
    );
    let text = got.text(Lang::En);
    assert!(text.contains("waits 200 ms, 400 ms (×2)"), "{text}");
    assert!(text.contains("once 20 calls are recorded"), "{text}");
    runs(&got.policy);
}

const SPRING: &str = r#"
resilience4j:
  retry:
    configs:
      default: &defaults
        max-attempts: 3
        wait-duration: 500ms
    instances:
      inventory:
        <<: *defaults
        baseConfig: default
        enableExponentialBackoff: true
        exponentialBackoffMultiplier: 1.5
        enableRandomizedWait: true
        randomizedWaitFactor: 0.5
        exponentialMaxWaitDuration: 5s
"#;

#[test]
fn a_spring_file_is_two_retries_not_three() {
    let got = en(SPRING, Library::Resilience4j, None);
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(
        got.policy.backoff,
        r4j(500, Some(1.5), Some(0.5), Some(5000))
    );
    let text = got.text(Lang::En);
    assert!(text.contains("3 attempts = 1 call + 2 retries"), "{text}");
    assert!(
        text.contains("waits 500 ms, 750 ms (×1.5), each ±50%, at most 5 s"),
        "{text}"
    );
    let zh = import(SPRING, Library::Resilience4j, None, Lang::Zh)
        .unwrap()
        .text(Lang::Zh);
    assert!(zh.contains("3 次尝试 = 1 次调用 + 2 次重试"), "{zh}");
}

#[test]
fn a_base_s_factor_is_not_inherited_by_an_instance_with_its_own_wait() {
    let text = "resilience4j.retry:\n  configs:\n    default:\n      randomizedWaitFactor: 0.2\n      enableRandomizedWait: true\n      waitDuration: 1s\n  instances:\n    a:\n      waitDuration: 2s\n";
    let got = en(text, Library::Resilience4j, None);
    assert_eq!(got.policy.backoff, r4j(2000, None, Some(0.5), None));
    assert!(
        got.quirks.contains(&"`resilience4j.retry.configs.default.randomizedWaitFactor` is not inherited: the instance sets its own waitDuration, so the factor is the default 0.5".to_string()),
        "{:?}",
        got.quirks
    );
}

#[test]
fn a_max_wait_without_a_multiplier_is_ignored_as_the_starter_ignores_it() {
    let text = "resilience4j:\n  retry:\n    instances:\n      a:\n        waitDuration: 1s\n        enableExponentialBackoff: true\n        exponentialMaxWaitDuration: 2s\n";
    let got = en(text, Library::Resilience4j, None);
    assert_eq!(got.policy.backoff, r4j(1000, Some(1.5), None, None));
    assert!(
        got.quirks.contains(&"`resilience4j.retry.instances.a.exponentialMaxWaitDuration` is ignored: it needs exponentialBackoffMultiplier (and, with randomized wait, randomizedWaitFactor)".to_string()),
        "{:?}",
        got.quirks
    );
    assert!(got
        .defaults
        .contains(&"exponentialBackoffMultiplier = 1.5".to_string()));
}

#[test]
fn a_zero_wait_retries_at_once_and_randomized_waits_one_millisecond() {
    // RetryConfig.Builder.waitDuration refuses only a negative wait; IntervalFunction's
    // randomize(0, f) is 0 + U × 1, floored at 1 ms.
    let at_once = "resilience4j.retry.instances.a:\n  waitDuration: 0\n  maxAttempts: 4\n  enableExponentialBackoff: true\n";
    let got = en(at_once, Library::Resilience4j, None);
    assert_eq!(got.policy.backoff, Backoff::None);
    assert_eq!(got.words[2], "retries at once, without waiting");
    let random = "resilience4j.retry.instances.a:\n  waitDuration: 0ms\n  enableRandomizedWait: true\n  randomizedWaitFactor: 0.5\n";
    let got = en(random, Library::Resilience4j, None);
    assert_eq!(got.policy.backoff, Backoff::Constant { ms: 1 });
}

#[test]
fn a_bad_spring_setting_is_named_by_its_key_path() {
    let text =
        "resilience4j:\n  retry:\n    instances:\n      inventory:\n        waitDuration: soon\n";
    let e = refused(text, Library::Resilience4j, None);
    assert_eq!(
        e.to_string(),
        "resilience4j.retry.instances.inventory.waitDuration = soon is not allowed: \
         expected a duration (500ms, 2s, PT0.5S or milliseconds)"
    );
    // Beyond the engine's bound: named at the setting, with the bound it breaks.
    let text = "resilience4j.retry.instances.a:\n  maxAttempts: 12\n";
    let e = refused(text, Library::Resilience4j, None);
    assert_eq!(
        e.to_string(),
        "resilience4j.retry.instances.a.maxAttempts = 12 is out of range: allowed max_attempts = 1..=10 (the engine's bound)"
    );
    let text = "resilience4j.retry.instances.a:\n  waitDuration: 1s\n  enableRandomizedWait: true\n  randomizedWaitFactor: 1.5\n";
    let e = refused(text, Library::Resilience4j, None);
    assert_eq!(
        e.field,
        "resilience4j.retry.instances.a.randomizedWaitFactor"
    );
    assert!(e.to_string().contains("= 1.5 is out of range"), "{e}");
    let text = "resilience4j.circuitbreaker.instances.a:\n  failureRateThreshold: 150\n";
    let e = refused(text, Library::Resilience4j, None);
    assert_eq!(
        e.field,
        "resilience4j.circuitbreaker.instances.a.failureRateThreshold"
    );
    let text = "resilience4j.circuitbreaker.instances.a:\n  slidingWindowType: SOMETIMES\n";
    let e = refused(text, Library::Resilience4j, None);
    assert_eq!(
        e.to_string(),
        "resilience4j.circuitbreaker.instances.a.slidingWindowType = SOMETIMES is not allowed: expected COUNT_BASED or TIME_BASED"
    );
    let two = "resilience4j:\n  retry:\n    instances:\n      a: {}\n      b: {}\n";
    let e = refused(two, Library::Resilience4j, None);
    assert_eq!(
        (e.field.as_str(), e.allowed.as_str()),
        ("--instance", "one of: a, b")
    );
    let e = refused(
        "resilience4j.retry.instances.a:\n  baseConfig: shared\n",
        Library::Resilience4j,
        None,
    );
    assert_eq!(e.field, "resilience4j.retry.instances.a.baseConfig");
    let e = refused("resilience4j: [1, 2\n", Library::Resilience4j, None);
    assert!(
        e.to_string()
            .starts_with("invalid scenario: not valid YAML"),
        "{e}"
    );
    let e = refused(
        "resilience4j.retry.instances.a:\n  waitDuration: \"\\e[31m\"\n",
        Library::Resilience4j,
        None,
    );
    assert!(e.to_string().contains("\\u001b[31m"), "{e}");
}
