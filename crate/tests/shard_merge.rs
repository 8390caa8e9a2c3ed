//! `retrystorm grid-merge` on shard files that are not a complete, consistent set: each
//! is refused in one line (exit code 2, no panic) naming the file and the header field.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for one test's files.
fn dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("shard-merge-{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary; (exit code, stdout, stderr).
fn retrystorm(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes shard `k` of `n` of a small article sweep (2 points × 2 seeds) to `d`.
fn shard(d: &Path, k: usize, n: usize) -> PathBuf {
    let file = d.join(format!("shard-{k}-of-{n}.jsonl"));
    let (code, _, err) = retrystorm(&[
        "grid",
        "--param",
        "capacity=200,240",
        "--seeds",
        "2",
        "--shard",
        &format!("{k}/{n}"),
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    file
}

/// Rewrites the header line of `file` into `to` with `edit` applied.
fn with_header(file: &Path, to: &Path, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let text = std::fs::read_to_string(file).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    let mut head: Value = serde_json::from_str(head).unwrap();
    edit(&mut head);
    std::fs::write(to, format!("{head}\n{rest}")).unwrap();
    to.to_path_buf()
}

/// `grid-merge FILES` must fail with one line that contains every one of `needles`.
fn refused(files: &[&Path], needles: &[&str]) -> String {
    let mut args = vec!["grid-merge"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let (code, out, err) = retrystorm(&args);
    assert_eq!(code, Some(2), "{args:?}: exit code, stderr {err}");
    assert!(out.is_empty(), "{out}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
    err
}

#[test]
fn a_shard_count_of_zero_is_refused_naming_the_file_and_header_field() {
    let d = dir("zero");
    let s0 = shard(&d, 0, 1);
    let bad = with_header(&s0, &d.join("zero.jsonl"), |h| h["of"] = json!(0));
    refused(&[&bad], &["zero.jsonl", "header.of = 0"]);
}

#[test]
fn negative_or_fractional_header_numbers_are_refused_naming_the_field() {
    let d = dir("negative");
    let s0 = shard(&d, 0, 2);
    let of = with_header(&s0, &d.join("of.jsonl"), |h| h["of"] = json!(-2));
    refused(&[&of], &["of.jsonl", "header.of = -2"]);
    let k = with_header(&s0, &d.join("k.jsonl"), |h| h["shard"] = json!(-1));
    refused(&[&k], &["k.jsonl", "header.shard = -1"]);
    let half = with_header(&s0, &d.join("half.jsonl"), |h| h["of"] = json!(1.5));
    refused(&[&half], &["half.jsonl", "header.of = 1.5"]);
}

#[test]
fn a_shard_index_not_below_the_count_is_refused() {
    let d = dir("index");
    let s0 = shard(&d, 0, 2);
    let bad = with_header(&s0, &d.join("two-of-two.jsonl"), |h| h["shard"] = json!(2));
    refused(&[&bad], &["two-of-two.jsonl", "header.shard = 2"]);
    let huge = with_header(&s0, &d.join("huge.jsonl"), |h| {
        h["of"] = json!(1_000_000_000_000u64)
    });
    refused(&[&huge], &["huge.jsonl", "header.of = 1000000000000"]);
}

#[test]
fn a_header_field_missing_or_unknown_is_named() {
    let d = dir("fields");
    let s0 = shard(&d, 0, 1);
    let gone = with_header(&s0, &d.join("gone.jsonl"), |h| {
        h.as_object_mut().unwrap().remove("of");
    });
    refused(&[&gone], &["gone.jsonl", "header.of is missing"]);
    let extra = with_header(&s0, &d.join("extra.jsonl"), |h| h["total"] = json!(3));
    refused(&[&extra], &["extra.jsonl", "header.total"]);
    let empty = d.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    refused(&[&empty], &["empty.jsonl", "header"]);
}

#[test]
fn shards_of_different_counts_scenarios_or_sweeps_are_refused() {
    let d = dir("mismatch");
    let (s0, s1) = (shard(&d, 0, 2), shard(&d, 1, 2));
    let third = shard(&d, 1, 3);
    refused(&[&s0, &third], &["shard-1-of-3.jsonl", "header.of = 3"]);
    let other = with_header(&s1, &d.join("other-scenario.jsonl"), |h| {
        h["scenario"]["clients"] = json!(150)
    });
    refused(
        &[&s0, &other],
        &["other-scenario.jsonl", "header.scenario.clients = 150"],
    );
    let sweep = with_header(&s1, &d.join("other-sweep.jsonl"), |h| {
        h["sweep"]["params"][0]["values"][1] = json!(260)
    });
    refused(
        &[&s0, &sweep],
        &[
            "other-sweep.jsonl",
            "header.sweep.params[0].values[1] = 260",
        ],
    );
}

#[test]
fn a_shard_given_twice_or_missing_is_refused() {
    let d = dir("set");
    let (s0, s1) = (shard(&d, 0, 3), shard(&d, 1, 3));
    let copy = d.join("copy.jsonl");
    std::fs::copy(&s0, &copy).unwrap();
    refused(
        &[&s0, &s1, &copy],
        &["copy.jsonl", "header.shard = 0", "twice"],
    );
    refused(&[&s0, &s1], &["missing shards", "2/3", "header.shard"]);
}

#[test]
fn sample_lines_of_another_shard_or_seed_are_refused() {
    let d = dir("lines");
    let (s0, s1) = (shard(&d, 0, 2), shard(&d, 1, 2));
    // Shard 1's items under shard 0's header.
    let text0 = std::fs::read_to_string(&s0).unwrap();
    let text1 = std::fs::read_to_string(&s1).unwrap();
    let mixed = d.join("mixed.jsonl");
    let head0 = text0.lines().next().unwrap();
    let body1: Vec<&str> = text1.lines().skip(1).collect();
    std::fs::write(&mixed, format!("{head0}\n{}\n", body1.join("\n"))).unwrap();
    refused(&[&mixed, &s1], &["mixed.jsonl line 2", "item"]);
    // A sample whose seed is not its item's.
    let seeded = d.join("seeded.jsonl");
    let mut lines: Vec<Value> = text0
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[0]["sample"]["seed"] = json!(5);
    let body: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&seeded, format!("{head0}\n{}\n", body.join("\n"))).unwrap();
    refused(&[&seeded, &s1], &["seeded.jsonl line 2", "sample.seed = 5"]);
    // A cut-short file names the shard file the item belongs to.
    let cut = d.join("cut.jsonl");
    std::fs::write(&cut, format!("{head0}\n")).unwrap();
    refused(&[&cut, &s1], &["cut.jsonl", "item 0"]);
}

#[test]
fn a_complete_set_in_any_order_still_merges_to_the_unsharded_run() {
    let d = dir("complete");
    let files: Vec<PathBuf> = (0..3).map(|k| shard(&d, k, 3)).collect();
    let (code, merged, err) = retrystorm(&[
        "grid-merge",
        "--jsonl",
        files[2].to_str().unwrap(),
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let (_, whole, _) = retrystorm(&[
        "grid",
        "--param",
        "capacity=200,240",
        "--seeds",
        "2",
        "--jsonl",
    ]);
    assert_eq!(merged, whole);
}

#[test]
fn a_differing_header_value_is_echoed_on_one_safe_line() {
    // Through the library: the CLI makes every message safe again when it prints it.
    let d = dir("echo");
    let (s0, s1) = (shard(&d, 0, 2), shard(&d, 1, 2));
    let nasty = with_header(&s1, &d.join("nasty.jsonl"), |h| {
        h["scenario"]["strategies"][0]["name"] = json!("a\u{85}b\u{2028}c\u{1b}[2J")
    });
    let texts: Vec<String> = [s0, nasty]
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let err = retrystorm::sweep::merge(&texts).unwrap_err();
    assert!(err.contains("header.scenario.strategies[0].name"), "{err}");
    assert!(!err.chars().any(char::is_control), "{err:?}");
    assert!(!err.contains('\u{2028}'), "{err:?}");
}
