//! Shard files: one shard of a sweep as JSON Lines ([`shard_jsonl`]), and the merge of a
//! complete set of them ([`merge_named`]), which trusts nothing in the files: every
//! header field is checked against its range and against the first file's, and every
//! sample line against the shard and the seed it claims, so a malformed or foreign
//! file is refused in a message naming the file and the field.

use super::{err, Plan, Sweep};
use crate::ensemble::Sample;
use crate::scenario;
use crate::validate::{self, ErrorKind, ValidationError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most shards a sweep is cut into: `--shard K/N` and a shard file's `of` (a sweep has at
/// most [`super::MAX_RUNS`] items, so more shards would only add empty files).
pub const MAX_SHARDS: usize = 100_000;

/// The first line of a shard file: what was run, so a merge needs nothing else.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardHeader {
    /// The base scenario document.
    pub scenario: Value,
    /// The sweep definition.
    pub sweep: Sweep,
    /// This shard's number, 0-based.
    pub shard: usize,
    /// Shards in all.
    pub of: usize,
}

/// A later line of a shard file: one item's sample.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardLine {
    /// The item's index.
    pub item: usize,
    /// Its sample.
    pub sample: Sample,
}

/// Runs shard `k` of `n` and writes it as JSON Lines (a header, then one line per item).
pub fn shard_jsonl(
    plan: &Plan,
    k: usize,
    n: usize,
    threads: Option<usize>,
) -> Result<String, ValidationError> {
    if n == 0 || k >= n {
        return Err(err(
            "--shard".into(),
            format!("{k}/{n}"),
            "K/N with 0 ≤ K < N",
        ));
    }
    let header = ShardHeader {
        scenario: plan.base.to_value(),
        sweep: plan.sweep.clone(),
        shard: k,
        of: n,
    };
    let mut out = serde_json::to_string(&header).unwrap_or_default();
    out.push('\n');
    for (item, sample) in plan.run_shard(k, n, threads)? {
        out.push_str(&serde_json::to_string(&ShardLine { item, sample }).unwrap_or_default());
        out.push('\n');
    }
    Ok(out)
}

/// [`merge_named`] with the files named by their position (`file 1`, `file 2`, …).
pub fn merge(files: &[String]) -> Result<(Plan, Vec<Sample>), String> {
    let named: Vec<(String, &str)> = files
        .iter()
        .enumerate()
        .map(|(i, text)| (format!("file {}", i + 1), text.as_str()))
        .collect();
    merge_named(&named)
}

/// The first file's header, and what it gives: the plan and the shard count.
struct First<'a> {
    name: &'a str,
    header: ShardHeader,
    plan: Plan,
}

/// Merges a complete set of shard files (any order), each a (name, text) pair, into the
/// plan and the samples of the unsharded run. Every error names the file (and the line)
/// and the field that is wrong: `header.of`, `header.scenario.clients`, `item`, ….
pub fn merge_named<N: AsRef<str>, T: AsRef<str>>(
    files: &[(N, T)],
) -> Result<(Plan, Vec<Sample>), String> {
    // On one safe line whatever the files' names and contents echo.
    merge_unsafe(files).map_err(|e| validate::one_line(&e))
}

/// [`merge_named`], its message as found.
fn merge_unsafe<N: AsRef<str>, T: AsRef<str>>(
    files: &[(N, T)],
) -> Result<(Plan, Vec<Sample>), String> {
    let mut first: Option<First> = None;
    // Per shard index, the file that gave it.
    let mut given: Vec<(usize, &str)> = Vec::new();
    let mut samples: Vec<Option<Sample>> = Vec::new();
    for (name, text) in files {
        let (name, text) = (name.as_ref(), text.as_ref());
        let at = |e: ValidationError| format!("{name}: {e}");
        let mut lines = text.lines();
        let header = read_header(lines.next().unwrap_or("")).map_err(at)?;
        let (shard, of) = (header.shard, header.of);
        match &first {
            None => {
                let base = scenario::from_value(header.scenario.clone())
                    .map_err(|e| at(e.within("header.scenario")))?;
                let plan = header
                    .sweep
                    .plan(&base)
                    .map_err(|e| at(e.within("header.sweep")))?;
                samples = vec![None; plan.items()];
                first = Some(First { name, header, plan });
            }
            Some(f) => {
                if let Some((field, value)) = same_sweep(&f.header, &header) {
                    return Err(format!(
                        "{name}: {field} = {value} differs from {}'s",
                        f.name
                    ));
                }
            }
        }
        let f = first.as_ref().expect("set above");
        if let Some((_, other)) = given.iter().find(|(k, _)| *k == shard) {
            return Err(at(ValidationError::new(
                "header.shard",
                shard,
                format!("a shard not given yet: it is given twice (also by {other})"),
            )
            .of_kind(ErrorKind::Type)));
        }
        given.push((shard, name));
        for (l, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = |e: ValidationError| format!("{name} line {}: {e}", l + 2);
            let x: ShardLine = validate::from_str(line).map_err(at)?;
            check_line(&f.plan, (shard, of), &x, &samples).map_err(at)?;
            samples[x.item] = Some(x.sample);
        }
    }
    let f = first.ok_or("no shard files given")?;
    let of = f.header.of;
    if given.len() != of {
        let missing: Vec<String> = (0..of)
            .filter(|k| !given.iter().any(|(g, _)| g == k))
            .map(|k| format!("{k}/{of}"))
            .collect();
        return Err(format!(
            "missing shards: {} (no file given has that header.shard)",
            missing.join(", ")
        ));
    }
    let samples: Vec<Sample> = samples
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.ok_or_else(|| {
                let owner = given.iter().find(|(k, _)| *k == i % of).map(|g| g.1);
                format!(
                    "{}: item {i} is missing (the file of shard {}/{of} was cut short)",
                    owner.unwrap_or("?"),
                    i % of
                )
            })
        })
        .collect::<Result<_, _>>()?;
    Ok((f.plan, samples))
}

