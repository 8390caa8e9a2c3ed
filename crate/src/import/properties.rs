//! Java `.properties` files as Spring Boot loads them (`java.util.Properties.load`: `=`,
//! `:` or blanks between key and value, `#`/`!` comments, `\` continuations and escapes;
//! Spring's `#---` between documents), turned into the tree a YAML file gives: dotted
//! keys nested, `routes[0]` as a list's element.

use crate::validate::ValidationError;
use yaml_rust2::{yaml::Hash, Yaml};

/// Largest list index a key may use (`routes[1000]`): bounds the list it makes.
const MAX_INDEX: usize = 1000;

/// The documents of a `.properties` text, each as a tree.
pub fn read(text: &str) -> Result<Vec<Yaml>, ValidationError> {
    let mut docs = Vec::new();
    let mut doc = Yaml::Hash(Hash::new());
    for (key, value) in pairs(text) {
        if key.is_empty() && value.is_none() {
            docs.push(std::mem::replace(&mut doc, Yaml::Hash(Hash::new())));
            continue;
        }
        put(&mut doc, &key, Yaml::String(value.unwrap_or_default()))?;
    }
    docs.push(doc);
    Ok(docs)
}

/// The key–value pairs in order; a document separator is an empty key with no value.
fn pairs(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(first) = lines.next() {
        let trimmed = first.trim_start();
        if trimmed == "#---" || trimmed == "!---" {
            out.push((String::new(), None));
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('!') {
            continue;
        }
        // A logical line: a line ending in an odd number of backslashes continues.
        let mut logical = String::new();
        let mut line = trimmed.to_string();
        loop {
            let slashes = line.chars().rev().take_while(|c| *c == '\\').count();
            if slashes % 2 == 1 {
                line.pop();
                logical.push_str(&line);
                match lines.next() {
                    Some(next) => line = next.trim_start().to_string(),
                    None => break,
                }
            } else {
                logical.push_str(&line);
                break;
            }
        }
        let (key, value) = split(&logical);
        out.push((unescape(&key), Some(unescape(&value))));
    }
    out
}

/// A logical line's key (up to the first unescaped `=`, `:` or blank) and value (after
/// blanks and at most one `=` or `:`), both still escaped.
fn split(line: &str) -> (String, String) {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '=' | ':' | ' ' | '\t' | '\u{c}' => break,
            _ => i += 1,
        }
    }
    let i = i.min(chars.len());
    let key: String = chars[..i].iter().collect();
    let mut j = i;
    while j < chars.len() && matches!(chars[j], ' ' | '\t' | '\u{c}') {
        j += 1;
    }
    if j < chars.len() && matches!(chars[j], '=' | ':') {
        j += 1;
        while j < chars.len() && matches!(chars[j], ' ' | '\t' | '\u{c}') {
            j += 1;
        }
    }
    (key, chars[j..].iter().collect())
}

/// `\t`, `\n`, `\r`, `\f`, `\uXXXX`, and `\x` = `x` for anything else.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = it.by_ref().take(4).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => out.push_str(&hex),
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// One step of a property key: a name or a list index.
enum Step {
    Key(String),
    Index(usize),
}

/// `a.b[0].c` as steps; a malformed index is kept as part of the name.
fn steps(key: &str) -> Result<Vec<Step>, ValidationError> {
    let mut out = Vec::new();
    for part in key.split('.') {
        let mut rest = part;
        let name_end = rest.find('[').unwrap_or(rest.len());
        if name_end > 0 {
            out.push(Step::Key(rest[..name_end].to_string()));
        }
        rest = &rest[name_end..];
        while let Some(r) = rest.strip_prefix('[') {
            let Some(close) = r.find(']') else {
                out.push(Step::Key(rest.to_string()));
                break;
            };
            let inner = &r[..close];
            match inner.parse::<usize>() {
                Ok(i) if i <= MAX_INDEX => out.push(Step::Index(i)),
                Ok(_) => {
                    return Err(ValidationError::new(
                        key,
                        inner,
                        format!("a list index ≤ {MAX_INDEX}"),
                    ))
                }
                // `map[key]`: Spring's bracket notation for a map key.
                Err(_) => out.push(Step::Key(inner.to_string())),
            }
            rest = &r[close + 1..];
        }
    }
    Ok(out)
}

/// Puts `value` at `key` in the tree, making mappings and lists on the way.
fn put(doc: &mut Yaml, key: &str, value: Yaml) -> Result<(), ValidationError> {
    let steps = steps(key)?;
    let mut node = doc;
    for step in &steps {
        node = match step {
            Step::Key(k) => {
                if !matches!(node, Yaml::Hash(_)) {
                    *node = Yaml::Hash(Hash::new());
                }
                let Yaml::Hash(h) = node else { unreachable!() };
                h.entry(Yaml::String(k.clone())).or_insert(Yaml::Null)
            }
            Step::Index(i) => {
                if !matches!(node, Yaml::Array(_)) {
                    *node = Yaml::Array(Vec::new());
                }
                let Yaml::Array(a) = node else { unreachable!() };
                if a.len() <= *i {
                    a.resize(*i + 1, Yaml::Null);
                }
                &mut a[*i]
            }
        };
    }
    *node = value;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::tree::{Names, Node};

    #[test]
    fn reads_keys_values_lists_and_documents() {
        let text = "# a comment\n! another\nresilience4j.retry.instances.a.wait-duration = 500ms\n\
                    resilience4j.retry.instances.a.maxAttempts:3\n\
                    spring.cloud.gateway.routes[1].filters[0]=Retry=3,INTERNAL_SERVER_ERROR\n\
                    long.value = one \\\n    two\n\
                    escaped\\ key = \\u0041\n\
                    #---\n\
                    spring.config.activate.on-profile=prod\n";
        let docs = read(text).unwrap();
        assert_eq!(docs.len(), 2);
        let root = Node::root(&docs[0]);
        let a = root
            .at(&["resilience4j", "retry", "instances", "a"], Names::Exact)
            .unwrap();
        assert_eq!(
            a.get("waitDuration", Names::Relaxed)
                .unwrap()
                .text()
                .unwrap(),
            "500ms"
        );
        assert_eq!(
            a.get("maxAttempts", Names::Exact).unwrap().u64().unwrap(),
            3
        );
        let routes = root
            .at(&["spring", "cloud", "gateway", "routes"], Names::Exact)
            .unwrap();
        let items = routes.items();
        assert_eq!(items.len(), 2);
        let f = items[1].get("filters", Names::Exact).unwrap().items();
        assert_eq!(f[0].path, "spring.cloud.gateway.routes[1].filters[0]");
        assert_eq!(f[0].text().unwrap(), "Retry=3,INTERNAL_SERVER_ERROR");
        assert_eq!(
            root.at(&["long", "value"], Names::Exact)
                .unwrap()
                .text()
                .unwrap(),
            "one two"
        );
        assert_eq!(
            root.get("escaped key", Names::Exact)
                .unwrap()
                .text()
                .unwrap(),
            "A"
        );
        let e = read("a[5000]=1\n").unwrap_err();
        assert_eq!((e.field.as_str(), e.value.as_str()), ("a[5000]", "5000"));
    }
}
