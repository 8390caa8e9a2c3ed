//! Errors across the wasm boundary: every failure becomes a real JS `Error` carrying the
//! message, and a validation error's fields. Its own file, because the importer's
//! separate wasm module (`import-web/`) compiles this same file (not the whole glue).

use retrystorm::lang::Lang;
use retrystorm::validate::ErrorKind;
use retrystorm::ValidationError;
use wasm_bindgen::prelude::*;

/// The JS `Error` thrown by every export: the message, plus the fields of a validation
/// error (`field`, `value`, `allowed`, `kind`) and its plain words in English (`plain`).
pub fn js_error(err: &ValidationError) -> JsValue {
    js_error_in(err, Lang::En)
}

/// The JS `Error` of [`js_error`], its `plain` words ([`ValidationError::plain`]) in
/// `lang`; the message stays the CLI's, with the field's path, value and range.
pub fn js_error_in(err: &ValidationError, lang: Lang) -> JsValue {
    let e = js_sys::Error::new(&err.to_string());
    let plain = err.plain(lang);
    // Setting properties on a fresh Error object cannot fail.
    for (key, value) in [
        ("field", &err.field),
        ("value", &err.value),
        ("allowed", &err.allowed),
        ("plain", &plain),
        ("kind", &kind_name(err.kind).to_string()),
    ] {
        let _ = js_sys::Reflect::set(&e, &JsValue::from_str(key), &JsValue::from_str(value));
    }
    e.into()
}

/// A JS `Error` for a failure that is not about a field (boundary conversion, canvas),
/// its message on one safe line ([`retrystorm::validate::one_line`]). Why: such a message
/// may carry serde's words about the input (an unknown field's name, raw), and the page
/// shows it as a validation error's message is shown, which is already one safe line.
pub fn plain_error(message: impl core::fmt::Display) -> JsValue {
    js_sys::Error::new(&retrystorm::validate::one_line(&message.to_string())).into()
}

/// The name of a problem's kind across the boundary (`Problem.kind`, `Error.kind`).
pub fn kind_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Range => "range",
        ErrorKind::Type => "type",
        ErrorKind::Missing => "missing",
        ErrorKind::Unknown => "unknown",
    }
}

/// The kind named by [`kind_name`]; anything else is a range problem, the default.
pub fn kind_of(name: &str) -> ErrorKind {
    match name {
        "type" => ErrorKind::Type,
        "missing" => ErrorKind::Missing,
        "unknown" => ErrorKind::Unknown,
        _ => ErrorKind::Range,
    }
}