/// Reads a header line and checks its shard numbers; fields are named `header.…`.
fn read_header(line: &str) -> Result<ShardHeader, ValidationError> {
    if line.trim().is_empty() {
        return Err(ValidationError::new(
            "header",
            "",
            "a shard header (a JSON object) on the first line",
        ));
    }
    let h: ShardHeader = validate::from_str(line).map_err(|e| e.within("header"))?;
    validate::in_range("header.of", h.of, 1, MAX_SHARDS)?;
    validate::in_range("header.shard", h.shard, 0, h.of - 1)?;
    Ok(h)
}

/// Where header `h` is not of the same sweep as the first file's `f`: the first field
/// that differs (`header.of`, `header.scenario.clients`, …) and `h`'s value there.
fn same_sweep(f: &ShardHeader, h: &ShardHeader) -> Option<(String, String)> {
    if h.of != f.of {
        return Some(("header.of".into(), h.of.to_string()));
    }
    let (fs, hs) = (
        validate::json_value(&f.sweep),
        validate::json_value(&h.sweep),
    );
    if let Some((path, value)) = first_difference(&f.scenario, &h.scenario) {
        return Some((
            format!("header.scenario{path}"),
            validate::echo(&validate::shown(value)),
        ));
    }
    let (path, value) = first_difference(&fs, &hs)?;
    Some((
        format!("header.sweep{path}"),
        validate::echo(&validate::shown(value)),
    ))
}

/// The path (`.clients`, `.params[0].values[1]`) of the first place where `b` differs
/// from `a`, and `b`'s value there (`None`: absent from `b`).
fn first_difference<'b>(a: &Value, b: &'b Value) -> Option<(String, Option<&'b Value>)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some((path, v)) = first_difference(p, q) {
                            return Some((format!(".{k}{path}"), v));
                        }
                    }
                    (_, q) => return Some((format!(".{k}"), q)),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (p, q))| {
                first_difference(p, q).map(|(path, v)| (format!("[{i}]{path}"), v))
            })
        }
        _ => (a != b).then(|| (String::new(), Some(b))),
    }
}

/// Checks a sample line against the sweep and the file's header: its item is in the
/// sweep, in this shard and not given before, and its seed is the item's.
fn check_line(
    plan: &Plan,
    (shard, of): (usize, usize),
    x: &ShardLine,
    samples: &[Option<Sample>],
) -> Result<(), ValidationError> {
    if x.item >= samples.len() {
        return Err(ValidationError::new(
            "item",
            x.item,
            format!("an item of this sweep, below {}", samples.len()),
        ));
    }
    if x.item % of != shard {
        return Err(ValidationError::new(
            "item",
            x.item,
            format!("an item of shard {shard}/{of} (its index modulo {of} is {shard})"),
        )
        .of_kind(ErrorKind::Type));
    }
    if samples[x.item].is_some() {
        return Err(ValidationError::new(
            "item",
            x.item,
            "an item not given yet: it is given twice",
        )
        .of_kind(ErrorKind::Type));
    }
    let seed = plan.seeds.get(x.item % plan.seeds.len().max(1));
    if let Some(&seed) = seed.filter(|&&s| s != x.sample.seed) {
        return Err(ValidationError::new(
            "sample.seed",
            x.sample.seed,
            format!("{seed}, the seed of item {}", x.item),
        )
        .of_kind(ErrorKind::Type));
    }
    Ok(())
}

/// `--shard K/N` text into (K, N).
pub fn parse_shard(text: &str) -> Option<(usize, usize)> {
    let (k, n) = text.split_once('/')?;
    let (k, n) = (k.trim().parse().ok()?, n.trim().parse().ok()?);
    (n > 0 && k < n && n <= MAX_SHARDS).then_some((k, n))
}
