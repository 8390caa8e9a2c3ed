//! gRPC service configs.

use super::*;
use crate::cluster::{Budget, Scope};

const CONFIG: &str = example!("grpc-service-config.json");

#[test]
fn a_grpc_service_config_is_clamped_to_five_attempts_and_keeps_its_throttling() {
    assert_eq!(Library::detect(CONFIG).unwrap(), Library::Grpc);
    let got = en(CONFIG, Library::Grpc, None);
    assert_eq!(got.source, "inventory.v1.Inventory");
    assert_eq!(got.policy.max_attempts, 5);
    assert!(
        got.quirks
            .contains(&"gRPC clamps maxAttempts 8 to 5".to_string()),
        "{:?}",
        got.quirks
    );
    assert_eq!(
        got.policy.budget,
        Budget::GrpcThrottle {
            max_tokens: 10,
            token_ratio: 0.1,
            scope: Scope::PerInstance
        }
    );
    let text = got.text(Lang::En);
    assert!(
        text.contains("waits 100 ms, 200 ms, 400 ms, 800 ms (×2), each ±20%, at most 1 s"),
        "{text}"
    );
    assert!(
        text.contains("retry throttling: 10 tokens, −1 per failure, +0.1 per success, no retries while tokens ≤ 5"),
        "{text}"
    );
    runs(&got.policy);
    let other = en(CONFIG, Library::Grpc, Some("payments.v1.Payments"));
    assert_eq!(other.policy.max_attempts, 3);
}

#[test]
fn a_bad_grpc_setting_is_named_by_its_key_path() {
    let bad = CONFIG.replace("\"0.1s\"", "\"100ms\"");
    let e = refused(&bad, Library::Grpc, None);
    assert_eq!(e.field, "methodConfig[1].retryPolicy.initialBackoff");
    assert_eq!(e.value, "100ms");
    let e = refused(
        &CONFIG.replace("\"maxAttempts\": 8", "\"maxAttempts\": 1"),
        Library::Grpc,
        None,
    );
    assert_eq!(
        e.to_string(),
        "methodConfig[1].retryPolicy.maxAttempts = 1 is out of range: allowed a whole number > 1"
    );
    let e = refused(
        &CONFIG.replace("\"maxTokens\": 10", "\"maxTokens\": 5000"),
        Library::Grpc,
        None,
    );
    assert_eq!(e.field, "retryThrottling.maxTokens");
    let e = refused(CONFIG, Library::Grpc, Some("nope.Nope"));
    assert_eq!(
        e.allowed,
        "one of: inventory.v1.Inventory, payments.v1.Payments"
    );
}
