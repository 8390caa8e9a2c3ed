//! Studies: published setups of independent simulators restated in the cluster model,
//! the source's figures beside the model's.
//!
//! Each study names its source (author, title, repository file and commit), states its
//! setup in words (Chinese and English), builds its scenarios from the model's existing
//! kinds, runs them over seeds with the ensemble machinery ([`ensemble::map_batched`])
//! and compares every figure with the source's:
//!
//! - A figure is a mean over runs: the source's over its runs, the model's over its
//!   seeds, each with its sample standard deviation.
//! - Its **tolerance** is what the two seed spreads allow: three standard errors of the
//!   difference of the two means, `3·√(s_src²/n_src + s_model²/n_model)`, plus half the
//!   last printed digit of the source's figure. Nothing else widens it. A source that is
//!   a single run (an example with a fixed seed) has no spread of its own: its run is
//!   taken to vary as one model seed does, `3·√(s_model² + s_model²/n_model)`.
//! - Its **verdict** is "agrees" when the two means are within the tolerance. Otherwise
//!   it "differs", and the study says why where the source's model is known to differ
//!   from this one (a documented difference); a difference no note explains is reported
//!   as unexplained (and fails the studies' tests).
//!
//! No parameter is tuned to hit a number: every setting is the source's, translated
//! where the two models name it differently (each translation is in the study's words).
//! Where a source publishes its figures only as a chart, the reference figures are its
//! own code run over seeds (the scripts in `tests/studies/`), and the study says so;
//! where its code fixes the seed, the seed alone is made a variable, an edit the study
//! describes in words (no script of it is committed).
//!
//! [`list`] and [`run`] return plain data (serialisable), for the CLI and the page's
//! studies view (`studies-web/`), which shows [`table`]'s cells.

use crate::ensemble;
use crate::lang::Lang;
use crate::validate::ValidationError;
use serde::Serialize;

mod collapse;
mod good_retry;
mod mm1_storm;
mod retry_map;
mod retry_sim;
mod trigger_length;

/// A text in both languages: `(Chinese, English)`, read with [`Lang::of`].
pub type Words = (&'static str, &'static str);

/// Where a study's setup and figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Source {
    /// Author and work, e.g. Marc Brooker's post or simulator.
    pub work: &'static str,
    /// The work's address (a post, or the repository).
    pub url: &'static str,
    /// The source file whose setup is restated, in its repository.
    pub file: &'static str,
    /// The repository commit read.
    pub commit: &'static str,
}

/// A study in the list: what [`list`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Info {
    /// Short id (`retrystorm study ID`).
    pub id: &'static str,
    /// Title, `(Chinese, English)`.
    #[serde(skip)]
    pub title: Words,
    /// The source.
    pub source: Source,
    /// The setup in plain words, `(Chinese, English)`.
    #[serde(skip)]
    pub setup: Words,
    /// How the source's figures were obtained, `(Chinese, English)`.
    #[serde(skip)]
    pub reference: Words,
    /// Where the source's model differs from this one, `(Chinese, English)`.
    #[serde(skip)]
    pub note: Words,
    /// Seeds the model runs by default (the tests use these).
    pub seeds: usize,
    /// The base seed the model's seeds are derived from ([`ensemble::derive_seeds`]).
    pub base_seed: i64,
}

/// A mean over runs with its sample standard deviation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Mean {
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (divisor n − 1; 0 for one run).
    pub sd: f64,
    /// Runs.
    pub n: usize,
}

impl Mean {
    /// The mean and standard deviation of `values`.
    pub fn of(values: &[f64]) -> Mean {
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n.max(1) as f64;
        let sd = if n > 1 {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Mean { mean, sd, n }
    }

    /// The standard error of the mean, squared.
    fn se2(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sd * self.sd / self.n as f64
        }
    }
}

