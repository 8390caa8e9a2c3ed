//! Share links: the versioned codec for the playground's whole state in one URL parameter.
//!
//! A link's state is `v<N>.<payload>`, where the payload is the unpadded base64url
//! (RFC 4648 §5) of a small JSON document:
//!
//! ```json
//! {"model":"classic","classic":{…scenario…},"cluster":{…scenario…},"view":{"hidden":[2]}}
//! ```
//!
//! - `model` is the model on screen (`classic` or `cluster`); each model keeps its own
//!   scenario, so switching back and forth loses nothing.
//! - The scenarios are kept as JSON values, exactly as the scenario files spell them
//!   (seeds above 2^53 as decimal strings). This module checks the envelope only; the
//!   scenario parsers check the contents, so a link and a scenario file are judged by the
//!   same rules and give the same messages.
//! - `view` holds display-only options that do not change any number.
//! - `cluster_a` (version 2) is the cluster scenario pinned as "A" of an A/B
//!   comparison; the page runs it again to show A beside the current scenario (B).
//! - `classic_sweep`, `cluster_sweep` (version 3): a model's plan of many runs.
//! - `classic_paste`, `cluster_paste` (version 4): the library configuration a reader
//!   pasted and used in that model, `{"text", "from", "instance"}`, so the link shows what
//!   it was made from (the scenario itself already holds the policy). [`encode`] leaves
//!   them out when they would make the link longer than [`MAX_LINK_CHARS`].
//!
//! ## Versions and migration
//!
//! [`encode`] writes the oldest version that can hold the state: version 1 unless an
//! A/B pin needs version 2, so a link without a pin stays readable by every playground,
//! and a link with one tells an older playground that it was made by a newer one
//! instead of failing on an unknown field. [`decode`] reads every
//! version ever written: it dispatches on the `v<N>` prefix to that version's reader,
//! which returns that version's own struct, and then migrates it step by step
//! (`v1 → v2 → …`) to [`ShareState`]. When the format changes, the rule is: freeze the
//! current struct as `StateV<N>`, add `StateV<N+1>`, add one `From` step, and keep the
//! pinned link of every old version in the tests (see `old_links_keep_decoding`). A
//! link from a *newer* version gets a message saying so instead of a guess.
//!
//! Every failure is a [`ValidationError`] whose field starts with `link`, naming what
//! is wrong (size, version, encoding, JSON, a field). The input is bounded by
//! [`MAX_LINK_CHARS`] before any decoding work is done.

use crate::scenario;
use crate::validate;
use crate::ValidationError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The newest version [`encode`] writes (and [`decode`] reads).
pub const VERSION: u32 = 4;

/// Longest state text accepted, in characters; about 36 KB of JSON, far above any
/// real scenario, and far below what would make decoding noticeable.
pub const MAX_LINK_CHARS: usize = 48 * 1024;

/// Longest strategy-visibility list a link may carry.
const MAX_HIDDEN: usize = 1024;

/// Which model the page shows (the scenarios' own `model` values).
pub use crate::scenario::Model;

/// Display-only options: they change what is drawn, never a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// Indices of strategies hidden from the chart (the results table always shows all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<u32>,
    /// The classic chart shows cost per second instead of attempts per second.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub cost: bool,
}

/// Everything a share link restores (the version-2 document).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ShareState {
    /// The model on screen.
    #[serde(default)]
    pub model: Model,
    /// The classic scenario as JSON, if the link carries one (else the defaults apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classic: Option<Value>,
    /// The cluster scenario as JSON, if the link carries one (else the defaults apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<Value>,
    /// The cluster scenario pinned as A of an A/B comparison, if any (version 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_a: Option<Value>,
    /// Display-only options.
    #[serde(default)]
    pub view: View,
    /// The classic model's plan of many runs, if any (version 3; absent: one seed, the
    /// single run): an ensemble (`{"seeds": 1000}`) or a sweep (a definition with
    /// `params`). Links write it `classic_sweep`, its name from before ensembles shared it.
    #[serde(
        default,
        rename = "classic_sweep",
        skip_serializing_if = "Option::is_none"
    )]
    pub classic_plan: Option<Value>,
    /// The cluster model's plan of many runs, as [`ShareState::classic_plan`] (version 3;
    /// links write it `cluster_sweep`).
    #[serde(
        default,
        rename = "cluster_sweep",
        skip_serializing_if = "Option::is_none"
    )]
    pub cluster_plan: Option<Value>,
    /// The configuration text pasted into the classic model's paste box and used there
    /// (version 4): `{"text", "from", "instance"}`, checked as text only (the importer
    /// reads it when the page opens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classic_paste: Option<Value>,
    /// The same for the cluster model (version 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_paste: Option<Value>,
}

