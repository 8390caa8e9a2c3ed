//! The one tree every configuration is read into — a YAML value: YAML files as they are
//! (anchors and merge keys resolved), JSON (with the comments and trailing commas .NET's
//! configuration reader accepts) and Java `.properties` turned into the same mappings —
//! and the lookups the readers share, each keeping the key path it reads, so an error
//! names the setting as the file spells it.

use crate::validate::{echo, one_line, ErrorKind, ValidationError};
use yaml_rust2::{yaml::Hash, Yaml, YamlLoader};

/// How a key is matched against the one a reader asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// As written (Kubernetes resources, gRPC service configs).
    Exact,
    /// Spring's relaxed binding (`wait-duration` = `waitDuration` = `wait_duration`),
    /// which also covers protobuf's two spellings (`num_retries` = `numRetries`).
    Relaxed,
}

impl Names {
    fn same(self, written: &str, wanted: &str) -> bool {
        match self {
            Names::Exact => written == wanted,
            Names::Relaxed => relaxed(written) == relaxed(wanted),
        }
    }
}

/// A key with `-` and `_` dropped and lower-cased: Spring's relaxed form.
pub fn relaxed(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// An owned key path with its node, for paths built while reading.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    /// The path as the file spells it.
    pub path: String,
    /// The node.
    pub node: &'a Yaml,
}

impl<'a> Node<'a> {
    /// The root of a document.
    pub fn root(node: &'a Yaml) -> Self {
        Node {
            path: String::new(),
            node,
        }
    }

    /// The child at `key` (matched by `names`), its path extended by the key as written.
    pub fn get(&self, key: &str, names: Names) -> Option<Node<'a>> {
        let Yaml::Hash(h) = self.node else {
            return None;
        };
        h.iter().find_map(|(k, v)| {
            let written = key_text(k)?;
            names.same(&written, key).then(|| Node {
                path: join(&self.path, &written),
                node: v,
            })
        })
    }

    /// The node at a path of keys, each matched by `names`.
    pub fn at(&self, keys: &[&str], names: Names) -> Option<Node<'a>> {
        let mut n = self.clone();
        for k in keys {
            n = n.get(k, names)?;
        }
        Some(n)
    }

    /// The entries of a mapping, each with its path (none for anything else).
    pub fn entries(&self) -> Vec<(String, Node<'a>)> {
        let Yaml::Hash(h) = self.node else {
            return Vec::new();
        };
        h.iter()
            .filter_map(|(k, v)| {
                let key = key_text(k)?;
                Some((
                    key.clone(),
                    Node {
                        path: join(&self.path, &key),
                        node: v,
                    },
                ))
            })
            .collect()
    }

    /// The elements of a list, each with its path `[i]` (none for anything else).
    pub fn items(&self) -> Vec<Node<'a>> {
        let Yaml::Array(a) = self.node else {
            return Vec::new();
        };
        a.iter()
            .enumerate()
            .map(|(i, v)| Node {
                path: format!("{}[{i}]", self.path),
                node: v,
            })
            .collect()
    }

    /// The scalar as text (a number or a flag as written), `None` for a mapping or list.
    pub fn text(&self) -> Option<String> {
        scalar(self.node)
    }

    /// The value as a message echoes it: the scalar, or what kind of node it is.
    pub fn shown(&self) -> String {
        match self.node {
            Yaml::Hash(_) => "a mapping".into(),
            Yaml::Array(_) => "a list".into(),
            Yaml::Null => "null".into(),
            n => echo(&scalar(n).unwrap_or_default()),
        }
    }

    /// An error at this node: its path, its value, what `allowed` says.
    pub fn bad(&self, allowed: impl Into<String>) -> ValidationError {
        ValidationError::new(self.path.clone(), self.shown(), allowed).of_kind(ErrorKind::Type)
    }

    /// A number.
    pub fn f64(&self) -> Result<f64, ValidationError> {
        self.text()
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.bad("a number"))
    }

    /// A whole number ≥ 0.
    pub fn u64(&self) -> Result<u64, ValidationError> {
        self.text()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .ok_or_else(|| self.bad("a whole number ≥ 0"))
    }

    /// `true` or `false` (any case, as Spring and .NET bind them).
    pub fn bool(&self) -> Result<bool, ValidationError> {
        match self
            .text()
            .map(|t| t.trim().to_ascii_lowercase())
            .as_deref()
        {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(self.bad("true or false")),
        }
    }

    /// A duration read by `parse` (ms), or an error naming `allowed`.
    pub fn ms(
        &self,
        parse: fn(&str) -> Option<f64>,
        allowed: &str,
    ) -> Result<f64, ValidationError> {
        self.text()
            .and_then(|t| parse(&t))
            .ok_or_else(|| self.bad(allowed))
    }
}

