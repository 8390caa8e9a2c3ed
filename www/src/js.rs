//! Values and errors across the wasm boundary: results go to JS as plain objects (through
//! JSON text), JS values come in as JSON for the engine's own reader, and every failure
//! becomes a real JS `Error` carrying the message (and a validation error's fields).

use retrystorm::lang::Lang;
use retrystorm::ValidationError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub use crate::js_error::*;

/// Converts any serializable value to a plain JS value (objects, arrays, numbers, strings).
///
/// Through serde_json's text and JS's `JSON.parse`: serde_json's writer is the one
/// serializer every type already has in the wasm (run documents, share links, samples),
/// so no second one is compiled per type; it keeps struct fields in declaration order,
/// writes `None` as `null`, and numbers as shortest round-trip decimals that parse back
/// exactly. Integers beyond 2^53 would lose precision: outputs give seeds as strings.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    text_to_js(serde_json::to_string(value))
}

/// The JS value of a serialized output's text (the part of [`to_js`] that is the same
/// for every type, compiled once).
fn text_to_js(text: Result<String, serde_json::Error>) -> Result<JsValue, JsValue> {
    let text = text.map_err(plain_error)?;
    js_sys::JSON::parse(&text).map_err(|_| plain_error("an output is not valid JSON"))
}

/// A JS value as a JSON value, through JS's own `JSON.stringify` (a string is taken as
/// JSON text), to be read by the engine's own reader (`retrystorm::validate`): a typo in
/// a field name is rejected by name, exactly as in a scenario file, and no second
/// deserializer of the engine's types is compiled for the boundary.
pub fn json_from_js(v: &JsValue) -> Result<serde_json::Value, ValidationError> {
    let text = match v.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(v)
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| ValidationError::document("the scenario is not a JSON object"))?,
    };
    // The engine's text reader: an error of the text names the field where it stopped.
    retrystorm::validate::parse_json(&text)
}

/// The page's language for the engine's texts: `"zh"` or `"en"` (the default).
pub(crate) fn page_lang(lang: Option<&str>) -> Lang {
    lang.and_then(Lang::parse).unwrap_or(Lang::En)
}

/// A scenario of `model` (`"classic"` or `"cluster"`) as the page holds it, checked.
pub(crate) fn base_scenario(
    model: &str,
    scenario: &JsValue,
) -> Result<retrystorm::scenario::AnyScenario, JsValue> {
    let model: retrystorm::scenario::Model =
        retrystorm::validate::read_value(&serde_json::Value::String(model.into()))
            .map_err(plain_error)?;
    let doc = json_from_js(scenario).map_err(|e| js_error(&e))?;
    retrystorm::scenario::read(Some(model), &doc).map_err(|e| js_error(&e))
}

/// A JS value read as the engine reads a file of `T` (unknown fields named by path).
pub(crate) fn read_js<T: serde::de::DeserializeOwned>(v: &JsValue) -> Result<T, JsValue> {
    retrystorm::validate::from_value(&json_from_js(v).map_err(|e| js_error(&e))?)
        .map_err(|e| js_error(&e))
}
