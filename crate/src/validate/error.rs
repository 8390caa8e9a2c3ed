//! The validation error: the field's path, the value found, what is allowed, and the
//! kind of problem; and the one-line echo every message applies to what it quotes.

use crate::lang::Lang;
use core::fmt;

/// What kind of problem a [`ValidationError`] reports; it picks the message's wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorKind {
    /// A value of the right type outside its allowed range (or a document-level problem).
    #[default]
    Range,
    /// A value of the wrong type, or an enumerated value that is not one of the allowed ones.
    Type,
    /// A required field that is absent.
    Missing,
    /// A field the format does not have.
    Unknown,
}

/// A scenario field outside its allowed range, or a scenario that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Dotted path of the field, e.g. `strategies[2].max_retry`; empty for whole-document errors.
    pub field: String,
    /// The value as given, rendered for the message.
    pub value: String,
    /// What is allowed, e.g. `1..=1000000`.
    pub allowed: String,
    /// What kind of problem it is.
    pub kind: ErrorKind,
}

impl ValidationError {
    /// An error for `field` holding `value`, where `allowed` says what would be accepted.
    pub fn new(
        field: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        ValidationError {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
            kind: ErrorKind::Range,
        }
    }

    /// An error about the document as a whole (bad JSON, unknown field, wrong type).
    pub fn document(message: impl Into<String>) -> Self {
        ValidationError::new("", "", message)
    }

    /// The same error, of another kind (it picks the message's wording).
    pub fn of_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// Prefixes the field path, e.g. `max_retry` inside `strategies[2]`.
    pub fn within(mut self, parent: &str) -> Self {
        self.field = join(parent, &self.field);
        self
    }
}

/// `parent.field`, or `parent[i]` for an index; either side may be empty.
pub(super) fn join(parent: &str, field: &str) -> String {
    if parent.is_empty() {
        field.to_string()
    } else if field.is_empty() {
        parent.to_string()
    } else if field.starts_with('[') {
        format!("{parent}{field}")
    } else {
        format!("{parent}.{field}")
    }
}

/// Most characters of a field's path or a value that a message echoes ([`echo`]); a
/// longer one is cut there and ends with `…`.
pub const ECHO_MAX_CHARS: usize = 80;

/// True for a character a message never carries raw: a control character (C0, DEL,
/// C1), the line and paragraph separators (U+2028/2029, line breaks in JS and many
/// viewers) and the bidi controls (U+202A–U+202E, U+2066–U+2069, which reorder text).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` on one printable line: every control character (C0, DEL, C1), line or
/// paragraph separator (U+2028/2029) and bidi control written as its JSON escape
/// (`\n`, `\u001b`), the rest as it is. Why: messages echo what a file or a link holds,
/// and go to a terminal (where ESC sequences act) and into the page.
pub fn one_line(text: &str) -> String {
    if !text.chars().any(unsafe_char) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A path or a value as a message echoes it: [`one_line`], cut after
/// [`ECHO_MAX_CHARS`] characters with `…`.
pub fn echo(text: &str) -> String {
    let line = one_line(text);
    match line.char_indices().nth(ECHO_MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line,
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ValidationError {}
