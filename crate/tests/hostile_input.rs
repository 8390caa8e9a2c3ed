//! Structure-aware fuzzing of every input the tool reads: the bundled scenarios (both
//! models), the bundled sweeps, shard files and share links, each mutated a few times
//! (a field deleted, duplicated or retyped, a number pushed to a bound or past it, deep
//! nesting, control characters in keys and values, a very long string). Whatever the
//! mutation, nothing panics; a rejection is one safe line naming a field; an accepted
//! scenario, cut down to a cheap run first (few clients, a short duration, few events),
//! runs to finite numbers. The case counts keep the file to seconds in a debug build.

use proptest::prelude::*;
use proptest::sample::Index;
use retrystorm::lang::Lang;
use retrystorm::scenario::{self, AnyScenario};
use retrystorm::sweep::{self, Sweep};
use retrystorm::{ensemble, share, ValidationError};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// One step of a path into a document.
#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// Every place below the root of `v`.
fn places(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                at.push(Step::Key(k.clone()));
                out.push(at.clone());
                places(x, at, out);
                at.pop();
            }
        }
        Value::Array(list) => {
            for (i, x) in list.iter().enumerate() {
                at.push(Step::Index(i));
                out.push(at.clone());
                places(x, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, s| match s {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// Numbers at and past the bounds of every field type.
const BOUNDS: [&str; 14] = [
    "0",
    "-1",
    "1",
    "0.5",
    "2147483648",
    "4294967296",
    "9007199254740993",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "1e15",
    "1e308",
    "-1e308",
    "1e-300",
];

/// Text no message may carry raw: a terminal's ESC sequence, line breaks, C1, bidi.
const NASTY: &str = "a\nb\u{1b}[31mc\u{85}\u{2028}\u{202e}";

/// Applies mutation `op` (with `pick` choosing among its variants) at `path` of `doc`.
fn mutate(doc: &mut Value, path: &[Step], op: u8, pick: usize) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let Some(parent) = get_mut(doc, parent) else {
        return;
    };
    let current = match last {
        Step::Key(k) => parent.get(k.as_str()).cloned(),
        Step::Index(i) => parent.get(*i).cloned(),
    };
    let Some(current) = current else { return };
    let set = |parent: &mut Value, new: Value| match last {
        Step::Key(k) => parent[k.as_str()] = new,
        Step::Index(i) => parent[*i] = new,
    };
    match op {
        // Delete.
        0 => match (parent, last) {
            (Value::Object(m), Step::Key(k)) => {
                m.remove(k);
            }
            (Value::Array(l), Step::Index(i)) => {
                l.remove(*i);
            }
            _ => {}
        },
        // Duplicate: another element, or the member under a second (unknown) name.
        1 => match (parent, last) {
            (Value::Object(m), Step::Key(k)) => {
                m.insert(format!("{k}_again"), current);
            }
            (Value::Array(l), Step::Index(i)) => l.insert(*i, current),
            _ => {}
        },
        // Retype.
        2 => {
            let kinds = [
                json!(null),
                json!(true),
                json!("x"),
                json!([]),
                json!({}),
                json!(1.5),
            ];
            set(parent, kinds[pick % kinds.len()].clone());
        }
        // A number at or past a bound.
        3 => set(
            parent,
            serde_json::from_str(BOUNDS[pick % BOUNDS.len()]).unwrap(),
        ),
        // Deep nesting (past serde_json's limit of 128 once written as text).
        4 => {
            let mut v = current;
            for _ in 0..(100 + pick % 100) {
                v = json!([v]);
            }
            set(parent, v);
        }
        // Control characters in a value, or in a key.
        5 => set(parent, json!(format!("{NASTY}{}", pick))),
        6 => {
            if let (Value::Object(m), Step::Key(k)) = (parent, last) {
                let v = m.remove(k).unwrap_or_default();
                m.insert(format!("{k}{NASTY}"), v);
            }
        }
        // A very long string.
        _ => set(parent, json!("x".repeat(10_000 + pick % 1000))),
    }
}

/// Mutates `doc` once per (place, op, pick).
fn mutated(mut doc: Value, edits: &[(Index, u8, usize)]) -> Value {
    for (place, op, pick) in edits {
        let mut all = Vec::new();
        places(&doc, &mut Vec::new(), &mut all);
        if all.is_empty() {
            break;
        }
        let path = all[place.index(all.len())].clone();
        mutate(&mut doc, &path, *op, *pick);
    }
    doc
}

fn edits() -> impl Strategy<Value = Vec<(Index, u8, usize)>> {
    proptest::collection::vec((any::<Index>(), 0u8..8, any::<usize>()), 1..=3)
}

/// True for a character a message must not carry raw.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A rejection: one safe line in both languages, naming a field.
fn refused_well(e: &ValidationError) -> Result<(), TestCaseError> {
    for lang in [Lang::En, Lang::Zh] {
        let m = e.message(lang);
        prop_assert!(!m.chars().any(unsafe_char), "{m:?}");
        prop_assert!(m.chars().count() < 2_000, "{} chars", m.chars().count());
    }
    prop_assert!(!e.field.is_empty(), "no field named: {e}");
    Ok(())
}

/// Every bundled scenario file: (name, document).
fn scenario_files() -> &'static [(String, Value)] {
    static FILES: OnceLock<Vec<(String, Value)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<(String, Value)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .map(|p| {
                let text = std::fs::read_to_string(&p).unwrap();
                (
                    p.display().to_string(),
                    serde_json::from_str(&text).unwrap(),
                )
            })
            .collect();
        files.sort_by(|a, b| a.0.cmp(&b.0));
        assert!(files.len() >= 10 && files.iter().any(|f| f.1["tiers"].is_array()));
        files
    })
}