/// A figure as the source published (or its code printed) it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Published {
    /// What it is: pieces `(Chinese, English)` read in order (a case, a policy, a measure).
    pub label: Vec<Words>,
    /// Its unit, `(Chinese, English)`.
    pub unit: Words,
    /// The source's mean, standard deviation and runs (a single run: `sd` 0, `n` 1).
    pub mean: f64,
    pub sd: f64,
    pub n: usize,
    /// Half the last printed digit of the source's figure.
    pub resolution: f64,
    /// Why the model is known to differ on this figure, if it does.
    pub differs: Option<Words>,
}

/// How a figure compares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", content = "why", rename_all = "snake_case")]
pub enum Verdict {
    /// Within the tolerance.
    Agrees,
    /// Outside it, for the documented reason given.
    Differs(String),
    /// Outside it, and no note of the study explains it.
    Unexplained,
}

/// One figure, the source's beside the model's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    /// What it is.
    pub label: String,
    /// Its unit.
    pub unit: String,
    /// The source's.
    pub source: Mean,
    /// The model's.
    pub model: Mean,
    /// How far apart the two means may be (see the module doc).
    pub tolerance: f64,
    /// Whether they are.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// True when the study documents a difference on this figure.
    pub documented_difference: bool,
}

/// A study run: its description in one language and its figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Study {
    /// Its id.
    pub id: &'static str,
    /// Its title.
    pub title: String,
    /// Its source.
    pub source: Source,
    /// Its setup in words.
    pub setup: String,
    /// How the source's figures were obtained.
    pub reference: String,
    /// Where the source's model differs.
    pub note: String,
    /// The verdicts counted in one sentence (see [`summary`]): what a reader sees first.
    pub summary: String,
    /// The model's seeds.
    #[serde(with = "crate::ensemble::seed_list")]
    pub seeds: Vec<i64>,
    /// The figures.
    pub figures: Vec<Figure>,
}

/// What a study computes: its info, its published figures and, per seed, the model's
/// value of each (in the same order).
struct Def {
    info: Info,
    published: fn() -> Vec<Published>,
    /// The model's figures for one seed, in the order of `published`.
    model: fn(i64) -> Result<Vec<f64>, ValidationError>,
}

fn defs() -> [Def; 6] {
    [
        Def {
            info: retry_sim::INFO,
            published: retry_sim::published,
            model: retry_sim::model,
        },
        Def {
            info: collapse::INFO,
            published: collapse::published,
            model: collapse::model,
        },
        Def {
            info: good_retry::INFO,
            published: good_retry::published,
            model: good_retry::model,
        },
        Def {
            info: mm1_storm::INFO,
            published: mm1_storm::published,
            model: mm1_storm::model,
        },
        Def {
            info: trigger_length::INFO,
            published: trigger_length::published,
            model: trigger_length::model,
        },
        Def {
            info: retry_map::INFO,
            published: retry_map::published,
            model: retry_map::model,
        },
    ]
}

/// Every study: id, title, source.
pub fn list() -> Vec<Info> {
    defs().into_iter().map(|d| d.info).collect()
}

/// Most seeds a study may run.
pub const MAX_STUDY_SEEDS: usize = 1000;

