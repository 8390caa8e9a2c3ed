//! Importing real configuration files: what they become, what the words say, and every
//! bad setting named by its key path in the file.

use super::*;
use crate::cluster::libraries::Resilience4jBackoff;

const SPRING: &str = r#"
# A team's application.yml: comments, an anchor, a profile and keys the engine ignores.
spring:
  application:
    name: orders
resilience4j:
  retry:
    configs:
      default: &defaults
        max-attempts: 3
        wait-duration: 500ms
        retry-exceptions:
          - java.io.IOException
    instances:
      inventory:
        <<: *defaults
        baseConfig: default
        enableExponentialBackoff: true
        exponentialBackoffMultiplier: 1.5
        enableRandomizedWait: true
        randomizedWaitFactor: 0.5
        exponentialMaxWaitDuration: 5s
---
spring:
  config:
    activate:
      on-profile: prod
resilience4j:
  retry:
    instances:
      inventory:
        maxAttempts: 7
"#;

#[test]
fn a_spring_file_is_two_retries_not_three() {
    let lib = Library::detect(SPRING).unwrap();
    assert_eq!(lib, Library::Resilience4j);
    let got = import(SPRING, lib, None, Lang::En).unwrap();
    assert_eq!(got.max_attempts, 3);
    assert_eq!(
        got.backoff,
        Backoff::Resilience4j(Resilience4jBackoff {
            wait_duration_ms: 500,
            exponential_backoff_multiplier: Some(1.5),
            randomized_wait_factor: Some(0.5),
            exponential_max_wait_duration_ms: Some(5000),
        })
    );
    let text = got.text(Lang::En);
    assert!(text.contains("3 attempts = 1 call + 2 retries"), "{text}");
    assert!(
        text.contains("waits 500 ms, 750 ms (×1.5), each ±50%, at most 5 s"),
        "{text}"
    );
    assert!(
        text.contains("1 profile-specific document(s) not read"),
        "{text}"
    );
    let zh = import(SPRING, lib, None, Lang::Zh).unwrap().text(Lang::Zh);
    assert!(zh.contains("3 次尝试 = 1 次调用 + 2 次重试"), "{zh}");
}

#[test]
fn a_yaml_merge_key_brings_its_anchor_s_settings() {
    let text = "x: &base\n  maxAttempts: 4\n  waitDuration: 2s\nresilience4j.retry.instances.a:\n  <<: *base\n  maxAttempts: 2\n";
    let got = import(text, Library::Resilience4j, None, Lang::En).unwrap();
    assert_eq!(got.max_attempts, 2);
    let Backoff::Resilience4j(r) = &got.backoff else {
        panic!()
    };
    assert_eq!(r.wait_duration_ms, 2000);
}

#[test]
fn spring_flags_without_a_wait_duration_do_nothing_and_say_so() {
    let text = "resilience4j.retry:\n  instances:\n    a:\n      enableExponentialBackoff: true\n      enableRandomizedWait: true\n";
    let got = import(text, Library::Resilience4j, None, Lang::En).unwrap();
    assert_eq!(
        got.backoff,
        Backoff::Resilience4j(Resilience4jBackoff {
            wait_duration_ms: 500,
            exponential_backoff_multiplier: None,
            randomized_wait_factor: None,
            exponential_max_wait_duration_ms: None,
        })
    );
    assert!(
        got.quirks
            .iter()
            .any(|q| q == "enableExponentialBackoff has no effect: waitDuration is not set"),
        "{:?}",
        got.quirks
    );
    assert!(
        got.defaults.iter().any(|d| d == "waitDuration = 500ms"),
        "{:?}",
        got.defaults
    );
}

#[test]
fn a_max_wait_without_a_multiplier_is_ignored_as_the_starter_ignores_it() {
    let text = "resilience4j:\n  retry:\n    instances:\n      a:\n        waitDuration: 1s\n        enableExponentialBackoff: true\n        exponentialMaxWaitDuration: 2s\n";
    let got = import(text, Library::Resilience4j, None, Lang::En).unwrap();
    let Backoff::Resilience4j(r) = &got.backoff else {
        panic!()
    };
    assert_eq!(r.exponential_backoff_multiplier, Some(1.5));
    assert_eq!(r.exponential_max_wait_duration_ms, None);
    assert!(
        got.quirks
            .iter()
            .any(|q| q.starts_with("exponentialMaxWaitDuration is ignored")),
        "{:?}",
        got.quirks
    );
}

#[test]
fn a_bad_spring_setting_is_named_by_its_key_path() {
    let text =
        "resilience4j:\n  retry:\n    instances:\n      inventory:\n        waitDuration: soon\n";
    let e = import(text, Library::Resilience4j, None, Lang::En).unwrap_err();
    assert_eq!(
        e.field,
        "resilience4j.retry.instances.inventory.waitDuration"
    );
    assert_eq!(e.value, "soon");
    let text =
        "resilience4j:\n  retry:\n    instances:\n      a:\n        randomizedWaitFactor: 1.5\n";
    let e = import(text, Library::Resilience4j, None, Lang::En).unwrap_err();
    assert_eq!(
        e.field,
        "resilience4j.retry.instances.a.randomizedWaitFactor"
    );
    let two = "resilience4j:\n  retry:\n    instances:\n      a: {}\n      b: {}\n";
    let e = import(two, Library::Resilience4j, None, Lang::En).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.allowed.as_str()),
        ("--instance", "one of: a, b")
    );
}

const GRPC: &str = r#"{
  "methodConfig": [{
    "name": [{"service": "inventory.Inventory"}],
    "retryPolicy": {
      "maxAttempts": 8,
      "initialBackoff": "0.1s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }],
  "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
}"#;

#[test]
fn a_grpc_service_config_is_clamped_to_five_attempts_and_keeps_its_throttling() {
    let lib = Library::detect(GRPC).unwrap();
    assert_eq!(lib, Library::Grpc);
    let got = import(GRPC, lib, None, Lang::En).unwrap();
    assert_eq!(got.max_attempts, 5);
    assert!(
        got.quirks
            .contains(&"gRPC clamps maxAttempts 8 to 5".to_string()),
        "{:?}",
        got.quirks
    );
    assert_eq!(
        got.budget,
        Some(Budget::GrpcThrottle {
            max_tokens: 10,
            token_ratio: 0.1,
            scope: crate::cluster::Scope::PerInstance
        })
    );
    let text = got.text(Lang::En);
    assert!(
        text.contains("waits 100 ms, 200 ms, 400 ms, 800 ms (×2), each ±20%"),
        "{text}"
    );
    // The policy is a valid client policy of a scenario.
    let mut s = crate::cluster::defaults::defaults().scenario;
    let c = s.tiers[0].client.as_mut().unwrap();
    let mut doc = serde_json::to_value(&*c).unwrap();
    for (k, v) in got.policy_json().as_object().unwrap() {
        doc[k] = v.clone();
    }
    *c = serde_json::from_value(doc).unwrap();
    s.validate().unwrap();
}

#[test]
fn a_bad_grpc_setting_is_named_by_its_key_path() {
    let bad = GRPC.replace("\"0.1s\"", "\"100ms\"");
    let e = import(&bad, Library::Grpc, None, Lang::En).unwrap_err();
    assert_eq!(e.field, "methodConfig[0].retryPolicy.initialBackoff");
    assert_eq!(e.value, "\"100ms\"");
}