/// The version-1 document. Frozen: it stays as it is; [`From`] migrates it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct StateV1 {
    #[serde(default)]
    model: Model,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    classic: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cluster: Option<Value>,
    #[serde(default)]
    view: View,
}

/// Version 1 → 2: no A/B pin.
impl From<StateV1> for ShareState {
    fn from(v: StateV1) -> Self {
        ShareState {
            model: v.model,
            classic: v.classic,
            cluster: v.cluster,
            cluster_a: None,
            view: v.view,
            ..ShareState::default()
        }
    }
}

/// The version-2 document: version 1 plus `cluster_a`. Frozen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct StateV2 {
    #[serde(default)]
    model: Model,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    classic: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cluster: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cluster_a: Option<Value>,
    #[serde(default)]
    view: View,
}

/// Version 2 → 3: no plan of many runs.
impl From<StateV2> for ShareState {
    fn from(v: StateV2) -> Self {
        ShareState {
            model: v.model,
            classic: v.classic,
            cluster: v.cluster,
            cluster_a: v.cluster_a,
            view: v.view,
            ..ShareState::default()
        }
    }
}

/// The version-3 document is version 4 without the pastes: read as version 4, then
/// refused if it has them (see [`decode_v3`]).
const V4_ONLY: [&str; 2] = ["classic_paste", "cluster_paste"];

/// Encodes the state as `v<N>.<base64url(JSON)>`, safe to put in a URL unescaped; `N`
/// is the oldest version that holds it (see the module documentation). A pasted text
/// that would make the link longer than [`MAX_LINK_CHARS`] is left out.
pub fn encode(state: &ShareState) -> String {
    let text = encode_as_is(state);
    if text.len() <= MAX_LINK_CHARS
        || (state.classic_paste.is_none() && state.cluster_paste.is_none())
    {
        return text;
    }
    encode_as_is(&ShareState {
        classic_paste: None,
        cluster_paste: None,
        ..state.clone()
    })
}

/// [`encode`] with everything in it.
fn encode_as_is(state: &ShareState) -> String {
    // Serializing a struct of plain values and `serde_json::Value`s cannot fail.
    let (version, json) = if state.classic_paste.is_some() || state.cluster_paste.is_some() {
        (4, serde_json::to_vec(state))
    } else if state.classic_plan.is_some() || state.cluster_plan.is_some() {
        (3, serde_json::to_vec(state))
    } else if state.cluster_a.is_some() {
        let v2 = StateV2 {
            model: state.model,
            classic: state.classic.clone(),
            cluster: state.cluster.clone(),
            cluster_a: state.cluster_a.clone(),
            view: state.view.clone(),
        };
        (2, serde_json::to_vec(&v2))
    } else {
        let v1 = StateV1 {
            model: state.model,
            classic: state.classic.clone(),
            cluster: state.cluster.clone(),
            view: state.view.clone(),
        };
        (1, serde_json::to_vec(&v1))
    };
    let json = json.expect("share state serializes");
    format!("v{version}.{}", base64url_encode(&json))
}