/// Runs study `id` over `seeds` seeds (`None`: its own count) on `threads` threads
/// (`None`: every core) and compares its figures, in `lang`.
pub fn run(
    id: &str,
    seeds: Option<usize>,
    threads: Option<usize>,
    lang: Lang,
) -> Result<Study, ValidationError> {
    let def = defs()
        .into_iter()
        .find(|d| d.info.id == id)
        .ok_or_else(|| {
            let ids: Vec<&str> = defs().iter().map(|d| d.info.id).collect();
            // An unknown name is a value not among the allowed ones, not out of a range.
            ValidationError::new("study", id, format!("one of {}", ids.join(", ")))
                .of_kind(crate::validate::ErrorKind::Type)
        })?;
    let n = seeds.unwrap_or(def.info.seeds);
    // Two seeds at least: a tolerance needs the model's spread.
    crate::validate::in_range("seeds", n, 2, MAX_STUDY_SEEDS)?;
    let seeds = ensemble::derive_seeds(def.info.base_seed, n);
    let batches: Vec<&[i64]> = seeds.chunks(1).collect();
    let per_seed = ensemble::map_batched(&batches, threads, |&s, _| (def.model)(s))?;
    let figures = (def.published)()
        .into_iter()
        .enumerate()
        .map(|(k, p)| {
            let values: Vec<f64> = per_seed.iter().map(|v| v[k]).collect();
            compare(&p, Mean::of(&values), lang)
        })
        .collect::<Vec<Figure>>();
    let i = def.info;
    Ok(Study {
        summary: summary(&figures, (n, def.info.seeds), lang),
        id: i.id,
        title: lang.of(i.title).to_string(),
        source: i.source,
        setup: lang.of(i.setup).to_string(),
        reference: lang.of(i.reference).to_string(),
        note: lang.of(i.note).to_string(),
        seeds,
        figures,
    })
}

/// The verdicts of `figures` counted, in one sentence of `lang`: how many agree with the
/// source's within the tolerance, how many differ for the documented reason, how many
/// with no explanation. `(seeds, own)`: the seeds run and the study's own count; run with
/// another, the sentence says which count its verdicts are tested at (with few seeds a
/// rare event may not show at all, and its spread then reads 0).
pub fn summary(figures: &[Figure], (seeds, own): (usize, usize), lang: Lang) -> String {
    use crate::lang::Texts as _;
    let count = |f: fn(&Verdict) -> bool| figures.iter().filter(|x| f(&x.verdict)).count();
    let agree = count(|v| matches!(v, Verdict::Agrees));
    let documented = count(|v| matches!(v, Verdict::Differs(_)));
    let unexplained = count(|v| matches!(v, Verdict::Unexplained));
    let all = figures.len();
    let tested = if seeds == own {
        String::new()
    } else {
        StudyText::TestedAt.fill(lang, &[&seeds, &own])
    };
    if agree == all {
        return StudyText::AllAgree.fill(lang, &[&all]) + &tested;
    }
    let mut out = StudyText::SomeAgree.fill(lang, &[&all, &agree]);
    // English agrees the verb with the count; Chinese has one form.
    let one_or_more = |n: usize, one: StudyText, more: StudyText| {
        if n == 1 {
            one.fill(lang, &[&n])
        } else {
            more.fill(lang, &[&n])
        }
    };
    if documented > 0 {
        out += &one_or_more(documented, StudyText::OneDiffers, StudyText::SomeDiffer);
    }
    if unexplained > 0 {
        out += &one_or_more(
            unexplained,
            StudyText::OneUnexplained,
            StudyText::SomeUnexplained,
        );
    }
    out + StudyText::End.get(lang) + &tested
}

/// A label's pieces joined in `lang`.
fn label(pieces: &[Words], lang: Lang) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "，",
    };
    pieces
        .iter()
        .map(|&w| lang.of(w))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The model's mean beside the source's, judged within the seed spreads' tolerance:
/// `3·√(s_src²/n_src + s_model²/n_model)` plus the source's `resolution`. A source that
/// is one run (`n` 1: an example whose seed is fixed) has no spread of its own, so its
/// run is taken to vary as one of the model's seeds does: `3·√(s_model² + s_model²/n_model)`.
fn compare(p: &Published, model: Mean, lang: Lang) -> Figure {
    let source = Mean {
        mean: p.mean,
        sd: p.sd,
        n: p.n,
    };
    let source_se2 = if source.n == 1 {
        model.sd * model.sd
    } else {
        source.se2()
    };
    let tolerance = 3.0 * (source_se2 + model.se2()).sqrt() + p.resolution;
    // A hair of float noise (a constant 100.0 computed as a ratio) is not a difference.
    let within = (model.mean - source.mean).abs() <= tolerance + 1e-9;
    let verdict = match (within, p.differs) {
        (true, _) => Verdict::Agrees,
        (false, Some(why)) => Verdict::Differs(lang.of(why).to_string()),
        (false, None) => Verdict::Unexplained,
    };
    Figure {
        label: label(&p.label, lang),
        unit: lang.of(p.unit).to_string(),
        source,
        model,
        tolerance,
        verdict,
        documented_difference: p.differs.is_some(),
    }
}

