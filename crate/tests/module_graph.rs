//! The module import graphs have no cycle: of the engine's top-level modules, of every
//! module of the engine down to its files (`classic::report` and `classic::verdict` may
//! not import each other), and of the wasm glue's files. A cycle means neither side can be
//! read or changed without the other.
//!
//! The graph is read from the source text: every `crate::` path outside line comments and
//! outside the trailing `#[cfg(test)]` module (tests may reach anywhere), including the
//! names inside `use crate::{…}` groups. A name that is not a module is an item of the crate
//! root (`lib.rs`). `mod` declarations are containment, not imports, and are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One import: the module it goes to, and where it is written (for the failure message).
type Edges = BTreeMap<String, BTreeMap<String, String>>;

const ROOT: &str = "(crate root)";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to: `sweep/path.rs` → `sweep`, `cost.rs` → `cost`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    match first.strip_suffix(".rs") {
        Some("lib") => ROOT.to_string(),
        Some(name) => name.to_string(),
        None => first.to_string(),
    }
}

/// The first identifier of each top-level item of a `{…}` group: `a::b, c::{d, e}` → a, c.
fn group_heads(group: &str) -> Vec<String> {
    let (mut depth, mut item, mut heads) = (0, String::new(), Vec::new());
    for ch in group.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => heads.push(std::mem::take(&mut item)),
            _ if depth == 0 => item.push(ch),
            _ => {}
        }
    }
    heads.push(item);
    heads
        .iter()
        .filter_map(|h| h.trim().split("::").next().map(str::trim))
        .filter(|h| !h.is_empty())
        .map(str::to_string)
        .collect()
}

/// The names each `crate::` path of `code` starts with.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(group.len(), |(j, _)| j);
            names.extend(group_heads(&group[..end]));
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.push(name);
            }
        }
    }
    names
}

/// The import graph of the crate whose sources are in `src`; `skip` names files that are
/// roots of other crates (a binary's `main.rs`).
fn graph(src: &Path, skip: &[&str]) -> Edges {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges = Edges::new();
    for file in &files {
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if skip.contains(&rel.as_str()) {
            continue;
        }
        let from = module_of(src, file);
        let text = std::fs::read_to_string(file).unwrap();
        // The unit tests sit at the end of a file, in one `#[cfg(test)]` module.
        let body = text.split("#[cfg(test)]").next().unwrap();
        for (n, line) in body.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for name in crate_paths(code) {
                if name == "self" {
                    continue;
                }
                let to = if modules.contains(&name) && name != ROOT {
                    name
                } else {
                    ROOT.to_string()
                };
                if to != from {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_insert_with(|| format!("{rel}:{}", n + 1));
                }
            }
        }
    }
    edges
}

/// Every cycle, each once (it starts at its smallest module), as a readable chain.
fn cycles(edges: &Edges) -> Vec<String> {
    let mut found = Vec::new();
    for start in edges.keys() {
        let mut stack = vec![vec![start.clone()]];
        while let Some(path) = stack.pop() {
            let last = path.last().unwrap();
            for (to, at) in edges.get(last).into_iter().flatten() {
                if to == start {
                    let mut chain = String::new();
                    for w in path.windows(2) {
                        chain += &format!("{} -> ({}) ", w[0], edges[&w[0]][&w[1]]);
                    }
                    found.push(format!("{chain}{last} -> ({at}) {start}"));
                } else if to > start && !path.contains(to) {
                    let mut next = path.clone();
                    next.push(to.clone());
                    stack.push(next);
                }
            }
        }
    }
    found
}

/// The module a file defines, as its path from the crate root: `lib.rs` → `[]`,
/// `classic/mod.rs` → `[classic]`, `cluster/sim/jobs.rs` → `[cluster, sim, jobs]`.
fn file_module(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The items of a `{…}` group at its top level, each cut before any inner group:
/// `a::b, c::{d, e}` → `a::b`, `c::`.
fn group_items(group: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut depth = 0;
    for ch in group.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => items.push(String::new()),
            _ if depth == 0 => items.last_mut().unwrap().push(ch),
            _ => {}
        }
    }
    items
}

/// Every path of `code` that starts at `crate`, `super` or `self`, made absolute from
/// `at` (the module the code is in), one per item of a `{…}` group; `super::super::x`
/// climbs twice.
fn module_paths(code: &str, at: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| word_start && code.is_char_boundary(i) && code[i..].starts_with(h));
        let Some(head) = head else {
            i += 1;
            continue;
        };
        let mut base: Vec<String> = match head {
            "crate::" => Vec::new(),
            "super::" => at[..at.len().saturating_sub(1)].to_vec(),
            _ => at.to_vec(),
        };
        let mut tail = &code[i + head.len()..];
        while let Some(t) = tail.strip_prefix("super::") {
            base.pop();
            tail = t;
        }
        let items = match tail.strip_prefix('{') {
            Some(group) => {
                let mut depth = 1;
                let end = group
                    .char_indices()
                    .find(|&(_, c)| {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            _ => {}
                        }
                        depth == 0
                    })
                    .map_or(group.len(), |(j, _)| j);
                group_items(&group[..end])
            }
            None => vec![tail
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect()],
        };
        for item in items {
            let mut path = base.clone();
            path.extend(
                item.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "self")
                    .map(str::to_string),
            );
            out.push(path);
        }
        i += head.len();
    }
    out
}