/// Decodes a state written by any version of [`encode`], migrating it to the current one.
pub fn decode(text: &str) -> Result<ShareState, ValidationError> {
    // Bound first, before any allocation proportional to the input.
    if text.len() > MAX_LINK_CHARS {
        return Err(ValidationError::new(
            "link",
            format!("{} characters", text.len()),
            format!("at most {MAX_LINK_CHARS} characters"),
        ));
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(ValidationError::new(
            "link",
            "\"\"",
            "a state of the form v1.<base64url>",
        ));
    }
    let (version, payload) = text.split_once('.').ok_or_else(|| {
        ValidationError::new("link", shorten(text), "a state of the form v1.<base64url>")
    })?;
    let number = version
        .strip_prefix('v')
        .and_then(|n| {
            if n.bytes().all(|b| b.is_ascii_digit()) {
                n.parse::<u32>().ok()
            } else {
                None
            }
        })
        .ok_or_else(|| {
            ValidationError::new("link.version", shorten(version), format!("v1..=v{VERSION}"))
        })?;
    let bytes = base64url_decode(payload)?;
    match number {
        1 => decode_v1(&bytes),
        2 => decode_v2(&bytes),
        3 => decode_v3(&bytes),
        4 => check(read::<ShareState>(&bytes)?),
        n if n > VERSION => Err(ValidationError::new(
            "link.version",
            format!("v{n}"),
            format!("v1..=v{VERSION} (this link was made by a newer playground)"),
        )),
        n => Err(ValidationError::new(
            "link.version",
            format!("v{n}"),
            format!("v1..=v{VERSION}"),
        )),
    }
}

/// Reads one version's document; a field of the wrong type, unknown or missing is
/// named by its full path under `link` (`link.view.hidden[0]`).
/// A payload that is not JSON text names the field where its text went wrong
/// (`link.classic.capacity`, through [`validate::parse_json`]); text that is not UTF-8,
/// or wrong before any field, is the payload's problem.
fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ValidationError> {
    let payload = |what: &dyn core::fmt::Display| {
        ValidationError::new(
            "link.payload",
            "",
            format!("a JSON state document ({what})"),
        )
    };
    let text = core::str::from_utf8(bytes).map_err(|e| payload(&e))?;
    let value: Value = validate::parse_json(text).map_err(|e| {
        if e.field.is_empty() {
            payload(&e.allowed)
        } else {
            e.within("link")
        }
    })?;
    validate::from_value(&value).map_err(|e| e.within("link"))
}

fn decode_v1(bytes: &[u8]) -> Result<ShareState, ValidationError> {
    check(ShareState::from(read::<StateV1>(bytes)?))
}

fn decode_v2(bytes: &[u8]) -> Result<ShareState, ValidationError> {
    check(ShareState::from(read::<StateV2>(bytes)?))
}

fn decode_v3(bytes: &[u8]) -> Result<ShareState, ValidationError> {
    let state = read::<ShareState>(bytes)?;
    for (name, v) in V4_ONLY
        .iter()
        .zip([&state.classic_paste, &state.cluster_paste])
    {
        if v.is_some() {
            return Err(ValidationError::new(
                format!("link.{name}"),
                "present",
                "no such field in a v3 link",
            ));
        }
    }
    check(state)
}

/// [`decode`] plus the checks of every scenario the link carries, so a page never loads
/// a link it cannot run. A scenario's problem is named by its full path under its
/// place in the link (`link.cluster.tiers[1].instances`), by the scenario files' rules.
pub fn decode_checked(text: &str) -> Result<ShareState, ValidationError> {
    let state = decode(text)?;
    for (name, model, value) in [
        ("classic", Model::Classic, &state.classic),
        ("cluster", Model::Cluster, &state.cluster),
        ("cluster_a", Model::Cluster, &state.cluster_a),
    ] {
        if let Some(v) = value {
            scenario::read(Some(model), v).map_err(|e| e.within(&format!("link.{name}")))?;
        }
    }
    // A plan's fields and its seed count are checked here; what needs the scenario
    // (paths, metrics, bounds on the work) is checked when the page plans it.
    for (name, value) in [
        ("classic_sweep", &state.classic_plan),
        ("cluster_sweep", &state.cluster_plan),
    ] {
        if let Some(v) = value {
            let at = |e: ValidationError| e.within(&format!("link.{name}"));
            let def: crate::sweep::Sweep = validate::from_value(v).map_err(at)?;
            match (&def.seeds, &def.seed_list) {
                (Some(n), _) => crate::ensemble::check_count("seeds", *n).map_err(at)?,
                (None, Some(l)) => {
                    crate::ensemble::check_count("seed_list", l.len()).map_err(at)?
                }
                (None, None) => {}
            }
        }
    }
    Ok(state)
}

