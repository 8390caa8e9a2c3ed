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

#[test]
fn the_mm1_storm_is_judged_against_its_source_over_40_seeds() {
    // DesCartes' example fixes its seed, but a copy changed only to read the seed runs
    // over seeds 1–40: each figure is a mean with its own spread, so each tolerance is
    // 3·√(s_src²/40 + s²/n) for the model's s over its n seeds, plus the source's 0.0005
    // (its means and deviations stated to three decimals).
    let s = studies::run("descartes-mm1-storm", Some(6), Some(1), Lang::En).unwrap();
    for f in &s.figures {
        assert_eq!(f.source.n, 40, "{}", f.label);
        let want = 3.0 * (f.source.sd.powi(2) / 40.0 + f.model.sd.powi(2) / 6.0).sqrt() + 0.0005;
        assert!((f.tolerance - want).abs() < 1e-9, "{}", f.label);
    }
}

#[test]
fn the_mm1_storm_tips_before_its_spike_in_some_seeds_and_only_the_source_calls_that_metastable() {
    // Some seeds of both fall into the storm before the spike (timeouts before 125 s).
    // The source's monitor calls every one of its 40 runs metastable; the model calls
    // those that went bad before the spike "unhealthy before the trigger" instead, so its
    // share is lower: the documented difference (4), which must hold.
    let s = studies::run("descartes-mm1-storm", None, None, Lang::En).unwrap();
    let figure = |label: &str| {
        s.figures
            .iter()
            .find(|f| f.label.starts_with(label))
            .unwrap_or_else(|| panic!("no figure {label}"))
    };
    let early = figure("timeouts before the spike's end");
    for m in [early.source, early.model] {
        assert!(m.mean > 0.0 && m.sd > 0.0, "{m:?}");
    }
    let metastable = figure("runs called metastable");
    assert_eq!((metastable.source.mean, metastable.source.sd), (100.0, 0.0));
    assert!(metastable.model.mean > 0.0 && metastable.model.mean < 100.0);
    assert!(metastable.documented_difference);
    assert!(
        matches!(&metastable.verdict, Verdict::Differs(why) if why.contains("before the trigger")),
        "{:?}",
        metastable.verdict
    );
}

#[test]
fn moonpools_sweep_tips_between_600_and_700_ms_a_little_later_in_the_model_as_its_note_says() {
    // Both sides: no seed storms at 600 ms, every seed at 2 s; between, the model's
    // share is below the source's at 650 ms and 700 ms (no network round trip inside
    // its timeout), and the two figures carry the note's reason.
    let s = studies::run("moonpool-trigger-length", None, None, Lang::En).unwrap();
    let share = |ms: &str| {
        s.figures
            .iter()
            .find(|f| f.label.starts_with(&format!("trigger {ms},")))
            .unwrap_or_else(|| panic!("no figure at {ms}"))
    };
    for ms in ["500 ms", "600 ms"] {
        assert_eq!((share(ms).source.mean, share(ms).model.mean), (0.0, 0.0));
    }
    assert_eq!(
        (share("2 s").source.mean, share("2 s").model.mean),
        (100.0, 100.0)
    );
    for ms in ["650 ms", "700 ms"] {
        let f = share(ms);
        assert!(
            f.model.mean > 0.0 && f.model.mean < f.source.mean,
            "{ms}: {f:?}"
        );
        assert!(f.documented_difference, "{ms}");
    }
    assert_eq!(share("650 ms").source.mean, 31.0 / 64.0 * 100.0);
}

#[test]
fn metafors_map_agrees_without_retries_and_only_the_models_retries_storm() {
    // Without retries the source is an M/M/1 with a queue of 100: every figure agrees.
    // With 4 retries the source's client retries only duplicates of requests that found
    // the server idle (its note), so its retries fall as the load rises and it never
    // storms; the model's rise, and its queue ends stormed in half the seeds at 80% load
    // and in all of them at 90% and 95%.
    let s = studies::run("metafor-retry-map", None, None, Lang::En).unwrap();
    let figure = |rate: &str, retries: &str, what: &str| {
        let label = format!("λ = {rate}/s ({}% load), {retries}, {what}", load(rate));
        s.figures
            .iter()
            .find(|f| f.label == label)
            .unwrap_or_else(|| panic!("no figure {label}"))
    };
    fn load(rate: &str) -> String {
        format!("{}", (rate.parse::<f64>().unwrap() * 10.0) as u32)
    }
    let rates = ["8", "9", "9.5"];
    for rate in rates {
        for what in [
            "requests in the system",
            "latency",
            "retries of the attempts",
        ] {
            assert_eq!(figure(rate, "no retries", what).verdict, Verdict::Agrees);
        }
        let stormed = figure(
            rate,
            "4 retries",
            "runs ending with over half the queue (50) waiting",
        );
        assert!(
            stormed.model.mean > stormed.source.mean,
            "{rate}: {stormed:?}"
        );
    }
    let share = |rate| figure(rate, "4 retries", "retries of the attempts");
    for w in rates.windows(2) {
        assert!(share(w[1]).source.mean < share(w[0]).source.mean, "{w:?}");
        assert!(share(w[1]).model.mean > share(w[0]).model.mean, "{w:?}");
    }
    let stormed = |rate| {
        figure(
            rate,
            "4 retries",
            "runs ending with over half the queue (50) waiting",
        )
        .model
        .mean
    };
    assert_eq!(
        (stormed("8"), stormed("9"), stormed("9.5")),
        (50.0, 100.0, 100.0)
    );
}
