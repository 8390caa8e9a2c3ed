//! Validation shared by every scenario format: one error type that names the field,
//! the offending value and the allowed range, and the small checks that build it.

use crate::lang::Lang;
use core::fmt;
use serde::de::DeserializeOwned;
use serde_json::Value;

mod de;
mod plain;
mod text_path;
use de::Seg;

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
fn join(parent: &str, field: &str) -> String {
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

impl ValidationError {
    /// The message in `lang`: the sentence around the field's path, the value found and
    /// what is allowed, which stay as they are (a path is what the reader types; the
    /// allowed part is a range or the engine's own description), each on one safe line
    /// ([`one_line`]), the path and the value at most [`ECHO_MAX_CHARS`] characters
    /// ([`echo`]). English is the CLI's (and `Display`'s) wording.
    pub fn message(&self, lang: Lang) -> String {
        let (field, value) = (&echo(&self.field), &echo(&self.value));
        let allowed = &one_line(&allowed_in(&self.allowed, lang));
        let zh = lang == Lang::Zh;
        if field.is_empty() {
            return if zh {
                format!("场景无效：{allowed}")
            } else {
                format!("invalid scenario: {allowed}")
            };
        }
        match (self.kind, zh) {
            (ErrorKind::Missing, false) => format!("{field} is missing: expected {allowed}"),
            (ErrorKind::Missing, true) => format!("缺少 {field}：应为 {allowed}"),
            (ErrorKind::Unknown, false) => format!("unknown field `{field}`, expected {allowed}"),
            (ErrorKind::Unknown, true) => format!("未知字段 `{field}`，应为 {allowed}"),
            (_, false) if value.is_empty() => format!("{field}: {allowed}"),
            (_, true) if value.is_empty() => format!("{field}：{allowed}"),
            (ErrorKind::Type, false) => {
                format!("{field} = {value} is not allowed: expected {allowed}")
            }
            (ErrorKind::Type, true) => format!("{field} = {value} 不被接受：应为 {allowed}"),
            (ErrorKind::Range, false) => {
                format!("{field} = {value} is out of range: allowed {allowed}")
            }
            (ErrorKind::Range, true) => format!("{field} = {value} 超出范围：允许 {allowed}"),
        }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ValidationError {}

/// Checks `lo <= value <= hi` for any ordered, printable number.
pub fn in_range<T>(field: &str, value: T, lo: T, hi: T) -> Result<(), ValidationError>
where
    T: PartialOrd + fmt::Display + Copy,
{
    if value < lo || value > hi {
        Err(ValidationError::new(field, value, format!("{lo}..={hi}")))
    } else {
        Ok(())
    }
}

/// Checks that a float is finite and within `lo..=hi` (NaN is rejected).
pub fn in_range_f64(field: &str, value: f64, lo: f64, hi: f64) -> Result<(), ValidationError> {
    if !value.is_finite() || value < lo || value > hi {
        Err(ValidationError::new(field, value, format!("{lo}..={hi}")))
    } else {
        Ok(())
    }
}

/// Checks a free-text name: 1..=`max_chars` characters, no control characters.
///
/// Names are always rendered as text by every front end; this only keeps them printable
/// and short enough for a table.
pub fn name(field: &str, value: &str, max_chars: usize) -> Result<(), ValidationError> {
    let n = value.chars().count();
    if n == 0 || n > max_chars {
        return Err(ValidationError::new(
            field,
            format!("{:?}", truncate(value, 40)),
            format!("1..={max_chars} characters"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(ValidationError::new(
            field,
            format!("{:?}", truncate(value, 40)),
            "text without control characters",
        ));
    }
    Ok(())
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Collects every problem of a scenario, each named by its full path: the one way both
/// models check their fields. A check nested with [`Problems::at`] has its fields
/// prefixed with the path it was called at (`tiers[1]` + `client` + `budget.percent`).
#[derive(Debug, Default)]
pub struct Problems {
    path: String,
    list: Vec<ValidationError>,
}

impl Problems {
    /// An empty collector at the document's root.
    pub fn new() -> Self {
        Problems::default()
    }

    /// Records a problem found at `e.field` below the current path.
    pub fn push(&mut self, mut e: ValidationError) {
        e.field = join(&self.path, &e.field);
        self.list.push(e);
    }

    /// Records the error of a check, if it failed.
    pub fn check(&mut self, r: Result<(), ValidationError>) {
        if let Err(e) = r {
            self.push(e);
        }
    }

    /// Checks `lo <= value <= hi` (see [`in_range`]).
    pub fn range<T>(&mut self, field: &str, value: T, lo: T, hi: T)
    where
        T: PartialOrd + fmt::Display + Copy,
    {
        self.check(in_range(field, value, lo, hi));
    }

    /// Checks a finite float in `lo..=hi` (see [`in_range_f64`]).
    pub fn range_f64(&mut self, field: &str, value: f64, lo: f64, hi: f64) {
        self.check(in_range_f64(field, value, lo, hi));
    }

    /// Checks a list's length: `lo..=hi` entries.
    pub fn len(&mut self, field: &str, len: usize, lo: usize, hi: usize) {
        if len < lo || len > hi {
            self.push(ValidationError::new(
                field,
                format!("{len} entries"),
                format!("{lo}..={hi} entries"),
            ));
        }
    }

    /// Checks a free-text name (see [`name`]).
    pub fn name(&mut self, field: &str, value: &str, max_chars: usize) {
        self.check(name(field, value, max_chars));
    }

    /// Runs `f` with every field it names placed under `segment` (`client`, `[2]`, `tiers[2]`).
    pub fn at(&mut self, segment: &str, f: impl FnOnce(&mut Problems)) {
        let outer = core::mem::take(&mut self.path);
        self.path = join(&outer, segment);
        f(self);
        self.path = outer;
    }

    /// Every problem found, in the order the checks ran.
    pub fn into_vec(self) -> Vec<ValidationError> {
        self.list
    }
}

/// Turns a serde_json error into a document error with serde's own (precise) wording.
pub fn from_json_error(err: &serde_json::Error) -> ValidationError {
    ValidationError::document(err.to_string())
}

/// How deep serde_json's text reader nests lists and objects before it stops.
pub const MAX_JSON_DEPTH: usize = 128;

/// Parses JSON text into a value. An error of the text itself (too deep, a number beyond
/// the float range, a bad escape, text cut short) names the field being read where it
/// stopped, with serde's line and column as context: `capacity: nested more than 128
/// levels deep at line 1 column 140`.
pub fn parse_json(text: &str) -> Result<Value, ValidationError> {
    serde_json::from_str(text).map_err(|e| json_text_error(text, &e))
}

/// The error of [`parse_json`] for serde_json's `e` on `text`, in the CLI and the page
/// alike (the page reads share links and the JSON text a user gives through it).
#[cold]
fn json_text_error(text: &str, e: &serde_json::Error) -> ValidationError {
    let mut path = text_path::path_at(text, text_path::offset_of(text, e.line(), e.column()));
    let message = e.to_string();
    let (what, place) = message
        .rsplit_once(" at line ")
        .map_or((message.as_str(), ""), |(w, _)| (w, &message[w.len()..]));
    let what = match what {
        "recursion limit exceeded" => {
            // The field holding the nesting; the 128 steps inside it say nothing more.
            let keep = path.iter().rposition(|s| matches!(s, Seg::Key(_)));
            path.truncate(keep.map_or(path.len().min(1), |k| k + 1));
            format!("nested more than {MAX_JSON_DEPTH} levels deep")
        }
        "number out of range" => "a number beyond the float range (±1.8e308)".to_string(),
        w if w.contains("escape") || w.contains("surrogate") || w.contains("code point") => {
            format!("not valid Unicode text ({w})")
        }
        w => w.to_string(),
    };
    let field = path_text(&path);
    if field.is_empty() {
        return ValidationError::document(format!("{what}{place}"));
    }
    ValidationError::new(field, "", format!("{what}{place}")).of_kind(ErrorKind::Type)
}

/// A path as messages write it: `tiers[1].client`, a key that is not a plain name
/// quoted as JSON in brackets (`tiers[1]["a b"]`), so every key can be told apart.
fn path_text(path: &[Seg]) -> String {
    path.iter().fold(String::new(), |field, seg| {
        let name = match seg {
            Seg::Index(index) => format!("[{index}]"),
            Seg::Key(key) => key_text(key),
        };
        join(&field, &name)
    })
}

/// A key as a path writes it: as it is when a plain name (`[A-Za-z0-9_]`, not empty),
/// else quoted as JSON in brackets (`[""]`, `["a`b"]`).
fn key_text(key: &str) -> String {
    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        key.to_string()
    } else {
        format!("[{}]", Value::String(key.to_string()))
    }
}

/// Reads the member `key` of an object whose reader holds it whole (`v`, its value), as
/// [`read_value`] does; an error keeps its path below `key` for the enclosing reader.
pub fn read_member<T: DeserializeOwned, E: serde::de::Error>(key: &str, v: &Value) -> Result<T, E> {
    de::read(v).map_err(|(mut path, e)| {
        path.insert(0, Seg::Key(key.to_string()));
        de::below(path, &e)
    })
}

/// The error `e` of the member `key` of an object whose reader holds it whole (an
/// unknown field found after reading the rest), named by `key` in the enclosing reader.
pub fn member_error<E: serde::de::Error>(key: &str, e: &serde_json::Error) -> E {
    de::below(vec![Seg::Key(key.to_string())], e)
}

/// Reads a typed value from JSON, naming the full path of any field serde rejects
/// (wrong type, negative or fractional number for an integer, null, unknown enum value,
/// unknown or missing field), with the value found there and what serde expected.
///
/// Every typed document of the engine and the page is read here (run documents and small
/// inputs too), so each type's reader is compiled once.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, ValidationError> {
    de::read(value).map_err(|(path, e)| type_error(value, &path, &e))
}

/// `v` as a JSON value, through serde_json's text writer and parser: the one serializer
/// every type already has (run documents, the page's outputs), where serde_json's
/// `to_value` would compile a second one per type (`Value` serializer) for the same
/// document. The same value as `to_value` gives: numbers print as shortest round-trip
/// decimals and parse back exactly (`float_roundtrip`), non-finite floats are `null` in
/// both, object keys are sorted in both. `Null` for a value serde_json cannot write (a
/// map with non-string keys), which the engine's types never are.
pub fn json_value<T: serde::Serialize + ?Sized>(v: &T) -> Value {
    serde_json::to_string(v)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null)
}

/// Reads a typed value as serde_json's `from_value` does, with serde's own message and no
/// path, through the same reader as [`from_value`] (so the type's reader is compiled once).
pub fn read_value<T: DeserializeOwned>(value: &Value) -> Result<T, serde_json::Error> {
    de::read(value).map_err(|(_, e)| e)
}

/// Reads an internally tagged enum (`{"kind": "constant", "ms": 5}`) of any deserializer
/// as `R`, the same enum externally tagged: the tag `tag` becomes the variant's name and
/// the other fields its fields. Errors read as serde's derived reader of the tagged form
/// words them. Why: serde's derived reader buffers the fields and reads every variant
/// once more from that buffer, which made a twentieth of the wasm (see [`crate::kind_enum`]).
pub fn kind_tagged<'de, D, R>(d: D, tag: &'static str, name: &'static str) -> Result<R, D::Error>
where
    D: serde::Deserializer<'de>,
    R: DeserializeOwned,
{
    let v = <Value as serde::Deserialize>::deserialize(d)?;
    // The rest is compiled once per enum, not once per enum and deserializer.
    read_kind(v, tag, name).map_err(serde::de::Error::custom)
}

/// Reads `v`, an internally tagged enum with its tag in `tag` (`{"model": "classic", …}`),
/// as `R`, the same enum externally tagged, with the messages serde's derived reader of
/// the tagged form gives (see [`kind_tagged`]); `name` is the enum's, for the message
/// when `v` is not an object. For an enum that allows unknown fields beside the tag
/// (no `deny_unknown_fields` on `R`), which [`crate::kind_enum`] does not define.
pub fn read_kind<R: DeserializeOwned>(
    v: Value,
    tag: &'static str,
    name: &'static str,
) -> Result<R, serde_json::Error> {
    let (kind, rest) = split_kind(v, tag, name)?;
    de::read_variant(&kind, &rest)
}

/// The tag's value and the other fields, or the error serde's derived reader gives.
fn split_kind(
    v: Value,
    tag: &'static str,
    name: &'static str,
) -> Result<(String, Value), serde_json::Error> {
    use serde::de::Error;
    let Value::Object(mut fields) = v else {
        let expected = format!("internally tagged enum {name}");
        return Err(Error::invalid_type(de::unexpected(&v), &expected.as_str()));
    };
    match fields.remove(tag) {
        Some(Value::String(kind)) => Ok((kind, Value::Object(fields))),
        Some(other) => Err(Error::invalid_type(
            de::unexpected(&other),
            &"variant identifier",
        )),
        None => Err(Error::missing_field(tag)),
    }
}

/// Defines an enum written with its variant's name in the field `tag` and the variant's
/// fields beside it (`{"kind": "constant", "ms": 5}`), variants in snake_case, unknown
/// fields rejected: serde's internally tagged form, read through [`kind_tagged`] with a
/// private externally tagged twin of the enum that the macro derives from the same
/// definition (so the two cannot drift apart). List the derives other than serde's.
#[macro_export]
macro_rules! kind_enum {
    (
        tag = $tag:literal;
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident $({
                    $(
                        $(#[$fmeta:meta])*
                        $field:ident : $ty:ty
                    ),* $(,)?
                })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize)]
        #[serde(tag = $tag, rename_all = "snake_case")]
        pub enum $name {
            $( $(#[$vmeta])* $variant $({ $( $(#[$fmeta])* $field: $ty ),* })? ),*
        }

        const _: () = {
            #[derive(serde::Deserialize)]
            #[serde(rename_all = "snake_case", deny_unknown_fields)]
            enum Twin {
                $( $variant $({ $( $(#[$fmeta])* $field: $ty ),* })? ),*
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    let twin: Twin = $crate::validate::kind_tagged(d, $tag, stringify!($name))?;
                    Ok(match twin {
                        $( Twin::$variant $({ $($field),* })? => $name::$variant $({ $($field),* })? ),*
                    })
                }
            }
        };
    };
}

/// Reads JSON text into a typed value, naming the field of any type error as [`from_value`].
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, ValidationError> {
    from_value(&parse_json(text)?)
}

/// Builds the error for serde's `inner` message at `path` inside `doc`.
fn type_error(doc: &Value, path: &[Seg], inner: &serde_json::Error) -> ValidationError {
    let mut field = String::new();
    let mut last_key = None;
    let mut at = Some(doc);
    for seg in path {
        let name = match seg {
            Seg::Index(index) => {
                at = at.and_then(|v| v.get(index));
                format!("[{index}]")
            }
            Seg::Key(key) => {
                at = at.and_then(|v| v.get(key));
                key_text(key)
            }
        };
        field = join(&field, &name);
        last_key = Some(seg);
    }
    let message = inner.to_string();
    // `missing field `x``, `unknown field `x`, expected …`, `unknown variant `x`, expected …`
    let quoted = |prefix: &str| {
        let rest = message.strip_prefix(prefix)?.strip_prefix('`')?;
        let (name, rest) = rest.split_once('`')?;
        Some((
            name.to_string(),
            rest.trim_start_matches(", expected ").trim(),
        ))
    };
    let make = |kind, field: String, value: String, allowed: &str| {
        ValidationError::new(field, value, allowed).of_kind(kind)
    };
    if let Some((name, _)) = quoted("missing field ") {
        return make(
            ErrorKind::Missing,
            join(&field, &key_text(&name)),
            String::new(),
            EXPECT_VALUE,
        );
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        // The path ends at the unknown key (its reader marks it), which serde quotes as
        // it is; any other reader's path stops at the object.
        let known = match last_key {
            Some(Seg::Key(key)) => rest.strip_prefix(key.as_str()),
            _ => None,
        };
        let known = match known.and_then(|r| r.strip_prefix('`')) {
            Some(known) => known,
            None => {
                let (name, known) = quoted("unknown field ").unwrap_or_default();
                field = join(&field, &key_text(&name));
                known
            }
        };
        // serde lists the known fields: "`ms`", "`a` or `b`", "one of `a`, `b`, …".
        let known = known.trim_start_matches(", expected ").trim();
        return make(ErrorKind::Unknown, field, String::new(), known);
    }
    // Inside an internally tagged enum (see `kind_tagged`) the path stops at the object:
    // find the member holding the unknown name (the tag, or an enum field beside it).
    if let Some((name, _)) = quoted("unknown variant ") {
        if let Some(Value::Object(map)) = at.filter(|v| v.get("kind").is_some()) {
            let name = Value::String(name);
            if let Some((k, v)) = map.iter().find(|(_, v)| **v == name) {
                field = join(&field, k);
                at = Some(v);
            }
        }
    }
    if let Some((_, allowed)) = quoted("unknown variant ") {
        return make(ErrorKind::Type, field, shown(at), allowed);
    }
    if let Some((got, expected)) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|m| m.split_once(", expected "))
    {
        // Inside an internally tagged enum the path stops at the object: find the member
        // holding the offending value.
        if let Some(Value::Object(map)) = at.filter(|v| v.get("kind").is_some()) {
            // The tag itself when it is not a name (`"kind": 3`).
            let tag = expected.trim() == "variant identifier";
            if let Some((k, v)) = map
                .iter()
                .find(|(k, v)| (*k == "kind") == tag && matches(v, got))
            {
                field = join(&field, k);
                at = Some(v);
            }
        }
        return make(
            ErrorKind::Type,
            field,
            shown(at),
            &plain_expectation(expected),
        );
    }
    // A custom message (a seed's, say) says what is allowed.
    let expected = message.split(" at line ").next().unwrap_or(&message);
    make(ErrorKind::Type, field, shown(at), expected)
}

/// True when `v` is the value serde describes as `got` (`string "x"`, `integer `-1``, …).
fn matches(v: &Value, got: &str) -> bool {
    match v {
        Value::Null => got == "null",
        Value::Bool(b) => got == format!("boolean `{b}`"),
        Value::String(s) => got == format!("string {s:?}"),
        Value::Number(n) if n.is_f64() => {
            // serde writes a float with at least one decimal (`2.0`).
            let x = n.as_f64().map_or_else(String::new, |x| x.to_string());
            let x = if x.contains('.') { x } else { x + ".0" };
            got == format!("floating point `{x}`")
        }
        Value::Number(n) => got == format!("integer `{n}`"),
        Value::Array(_) => got == "sequence",
        Value::Object(_) => got == "map",
    }
}

/// A value for a message: its JSON, at most 40 characters.
pub(crate) fn shown(v: Option<&Value>) -> String {
    let text = v.map_or_else(|| "?".to_string(), Value::to_string);
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// What a type error on an unsigned integer field says is expected.
pub const EXPECT_UNSIGNED: &str = "a whole number ≥ 0";
/// What a type error on a number field says is expected.
pub const EXPECT_NUMBER: &str = "a number";
/// What a missing field says is expected.
const EXPECT_VALUE: &str = "a value (the field is required)";

/// Every plain-words expectation the engine writes itself, in English and Chinese: the
/// one list [`allowed_in`] translates from, so a new expectation is added here once.
pub const EXPECTATIONS: [(&str, &str); 8] = [
    (EXPECT_UNSIGNED, "≥ 0 的整数"),
    ("a whole number", "整数"),
    (EXPECT_NUMBER, "数字"),
    ("true or false", "true 或 false"),
    ("a string", "字符串"),
    ("a list", "列表"),
    ("an object", "对象"),
    (EXPECT_VALUE, "一个值（此字段必填）"),
];

/// The allowed part of a message in `lang`: the engine's own expectations
/// ([`EXPECTATIONS`]) and serde's lists of names (`` `a` or `b` ``, `` one of `a`, `b` ``)
/// translated; ranges, names and anything else stay as they are.
pub fn allowed_in(allowed: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return allowed.to_string();
    }
    if let Some(&(_, zh)) = EXPECTATIONS.iter().find(|(en, _)| *en == allowed) {
        return zh.to_string();
    }
    // A type error on a number field names its range too (`a whole number ≥ 0 in 1..=10`).
    for (en, zh) in EXPECTATIONS {
        if let Some(range) = allowed
            .strip_prefix(en)
            .and_then(|r| r.strip_prefix(" in "))
        {
            return format!("{zh}（范围 {range}）");
        }
    }
    // serde's lists name the accepted values in backquotes: only the joining words change.
    if allowed.starts_with('`') || allowed.starts_with("one of `") {
        let list = allowed.strip_prefix("one of ").map(|l| (l, true));
        let (list, one_of) = list.unwrap_or((allowed, false));
        let list = list.replace("` or `", "` 或 `").replace("`, `", "`、`");
        return if one_of {
            format!("{list} 之一")
        } else {
            list
        };
    }
    allowed.to_string()
}

/// serde's expectation (`u32`, `f64`, `a boolean`, `struct Tier`) in plain words.
fn plain_expectation(expected: &str) -> String {
    let e = expected.trim();
    let word = |i: usize| EXPECTATIONS[i].0.to_string();
    match e {
        "u8" | "u16" | "u32" | "u64" | "usize" => word(0),
        "i8" | "i16" | "i32" | "i64" | "isize" => word(1),
        "f32" | "f64" => word(2),
        "a boolean" => word(3),
        "a string" => word(4),
        "a sequence" => word(5),
        _ if e.starts_with("struct ") || e.starts_with("internally tagged enum") => word(6),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_field_value_and_range() {
        let e = in_range("clients", 0u32, 1, 1_000_000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "clients = 0 is out of range: allowed 1..=1000000"
        );
        let e = e.within("scenario");
        assert_eq!(e.field, "scenario.clients");
    }

    #[test]
    fn chinese_messages_keep_path_value_and_allowed() {
        let e = in_range("strategies[1].max_retry", 99u32, 0, 30).unwrap_err();
        assert_eq!(
            e.message(Lang::Zh),
            "strategies[1].max_retry = 99 超出范围：允许 0..=30"
        );
        assert_eq!(e.message(Lang::En), e.to_string());
        let missing =
            ValidationError::new("tiers[0].name", "", "a name").of_kind(ErrorKind::Missing);
        assert_eq!(missing.message(Lang::Zh), "缺少 tiers[0].name：应为 a name");
        let doc = ValidationError::document("expected value at line 1 column 1");
        assert_eq!(
            doc.message(Lang::Zh),
            "场景无效：expected value at line 1 column 1"
        );
    }

    #[test]
    fn type_errors_say_what_is_allowed_in_chinese() {
        // Every expectation the engine writes has a Chinese text with no English word left.
        for (en, zh) in EXPECTATIONS {
            assert_eq!(allowed_in(en, Lang::Zh), zh);
            assert_eq!(allowed_in(en, Lang::En), en);
            assert!(!zh
                .chars()
                .any(|c| c.is_ascii_lowercase() && !"truefals".contains(c)));
        }
        let e = ValidationError::new("clients", "\"x\"", EXPECT_UNSIGNED).of_kind(ErrorKind::Type);
        assert_eq!(
            e.message(Lang::Zh),
            "clients = \"x\" 不被接受：应为 ≥ 0 的整数"
        );
        assert_eq!(
            e.message(Lang::En),
            "clients = \"x\" is not allowed: expected a whole number ≥ 0"
        );
        // serde's lists keep their names; only the joining words are Chinese.
        assert_eq!(
            allowed_in("one of `none`, `full`, `equal`", Lang::Zh),
            "`none`、`full`、`equal` 之一"
        );
        assert_eq!(allowed_in("`ms` or `kind`", Lang::Zh), "`ms` 或 `kind`");
        // Ranges stay as they are, also after an expectation.
        assert_eq!(allowed_in("0..=30", Lang::Zh), "0..=30");
        assert_eq!(
            allowed_in("a whole number ≥ 0 in 1..=10000", Lang::Zh),
            "≥ 0 的整数（范围 1..=10000）"
        );
    }

    #[test]
    fn floats_reject_nan() {
        assert!(in_range_f64("x", f64::NAN, 0.0, 1.0).is_err());
        assert!(in_range_f64("x", 0.5, 0.0, 1.0).is_ok());
    }

    #[test]
    fn names_are_bounded_and_printable() {
        assert!(name("n", "", 10).is_err());
        assert!(name("n", "a\u{0}b", 10).is_err());
        assert!(name("n", "<img src=x onerror=alert(1)>", 64).is_ok());
        assert!(name("n", &"x".repeat(11), 10).is_err());
    }
}
