//! cenkalti/backoff Go code (v4.1.3 as Debian's golang-github-cenkalti-backoff-dev 4.1.3-1
//! ships it: `exponential.go`, `tries.go`, `retry.go`; v5's `WithMaxTries`).

use super::*;
use crate::cluster::libraries::CenkaltiBackoff;
use crate::cluster::{Backoff, Jitter};
use crate::import::words::Draw;

const CLIENT: &str = example!("cenkalti-backoff.go");

/// The sleeps before retries 1..=n at draw `u`, µs.
fn sleeps(p: &Policy, u: f64) -> Vec<u64> {
    let mut carry = 0;
    (1..p.max_attempts)
        .map(|n| {
            crate::cluster::backoff::sleep(&p.backoff, &Jitter::None, n, &mut carry, &mut Draw(u))
        })
        .collect()
}

#[test]
fn go_code_with_comments_and_other_lines_reads_its_fields_and_counts_retries() {
    assert_eq!(Library::detect(CLIENT).unwrap(), Library::Cenkalti);
    let got = en(CLIENT, Library::Cenkalti, None);
    // WithMaxRetries(b, 4): tries.go lets NextBackOff through 4 times, so 5 attempts.
    assert_eq!(got.policy.max_attempts, 5);
    assert_eq!(
        got.policy.backoff,
        Backoff::CenkaltiBackoff(CenkaltiBackoff {
            initial_interval_ms: 100.0,
            randomization_factor: 0.5,
            multiplier: 2.0,
            max_interval_ms: 2000.0,
        })
    );
    assert_eq!(
        got.quirks[0],
        "backoff.WithMaxRetries(…, 4) counts retries, not attempts: 5 attempts = 1 call + 4 retries"
    );
    // The commented-out MaxElapsedTime is not read: the default 15 min is.
    assert_eq!(got.defaults, vec!["MaxElapsedTime = 15 * time.Minute"]);
    assert!(got.quirks[1].starts_with("MaxElapsedTime (15 * time.Minute) is not simulated"));
    // The lines that are not backoff settings are named: `package`, the imports, the
    // operation's body; not the settings, nor the Retry call.
    let unread = got.quirks.last().unwrap();
    assert!(
        unread.starts_with("lines 3, 5–8, 10, 13, 20–23"),
        "{unread}"
    );
    assert!(!unread.contains("14") && !unread.contains("31"), "{unread}");
    assert_eq!(
        got.words[2],
        "waits 100 ms, 200 ms, 400 ms, 800 ms (×2), each ±50%, the interval at most 2 s \
         (jittered after the cap, so a wait reaches 3 s)"
    );
    runs(&got.policy);
    let zh = import(CLIENT, Library::Cenkalti, None, Lang::Zh).unwrap();
    assert!(zh.quirks[0].contains("计的是重试次数"), "{:?}", zh.quirks);
}

#[test]
fn the_waits_are_exponential_go_s_formula_with_the_cap_before_the_jitter() {
    // exponential.go: next = cur − f·cur + U·(2f·cur + 1) ns, truncated; then
    // cur = cur ≥ max/mult ? max : cur·mult. 100 ms ×2 capped at 2 s, f = 0.5:
    // intervals 100, 200, 400, 800, 1600, 2000, 2000 ms.
    let code = "b := backoff.NewExponentialBackOff()\nb.InitialInterval = 100 * time.Millisecond\n\
                b.MaxInterval = 2 * time.Second\nb.Multiplier = 2\nb.RandomizationFactor = 0.5\n\
                backoff.Retry(op, backoff.WithMaxRetries(b, 7))";
    let p = en(code, Library::Cenkalti, None).policy;
    assert_eq!(p.max_attempts, 8);
    // U = 0: half of each interval, in µs.
    assert_eq!(
        sleeps(&p, 0.0),
        vec![50_000, 100_000, 200_000, 400_000, 800_000, 1_000_000, 1_000_000]
    );
    // U just below 1: 1.5 × the interval (the +1 ns of the formula under a µs): the
    // capped interval's wait is 3 s, above MaxInterval.
    let top = sleeps(&p, 1.0 - 1e-12);
    assert_eq!(top[5], 3_000_000);
    assert_eq!(top[0], 150_000);
}