/// The import graph between the files of the crate in `src`: an edge from each file's
/// module to the longest known module a path of it names. Edges between a module and its
/// own ancestors or descendants are left out: a parent re-exports its children's items
/// and children use them through it, which is containment, not a cycle between concerns.
fn file_graph(src: &Path, skip: &[&str]) -> Edges {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| file_module(src, f)).collect();
    let name = |m: &[String]| {
        if m.is_empty() {
            ROOT.to_string()
        } else {
            m.join("::")
        }
    };
    let mut edges = Edges::new();
    for file in &files {
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if skip.contains(&rel.as_str()) {
            continue;
        }
        let from = file_module(src, file);
        let text = std::fs::read_to_string(file).unwrap();
        // The unit tests sit at the end of a file, in one `#[cfg(test)]` module.
        let body = text.split("#[cfg(test)]").next().unwrap();
        for (n, line) in body.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for path in module_paths(code, &from) {
                let to = (0..=path.len())
                    .rev()
                    .map(|k| &path[..k])
                    .find(|p| modules.contains(*p))
                    .unwrap_or(&[]);
                if to.starts_with(&from) || from.starts_with(to) {
                    continue;
                }
                edges
                    .entry(name(&from))
                    .or_default()
                    .entry(name(to))
                    .or_insert_with(|| format!("{rel}:{}", n + 1));
            }
        }
    }
    edges
}

fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn engine_modules_import_without_cycles() {
    let edges = graph(&manifest("src"), &["main.rs"]);
    assert!(edges.len() > 5, "the graph was read: {edges:?}");
    assert_eq!(cycles(&edges), Vec::<String>::new());
}

#[test]
fn engine_files_import_without_cycles() {
    let edges = file_graph(&manifest("src"), &["main.rs"]);
    assert!(edges.len() > 20, "the graph was read: {edges:?}");
    assert!(
        edges["classic::verdict"].contains_key("classic::cells"),
        "paths through super:: are read: {:?}",
        edges["classic::verdict"]
    );
    assert_eq!(cycles(&edges), Vec::<String>::new());
}

/// Two files of one module that import each other through `super::` make a cycle; a
/// child using its parent's re-exports does not.
#[test]
fn a_cycle_between_files_is_found() {
    let dir = std::env::temp_dir().join(format!("file-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("classic")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod classic;\n").unwrap();
    std::fs::write(
        dir.join("classic/mod.rs"),
        "pub mod report;\npub mod verdict;\npub use report::amplification;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("classic/report.rs"),
        "use super::verdict::line;\nuse super::Scenario;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("classic/verdict.rs"),
        "use super::{report::{amplification, delivery}, Scenario};\n",
    )
    .unwrap();
    let edges = file_graph(&dir, &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        cycles(&edges),
        vec!["classic::report -> (classic/report.rs:1) classic::verdict -> (classic/verdict.rs:1) classic::report"]
    );
    assert!(
        !edges.contains_key("classic"),
        "containment is not an import: {edges:?}"
    );
}

#[test]
fn glue_files_import_without_cycles() {
    let edges = graph(&manifest("../www/src"), &[]);
    assert!(edges.len() > 5, "the graph was read: {edges:?}");
    assert_eq!(cycles(&edges), Vec::<String>::new());
}

/// The reader sees a cycle when there is one: a classic file that reaches `scenario`
/// and `scenario` reaching `classic` make one.
#[test]
fn a_cycle_is_found() {
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("classic")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod classic;\npub mod scenario;\n").unwrap();
    std::fs::write(
        dir.join("classic/scenario.rs"),
        "use crate::{lang, scenario::read};\n// crate::cost in a comment is not an import\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("scenario.rs"),
        "fn f() { crate::classic::run() }\n#[cfg(test)]\nmod tests { use crate::cost; }\n",
    )
    .unwrap();
    let edges = graph(&dir, &[]);
    std::fs::remove_dir_all(&dir).unwrap();
    let found = cycles(&edges);
    assert_eq!(
        found,
        vec!["classic -> (classic/scenario.rs:1) scenario -> (scenario.rs:1) classic"]
    );
    assert!(!edges.contains_key("cost") && !edges["scenario"].contains_key("cost"));
}
