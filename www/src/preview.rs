//! The delay preview: the distribution of the waits before each retry for a chosen
//! backoff and jitter, sampled by the engine's own code (the classic model's
//! `backoff_ms`, the cluster model's `backoff::sleep`), so a reader sees what "full
//! jitter" does before running anything.

use crate::js::{js_error, json_from_js, plain_error, to_js};
use retrystorm::classic::engine::backoff_ms;
use retrystorm::classic::Jitter as ClassicJitter;
use retrystorm::cluster::backoff::sleep;
use retrystorm::cluster::scenario::{Backoff, Jitter};
use retrystorm::rng::JavaRandom;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// At most this many requests are sampled (the preview is drawn on every edit).
pub const MAX_SAMPLES: u32 = 10_000;

/// What to sample: a classic strategy's backoff or a cluster client's. Written with its
/// variant's name in `model` beside the fields (unknown fields allowed), and read through
/// `retrystorm::validate::read_kind`: serde's derived reader of that form buffers the
/// fields (`Content`) and was the last of its kind in the wasm but for the sweep's.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Spec {
    /// `base_ms << k`, full jitter or none, for `max_retry` retries.
    Classic {
        base_ms: u64,
        jitter: ClassicJitter,
        max_retry: u32,
    },
    /// A cluster client's backoff and jitter, for `max_attempts − 1` retries.
    Cluster {
        backoff: Backoff,
        jitter: Jitter,
        #[serde(default = "default_max_attempts")]
        max_attempts: u32,
    },
}

/// A client's attempts when its policy leaves them out: the engine's default.
fn default_max_attempts() -> u32 {
    retrystorm::cluster::scenario::DEFAULT_MAX_ATTEMPTS
}

/// The waits before one retry over every sampled request, and their spread.
#[derive(Serialize)]
pub struct RetryDelays {
    /// 1 = the first retry.
    pub retry: u32,
    /// Smallest, quartiles, median and largest wait, ms.
    pub min: f64,
    /// First quartile, ms.
    pub p25: f64,
    /// Median, ms.
    pub median: f64,
    /// Third quartile, ms.
    pub p75: f64,
    /// Largest wait, ms.
    pub max: f64,
    /// Every sampled wait, ms, in the order drawn.
    pub samples: Vec<f64>,
}

/// The order statistic at fraction `q` of sorted values (nearest rank).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// Samples `samples` requests from `seed`: each request draws its retries in order, as the
/// engine does (a decorrelated jitter depends on the previous wait).
fn sample(spec: &Spec, samples: u32, seed: i64) -> Vec<RetryDelays> {
    let mut rng = JavaRandom::new(seed);
    let retries = match spec {
        Spec::Classic { max_retry, .. } => *max_retry,
        Spec::Cluster { max_attempts, .. } => max_attempts.saturating_sub(1),
    };
    let mut waits = vec![Vec::with_capacity(samples as usize); retries as usize];
    for _ in 0..samples {
        // What the backoff carries from one retry of this request to the next.
        let mut carry = 0u64;
        for (k, w) in waits.iter_mut().enumerate() {
            let ms = match spec {
                Spec::Classic {
                    base_ms, jitter, ..
                } => {
                    let ms = match jitter {
                        ClassicJitter::Full => backoff_ms::<true, _>(&mut rng, *base_ms, k as u32),
                        ClassicJitter::None => backoff_ms::<false, _>(&mut rng, *base_ms, k as u32),
                    };
                    ms as f64
                }
                Spec::Cluster {
                    backoff, jitter, ..
                } => {
                    let us = sleep(backoff, jitter, k as u32 + 1, &mut carry, &mut rng);
                    us as f64 / 1000.0
                }
            };
            w.push(ms);
        }
    }
    waits
        .into_iter()
        .enumerate()
        .map(|(k, samples)| {
            let mut sorted = samples.clone();
            sorted.sort_by(f64::total_cmp);
            RetryDelays {
                retry: k as u32 + 1,
                min: sorted[0],
                p25: quantile(&sorted, 0.25),
                median: quantile(&sorted, 0.5),
                p75: quantile(&sorted, 0.75),
                max: sorted[sorted.len() - 1],
                samples,
            }
        })
        .collect()
}

/// The waits before each retry for a backoff and jitter:
/// `{model: "classic", base_ms, jitter, max_retry}` or
/// `{model: "cluster", backoff, jitter, max_attempts}` (a client policy's fields), over
/// `samples` requests (1..=10,000) drawn from `seed`; `[{retry, min, p25, median, p75, max,
/// samples}]` in ms.
#[wasm_bindgen(js_name = delayPreview, unchecked_return_type = "RetryDelays[]")]
pub fn delay_preview(spec: JsValue, samples: u32, seed: f64) -> Result<JsValue, JsValue> {
    let doc = json_from_js(&spec).map_err(|e| js_error(&e))?;
    let spec: Spec = retrystorm::validate::read_kind(doc, "model", "Spec")
        .map_err(|e| plain_error(format!("delay preview: {e}")))?;
    if !(1..=MAX_SAMPLES).contains(&samples) {
        return Err(plain_error(format!(
            "samples = {samples} is out of range: allowed 1..={MAX_SAMPLES}"
        )));
    }
    let retries = match &spec {
        Spec::Classic { max_retry, .. } => *max_retry,
        Spec::Cluster { max_attempts, .. } => *max_attempts,
    };
    if retries > 30 {
        return Err(plain_error(format!(
            "{retries} retries: allowed at most 30"
        )));
    }
    to_js(&sample(&spec, samples, seed as i64))
}
