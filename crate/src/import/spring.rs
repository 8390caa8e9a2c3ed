//! A Spring Boot configuration file (`application.yml` or `application.properties`) as
//! Spring binds it: its documents without a profile overlaid in order (a later one
//! wins), every dotted key spelled out; the documents that only apply under a profile
//! are counted, not read.

use super::tree::{self, Names, Node};
use crate::validate::ValidationError;
use yaml_rust2::{yaml::Hash, Yaml};

/// The properties of the default profile, and how many profile documents were left out.
pub struct SpringFile {
    /// The merged tree.
    pub tree: Yaml,
    /// Documents activated by a profile (`spring.config.activate.on-profile`,
    /// `spring.profiles`).
    pub profiled: usize,
}

/// Reads a Spring Boot file: YAML, or `.properties` when the text is not a YAML mapping.
pub fn load(text: &str) -> Result<SpringFile, ValidationError> {
    let docs = match tree::yaml(text) {
        Ok(d) if d.iter().all(|y| matches!(y, Yaml::Hash(_) | Yaml::Null)) => d,
        Ok(_) => super::properties::read(text)?,
        Err(e) if looks_like_properties(text) => {
            let _ = e;
            super::properties::read(text)?
        }
        Err(e) => return Err(e),
    };
    let mut merged = Yaml::Hash(Hash::new());
    let mut profiled = 0;
    for doc in docs.iter().map(tree::undotted) {
        let root = Node::root(&doc);
        if root
            .at(&["spring", "config", "activate"], Names::Relaxed)
            .is_some()
            || root.at(&["spring", "profiles"], Names::Relaxed).is_some()
        {
            profiled += 1;
        } else {
            tree::overlay(&mut merged, doc);
        }
    }
    Ok(SpringFile {
        tree: merged,
        profiled,
    })
}

/// A text whose first setting line has `=` before any `:` reads as `.properties`.
fn looks_like_properties(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('!'))
        .is_some_and(|l| match (l.find('='), l.find(':')) {
            (Some(e), Some(c)) => e < c,
            (Some(_), None) => true,
            _ => false,
        })
}
