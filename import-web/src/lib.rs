//! The page's importer: a library's own retry configuration read into a client policy of
//! the cluster model, with what it does in words (`retrystorm import`, the same engine
//! function). A wasm module of its own, built beside the page's (`www/index.html`) and
//! loaded by a Web Worker only when a reader opens the paste box, so the first page never
//! downloads the readers of YAML, properties and the libraries' formats.

use retrystorm::import::{
    export::{classic, export},
    import, Library, Policy,
};
use retrystorm::lang::Lang;
use wasm_bindgen::prelude::*;

/// The one file of the page's glue that turns an engine error into a JS `Error`.
#[path = "../../www/src/js_error.rs"]
pub mod js_error;

/// The libraries whose configurations can be read: `[{name, title}]`, in `--from` order.
#[wasm_bindgen(js_name = importLibraries, unchecked_return_type = "{name: string, title: string}[]")]
pub fn import_libraries() -> Result<JsValue, JsValue> {
    let list: Vec<serde_json::Value> = Library::ALL
        .iter()
        .map(|l| serde_json::json!({"name": l.name(), "title": l.title()}))
        .collect();
    to_js(&serde_json::Value::Array(list))
}

/// Reads `text` as `from`'s configuration (a library's name; empty or `undefined`: the
/// library is recognised from the text), its `instance` (a named instance, route or
/// profile, when the file has several: the error of a file with several and none chosen
/// names them), in `lang`: `{library, source, policy, words,
/// quirks, defaults}`, where `policy` is the client policy's fields as a scenario holds
/// them. A configuration that cannot be read throws the engine's error (its key path in
/// the file, the value, what is allowed).
#[wasm_bindgen(
    js_name = importConfig,
    unchecked_return_type = "{library: string, source: string, policy: any, words: string[], quirks: string[], defaults: string[]}"
)]
pub fn import_config(
    text: &str,
    from: Option<String>,
    instance: Option<String>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let lang = lang.as_deref().and_then(Lang::parse).unwrap_or(Lang::En);
    let library = match from.as_deref() {
        None | Some("") => Library::detect(text),
        Some(name) => Library::from_name(name),
    }
    .map_err(|e| js_error::js_error_in(&e, lang))?;
    let instance = instance.filter(|i| !i.is_empty());
    let imported = import(text, library, instance.as_deref(), lang)
        .map_err(|e| js_error::js_error_in(&e, lang))?;
    to_js(&imported.to_json())
}

/// Writes `client` (a client policy as a scenario holds it, e.g. `tiers[0].client`) as
/// `to`'s configuration (a library's name), its instance or route called `name`, in
/// `lang`: `{library, text, cannot}`, where `cannot` says what that library cannot
/// express of the policy (`retrystorm export`, the same function).
#[wasm_bindgen(
    js_name = exportPolicy,
    unchecked_return_type = "{library: string, text: string, cannot: string[]}"
)]
pub fn export_policy(
    client: JsValue,
    to: &str,
    name: &str,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let lang = lang.as_deref().and_then(Lang::parse).unwrap_or(Lang::En);
    let err = |e: &retrystorm::ValidationError| js_error::js_error_in(e, lang);
    let policy = policy_of(&client, lang)?;
    let library = Library::from_name(to).map_err(|e| err(&e))?;
    to_js(
        &export(&policy, library, name, lang)
            .map_err(|e| err(&e))?
            .to_json(),
    )
}

/// Writes `policy` (a client policy's fields as `importConfig` gives them) as a strategy row of the classic model named `name`, in `lang`: `{strategy, cannot,
/// defaults}` (`retrystorm import --preset article`, the same function).
#[wasm_bindgen(
    js_name = classicRow,
    unchecked_return_type = "{strategy: any, cannot: string[], defaults: string[]}"
)]
pub fn classic_row(policy: JsValue, name: &str, lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang = lang.as_deref().and_then(Lang::parse).unwrap_or(Lang::En);
    let value = json_of(&policy, lang)?;
    let policy =
        Policy::from_json(&value, "policy").map_err(|e| js_error::js_error_in(&e, lang))?;
    to_js(&classic::row(&policy, name, lang).to_json())
}

/// The policy of a client's JSON, checked as a scenario's client is.
fn policy_of(client: &JsValue, lang: Lang) -> Result<Policy, JsValue> {
    let value = json_of(client, lang)?;
    Policy::from_client_json(&value, "client").map_err(|e| js_error::js_error_in(&e, lang))
}

/// A JS value as JSON, read by the engine's own reader.
fn json_of(v: &JsValue, lang: Lang) -> Result<serde_json::Value, JsValue> {
    let text = js_sys::JSON::stringify(v)
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| js_error::plain_error("the client policy is not a JSON object"))?;
    retrystorm::validate::parse_json(&text).map_err(|e| js_error::js_error_in(&e, lang))
}

/// A JSON value as a plain JS value, through its text (as the page's glue does).
fn to_js(v: &serde_json::Value) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&v.to_string())
        .map_err(|_| js_error::plain_error("an output is not valid JSON"))
}
