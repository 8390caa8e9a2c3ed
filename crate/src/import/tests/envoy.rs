//! Envoy route and cluster configuration (Envoy 1.3x `route_components.proto`,
//! `retry_state_impl.cc`, `resource_manager_impl.h`) and Istio VirtualServices (istiod
//! `pilot/pkg/networking/core/route/retry/retry.go`).

use super::*;
use crate::cluster::libraries::EnvoyBackoff;
use crate::cluster::{Backoff, Budget, Scope};

const ISTIO: &str = example!("istio-virtualservice.yaml");
const ENVOY: &str = example!("envoy-route.yaml");

#[test]
fn istio_attempts_count_retries_and_a_route_without_retries_gets_istio_s_two() {
    assert_eq!(Library::detect(ISTIO).unwrap(), Library::Envoy);
    let got = en(ISTIO, Library::Envoy, None);
    assert_eq!(got.source, "Istio VirtualService, route reviews-v2");
    assert_eq!(got.policy.max_attempts, 4);
    assert_eq!(
        got.policy.backoff,
        Backoff::Envoy(EnvoyBackoff {
            base_interval_ms: 25,
            max_interval_ms: None
        })
    );
    // The DestinationRule's maxRetries caps the retries outstanding per sidecar.
    assert_eq!(
        got.policy.budget,
        Budget::EnvoyMaxRetries {
            max_retries: 8,
            scope: Scope::PerInstance
        }
    );
    assert!(got
        .quirks
        .contains(&"Istio attempts counts retries: 3 retries = 4 attempts".to_string()));
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("outlier_detection ejects hosts")));
    runs(&got.policy);
    let canary = en(ISTIO, Library::Envoy, Some("reviews-canary"));
    assert_eq!(canary.policy.max_attempts, 3);
    assert!(canary.quirks[0]
        .starts_with("this route has no retries: Istio's default policy is 2 retries"));
    // Without a DestinationRule istiod writes max_retries 4294967295: no limit.
    let vs_only = ISTIO.split("\n---\n").next().unwrap();
    let got = en(vs_only, Library::Envoy, None);
    assert_eq!(got.policy.budget, Budget::None);
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("Istio sets max_retries to 4294967295")));
}

#[test]
fn an_envoy_route_reads_its_back_off_and_its_cluster_s_retry_budget_not_its_limits() {
    assert_eq!(Library::detect(ENVOY).unwrap(), Library::Envoy);
    let got = en(ENVOY, Library::Envoy, None);
    assert_eq!(got.source, "api");
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(
        got.policy.backoff,
        Backoff::Envoy(EnvoyBackoff {
            base_interval_ms: 100,
            max_interval_ms: Some(1000)
        })
    );
    assert_eq!(
        got.policy.budget,
        Budget::EnvoyRetryBudget {
            budget_percent: 25.0,
            min_retry_concurrency: 5,
            scope: Scope::PerInstance
        }
    );
    assert!(got.quirks.contains(
        &"Envoy's circuit_breakers (max_connections, max_requests) are concurrency limits, not a breaker's state machine: not simulated".to_string()
    ));
    runs(&got.policy);
    // No thresholds at all: Envoy's default max_retries of 3 still applies.
    let bare = "retry_policy:\n  retry_on: 5xx\n";
    let got = en(bare, Library::Envoy, None);
    assert_eq!(got.policy.max_attempts, 2);
    assert_eq!(
        got.policy.budget,
        Budget::EnvoyMaxRetries {
            max_retries: 3,
            scope: Scope::PerInstance
        }
    );
    assert_eq!(
        got.defaults,
        vec![
            "num_retries = 1",
            "retry_back_off = 25ms base, 250ms max",
            "max_retries = 3"
        ]
    );
}

#[test]
fn a_bad_envoy_or_istio_setting_is_named_by_its_key_path() {
    let e = refused("retry_policy:\n  num_retries: many\n", Library::Envoy, None);
    assert_eq!(e.field, "retry_policy.num_retries");
    let e = refused(
        "retry_policy:\n  retry_back_off: {base_interval: 25ms}\n",
        Library::Envoy,
        None,
    );
    assert_eq!(e.to_string(), "retry_policy.retry_back_off.base_interval = 25ms is not allowed: expected a duration such as \"0.025s\"");
    let e = refused(
        "retry_policy:\n  retry_back_off: {max_interval: 1s}\n",
        Library::Envoy,
        None,
    );
    assert_eq!(e.field, "retry_policy.retry_back_off.base_interval");
    let e = refused("retry_policy:\n  num_retries: 40\n", Library::Envoy, None);
    assert_eq!(e.field, "retry_policy.num_retries");
    assert_eq!(e.kind, crate::validate::ErrorKind::Range);
    let e = refused(ISTIO, Library::Envoy, Some("ratings"));
    assert_eq!(e.field, "--instance");
    assert!(e.allowed.contains("reviews-v2, reviews-canary"), "{e}");
    let e = refused(
        "kind: VirtualService\nspec:\n  http:\n  - retries: {attempts: three}\n",
        Library::Envoy,
        None,
    );
    assert_eq!(e.field, "spec.http[0].retries.attempts");
}