/// The envelope checks every version shares (the scenarios' own checks are the parsers').
fn check(state: ShareState) -> Result<ShareState, ValidationError> {
    for (name, scenario, what) in [
        ("classic", &state.classic, "a scenario object"),
        ("cluster", &state.cluster, "a scenario object"),
        ("cluster_a", &state.cluster_a, "a scenario object"),
        ("classic_sweep", &state.classic_plan, "a sweep object"),
        ("cluster_sweep", &state.cluster_plan, "a sweep object"),
    ] {
        if let Some(v) = scenario {
            if !v.is_object() {
                return Err(ValidationError::new(
                    format!("link.{name}"),
                    shorten(&v.to_string()),
                    what,
                ));
            }
        }
    }
    for (name, paste) in [
        ("classic_paste", &state.classic_paste),
        ("cluster_paste", &state.cluster_paste),
    ] {
        if let Some(v) = paste {
            check_paste(&format!("link.{name}"), v)?;
        }
    }
    if state.view.hidden.len() > MAX_HIDDEN {
        return Err(ValidationError::new(
            "link.view.hidden",
            format!("{} entries", state.view.hidden.len()),
            format!("at most {MAX_HIDDEN} entries"),
        ));
    }
    Ok(state)
}

/// A pasted configuration: an object of strings, `text` and optionally `from` (the
/// library) and `instance`, nothing else; what they say is the importer's to judge when
/// the page reads them. The first wrong field is named (the object itself if it is none).
fn check_paste(at: &str, v: &Value) -> Result<(), ValidationError> {
    let wrong = match v.as_object() {
        None => Some(at.to_string()),
        Some(fields) => fields
            .iter()
            .find(|(k, v)| !matches!(k.as_str(), "text" | "from" | "instance") || !v.is_string())
            .map(|(k, _)| k.as_str())
            .or((!fields.contains_key("text")).then_some("text"))
            .map(|k| format!("{at}.{}", validate::echo(k))),
    };
    match wrong {
        None => Ok(()),
        Some(field) => Err(ValidationError::new(
            field,
            "",
            "an object of strings: `text`, and `from`, `instance` if any",
        )),
    }
}

