//! Messages that echo a field name or a value keep to one printable line: control
//! characters (C0, DEL, C1, U+2028/2029, bidi controls) are escaped, and a long name or
//! value is cut with an ellipsis, on the CLI's stderr and in the message the page shows.

use retrystorm::lang::Lang;
use retrystorm::scenario;
use retrystorm::validate::{ValidationError, ECHO_MAX_CHARS};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// Characters no message may carry raw.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[track_caller]
fn safe(message: &str) {
    assert!(!message.chars().any(unsafe_char), "{message:?}");
}

fn bundled(name: &str) -> Value {
    let path = format!("{}/../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The CLI's stderr for `run --scenario` of `doc`, which must be refused.
fn cli_error(doc: &Value, test: &str) -> String {
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("safe-echo-{test}.json"));
    std::fs::write(&file, doc.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(["run", "--scenario", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with('\n'), "{err:?}");
    safe(&err[..err.len() - 1]);
    err
}

const NASTY: &str = "a\nb\u{1b}[31mc\u{85}d\u{2028}e\u{202e}f\u{7f}";

#[test]
fn a_key_with_control_characters_is_echoed_on_one_line() {
    let mut doc = bundled("cluster-call-chain.json");
    doc["tiers"][0][NASTY] = json!(1);
    let err = cli_error(&doc, "key");
    assert!(err.contains("\\u001b[31m"), "{err}");
    assert!(err.contains("\\u2028"), "{err}");
    let e = scenario::parse(&doc.to_string()).unwrap_err();
    for lang in [Lang::En, Lang::Zh] {
        safe(&e.message(lang));
        safe(&e.plain(lang));
    }
}

#[test]
fn a_value_with_control_characters_is_echoed_on_one_line() {
    let mut doc = bundled("cluster-call-chain.json");
    doc["tiers"][1]["balancer"] = json!(NASTY);
    let err = cli_error(&doc, "value");
    assert!(err.contains("tiers[1].balancer"), "{err}");
    let e = scenario::parse(&doc.to_string()).unwrap_err();
    for lang in [Lang::En, Lang::Zh] {
        safe(&e.message(lang));
        safe(&e.plain(lang));
    }
}

#[test]
fn long_names_and_values_are_cut_with_an_ellipsis() {
    let long = "x".repeat(5_000);
    let mut doc = bundled("cluster-call-chain.json");
    doc["tiers"][1]["balancer"] = json!(long);
    let err = cli_error(&doc, "long-value");
    assert!(err.contains('…'), "{err}");
    assert!(
        err.chars().count() < 600,
        "{} chars: {err}",
        err.chars().count()
    );
    let mut doc = bundled("article.json");
    doc[long.as_str()] = json!(1);
    let err = cli_error(&doc, "long-key");
    assert!(err.contains('…'), "{err}");
    assert!(err.chars().count() < 600, "{} chars", err.chars().count());
}

#[test]
fn every_part_of_a_message_is_made_safe() {
    let e = ValidationError::new(NASTY, NASTY, NASTY);
    for lang in [Lang::En, Lang::Zh] {
        let m = e.message(lang);
        safe(&m);
        safe(&e.plain(lang));
        assert!(
            m.contains("a\\nb\\u001b[31mc\\u0085d\\u2028e\\u202ef\\u007f"),
            "{m}"
        );
    }
    let long = ValidationError::new("f", "v".repeat(200), "1..=2");
    let m = long.to_string();
    let shown = m.split(" = ").nth(1).unwrap().split(" is ").next().unwrap();
    assert_eq!(shown.chars().count(), ECHO_MAX_CHARS + 1, "{m}");
    assert!(shown.ends_with('…'));
    // Short, printable text is left as it is.
    assert_eq!(
        ValidationError::new("clients", 0, "1..=1000000").to_string(),
        "clients = 0 is out of range: allowed 1..=1000000"
    );
}

#[test]
fn a_shard_file_name_with_control_characters_is_escaped() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("shard\n\u{1b}[2J.jsonl");
    std::fs::write(&file, "").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(["grid-merge", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    safe(err.trim_end_matches('\n'));
    assert!(err.contains("shard\\n\\u001b[2J.jsonl"), "{err}");
}