/// istiod as of istio/istio 86c9f01f: `route/retry/retry.go` `ConvertPolicy` (attempts ≤ 0
/// or absent is no retry policy) and `cluster_traffic_policy.go` (`maxRetries` written
/// only above 0; `retryBudget` with `percent` 20 and `minRetryConcurrency` 3 by default).
#[test]
fn istiod_drops_retries_without_attempts_ignores_max_retries_0_and_reads_a_retry_budget() {
    let vs = |retries: &str, dr: &str| {
        format!(
            "apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: r\nspec:\n  hosts: [r]\n  http:\n  - name: main\n    route:\n    - destination:\n        host: r\n{retries}---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: r\nspec:\n  host: r\n  trafficPolicy:\n{dr}"
        )
    };
    // retries with only a per-try timeout: no retry policy at all.
    let got = en(
        &vs(
            "    retries:\n      perTryTimeout: 2s\n",
            "    connectionPool:\n      http:\n        maxRetries: 5\n",
        ),
        Library::Envoy,
        None,
    );
    assert_eq!(
        (got.policy.max_attempts, &got.policy.backoff),
        (1, &Backoff::None)
    );
    assert!(
        got.quirks
            .iter()
            .any(|q| q.contains(".attempts is absent or ≤ 0: istiod writes no retry policy")),
        "{:?}",
        got.quirks
    );
    // maxRetries: 0 is not written by istiod: no limit, said so.
    let got = en(
        &vs(
            "    retries:\n      attempts: 2\n",
            "    connectionPool:\n      http:\n        maxRetries: 0\n",
        ),
        Library::Envoy,
        None,
    );
    assert_eq!(got.policy.budget, Budget::None);
    assert!(
        got.quirks
            .iter()
            .any(|q| q.starts_with("connectionPool.http.maxRetries: 0 is ignored")),
        "{:?}",
        got.quirks
    );
    // A retryBudget is Envoy's retry_budget, instead of max_retries; its defaults named.
    let got = en(
        &vs(
            "    retries:\n      attempts: 2\n      backoff: 100ms\n",
            "    retryBudget:\n      minRetryConcurrency: 0\n      budgetInterval: 10s\n    connectionPool:\n      http:\n        maxRetries: 5\n",
        ),
        Library::Envoy,
        None,
    );
    assert_eq!(
        got.policy.budget,
        Budget::EnvoyRetryBudget {
            budget_percent: 20.0,
            min_retry_concurrency: 3,
            scope: Scope::PerInstance
        }
    );
    assert_eq!(
        got.policy.backoff,
        Backoff::Envoy(EnvoyBackoff {
            base_interval_ms: 100,
            max_interval_ms: None
        })
    );
    assert_eq!(
        got.defaults,
        vec![
            "retryBudget.percent = 20",
            "retryBudget.minRetryConcurrency = 3"
        ]
    );
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("retryBudget.budgetInterval is not read")));
    let got = en(
        &vs(
            "    retries:\n      attempts: 2\n",
            "    retryBudget:\n      percent: 35.5\n      minRetryConcurrency: 7\n",
        ),
        Library::Envoy,
        None,
    );
    assert_eq!(
        got.policy.budget,
        Budget::EnvoyRetryBudget {
            budget_percent: 35.5,
            min_retry_concurrency: 7,
            scope: Scope::PerInstance
        }
    );
    let zh = import(
        &vs(
            "    retries:\n      attempts: 0\n",
            "    connectionPool:\n      http:\n        maxRetries: 0\n",
        ),
        Library::Envoy,
        None,
        Lang::Zh,
    )
    .unwrap();
    assert!(
        zh.quirks
            .iter()
            .any(|q| q.contains("istiod 不为这条路由写重试策略")),
        "{:?}",
        zh.quirks
    );
}