#[test]
fn v5_options_max_tries_and_literals_read_as_the_library_builds_them() {
    let v5 = "b := backoff.NewExponentialBackOff()\nb.InitialInterval = time.Duration(250) * time.Millisecond\n\
              _, err := backoff.Retry(ctx, op, backoff.WithBackOff(b), backoff.WithMaxTries(5), backoff.WithMaxElapsedTime(time.Minute))";
    let got = en(v5, Library::Cenkalti, None);
    assert_eq!(got.policy.max_attempts, 5);
    assert_eq!(
        got.quirks[0],
        "backoff.WithMaxTries(5) counts attempts, the first call included: 4 retries"
    );
    assert!(got
        .quirks
        .iter()
        .any(|q| q.starts_with("MaxElapsedTime (time.Minute)")));
    let Backoff::CenkaltiBackoff(b) = &got.policy.backoff else {
        panic!("{:?}", got.policy.backoff)
    };
    assert_eq!(
        (b.initial_interval_ms, b.multiplier, b.randomization_factor),
        (250.0, 1.5, 0.5)
    );
    // Options of v4.3: NewExponentialBackOff(WithInitialInterval(…), …).
    let opts = "b := backoff.NewExponentialBackOff(backoff.WithInitialInterval(time.Second / 2), backoff.WithMultiplier(3))\n\
                backoff.Retry(op, backoff.WithMaxRetries(b, 2))";
    let Backoff::CenkaltiBackoff(b) = en(opts, Library::Cenkalti, None).policy.backoff else {
        panic!()
    };
    assert_eq!((b.initial_interval_ms, b.multiplier), (500.0, 3.0));
    // A composite literal's fields left out are zero: no jitter, said so.
    let lit = "b := &backoff.ExponentialBackOff{\n  InitialInterval: 50 * time.Millisecond,\n  Multiplier: 2,\n  MaxInterval: time.Second,\n}\n\
               backoff.Retry(op, backoff.WithMaxRetries(b, 3))";
    let got = en(lit, Library::Cenkalti, None);
    let Backoff::CenkaltiBackoff(b) = &got.policy.backoff else {
        panic!()
    };
    assert_eq!(b.randomization_factor, 0.0);
    assert!(got
        .quirks
        .iter()
        .any(|q| q.contains("it is 0 (not the default 0.5)")));
    assert!(got.defaults.is_empty());
    // A constant and a zero backoff.
    let c = en(
        "b := backoff.NewConstantBackOff(2 * time.Second)\nbackoff.Retry(op, backoff.WithMaxRetries(b, 1))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(c.policy.backoff, Backoff::Constant { ms: 2000 });
    assert_eq!(c.policy.max_attempts, 2);
    let z = en(
        "backoff.Retry(op, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 3))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(
        (z.policy.backoff, z.policy.max_attempts),
        (Backoff::None, 4)
    );
}

#[test]
fn a_bad_go_setting_is_named_as_written() {
    let e = refused(
        "b := backoff.NewExponentialBackOff()\nbackoff.Retry(op, b)",
        Library::Cenkalti,
        None,
    );
    assert_eq!(e.field, "backoff.WithMaxRetries");
    assert!(e.to_string().contains("is missing"), "{e}");
    assert!(e.allowed.contains("MaxElapsedTime"), "{e}");
    let e = refused(
        "b := backoff.NewExponentialBackOff()\nb.MaxInterval = maxWait\nbackoff.Retry(op, backoff.WithMaxRetries(b, 3))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(e.field, "b.MaxInterval");
    assert_eq!(e.value, "maxWait");
    assert!(e.allowed.contains("100 * time.Millisecond"), "{e}");
    let e = refused(
        "b := backoff.NewExponentialBackOff()\nb.RandomizationFactor = 1.5\nbackoff.Retry(op, backoff.WithMaxRetries(b, 3))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("b.RandomizationFactor", "1.5")
    );
    let e = refused(
        "b := backoff.NewExponentialBackOff()\nbackoff.Retry(op, backoff.WithMaxRetries(b, 40))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(
        (e.field.as_str(), e.value.as_str()),
        ("backoff.WithMaxRetries(b, n)", "40")
    );
    let e = refused(
        "b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2}\nbackoff.Retry(op, backoff.WithMaxRetries(b, 3))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(e.field, "ExponentialBackOff{MaxInterval}");
    assert!(e.allowed.contains("every wait after the first is 0"), "{e}");
    let e = refused(
        "b := backoff.NewExponentialBackOff()\nbackoff.Retry(op, backoff.WithMaxTries(0))",
        Library::Cenkalti,
        None,
    );
    assert_eq!(e.field, "backoff.WithMaxTries(n)");
}
