//! Retry budgets and breakers against the real libraries: decisions printed by each
//! library's own code (`tests/libraries/gen_*_policies.*`, vectors in
//! `crate/tests/data/policy_vectors_*.txt`) replayed through the engine's state.

use super::budget::BudgetState;
use super::{Budget, Scope};
use serde_json::Value;

/// One vector line: library, settings, events, answers.
struct Case {
    library: String,
    settings: Value,
    events: String,
    answers: String,
}

fn cases(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, " | ");
            let head = parts.next().unwrap();
            let (library, settings) = head.split_once(' ').unwrap();
            Case {
                library: library.to_string(),
                settings: serde_json::from_str(settings).unwrap(),
                events: parts.next().unwrap().trim().to_string(),
                answers: parts.next().unwrap().trim().to_string(),
            }
        })
        .collect()
}

fn num(v: &Value, key: &str) -> f64 {
    v.get(key)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("{key} in {v}"))
}

const NODE: &str = include_str!("../../tests/data/policy_vectors_node.txt");

/// grpc-js `RetryThrottler` (`retrying-call.ts`): after every success (`S`) or
/// retryable failure (`F`), whether a retry may start.
#[test]
fn grpc_throttle_decides_as_grpc_js() {
    let all: Vec<Case> = cases(NODE)
        .into_iter()
        .filter(|c| c.library == "grpc_throttle")
        .collect();
    assert!(all.len() >= 100, "{} cases", all.len());
    for c in &all {
        let mut b = BudgetState::new(&Budget::GrpcThrottle {
            max_tokens: num(&c.settings, "max_tokens") as u32,
            token_ratio: num(&c.settings, "token_ratio"),
            scope: Scope::Shared,
        });
        assert_eq!(c.events.len(), c.answers.len());
        for (i, (e, want)) in c.events.chars().zip(c.answers.chars()).enumerate() {
            b.on_outcome(e == 'S', e == 'F', None);
            let got = if b.try_retry(0, false).is_some() {
                '1'
            } else {
                '0'
            };
            assert_eq!(got, want, "{} event {i} ({e})", c.settings);
        }
    }
}

const PYTHON: &str = include_str!("../../tests/data/policy_vectors_python.txt");

/// botocore's standard retry quota (`retries/standard.py` `RetryQuotaChecker`,
/// `retries/quota.py` `RetryQuota`): the capacity after every event of requests made one
/// after another (`n` new request, `e`/`t` a retry asked after an error or a timeout,
/// `s` success, `f` given up), the engine's quota driven the way the simulation drives it.
#[test]
fn aws_quota_matches_botocore() {
    let all: Vec<Case> = cases(PYTHON)
        .into_iter()
        .filter(|c| c.library == "aws_quota")
        .collect();
    assert!(all.len() >= 50, "{} cases", all.len());
    let mut refusals = 0;
    for c in &all {
        let mut b = BudgetState::new(&Budget::AwsQuota {
            initial_tokens: num(&c.settings, "initial_tokens") as u32,
            retry_cost: 5,
            timeout_cost: 10,
            no_retry_increment: 1,
            scope: Scope::Shared,
        });
        let events: Vec<&str> = c.events.split_whitespace().collect();
        let caps: Vec<u64> = c
            .answers
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(events.len(), caps.len());
        // The cost the request's last granted retry took (the simulation's `retry_cost`).
        let mut last: Option<u32> = None;
        for (i, (e, want)) in events.iter().zip(&caps).enumerate() {
            match *e {
                "n" => last = None,
                "e" | "t" => match b.try_retry(0, *e == "t") {
                    Some(cost) => last = Some(cost),
                    None => refusals += 1,
                },
                "s" => b.on_outcome(true, false, last),
                _ => b.on_outcome(false, true, last),
            }
            let BudgetState::Aws { capacity, .. } = b else {
                unreachable!()
            };
            assert_eq!(capacity, *want, "{} event {i} ({e})", c.settings);
        }
    }
    assert!(refusals > 0, "some case empties its quota");
}
