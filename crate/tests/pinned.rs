//! Every bundled scenario's output, pinned: "byte-identical" is a test, not a claim.
//!
//! For each scenario of `retrystorm::scenario::bundled()` the file
//! `tests/data/pinned/<id>.json` holds a 64-bit FNV-1a hash of the exact bytes the CLI
//! prints for `retrystorm run --preset <id> --json`, plus the readable part of it: for a
//! cluster scenario the summary and every tier's totals, for a classic one every
//! strategy's result without its per-second series. A change of output fails here with
//! the scenarios that moved; `UPDATE_PINNED=1 cargo test --test pinned` rewrites the
//! files, so the change is deliberate and its diff can be reviewed.

use retrystorm::scenario::bundled;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

/// 64-bit FNV-1a (Fowler–Noll–Vo): offset basis and prime from the reference.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// What the CLI prints for `run --preset id --json`, byte for byte.
fn run_json(id: &str) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_retrystorm"))
        .args(["run", "--preset", id, "--json"])
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{id}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The pinned document of one scenario, as pretty JSON text.
fn pin(id: &str, model: &str) -> String {
    let bytes = run_json(id);
    let doc: Value = serde_json::from_slice(&bytes).expect("run --json is JSON");
    let hash = format!("{:016x}", fnv1a64(&bytes));
    let pinned = match model {
        "cluster" => {
            let r = &doc["result"];
            let tiers: Vec<Value> = r["tiers"]
                .as_array()
                .expect("tiers")
                .iter()
                .map(|t| json!({ "name": t["name"], "totals": t["totals"] }))
                .collect();
            json!({
                "id": id,
                "run_json_fnv1a64": hash,
                "run_json_bytes": bytes.len(),
                "summary": r["summary"],
                "tiers": tiers,
            })
        }
        _ => {
            let results: Vec<Value> = doc["results"]
                .as_array()
                .expect("results")
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    r.as_object_mut().expect("object").remove("per_sec");
                    r
                })
                .collect();
            json!({
                "id": id,
                "run_json_fnv1a64": hash,
                "run_json_bytes": bytes.len(),
                "results": results,
            })
        }
    };
    serde_json::to_string_pretty(&pinned).unwrap() + "\n"
}

fn pinned_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pinned")
}

#[test]
fn fnv1a64_matches_the_reference_vectors() {
    // Vectors from the FNV reference page (draft-eastlake-fnv).
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn every_bundled_scenario_matches_its_pinned_output() {
    let update = std::env::var("UPDATE_PINNED").is_ok_and(|v| v == "1");
    let dir = pinned_dir();
    let mut moved = Vec::new();
    let all = bundled();
    assert!(all.len() >= 10, "every bundled scenario is pinned");
    for b in &all {
        let path = dir.join(format!("{}.json", b.id));
        let now = pin(b.id, b.model);
        let was = std::fs::read_to_string(&path).unwrap_or_default();
        if now == was {
            continue;
        }
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &now).unwrap();
            eprintln!("UPDATE_PINNED=1: rewrote {}", path.display());
        } else {
            moved.push(b.id);
        }
    }
    // No stale pins of scenarios that are no longer bundled.
    for entry in std::fs::read_dir(&dir).expect("pinned dir") {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let id = name.trim_end_matches(".json");
        assert!(
            all.iter().any(|b| b.id == id),
            "{name}: no bundled scenario has this id"
        );
    }
    assert!(
        moved.is_empty(),
        "output changed for {moved:?}; if deliberate, run `UPDATE_PINNED=1 cargo test -p retrystorm --test pinned` and review the diff of crate/tests/data/pinned/"
    );
}