/// `sc` cut down to a cheap run, if it stays valid that way.
fn cheap(sc: &AnyScenario) -> Option<AnyScenario> {
    let mut doc = sc.to_value();
    let cap = |doc: &mut Value, key: &str, most: u64| {
        if let Some(n) = doc.get(key).and_then(Value::as_u64) {
            doc[key] = json!(n.min(most));
        }
    };
    match sc {
        AnyScenario::Classic(_) => {
            cap(&mut doc, "clients", 40);
            cap(&mut doc, "duration_s", 40);
        }
        AnyScenario::Cluster(_) => {
            cap(&mut doc, "duration_ms", 20_000);
            cap(&mut doc, "max_events", 20_000);
        }
    }
    scenario::from_value(doc).ok()
}

/// Every number an ensemble of one seed reports is finite.
fn runs_finite(sc: &AnyScenario) -> Result<(), TestCaseError> {
    let Some(sc) = cheap(sc) else { return Ok(()) };
    let e = match ensemble::run(&sc, &[7], Some(1)) {
        Ok(e) => e,
        Err(e) => return refused_well(&e),
    };
    for g in &e.groups {
        for m in &g.metrics {
            for x in m.values.iter().flatten() {
                prop_assert!(x.is_finite(), "{}.{} = {x}", g.key, m.metric);
            }
        }
    }
    for b in &e.bands {
        for x in b.p5.iter().chain(&b.median).chain(&b.p95) {
            prop_assert!(x.is_finite(), "band {} = {x}", b.name);
        }
    }
    Ok(())
}

/// A small sweep's shard files (3 shards of 2 points × 2 seeds) as documents per line.
fn shard_files() -> &'static Vec<Vec<Value>> {
    static FILES: OnceLock<Vec<Vec<Value>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let s = Sweep::from_json(
            r#"{"params": [{"path": "capacity", "values": [200, 240]}], "seeds": 2}"#,
        )
        .unwrap();
        let base = scenario::parse(
            &scenario_files()
                .iter()
                .find(|f| f.0.ends_with("article.json"))
                .unwrap()
                .1
                .to_string(),
        )
        .unwrap();
        let mut doc = base.to_value();
        doc["clients"] = json!(40);
        let plan = s.plan(&scenario::from_value(doc).unwrap()).unwrap();
        (0..3)
            .map(|k| {
                sweep::shard_jsonl(&plan, k, 3, Some(1))
                    .unwrap()
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect()
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenarios_are_refused_well_or_run_finite(file in any::<Index>(), edits in edits()) {
        let files = scenario_files();
        let (_, doc) = &files[file.index(files.len())];
        let text = mutated(doc.clone(), &edits).to_string();
        match scenario::parse(&text) {
            Ok(sc) => runs_finite(&sc)?,
            Err(e) => refused_well(&e)?,
        }
    }

    #[test]
    fn mutated_sweeps_are_refused_well(preset in any::<Index>(), edits in edits()) {
        let presets = sweep::presets::presets();
        let p = &presets[preset.index(presets.len())];
        let doc: Value = serde_json::from_str(p.json).unwrap();
        let text = mutated(doc, &edits).to_string();
        let base = scenario::bundled().into_iter().find(|b| b.id == p.scenario);
        let base = scenario::parse(base.expect("a bundled scenario").json).unwrap();
        match Sweep::from_json(&text) {
            Ok(s) => {
                if let Err(e) = s.plan(&base) {
                    refused_well(&e)?;
                }
            }
            Err(e) => refused_well(&e)?,
        }
    }

    #[test]
    fn mutated_shard_files_merge_or_are_refused_in_one_line(
        which in 0usize..3,
        line in any::<Index>(),
        edits in edits(),
        drop in any::<bool>(),
    ) {
        let files = shard_files();
        let mut texts: Vec<String> = files
            .iter()
            .map(|f| f.iter().map(|l| l.to_string() + "\n").collect())
            .collect();
        let lines = &files[which];
        let l = line.index(lines.len());
        let mut doc = mutated(lines[l].clone(), &edits).to_string();
        if drop {
            doc.clear();
        }
        let mut new: Vec<String> = lines.iter().map(Value::to_string).collect();
        new[l] = doc;
        texts[which] = new.join("\n");
        match sweep::merge(&texts) {
            Ok((plan, samples)) => prop_assert_eq!(samples.len(), plan.items()),
            Err(e) => {
                prop_assert!(!e.chars().any(unsafe_char), "{e:?}");
                prop_assert!(e.starts_with("file ") || e.starts_with("missing shards"), "{e}");
            }
        }
    }

    #[test]
    fn mutated_share_links_are_refused_well(edits in edits(), version in 1u32..=3) {
        let files = scenario_files();
        let find = |end: &str| files.iter().find(|f| f.0.ends_with(end)).unwrap().1.clone();
        let mut state = Map::new();
        state.insert("model".into(), json!("cluster"));
        state.insert("classic".into(), find("article.json"));
        state.insert("cluster".into(), find("cluster-call-chain.json"));
        if version >= 2 {
            state.insert("cluster_a".into(), find("cluster-metastable.json"));
        }
        if version >= 3 {
            state.insert("cluster_sweep".into(), json!({"seeds": 10}));
        }
        let doc = mutated(Value::Object(state), &edits);
        let link = format!("v{version}.{}", share::base64url_encode(doc.to_string().as_bytes()));
        if let Err(e) = share::decode_checked(&link) {
            refused_well(&e)?;
            prop_assert!(e.field.starts_with("link"), "{e}");
        }
    }
}
