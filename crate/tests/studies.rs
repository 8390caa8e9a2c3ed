//! Every study over the seeds it states: each figure within its tolerance of the
//! source's, or, where the study documents a difference, outside it (the difference
//! holds, so its note is not stale). No figure may differ without a note.

use retrystorm::lang::Lang;
use retrystorm::studies::{self, Verdict};

#[test]
fn every_study_agrees_within_its_tolerance_or_differs_as_documented() {
    for info in studies::list() {
        let s = studies::run(info.id, None, None, Lang::En).expect("runs");
        assert_eq!(s.seeds.len(), info.seeds, "{}", info.id);
        assert!(!s.figures.is_empty(), "{}", info.id);
        for f in &s.figures {
            let gap = (f.model.mean - f.source.mean).abs();
            match (&f.verdict, f.documented_difference) {
                (Verdict::Agrees, false) => assert!(gap <= f.tolerance + 1e-9),
                (Verdict::Differs(why), true) => {
                    assert!(gap > f.tolerance, "{}: {}", info.id, f.label);
                    assert!(!why.is_empty());
                }
                (v, documented) => panic!(
                    "{}: {}: source {:?}, model {:?}, tolerance {}: {v:?} (documented difference: {documented})",
                    info.id, f.label, f.source, f.model, f.tolerance
                ),
            }
        }
    }
}

#[test]
fn every_study_names_its_source_and_says_its_setup_in_both_languages() {
    let list = studies::list();
    assert!(list.len() >= 2);
    for (k, i) in list.iter().enumerate() {
        assert!(
            list[..k].iter().all(|j| j.id != i.id),
            "duplicate id {}",
            i.id
        );
        assert!(i.source.url.starts_with("https://"), "{}", i.id);
        assert_eq!(i.source.commit.len(), 40, "{}", i.id);
        for w in [i.title, i.setup, i.reference, i.note] {
            assert!(!w.0.is_empty() && !w.1.is_empty(), "{}", i.id);
        }
    }
}

#[test]
fn a_study_is_the_same_for_the_same_seeds_and_its_words_follow_the_language() {
    let a = studies::run("brooker-collapse", Some(3), Some(1), Lang::En).unwrap();
    let b = studies::run("brooker-collapse", Some(3), Some(2), Lang::En).unwrap();
    assert_eq!(a.figures, b.figures);
    let zh = studies::run("brooker-collapse", Some(3), Some(1), Lang::Zh).unwrap();
    assert_ne!(zh.title, a.title);
    let models = |s: &studies::Study| s.figures.iter().map(|f| f.model).collect::<Vec<_>>();
    assert_eq!(models(&zh), models(&a));
}

#[test]
fn a_study_needs_two_seeds_at_least() {
    let e = studies::run("brooker-collapse", Some(1), Some(1), Lang::En).unwrap_err();
    assert_eq!(e.field, "seeds");
}
