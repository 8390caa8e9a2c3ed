//! AWS config files (botocore 1.3x: `configprovider.py`, `client.py`, `retries/`).

use super::*;
use crate::cluster::libraries::{AwsBackoff, AwsMode};
use crate::cluster::{Backoff, Budget};

const CONFIG: &str = example!("aws-config");

#[test]
fn a_profile_s_standard_mode_counts_every_attempt_and_brings_its_quota() {
    assert_eq!(Library::detect(CONFIG).unwrap(), Library::Aws);
    let got = en(CONFIG, Library::Aws, Some("exporter"));
    assert_eq!(got.source, "profile exporter");
    assert_eq!(got.policy.max_attempts, 6);
    assert_eq!(
        got.policy.backoff,
        Backoff::Aws(AwsBackoff {
            mode: AwsMode::Standard
        })
    );
    assert_eq!(got.policy.budget, crate::import::aws::standard_quota());
    assert_eq!(got.words[1], "6 attempts = 1 call + 5 retries");
    assert!(got.defaults.is_empty(), "{:?}", got.defaults);
    runs(&got.policy);
}

#[test]
fn without_a_mode_it_is_legacy_and_five_attempts_unless_said() {
    let got = en(CONFIG, Library::Aws, Some("legacy-cron"));
    assert_eq!(got.policy.max_attempts, 3);
    assert_eq!(
        got.policy.backoff,
        Backoff::Aws(AwsBackoff {
            mode: AwsMode::Legacy
        })
    );
    assert_eq!(got.policy.budget, Budget::None);
    assert_eq!(got.defaults, vec!["retry_mode = legacy"]);
    // The default profile sets neither: botocore's legacy default of 5 attempts.
    let default = en(CONFIG, Library::Aws, None);
    assert_eq!(default.source, "default");
    assert_eq!(default.policy.max_attempts, 5);
    assert_eq!(
        default.defaults,
        vec!["retry_mode = legacy", "max_attempts = 5"]
    );
    let adaptive = en("[default]\nretry_mode = adaptive\n", Library::Aws, None);
    assert_eq!(adaptive.policy.max_attempts, 3);
    assert!(adaptive.quirks[0].starts_with("adaptive mode's client-side rate limiter"));
}

#[test]
fn a_bad_aws_setting_is_named_by_its_section_and_key() {
    let e = refused(
        "[profile a]\nretry_mode = standard\nmax_attempts = 5 # five\n",
        Library::Aws,
        None,
    );
    assert_eq!(
        e.to_string(),
        "profile a.max_attempts = 5 # five is not allowed: expected a whole number ≥ 1"
    );
    let e = refused("[default]\nretry_mode = Standard\n", Library::Aws, None);
    assert_eq!(e.field, "default.retry_mode");
    let e = refused("[default]\nmax_attempts = 40\n", Library::Aws, None);
    assert_eq!(e.field, "default.max_attempts");
    assert_eq!(e.kind, crate::validate::ErrorKind::Range);
    let e = refused(CONFIG, Library::Aws, Some("prod"));
    assert_eq!(e.field, "--instance");
    assert!(e.allowed.contains("default, exporter, legacy-cron"), "{e}");
    let e = refused(
        "[default]\nmax_attempts = 3\nmax_attempts = 4\n",
        Library::Aws,
        None,
    );
    assert_eq!(e.field, "line 3");
}
