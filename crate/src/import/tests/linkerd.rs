//! Finagle `RetryBudget` lines (finagle-core `service/RetryBudget.scala`) and Linkerd
//! ServiceProfiles (linkerd2 b24cd405 `profile_translator.go`, linkerd2-proxy 29637b64
//! `service-profiles/src/proto.rs`, tower 0.5 `retry/budget/tps_budget.rs`).

use super::*;
use crate::cluster::{Backoff, Budget, Scope};

const SCALA: &str = example!("finagle-retry-budget.scala");
const PROFILE: &str = example!("linkerd-serviceprofile.yaml");

#[test]
fn a_finagle_budget_line_with_its_tries_and_backoff() {
    assert_eq!(Library::detect(SCALA).unwrap(), Library::Finagle);
    let got = en(SCALA, Library::Finagle, None);
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(got.policy.backoff, Backoff::Constant { ms: 100 });
    assert_eq!(
        got.policy.budget,
        Budget::Windowed {
            ttl_ms: 10_000,
            min_retries_per_sec: 5,
            percent_can_retry: 20.0,
            scope: Scope::PerInstance
        }
    );
    assert_eq!(
        got.quirks[0],
        "RetryPolicy.tries(3) counts attempts, the first call included: 2 retries"
    );
    assert_eq!(
        got.words[3],
        "retry budget: retries up to 20% of the requests of the last 10 s, plus 5 a second always"
    );
    runs(&got.policy);
    // Positional arguments, the defaults, the empty budget.
    let got = en(
        "RetryBudget(2.seconds, 0)\nRetryPolicy.tries(2)",
        Library::Finagle,
        None,
    );
    let Budget::Windowed {
        ttl_ms,
        min_retries_per_sec,
        percent_can_retry,
        ..
    } = got.policy.budget
    else {
        panic!()
    };
    assert_eq!(
        (ttl_ms, min_retries_per_sec, percent_can_retry),
        (2000, 0, 20.0)
    );
    assert_eq!(got.defaults, vec!["percentCanRetry = 0.2"]);
    let got = en(
        "val b = RetryBudget.Empty\nRetryPolicy.tries(4)",
        Library::Finagle,
        None,
    );
    assert_eq!(got.words[3], "an empty retry budget: never a retry");
}

#[test]
fn a_linkerd_profile_is_the_nearest_windowed_budget_and_says_how_it_differs() {
    assert_eq!(Library::detect(PROFILE).unwrap(), Library::Finagle);
    let got = en(PROFILE, Library::Finagle, None);
    // The first retryable route; no per-request limit, so the engine's most attempts.
    assert_eq!(got.source, "ServiceProfile, route GET /books/{id}");
    assert_eq!(got.policy.max_attempts, crate::cluster::MAX_ATTEMPTS);
    assert_eq!(got.policy.backoff, Backoff::None);
    // retryRatio 0.3: tower withdraws ⌊1/0.3⌋ = 3 deposits per retry, so a third.
    let Budget::Windowed {
        ttl_ms,
        min_retries_per_sec,
        percent_can_retry,
        ..
    } = got.policy.budget
    else {
        panic!("{:?}", got.policy.budget)
    };
    assert_eq!((ttl_ms, min_retries_per_sec), (10_000, 5));
    assert!(
        (percent_can_retry - 100.0 / 3.0).abs() < 1e-6,
        "{percent_can_retry}"
    );
    assert_eq!(
        got.quirks[0],
        "retryRatio 0.3: tower withdraws ⌊1 / ratio⌋ deposits per retry, so 33.333% applies"
    );
    assert!(got.quirks[1].starts_with(
        "Linkerd's budget (tower's TpsBudget) deposits only for a response that is not retried"
    ));
    assert!(got.quirks[2].starts_with("a ServiceProfile has no per-request retry limit"));
    runs(&got.policy);
    // The route that is not retryable: one attempt.
    let post = en(PROFILE, Library::Finagle, Some("POST /books"));
    assert_eq!(
        (post.policy.max_attempts, &post.policy.budget),
        (1, &Budget::None)
    );
    assert_eq!(
        post.quirks[0],
        "route POST /books has no isRetryable: true: Linkerd does not retry it"
    );
    // No retryBudget: Linkerd's default; a ttl out of the proxy's range: no retries.
    let bare = "kind: ServiceProfile\nspec:\n  routes:\n  - name: r\n    isRetryable: true\n";
    let got = en(bare, Library::Finagle, None);
    assert!(got.quirks[0].starts_with("no spec.retryBudget: Linkerd's default budget"));
    let Budget::Windowed {
        percent_can_retry,
        min_retries_per_sec,
        ..
    } = got.policy.budget
    else {
        panic!()
    };
    assert_eq!((percent_can_retry, min_retries_per_sec), (20.0, 10));
    let long = format!(
        "{bare}  retryBudget:\n    retryRatio: 0.2\n    minRetriesPerSecond: 1\n    ttl: 2m\n"
    );
    let got = en(&long, Library::Finagle, None);
    assert_eq!(got.policy.max_attempts, 1);
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("ttl 2m is not between 1 s and 60 s")));
}

#[test]
fn a_bad_budget_setting_is_named_where_it_is_written() {
    let e = refused(
        "RetryBudget(ttl = ten, minRetriesPerSec = 1)\nRetryPolicy.tries(2)",
        Library::Finagle,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("RetryBudget.ttl", "ten")
    );
    let e = refused(
        "RetryBudget(ttl = 5.minutes)\nRetryPolicy.tries(2)",
        Library::Finagle,
        None,
    );
    assert_eq!(e.field, "RetryBudget.ttl");
    assert!(e.allowed.contains("the engine's bound"), "{e}");
    let e = refused("RetryBudget()", Library::Finagle, None);
    assert_eq!(e.field, "RetryPolicy.tries");
    let bad = "kind: ServiceProfile\nspec:\n  routes:\n  - name: r\n    isRetryable: true\n  retryBudget:\n    retryRatio: 0.2\n";
    let e = refused(bad, Library::Finagle, None);
    assert_eq!(e.field, "spec.retryBudget.ttl");
    let e = refused(
        &bad.replace("0.2\n", "0.2\n    ttl: soon\n"),
        Library::Finagle,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("spec.retryBudget.ttl", "soon")
    );
}