/// `parent.key`, or just `key` at the root.
fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    }
}

/// A mapping key as text (YAML allows numbers and flags as keys).
fn key_text(k: &Yaml) -> Option<String> {
    scalar(k)
}

/// A scalar as the text a binder sees: strings as they are, numbers as written.
pub fn scalar(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Most nodes a YAML text may stand for once its aliases are expanded: a few anchors
/// that refer to each other would otherwise make a short text fill the memory.
pub const MAX_NODES: u64 = 200_000;

/// The documents of a YAML text, merge keys (`<<: *defaults`) applied.
pub fn yaml(text: &str) -> Result<Vec<Yaml>, ValidationError> {
    if let Some(n) = expanded_nodes(text) {
        if n > MAX_NODES {
            return Err(ValidationError::document(format!(
                "a YAML text whose aliases expand to at most {MAX_NODES} nodes"
            )));
        }
    }
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        ValidationError::document(format!("not valid YAML: {}", one_line(&e.to_string())))
    })?;
    Ok(docs.into_iter().map(merged).collect())
}

/// How many nodes the text stands for with every alias expanded, counted from the
/// parser's events without building anything (saturating); `None` when it does not
/// parse (the loader then says why).
fn expanded_nodes(text: &str) -> Option<u64> {
    use yaml_rust2::parser::{Event, EventReceiver, Parser};
    #[derive(Default)]
    struct Count {
        /// Open collections: their anchor and the nodes in them so far.
        open: Vec<(usize, u64)>,
        /// Each anchor's size.
        anchors: std::collections::HashMap<usize, u64>,
        total: u64,
    }
    impl Count {
        fn add(&mut self, anchor: usize, n: u64) {
            if anchor > 0 {
                self.anchors.insert(anchor, n);
            }
            match self.open.last_mut() {
                Some((_, inside)) => *inside = inside.saturating_add(n),
                None => self.total = self.total.saturating_add(n),
            }
        }
    }
    impl EventReceiver for Count {
        fn on_event(&mut self, ev: Event) {
            match ev {
                Event::Scalar(_, _, anchor, _) => self.add(anchor, 1),
                Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                    self.open.push((anchor, 1))
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    if let Some((anchor, n)) = self.open.pop() {
                        self.add(anchor, n);
                    }
                }
                Event::Alias(id) => {
                    let n = self.anchors.get(&id).copied().unwrap_or(1);
                    self.add(0, n);
                }
                _ => {}
            }
        }
    }
    let mut count = Count::default();
    Parser::new_from_str(text).load(&mut count, true).ok()?;
    Some(count.total)
}

/// The YAML merge key as SnakeYAML (Spring) and Go's YAML readers apply it: the merged
/// mapping's (or mappings') entries under those the mapping itself has.
fn merged(y: Yaml) -> Yaml {
    match y {
        Yaml::Hash(h) => {
            let mut out = Hash::new();
            let mut bases = Vec::new();
            for (k, v) in h {
                if k.as_str() == Some("<<") {
                    match merged(v) {
                        Yaml::Array(list) => bases.extend(list),
                        one => bases.push(one),
                    }
                } else {
                    out.insert(k, merged(v));
                }
            }
            for base in bases {
                if let Yaml::Hash(b) = base {
                    for (k, v) in b {
                        if !out.contains_key(&k) {
                            out.insert(k, v);
                        }
                    }
                }
            }
            Yaml::Hash(out)
        }
        Yaml::Array(a) => Yaml::Array(a.into_iter().map(merged).collect()),
        other => other,
    }
}