crate::catalogue! {
    /// The words of a study's text report.
    pub enum StudyText {
        /// Before the source's citation.
        Source => ("来源", "source"),
        /// Before the setup in words.
        Setup => ("设置", "setup"),
        /// Before how the source's figures were obtained.
        Reference => ("来源的数字", "source's figures"),
        /// Before the note on where the models differ.
        Note => ("模型的不同之处", "where the models differ"),
        /// The figure column.
        Figure => ("数字", "figure"),
        /// The source's column.
        SourceColumn => ("来源（标准差，次数）", "source (sd, runs)"),
        /// The model's column.
        ModelColumn => ("模型（标准差，种子）", "model (sd, seeds)"),
        /// The tolerance column.
        Tolerance => ("± 容差", "± tolerance"),
        /// The verdict column.
        VerdictColumn => ("结论", "verdict"),
        /// Within the tolerance.
        Agrees => ("一致", "agrees"),
        /// Outside it, for a documented reason: `{0}` the reason.
        Differs => ("不同：{0}", "differs: {0}"),
        /// Outside it, no note explaining it.
        Unexplained => ("不同，无说明", "differs, unexplained"),
        /// Summary, every figure within its tolerance: `{0}` how many.
        AllAgree => (
            "全部 {0} 个数字都在容差内与来源一致。",
            "All {0} figures agree with the source within their tolerance."
        ),
        /// Summary: `{1}` of the `{0}` figures within their tolerance (more follows).
        SomeAgree => (
            "{0} 个数字中 {1} 个在容差内与来源一致",
            "{1} of {0} figures agree with the source within their tolerance"
        ),
        /// Summary, one figure outside for the documented reason.
        OneDiffers => ("；{0} 个不同，原因见该行和下方说明", "; {0} differs, for the reason given in its row and below"),
        /// Summary, `{0}` figures outside for the documented reasons.
        SomeDiffer => ("；{0} 个不同，原因见各行和下方说明", "; {0} differ, for the reasons given in their rows and below"),
        /// Summary, one figure outside with no note explaining it.
        OneUnexplained => ("；{0} 个不同且无说明", "; {0} differs with no explanation"),
        /// Summary, `{0}` figures outside with no note explaining them.
        SomeUnexplained => ("；{0} 个不同且无说明", "; {0} differ with no explanation"),
        /// The summary's last mark.
        End => ("。", "."),
        /// After the summary of a run with another seed count: `{0}` its seeds, `{1}`
        /// the study's own count.
        TestedAt => (
            "（本次 {0} 个种子；本研究的结论在 {1} 个种子上测试。）",
            " ({0} seeds here; the study's verdicts are tested at {1}.)"
        ),
    }
}