/// At most 40 characters of untrusted text, quoted, for a message.
fn shorten(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        format!("{cut:?}…")
    } else {
        format!("{cut:?}")
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Unpadded base64url (RFC 4648 §5).
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        // One input byte gives 2 output characters, two give 3, three give 4.
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url, padded or not; a stray character is reported with its position.
pub(crate) fn base64url_decode(text: &str) -> Result<Vec<u8>, ValidationError> {
    let body = text.trim_end_matches('=');
    if text.len() - body.len() > 2 || body.len() % 4 == 1 {
        return Err(ValidationError::new(
            "link.payload",
            format!("{} characters", text.len()),
            "complete base64url (the link looks cut off)",
        ));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in body.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            // Also accept standard base64, which some tools produce when re-encoding links.
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => {
                let ch = body[i..].chars().next().unwrap_or('?');
                return Err(ValidationError::new(
                    "link.payload",
                    format!("{ch:?} at position {i}"),
                    "base64url characters A-Z a-z 0-9 - _",
                ));
            }
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> ShareState {
        ShareState {
            model: Model::Classic,
            classic: Some(json!({"clients": 200, "seed": "9223372036854775807",
                "strategies": [{"name": "<img src=x onerror=alert(1)> 重试"}]})),
            cluster: None,
            cluster_a: None,
            view: View {
                hidden: vec![1, 3],
                cost: true,
            },
            ..ShareState::default()
        }
    }

    #[test]
    fn base64url_matches_rfc4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, enc) in vectors {
            assert_eq!(base64url_encode(plain.as_bytes()), enc);
            assert_eq!(base64url_decode(enc).unwrap(), plain.as_bytes());
        }
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64url_decode("-_8=").unwrap(), vec![0xfb, 0xff]);
        assert_eq!(base64url_decode("+/8").unwrap(), vec![0xfb, 0xff]);
    }

    #[test]
    fn base64url_round_trips_every_length() {
        let data: Vec<u8> = (0..=255u8).collect();
        for n in 0..data.len() {
            assert_eq!(
                base64url_decode(&base64url_encode(&data[..n])).unwrap(),
                &data[..n]
            );
        }
    }

    #[test]
    fn state_round_trips_and_is_url_safe() {
        let s = sample();
        let text = encode(&s);
        assert!(text.starts_with("v1."));
        assert!(text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_'));
        assert_eq!(decode(&text).unwrap(), s);
        assert_eq!(
            decode(&encode(&ShareState::default())).unwrap(),
            ShareState::default()
        );
    }

    /// Pinned links from every released version: these strings must decode forever.
    #[test]
    fn old_links_keep_decoding() {
        // v1, written by the first playground: the classic model with a clients override.
        let v1 = "v1.eyJtb2RlbCI6ImNsYXNzaWMiLCJjbGFzc2ljIjp7ImNsaWVudHMiOjEwMH0sInZpZXciOnsiaGlkZGVuIjpbMF19fQ";
        let s = decode(v1).unwrap();
        assert_eq!(s.model, Model::Classic);
        assert_eq!(s.classic, Some(json!({"clients": 100})));
        assert_eq!(s.view.hidden, vec![0]);
        // A minimal v1 document: everything missing takes its default.
        let s = decode(&format!("v1.{}", base64url_encode(b"{}"))).unwrap();
        assert_eq!(s, ShareState::default());
    }

    #[test]
    fn every_error_names_the_problem() {
        let cases: Vec<(String, &str, &str)> = vec![
            ("".into(), "link", "v1.<base64url>"),
            ("garbage".into(), "link", "v1.<base64url>"),
            ("x1.abc".into(), "link.version", "v1..=v4"),
            ("v9.e30".into(), "link.version", "newer playground"),
            ("v0.e30".into(), "link.version", "v1..=v4"),
            ("v1.e30*".into(), "link.payload", "base64url characters"),
            ("v1.e".into(), "link.payload", "cut off"),
            (
                format!("v1.{}", base64url_encode(b"{\"model\":")),
                "link.model",
                "EOF",
            ),
            (
                format!("v1.{}", base64url_encode(b"{\"model\":\"quantum\"}")),
                "link.model",
                "\"quantum\" is not allowed: expected `classic` or `cluster`",
            ),
            (
                format!("v1.{}", base64url_encode(b"{\"evil\":1}")),
                "link.evil",
                "unknown field `link.evil`",
            ),
            (
                format!("v1.{}", base64url_encode(b"{\"classic\":[1]}")),
                "link.classic",
                "scenario object",
            ),
            (
                format!("v1.{}", base64url_encode(b"{\"cluster_a\":{}}")),
                "link.cluster_a",
                "unknown field `link.cluster_a`",
            ),
            (
                format!("v2.{}", base64url_encode(b"{\"cluster_a\":7}")),
                "link.cluster_a",
                "scenario object",
            ),
            (
                "v1.".to_string() + &"A".repeat(MAX_LINK_CHARS),
                "link",
                "at most",
            ),
        ];
        for (text, field, needle) in cases {
            let e = decode(&text).expect_err(&text);
            assert_eq!(e.field, field, "{text:.60}: {e}");
            assert!(e.to_string().contains(needle), "{text:.60}: {e}");
            assert!(e.to_string().len() < 400, "message stays short: {e}");
        }
    }

    /// A payload that is not JSON text is named at the field where its text went wrong
    /// (`link.classic.capacity`), as a wrong type there is, not as the payload.
    #[test]
    fn a_bad_payload_text_names_the_inner_field() {
        let cases: Vec<(&[u8], &str, &str)> = vec![
            (
                br#"{"classic":{"capacity":1e999}}"#,
                "link.classic.capacity",
                "float range",
            ),
            (
                br#"{"view":{"hidden":[0,"\ud800"]}}"#,
                "link.view.hidden[1]",
                "Unicode",
            ),
            (
                b"{\"classic\":{\"name\":\"a\nb\"}}",
                "link.classic.name",
                "control character",
            ),
        ];
        for (json, field, needle) in cases {
            let text = format!("v1.{}", base64url_encode(json));
            let e = decode(&text).expect_err(&text);
            assert_eq!(e.field, field, "{e}");
            let m = e.to_string();
            assert!(m.contains(needle) && m.contains(" at line "), "{m}");
        }
        // Bytes that are not UTF-8 text are still the payload's problem.
        let e = decode(&format!("v1.{}", base64url_encode(b"{\"a\":\"\xff\"}"))).unwrap_err();
        assert_eq!(e.field, "link.payload", "{e}");
    }

    #[test]
    fn an_ab_pin_needs_version_2_and_nothing_else_does() {
        let mut s = sample();
        assert!(encode(&s).starts_with("v1."));
        s.model = Model::Cluster;
        s.cluster = Some(json!({"name": "B"}));
        s.cluster_a = Some(json!({"name": "A"}));
        let text = encode(&s);
        assert!(text.starts_with("v2."), "{text}");
        assert_eq!(decode(&text).unwrap(), s);
        // A version-2 document without a pin reads the same as its version-1 twin.
        let v2 = format!("v2.{}", base64url_encode(br#"{"model":"cluster"}"#));
        let v1 = format!("v1.{}", base64url_encode(br#"{"model":"cluster"}"#));
        assert_eq!(decode(&v2).unwrap(), decode(&v1).unwrap());
    }

    #[test]
    fn an_ensemble_needs_version_3_and_older_links_read_without_one() {
        let mut s = sample();
        s.classic_plan = Some(json!({"seeds": 1000}));
        let text = encode(&s);
        assert!(text.starts_with("v3."), "{text}");
        assert_eq!(decode(&text).unwrap(), s);
        // A version-2 document has no place for a sweep: it is an unknown field there.
        let v2 = format!(
            "v2.{}",
            base64url_encode(br#"{"classic_sweep":{"seeds":2}}"#)
        );
        assert_eq!(decode(&v2).unwrap_err().field, "link.classic_sweep");
        let v3 = format!("v3.{}", base64url_encode(br#"{"model":"cluster"}"#));
        let v1 = format!("v1.{}", base64url_encode(br#"{"model":"cluster"}"#));
        assert_eq!(decode(&v3).unwrap(), decode(&v1).unwrap());
    }

    #[test]
    fn a_pasted_text_needs_version_4_and_a_too_long_one_is_left_out() {
        let mut s = sample();
        s.classic_plan = Some(json!({"seeds": 10}));
        s.cluster_paste = Some(
            json!({"text": "resilience4j.retry:\n  x: 1\n", "from": "resilience4j", "instance": "payments"}),
        );
        let text = encode(&s);
        assert!(text.starts_with("v4."), "{text}");
        assert_eq!(decode(&text).unwrap(), s);
        // Too long for a link: the text is left out, everything else stays.
        s.cluster_paste = Some(json!({"text": "#".repeat(MAX_LINK_CHARS)}));
        let text = encode(&s);
        assert!(
            text.starts_with("v3.") && text.len() <= MAX_LINK_CHARS,
            "{}",
            text.len()
        );
        let back = decode(&text).unwrap();
        assert_eq!(back.cluster_paste, None);
        assert_eq!(back.classic_plan, s.classic_plan);
        // A version-3 document has no place for a paste.
        let v3 = format!(
            "v3.{}",
            base64url_encode(br#"{"classic_paste":{"text":"a"}}"#)
        );
        assert_eq!(decode(&v3).unwrap_err().field, "link.classic_paste");
    }

    #[test]
    fn a_bad_paste_in_a_link_names_its_field() {
        let link = |doc: Value| format!("v4.{}", base64url_encode(doc.to_string().as_bytes()));
        for (doc, field) in [
            (json!({"cluster_paste": "text"}), "link.cluster_paste"),
            (
                json!({"cluster_paste": {"from": "grpc"}}),
                "link.cluster_paste.text",
            ),
            (
                json!({"classic_paste": {"text": 3}}),
                "link.classic_paste.text",
            ),
            (
                json!({"classic_paste": {"text": "a", "from": []}}),
                "link.classic_paste.from",
            ),
            (
                json!({"classic_paste": {"text": "a", "evil\u{1b}[2J": "x"}}),
                "link.classic_paste.evil",
            ),
        ] {
            let e = decode(&link(doc.clone())).unwrap_err();
            assert!(e.field.starts_with(field), "{doc}: {e}");
            assert!(!e.field.contains('\u{1b}'), "{e}");
            assert!(!e.to_string().contains('\u{1b}'), "{e}");
        }
    }

    #[test]
    fn bad_ensemble_settings_in_a_link_name_the_field() {
        let link = |doc: Value| format!("v3.{}", base64url_encode(doc.to_string().as_bytes()));
        for (doc, field, needle) in [
            (
                json!({"classic_sweep": {"seeds": 0}}),
                "link.classic_sweep.seeds",
                "1..=10000",
            ),
            (
                json!({"cluster_sweep": {"seeds": 10001}}),
                "link.cluster_sweep.seeds",
                "1..=10000",
            ),
            (
                json!({"classic_sweep": {"seed_list": "1,x"}}),
                "link.classic_sweep.seed_list",
                "",
            ),
            (
                json!({"classic_sweep": {"seeds": 2, "bogus": 1}}),
                "link.classic_sweep.bogus",
                "unknown field",
            ),
            (
                json!({"classic_sweep": 5}),
                "link.classic_sweep",
                "a sweep object",
            ),
        ] {
            let e = decode_checked(&link(doc.clone())).expect_err(&doc.to_string());
            assert_eq!(e.field, field, "{doc}: {e}");
            assert!(e.to_string().contains(needle), "{doc}: {e}");
        }
    }

    #[test]
    fn checked_links_name_the_scenario_field_by_its_path() {
        let link = |doc: Value| format!("v1.{}", base64url_encode(doc.to_string().as_bytes()));
        let mut classic = serde_json::to_value(crate::classic::Scenario::article()).unwrap();
        classic["strategies"][2]["budget_pct"] = json!("200");
        let e = decode_checked(&link(json!({ "classic": classic }))).unwrap_err();
        assert_eq!(e.field, "link.classic.strategies[2].budget_pct");
        assert_eq!(
            e.to_string(),
            "link.classic.strategies[2].budget_pct = \"200\" is not allowed: expected a whole number ≥ 0 in 0..=100"
        );
        let mut cluster: Value =
            serde_json::from_str(include_str!("../../scenarios/cluster-call-chain.json")).unwrap();
        cluster["tiers"][1]["instances"] = json!(0);
        let e =
            decode_checked(&link(json!({ "model": "cluster", "cluster": cluster }))).unwrap_err();
        assert_eq!(e.field, "link.cluster.tiers[1].instances");
        assert!(
            e.to_string().contains("is out of range: allowed 1..=10000"),
            "{e}"
        );
        cluster["tiers"][1]["instances"] = json!(null);
        let e = decode_checked(&link(json!({ "cluster": cluster }))).unwrap_err();
        assert_eq!(e.field, "link.cluster.tiers[1].instances");
        let e = decode_checked(&link(json!({ "view": { "hidden": [-1] } }))).unwrap_err();
        assert_eq!(e.field, "link.view.hidden[0]");
        cluster["tiers"][1]["instances"] = json!(2);
        assert!(decode_checked(&link(json!({ "cluster": cluster }))).is_ok());
    }

    #[test]
    fn hidden_list_is_bounded() {
        let doc =
            serde_json::to_vec(&json!({"view": {"hidden": vec![0; MAX_HIDDEN + 1]}})).unwrap();
        let e = decode(&format!("v1.{}", base64url_encode(&doc))).unwrap_err();
        assert_eq!(e.field, "link.view.hidden");
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        // A deterministic sweep of junk: decoding must fail cleanly or succeed, never panic.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            let mut s = String::from("v1.");
            for _ in 0..(x % 64) {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push(char::from(b' ' + ((x >> 33) % 95) as u8));
            }
            let _ = decode(&s);
        }
    }
}
