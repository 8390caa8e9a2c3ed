//! Helpers shared by the wasm-bindgen tests: values built and read by JS's own JSON,
//! errors checked as real JS `Error`s, and canvases attached to the test page.
#![allow(dead_code)] // each test file uses its own subset

use wasm_bindgen::{JsCast, JsValue};

/// A JS value built by JS's own JSON parser, as the page would hold it.
pub fn js(text: &str) -> JsValue {
    js_sys::JSON::parse(text).expect("valid JSON")
}

/// Any serializable value as the JS object the page would hold.
pub fn js_of<T: serde::Serialize>(value: &T) -> JsValue {
    js(&serde_json::to_string(value).unwrap())
}

/// A JS value back to text by JS's own `JSON.stringify`.
pub fn text(v: &JsValue) -> String {
    js_sys::JSON::stringify(v)
        .expect("stringify")
        .as_string()
        .expect("string")
}

/// A JS value decoded into an engine type through its JSON text.
pub fn decode<T: serde::de::DeserializeOwned>(v: &JsValue) -> T {
    serde_json::from_str(&text(v)).expect("decodes as the engine's type")
}

/// A property of a JS object.
pub fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

/// The message of a JS `Error` (asserting that it is one).
pub fn message(e: &JsValue) -> String {
    assert!(
        e.is_instance_of::<js_sys::Error>(),
        "a real JS Error, not {e:?}"
    );
    e.unchecked_ref::<js_sys::Error>().message().into()
}

/// A canvas of the given CSS size, attached to the page (remove it when done).
pub fn canvas(css_w: u32, css_h: f64) -> web_sys::HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement =
        doc.create_element("canvas").unwrap().dyn_into().unwrap();
    canvas
        .set_attribute(
            "style",
            &format!("width: {css_w}px; height: {css_h}px; display: block"),
        )
        .unwrap();
    doc.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

/// The readout's rows as (label, value) pairs.
pub fn rows(readout: &JsValue) -> Vec<(String, String)> {
    js_sys::Array::from(&get(readout, "rows"))
        .iter()
        .map(|r| {
            (
                get(&r, "label").as_string().unwrap(),
                get(&r, "value").as_string().unwrap(),
            )
        })
        .collect()
}