/// A study's figures as table cells in `lang`: the header, then one row per figure
/// (figure and unit, source, model, tolerance, verdict), as [`text`] and the page show them.
pub fn table(s: &Study, lang: Lang) -> ([String; 5], Vec<[String; 5]>) {
    use crate::lang::Texts as _;
    let t = |w: StudyText| w.get(lang).to_string();
    let head = [
        t(StudyText::Figure),
        t(StudyText::SourceColumn),
        t(StudyText::ModelColumn),
        t(StudyText::Tolerance),
        t(StudyText::VerdictColumn),
    ];
    let rows = s
        .figures
        .iter()
        .map(|f| {
            let verdict = match &f.verdict {
                Verdict::Agrees => t(StudyText::Agrees),
                Verdict::Differs(why) => StudyText::Differs.fill(lang, &[why]),
                Verdict::Unexplained => t(StudyText::Unexplained),
            };
            [
                format!("{} ({})", f.label, f.unit),
                format!("{:.2} ({:.2}, {})", f.source.mean, f.source.sd, f.source.n),
                format!("{:.2} ({:.2}, {})", f.model.mean, f.model.sd, f.model.n),
                format!("{:.2}", f.tolerance),
                verdict,
            ]
        })
        .collect();
    (head, rows)
}

/// A study as text: its title, source, setup, then the figures side by side.
pub fn text(s: &Study, lang: Lang) -> String {
    use crate::lang::Texts as _;
    use std::fmt::Write as _;
    let t = |w: StudyText| w.get(lang);
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", s.title, s.id);
    let _ = writeln!(out, "{}", s.summary);
    let _ = writeln!(
        out,
        "{}: {}, {} ({}, commit {})",
        t(StudyText::Source),
        s.source.work,
        s.source.url,
        s.source.file,
        s.source.commit
    );
    let _ = writeln!(out, "{}: {}", t(StudyText::Setup), s.setup);
    let _ = writeln!(out, "{}: {}", t(StudyText::Reference), s.reference);
    let _ = writeln!(out, "{}: {}", t(StudyText::Note), s.note);
    let (head, rows) = table(s, lang);
    // Columns padded to their widest cell (in characters: the Chinese words are wide
    // but counted as one each, as the other reports do).
    let w: Vec<usize> = (0..4)
        .map(|k| {
            rows.iter()
                .map(|r| r[k].chars().count())
                .chain([head[k].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |r: &[String; 5]| {
        let mut l = String::new();
        for k in 0..4 {
            let _ = write!(l, "{}{}  ", r[k], " ".repeat(w[k] - r[k].chars().count()));
        }
        l + &r[4]
    };
    let _ = writeln!(out, "\n{}", line(&head));
    for r in &rows {
        let _ = writeln!(out, "{}", line(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source's figure for the tests (no documented difference).
    fn source(mean: f64, sd: f64, n: usize, resolution: f64) -> Published {
        Published {
            label: vec![("x", "x")],
            unit: ("%", "%"),
            mean,
            sd,
            n,
            resolution,
            differs: None,
        }
    }

    #[test]
    fn the_summary_counts_each_verdict_in_both_languages() {
        let fig = |verdict: Verdict| Figure {
            label: "x".into(),
            unit: "%".into(),
            source: Mean::of(&[1.0, 2.0]),
            model: Mean::of(&[1.0, 2.0]),
            tolerance: 1.0,
            verdict,
            documented_difference: false,
        };
        let why = || Verdict::Differs("why".into());
        let all = [fig(Verdict::Agrees), fig(Verdict::Agrees)];
        assert_eq!(
            summary(&all, (20, 20), Lang::En),
            "All 2 figures agree with the source within their tolerance."
        );
        assert_eq!(
            summary(&all, (20, 20), Lang::Zh),
            "全部 2 个数字都在容差内与来源一致。"
        );
        // Another seed count says the one the verdicts are tested at.
        assert_eq!(
            summary(&all, (4, 20), Lang::En),
            "All 2 figures agree with the source within their tolerance. (4 seeds here; the study's verdicts are tested at 20.)"
        );
        assert_eq!(
            summary(&all, (4, 20), Lang::Zh),
            "全部 2 个数字都在容差内与来源一致。（本次 4 个种子；本研究的结论在 20 个种子上测试。）"
        );
        let one = [fig(Verdict::Agrees), fig(why()), fig(Verdict::Agrees)];
        assert_eq!(
            summary(&one, (20, 20), Lang::En),
            "2 of 3 figures agree with the source within their tolerance; 1 differs, for the reason given in its row and below."
        );
        let mixed = [
            fig(why()),
            fig(Verdict::Unexplained),
            fig(Verdict::Agrees),
            fig(why()),
        ];
        assert_eq!(
            summary(&mixed, (20, 20), Lang::En),
            "1 of 4 figures agree with the source within their tolerance; 2 differ, for the reasons given in their rows and below; 1 differs with no explanation."
        );
        assert_eq!(
            summary(&mixed, (20, 20), Lang::Zh),
            "4 个数字中 1 个在容差内与来源一致；2 个不同，原因见各行和下方说明；1 个不同且无说明。"
        );
    }

    #[test]
    fn the_tolerance_is_three_standard_errors_of_the_difference() {
        // By hand: source 10 ± 2 over 4 runs, model 11 ± 4 over 16 seeds:
        // 3·√(4/4 + 16/16) = 3·√2 ≈ 4.243, plus 0.005.
        let p = source(10.0, 2.0, 4, 0.005);
        let model = Mean {
            mean: 11.0,
            sd: 4.0,
            n: 16,
        };
        let f = compare(&p, model, Lang::En);
        assert!((f.tolerance - (3.0 * 2f64.sqrt() + 0.005)).abs() < 1e-12);
        assert_eq!(f.verdict, Verdict::Agrees);
        let far = Mean {
            mean: 15.0,
            ..model
        };
        assert_eq!(compare(&p, far, Lang::En).verdict, Verdict::Unexplained);
        let explained = Published {
            differs: Some(("因为", "because")),
            ..p.clone()
        };
        assert_eq!(
            compare(&explained, far, Lang::En).verdict,
            Verdict::Differs("because".into())
        );
    }

    #[test]
    fn a_single_run_source_is_given_the_spread_of_one_model_seed() {
        // By hand: the source one run of 10 (no spread of its own), the model 11 ± 2
        // over 4 seeds: 3·√(2² + 2²/4) = 3·√5 ≈ 6.708, plus 0.5.
        let p = source(10.0, 0.0, 1, 0.5);
        let model = Mean {
            mean: 11.0,
            sd: 2.0,
            n: 4,
        };
        let f = compare(&p, model, Lang::En);
        assert!((f.tolerance - (3.0 * 5f64.sqrt() + 0.5)).abs() < 1e-12);
        // 17.2 is 7.2 away: inside 3·√5 + 0.5 ≈ 7.208, where the model's standard error
        // alone (3·√1 + 0.5 = 3.5) would call it a difference.
        let near = Mean {
            mean: 17.2,
            ..model
        };
        assert_eq!(compare(&p, near, Lang::En).verdict, Verdict::Agrees);
        let far = Mean {
            mean: 17.3,
            ..model
        };
        assert_eq!(compare(&p, far, Lang::En).verdict, Verdict::Unexplained);
        // The source's figure is still shown as its one run, without a spread.
        assert_eq!((f.source.sd, f.source.n), (0.0, 1));
    }

    #[test]
    fn the_words_are_complete_in_both_languages() {
        assert!(crate::lang::problems::<StudyText>().is_empty());
    }

    #[test]
    fn mean_and_sd_are_the_sample_ones() {
        let m = Mean::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!((m.mean, m.n), (2.5, 4));
        assert!((m.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(Mean::of(&[7.0]).sd, 0.0);
    }

    #[test]
    fn an_unknown_study_is_named_with_the_known_ones() {
        let e = run("nope", Some(2), Some(1), Lang::En).unwrap_err();
        assert_eq!(e.field, "study");
        assert_eq!(
            e.to_string(),
            "study = nope is not allowed: expected one of brooker-retry-sim, brooker-collapse, yandex-good-retry, descartes-mm1-storm, moonpool-trigger-length, metafor-retry-map"
        );
    }
}
