//! Glossary entries: what a table's column or a summary's figure means, with its unit,
//! for every table the page and the CLI show (the classic results; the cluster summary,
//! tiers and routes). Each model words its own definitions beside its tables.

use serde::Serialize;

/// One column or figure and what it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The column's title or the figure's label, as the table shows it.
    pub term: String,
    /// What it holds, ending with its unit in parentheses.
    pub meaning: String,
}

impl Entry {
    /// `term` defined as `meaning`.
    pub fn new(term: impl Into<String>, meaning: impl Into<String>) -> Entry {
        Entry {
            term: term.into(),
            meaning: meaning.into(),
        }
    }
}

/// Whether `meaning` ends with its unit in parentheses (either language's), as every
/// definition does.
pub fn names_its_unit(meaning: &str) -> bool {
    meaning.ends_with(')') || meaning.ends_with('）')
}
