//! Reading JSON into typed values: the text (its errors named by the field where the
//! reader stopped), the typed value (serde's errors named by their full path), and the
//! helpers readers that hold a member whole use to keep that path.

use super::de::{self, Seg};
use super::error::join;
use super::messages::{plain_expectation, EXPECT_VALUE};
use super::{text_path, ErrorKind, ValidationError};
use serde::de::DeserializeOwned;
use serde_json::Value;

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