/// The tree with every dotted key (`resilience4j.retry.instances.a:`) spelled out as
/// nested mappings merged with their siblings, as Spring binds a property path.
pub fn undotted(y: &Yaml) -> Yaml {
    match y {
        Yaml::Hash(h) => {
            let mut out = Hash::new();
            for (k, v) in h {
                let v = undotted(v);
                match k.as_str() {
                    Some(key) if key.contains('.') => {
                        let nested = key.rsplit('.').fold(v, |inner, part| {
                            let mut one = Hash::new();
                            one.insert(Yaml::String(part.to_string()), inner);
                            Yaml::Hash(one)
                        });
                        if let Yaml::Hash(n) = nested {
                            for (nk, nv) in n {
                                merge_into(&mut out, nk, nv);
                            }
                        }
                    }
                    _ => merge_into(&mut out, k.clone(), v),
                }
            }
            Yaml::Hash(out)
        }
        Yaml::Array(a) => Yaml::Array(a.iter().map(undotted).collect()),
        other => other.clone(),
    }
}

/// `top` laid over `base`: mappings merged entry by entry, anything else replaced (how
/// Spring overlays one document's properties on the ones before it).
pub fn overlay(base: &mut Yaml, top: Yaml) {
    match (base, top) {
        (Yaml::Hash(b), Yaml::Hash(t)) => {
            for (k, v) in t {
                merge_into(b, k, v);
            }
        }
        (b, t) => *b = t,
    }
}

/// Puts `v` at `k`, merging two mappings entry by entry (a later scalar wins).
fn merge_into(out: &mut Hash, k: Yaml, v: Yaml) {
    match (out.get_mut(&k), v) {
        (Some(Yaml::Hash(old)), Yaml::Hash(new)) => {
            for (nk, nv) in new {
                merge_into(old, nk, nv);
            }
        }
        (_, v) => {
            out.insert(k, v);
        }
    }
}

/// A JSON document as .NET's configuration reader takes it (`//` and `/* */` comments
/// and trailing commas allowed), as a tree.
pub fn json(text: &str) -> Result<Yaml, ValidationError> {
    let clean = without_comments(text);
    let v: serde_json::Value = crate::validate::parse_json(&clean)?;
    Ok(from_json(v))
}

/// JSON text with comments blanked out and trailing commas dropped, strings untouched
/// (line breaks are kept, so a parse error still names the right line).
fn without_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
            continue;
        } else if c == ',' {
            // A trailing comma: the next significant character closes the object or list.
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if !matches!(next, Some('}' | ']')) {
                out.push(c);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// A JSON value as the same tree YAML gives.
fn from_json(v: serde_json::Value) -> Yaml {
    use serde_json::Value;
    match v {
        Value::Null => Yaml::Null,
        Value::Bool(b) => Yaml::Boolean(b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Yaml::Integer(i),
            None => Yaml::Real(n.to_string()),
        },
        Value::String(s) => Yaml::String(s),
        Value::Array(a) => Yaml::Array(a.into_iter().map(from_json).collect()),
        Value::Object(o) => {
            let mut h = Hash::new();
            for (k, v) in o {
                h.insert(Yaml::String(k), from_json(v));
            }
            Yaml::Hash(h)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keys_fill_in_under_what_a_mapping_has() {
        let docs = yaml("base: &b {x: 1, y: 2}\nother: &o {z: 3}\nuse:\n  <<: [*b, *o]\n  y: 9\n")
            .unwrap();
        let u = Node::root(&docs[0]).get("use", Names::Exact).unwrap();
        let keys: Vec<_> = u
            .entries()
            .into_iter()
            .map(|(k, n)| (k, n.text().unwrap()))
            .collect();
        assert_eq!(
            keys,
            [
                ("y".into(), "9".into()),
                ("x".into(), "1".into()),
                ("z".into(), "3".into())
            ]
        );
    }

    #[test]
    fn aliases_that_would_fill_the_memory_are_refused() {
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            bomb += &format!("a{i}: &a{i} [{refs}]\n");
        }
        let e = yaml(&bomb).unwrap_err();
        assert!(e.to_string().contains("at most 200000 nodes"), "{e}");
    }

    #[test]
    fn json_takes_comments_and_trailing_commas() {
        let t = json("{\n  // the retry\n  \"Retry\": {\"Delay\": \"00:00:02\", /* two */ \"Url\": \"http://x//y\",},\n}").unwrap();
        let r = Node::root(&t).get("Retry", Names::Exact).unwrap();
        assert_eq!(r.path, "Retry");
        assert_eq!(
            r.get("Url", Names::Exact).unwrap().text().unwrap(),
            "http://x//y"
        );
    }
}
