//! Exports of the engine's editing rules for the cluster editor (`retrystorm::cluster::edit`):
//! the load's rate over time, tier add/move/remove with the faults and routes renumbered,
//! and route add/remove. The
//! scenario goes in as the page holds it (a JS object that may not validate yet) and
//! comes back edited.

use crate::js::{js_error, json_from_js, to_js};
use retrystorm::cluster::edit::{self, NewParts};
use retrystorm::cluster::Load;
use retrystorm::ValidationError;
use wasm_bindgen::prelude::*;

/// The offered rate at `samples + 1` evenly spaced times over `[0, duration_ms]`, per
/// second (the timeline's load line); throws when `load` does not parse yet.
#[wasm_bindgen(js_name = clusterLoadShape)]
pub fn cluster_load_shape(
    load: JsValue,
    duration_ms: f64,
    samples: u32,
) -> Result<Vec<f64>, JsValue> {
    let v = json_from_js(&load).map_err(|e| js_error(&e))?;
    let load: Load = retrystorm::validate::read_value(&v)
        .map_err(|e| js_error(&retrystorm::validate::from_json_error(&e).within("load")))?;
    Ok(edit::load_shape(&load, duration_ms, samples as usize))
}

/// Applies `f` to the scenario document and returns the edited document.
fn edited(
    cfg: &JsValue,
    f: impl FnOnce(&mut serde_json::Value, &NewParts) -> Result<(), ValidationError>,
) -> Result<JsValue, JsValue> {
    let mut doc = json_from_js(cfg).map_err(|e| js_error(&e))?;
    f(&mut doc, &NewParts::defaults()).map_err(|e| js_error(&e))?;
    to_js(&doc)
}

/// The scenario with a default tier appended (its old last tier calls it with a default client).
#[wasm_bindgen(js_name = clusterAddTier)]
pub fn cluster_add_tier(cfg: JsValue) -> Result<JsValue, JsValue> {
    edited(&cfg, edit::add_tier)
}

/// The scenario with tiers `i` and `j` swapped: hop policies stay in place, faults follow their tier.
#[wasm_bindgen(js_name = clusterMoveTier)]
pub fn cluster_move_tier(cfg: JsValue, i: u32, j: u32) -> Result<JsValue, JsValue> {
    edited(&cfg, |d, p| edit::move_tier(d, i as usize, j as usize, p))
}

/// The scenario without tier `i`: its faults go with it, later faults are renumbered.
#[wasm_bindgen(js_name = clusterRemoveTier)]
pub fn cluster_remove_tier(cfg: JsValue, i: u32) -> Result<JsValue, JsValue> {
    edited(&cfg, |d, p| edit::remove_tier(d, i as usize, p))
}

/// The scenario with a route added to tier `k` (its client, if any, becomes the first
/// route; the new route calls the first later tier nobody calls, or a new tier).
#[wasm_bindgen(js_name = clusterAddRoute)]
pub fn cluster_add_route(cfg: JsValue, k: u32) -> Result<JsValue, JsValue> {
    edited(&cfg, |d, p| edit::add_route(d, k as usize, p))
}

/// The scenario without route `r` of tier `k` (the tier it called stays).
#[wasm_bindgen(js_name = clusterRemoveRoute)]
pub fn cluster_remove_route(cfg: JsValue, k: u32, r: u32) -> Result<JsValue, JsValue> {
    edited(&cfg, |d, _| edit::remove_route(d, k as usize, r as usize))
}
