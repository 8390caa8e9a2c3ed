//! INI files as the AWS SDKs read `~/.aws/config` (botocore `configloader.py` over
//! Python's `configparser`): `[section]` headers, `key = value` or `key: value`, `#` and
//! `;` comment lines (no inline comments: `RawConfigParser` keeps `5 # five` as the
//! value), indented lines that continue the key above them (a nested setting such as
//! `s3 =` with its own keys under it), and a key or section written twice refused, as the
//! parser's `strict` mode refuses it.

use crate::validate::{echo, ValidationError};

/// One `[section]` with its settings in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// The name between the brackets, trimmed (`profile dev`).
    pub name: String,
    /// `(key, value)` pairs, keys trimmed; a nested block's lines are left out.
    pub entries: Vec<(String, String)>,
}

impl Section {
    /// The value of `key` (the last one written wins, as `configparser` keeps it).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// The sections of an INI text.
pub fn read(text: &str) -> Result<Vec<Section>, ValidationError> {
    let mut sections: Vec<Section> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if raw.starts_with([' ', '\t']) && sections.last().is_some_and(|s| !s.entries.is_empty()) {
            // A continuation: part of the nested setting above, which the retry settings
            // never are.
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            let name = inner.strip_suffix(']').ok_or_else(|| {
                ValidationError::new(
                    format!("line {}", n + 1),
                    echo(line),
                    "a section header such as [profile dev]",
                )
            })?;
            if sections.iter().any(|s| s.name == name.trim()) {
                return Err(ValidationError::new(
                    format!("line {}", n + 1),
                    echo(line),
                    "each section once (configparser's DuplicateSectionError)",
                ));
            }
            sections.push(Section {
                name: name.trim().to_string(),
                entries: Vec::new(),
            });
            continue;
        }
        let Some(at) = line.find(['=', ':']) else {
            return Err(ValidationError::new(
                format!("line {}", n + 1),
                echo(line),
                "key = value",
            ));
        };
        let section = sections.last_mut().ok_or_else(|| {
            ValidationError::new(
                format!("line {}", n + 1),
                echo(line),
                "a setting under a [section] header",
            )
        })?;
        let key = line[..at].trim();
        if section.get(key).is_some() {
            return Err(ValidationError::new(
                format!("line {}", n + 1),
                echo(line),
                "each key once in a section (configparser's DuplicateOptionError)",
            ));
        }
        section
            .entries
            .push((key.to_string(), line[at + 1..].trim().to_string()));
    }
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sections_comments_and_nested_blocks() {
        let text = "# ~/.aws/config\n[default]\nregion = eu-west-1\nretry_mode = standard\n\
                    s3 =\n  max_concurrent_requests = 20\n; a comment\n[profile batch]\n\
                    max_attempts: 6\n";
        let s = read(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].name, "default");
        assert_eq!(s[0].get("retry_mode"), Some("standard"));
        assert_eq!(s[0].get("max_concurrent_requests"), None);
        assert_eq!(s[1].get("max_attempts"), Some("6"));
        let e = read("retry_mode = standard\n").unwrap_err();
        assert_eq!(e.field, "line 1");
        let e = read("[default\n").unwrap_err();
        assert_eq!(e.value, "[default");
        let e = read("[default]\nmax_attempts = 3\nMAX_ATTEMPTS = 4\n").unwrap_err();
        assert_eq!(e.field, "line 3");
        let e = read("[default]\n[default]\n").unwrap_err();
        assert_eq!(e.field, "line 2");
    }
}
