//! tenacity decorator lines (tenacity 9.x `tenacity/stop.py`, `tenacity/wait.py`).

use super::*;
use crate::cluster::libraries::{TenacityBackoff, TenacityWait};
use crate::cluster::Backoff;

const CLIENT: &str = example!("tenacity-client.py");

#[test]
fn a_decorator_over_several_lines_with_comments_counts_attempts() {
    assert_eq!(Library::detect(CLIENT).unwrap(), Library::Tenacity);
    let got = en(CLIENT, Library::Tenacity, None);
    assert_eq!(got.policy.max_attempts, 5);
    assert_eq!(
        got.policy.backoff,
        Backoff::Tenacity(TenacityBackoff {
            wait: TenacityWait::RandomExponential,
            multiplier: 0.5,
            exp_base: 2.0,
            min_s: 0.0,
            max_s: Some(30.0),
            jitter_s: 1.0,
        })
    );
    assert_eq!(
        got.quirks,
        vec!["stop_after_attempt(5) counts attempts, the first call included: 4 retries"]
    );
    runs(&got.policy);
}

#[test]
fn positional_arguments_fixed_waits_and_the_jitter_strategy_read_by_their_signatures() {
    let got = en(
        "@tenacity.retry(stop=stop_after_attempt(3), wait=wait_exponential(0.5, 10, 3, 1))",
        Library::Tenacity,
        None,
    );
    let Backoff::Tenacity(t) = &got.policy.backoff else {
        panic!("{:?}", got.policy.backoff)
    };
    assert_eq!(
        (t.multiplier, t.max_s, t.exp_base, t.min_s),
        (0.5, Some(10.0), 3.0, 1.0)
    );
    let got = en(
        "@retry(wait=wait_exponential_jitter(initial=2, jitter=0.5), stop=stop_after_attempt(2))",
        Library::Tenacity,
        None,
    );
    let Backoff::Tenacity(t) = &got.policy.backoff else {
        panic!()
    };
    assert_eq!(t.wait, TenacityWait::ExponentialJitter);
    assert_eq!((t.multiplier, t.jitter_s, t.max_s), (2.0, 0.5, None));
    assert_eq!(got.defaults, vec!["max = MAX_WAIT (no cap)"]);
    let got = en(
        "@retry(stop=stop_after_attempt(4), wait=wait_fixed(1.5))",
        Library::Tenacity,
        None,
    );
    assert_eq!(got.policy.backoff, Backoff::Constant { ms: 1500 });
    let got = en(
        "@retry(stop=stop_after_attempt(4))",
        Library::Tenacity,
        None,
    );
    assert_eq!(got.policy.backoff, Backoff::None);
    assert_eq!(
        got.quirks[1],
        "no wait=: tenacity retries at once (wait_none)"
    );
}

#[test]
fn a_bad_tenacity_argument_is_named_by_its_place_in_the_call() {
    let e = refused("@retry(wait=wait_fixed(1))", Library::Tenacity, None);
    assert_eq!(e.to_string(), "stop is missing: expected stop=stop_after_attempt(N): without a stop tenacity retries forever");
    let e = refused("@retry(stop=stop_after_delay(10))", Library::Tenacity, None);
    assert_eq!(e.field, "stop");
    let e = refused(
        "@retry(stop=stop_after_attempt(0))",
        Library::Tenacity,
        None,
    );
    assert_eq!(e.field, "stop.max_attempt_number");
    let e = refused(
        "@retry(stop=stop_after_attempt(50))",
        Library::Tenacity,
        None,
    );
    assert_eq!(e.field, "stop");
    assert_eq!(e.kind, crate::validate::ErrorKind::Range);
    let e = refused(
        "@retry(stop=stop_after_attempt(3), wait=wait_exponential(max=-1))",
        Library::Tenacity,
        None,
    );
    assert_eq!(e.field, "wait.max");
    let e = refused(
        "@retry(stop=stop_after_attempt(3), wait=wait_exponential(cap=9))",
        Library::Tenacity,
        None,
    );
    assert_eq!(e.field, "wait.cap");
    let e = refused(
        "@retry(stop=stop_after_attempt(3), wait=wait_fixed(1) + wait_random(0, 1))",
        Library::Tenacity,
        None,
    );
    assert_eq!(e.value, "wait_fixed(1) + wait_random(0, 1)");
    let e = refused("@retry(stop=stop_after_attempt(3)", Library::Tenacity, None);
    assert_eq!(
        e.to_string(),
        "retry(…) = unclosed is not allowed: expected a call closed by its )"
    );
}
