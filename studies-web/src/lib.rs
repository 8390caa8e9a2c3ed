//! The page's studies view: published setups of independent simulators restated in the
//! cluster model, the source's figures beside the model's (`retrystorm studies`,
//! `retrystorm study ID`, the same engine functions). A wasm module of its own, built
//! beside the page's (`www/index.html`) and loaded by a Web Worker only when a reader
//! opens the studies, so the first page never downloads them and a study's run never
//! blocks the page.

use retrystorm::lang::{Lang, Texts as _};
use retrystorm::studies::{self, StudyText, MAX_STUDY_SEEDS};
use retrystorm::validate::ErrorKind;
use retrystorm::ValidationError;
use serde_json::json;
use wasm_bindgen::prelude::*;

/// The one file of the page's glue that turns an engine error into a JS `Error`.
#[path = "../../www/src/js_error.rs"]
pub mod js_error;

/// Every study, in `lang`: `[{id, title, source: {work, url, file, commit}, seeds}]`,
/// in `retrystorm studies` order (`seeds`: the count it runs by default).
#[wasm_bindgen(
    js_name = studyList,
    unchecked_return_type = "{id: string, title: string, source: {work: string, url: string, file: string, commit: string}, seeds: number}[]"
)]
pub fn study_list(lang: Option<String>) -> Result<JsValue, JsValue> {
    let lang = lang_of(lang);
    let list: Vec<serde_json::Value> = studies::list()
        .into_iter()
        .map(|i| json!({"id": i.id, "title": lang.of(i.title), "source": i.source, "seeds": i.seeds}))
        .collect();
    to_js(&serde_json::Value::Array(list))
}

/// Runs study `id` over `seeds` seeds (as a link carries them: text; empty or
/// `undefined`: the study's own count), in `lang`: the study as `retrystorm study ID
/// --json` gives it (with `summary`, its verdicts counted in a sentence), plus `seedCount`, the words of its headings (`words: {source, setup,
/// reference, note}`) and its figures as the CLI's table cells (`head`, `rows`). An
/// unknown id or a bad count throws the engine's error, naming the field and what is allowed.
#[wasm_bindgen(
    js_name = studyRun,
    unchecked_return_type = "{id: string, title: string, source: {work: string, url: string, file: string, commit: string}, setup: string, reference: string, note: string, summary: string, seedCount: number, figures: any[], words: {source: string, setup: string, reference: string, note: string}, head: string[], rows: string[][]}"
)]
pub fn study_run(
    id: &str,
    seeds: Option<String>,
    lang: Option<String>,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(lang);
    let err = |e: &ValidationError| js_error::js_error_in(e, lang);
    known(id).map_err(|e| err(&e))?;
    let seeds = seed_count(seeds.as_deref()).map_err(|e| err(&e))?;
    let study = studies::run(id, seeds, None, lang).map_err(|e| err(&e))?;
    let (head, rows) = studies::table(&study, lang);
    let mut out = serde_json::to_value(&study)
        .map_err(|e| js_error::plain_error(format!("a study is not valid JSON: {e}")))?;
    let w = |t: StudyText| t.get(lang);
    if let Some(o) = out.as_object_mut() {
        o.insert("seedCount".into(), json!(study.seeds.len()));
        o.insert(
            "words".into(),
            json!({
                "source": w(StudyText::Source),
                "setup": w(StudyText::Setup),
                "reference": w(StudyText::Reference),
                "note": w(StudyText::Note),
            }),
        );
        o.insert("head".into(), json!(head));
        o.insert("rows".into(), json!(rows));
    }
    to_js(&out)
}

/// A link's study id must be a study's. Checked here, before the engine's own check, for
/// the page's plain words: the ids in backquotes read "Study must be one of …" (the
/// engine's message names them bare, as the CLI prints them).
fn known(id: &str) -> Result<(), ValidationError> {
    let list = studies::list();
    if list.iter().any(|i| i.id == id) {
        return Ok(());
    }
    let ids: Vec<String> = list.iter().map(|i| format!("`{}`", i.id)).collect();
    Err(
        ValidationError::new("study", id, format!("one of {}", ids.join(", ")))
            .of_kind(ErrorKind::Type),
    )
}

/// A link's seed count: none (empty), or a whole number the engine then checks against
/// its range; anything else is named with that range, as `retrystorm study --seeds` does.
fn seed_count(text: Option<&str>) -> Result<Option<usize>, ValidationError> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => t.parse::<usize>().map(Some).map_err(|_| {
            ValidationError::new(
                "seeds",
                t,
                format!("a whole number in 2..={MAX_STUDY_SEEDS}"),
            )
            .of_kind(ErrorKind::Type)
        }),
    }
}

/// The language named, English by default.
fn lang_of(lang: Option<String>) -> Lang {
    lang.as_deref().and_then(Lang::parse).unwrap_or(Lang::En)
}

/// A JSON value as a plain JS value, through its text (as the page's glue does).
fn to_js(v: &serde_json::Value) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&v.to_string())
        .map_err(|_| js_error::plain_error("an output is not valid JSON"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_seed_count_is_a_whole_number_or_named_with_its_range() {
        assert_eq!(seed_count(None).unwrap(), None);
        assert_eq!(seed_count(Some(" ")).unwrap(), None);
        assert_eq!(seed_count(Some("4")).unwrap(), Some(4));
        let e = seed_count(Some("four")).unwrap_err();
        assert_eq!(e.field, "seeds");
        assert_eq!(
            e.to_string(),
            format!(
                "seeds = four is not allowed: expected a whole number in 2..={MAX_STUDY_SEEDS}"
            )
        );
        assert_eq!(
            e.plain(Lang::En),
            format!("Seeds must be a whole number between 2 and {MAX_STUDY_SEEDS}")
        );
        // A number out of range is the engine's to refuse, with the same range.
        let e = studies::run(
            "brooker-retry-sim",
            seed_count(Some("1")).unwrap(),
            Some(1),
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("seeds = 1 is out of range: allowed 2..={MAX_STUDY_SEEDS}")
        );
        assert_eq!(
            e.plain(Lang::En),
            format!("Seeds must be between 2 and {MAX_STUDY_SEEDS}")
        );
    }

    #[test]
    fn an_unknown_study_is_named_with_every_study_id() {
        assert!(known("brooker-retry-sim").is_ok());
        let e = known("nope").unwrap_err();
        assert_eq!(e.field, "study");
        let ids: Vec<&str> = studies::list().iter().map(|i| i.id).collect();
        assert_eq!(
            e.plain(Lang::En),
            format!("Study must be one of {}", ids.join(", "))
        );
        assert_eq!(
            e.plain(Lang::Zh),
            format!("study必须是 {} 之一", ids.join("、"))
        );
    }
}
