//! `retrystorm ensemble` as a user runs it: the same result as the library, identical
//! output for any thread count, the CSV of per-seed values, and bad settings named.

use retrystorm::classic;
use retrystorm::ensemble;
use retrystorm::scenario::AnyScenario;
use std::process::{Command, Output};

fn retrystorm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = retrystorm(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn error(args: &[&str]) -> String {
    let out = retrystorm(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} should fail with 2");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

#[test]
fn json_equals_the_library_and_threads_do_not_matter() {
    let json = stdout(&["ensemble", "--seeds", "12", "--json"]);
    let sc = AnyScenario::Classic(classic::Scenario::article());
    let lib = ensemble::run(&sc, &ensemble::derive_seeds(4242, 12), Some(1)).unwrap();
    let parsed: ensemble::Ensemble = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed, lib);
    for t in ["1", "2", "3"] {
        assert_eq!(
            json,
            stdout(&["ensemble", "--seeds", "12", "--json", "--threads", t])
        );
    }
    let text = stdout(&["ensemble", "--seeds", "12"]);
    assert!(text.contains("PASS on 12 of 12 seeds"), "{text}");
}

#[test]
fn seed_list_and_csv() {
    let csv = stdout(&["ensemble", "--seed-list", "1,7", "--csv"]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("seed,group,metric,value"));
    // Seed 1, S1's attempts equal the single run's.
    let one = classic::run(&classic::Scenario::article(), 1).unwrap();
    let row = format!("1,S1 固定重试3次,attempts,{}", one[0].attempts);
    assert!(csv.lines().any(|l| l == row), "{row}");
    assert!(csv.lines().any(|l| l.starts_with("7,verdict,")));
}

#[test]
fn bad_settings_are_named() {
    assert!(error(&["ensemble", "--seeds", "0"])
        .contains("--seeds = 0 is out of range: allowed 1..=10000"));
    assert!(error(&["ensemble", "--seeds", "10001"]).contains("--seeds"));
    assert!(error(&["ensemble", "--seeds", "many"]).contains("--seeds \"many\""));
    assert!(error(&["ensemble", "--seed-list", "1,x"]).contains("--seed-list \"x\""));
    assert!(error(&["ensemble", "--seed-list", "1", "--seeds", "2"]).contains("not both"));
    assert!(error(&["ensemble"]).contains("needs --seeds"));
    assert!(error(&["ensemble", "--seeds", "2", "--threads", "0"]).contains("--threads"));
}
