//! The article's four acceptance checks ("判定标准"), which the article's reports print
//! and the page shows as the article's reproduction checks: evaluated on a run, with the
//! one budget-forced re-run the fourth check needs, or not applicable once the
//! strategies are no longer the article's.

use super::cells::amplification;
use super::engine::{simulate, Output, Runs, StrategyResult};
use super::scenario::{Scenario, Strategy};
use super::texts::{Check, Text};
use crate::javafmt::fixed;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;
use serde::{Deserialize, Serialize};

/// One of the article's acceptance checks, evaluated on a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// What is checked, in the article's words.
    pub name: String,
    /// PASS / FAIL, or `None` when the scenario has too few strategies to check it.
    pub pass: Option<bool>,
    /// The numbers behind the verdict.
    pub detail: String,
}

/// "Far below", made precise: at most half. The article's cases are 4 vs 34 and 728 vs 2560.
fn far_below(a: u64, b: u64) -> bool {
    a.saturating_mul(2) <= b && a < b
}

/// True when two results agree in every figure but the name.
fn same_figures(a: &StrategyResult, b: &StrategyResult) -> bool {
    StrategyResult {
        name: String::new(),
        ..a.clone()
    } == StrategyResult {
        name: String::new(),
        ..b.clone()
    }
}

/// The names of the article's four acceptance checks, in the order [`verdicts`] returns
/// them: in Chinese the article's words with their English gloss (the names [`verdicts`]
/// gives), in English alone for the English page and `--lang en`.
pub fn verdict_names(lang: Lang) -> Vec<&'static str> {
    Check::ALL.iter().map(|c| c.get(lang)).collect()
}

/// The article's four acceptance checks ("判定标准") on strategies 1–4 by position
/// (S1 retries without backoff, S2 backs off without jitter, S3 adds full jitter, S4 adds
/// the budget); the fourth re-runs the scenario with every budget forced to 100.
pub fn verdicts(sc: &Scenario, seed: i64) -> Result<Vec<Verdict>, ValidationError> {
    verdicts_of(&simulate(sc, seed)?)
}

/// True when the article's reproduction checks apply to `sc`: its first four strategies
/// are the article's S1–S4 (their names aside) in a scenario the checks depend on left as
/// the article's. The seed and the attribution convention may differ, since the checks are
/// meant to be tried across both.
pub fn article_checks_apply(sc: &Scenario) -> bool {
    let article = Scenario::article();
    // The checks compare S1–S4 by position; S5 and S6 take no part in them.
    let same_strategies = sc.strategies.len() >= 4
        && sc.strategies[..4]
            .iter()
            .zip(&article.strategies[..4])
            .all(|(s, a)| {
                Strategy {
                    name: a.name.clone(),
                    ..s.clone()
                } == *a
            });
    same_strategies
        && sc.clients == article.clients
        && sc.duration_s == article.duration_s
        && sc.capacity == article.capacity
        && sc.outage == article.outage
        && sc.upstream_latency_ms == article.upstream_latency_ms
}

/// The article's reproduction checks as the reports and the page present them: [`verdicts`]
/// named in `lang` (the figures and PASS/FAIL are the same), or, when the strategies are
/// no longer the article's ([`article_checks_apply`]), each one not applicable instead of
/// a FAIL that would only say the scenario changed.
pub fn verdicts_in(sc: &Scenario, seed: i64, lang: Lang) -> Result<Vec<Verdict>, ValidationError> {
    if !article_checks_apply(sc) {
        sc.validate()?;
        return Ok(verdict_names(lang)
            .iter()
            .map(|n| Verdict {
                name: n.to_string(),
                pass: None,
                detail: Text::NotTheArticles.get(lang).to_string(),
            })
            .collect());
    }
    let mut v = checks(&simulate(sc, seed)?, lang, &mut Runs::new())?;
    for (v, name) in v.iter_mut().zip(verdict_names(lang)) {
        v.name = name.to_string();
    }
    Ok(v)
}

/// The four acceptance checks of a run already made (`out`); only the budget-forced
/// check runs again, and then only S3 and S4.
pub fn verdicts_of(out: &Output) -> Result<Vec<Verdict>, ValidationError> {
    checks(out, Lang::En, &mut Runs::new())
}

/// [`verdicts_of`] with the budget-forced runs made through `runs`, which answers a run
/// it has already made with the same inputs instead of making it again: an ensemble's
/// sample passes the [`Runs`] that ran `out`, so when S3 already has budget 100 and S4
/// differs from it only in budget and name (the article's), both forced runs are its
/// own S3's figures, which is what running them again gives ([`verdicts_of`] alone runs
/// them, so a single run's report still re-runs the check).
pub fn verdicts_with(out: &Output, runs: &mut Runs) -> Result<Vec<Verdict>, ValidationError> {
    checks(out, Lang::En, runs)
}

/// [`verdicts_with`] with the words of its details in `lang` (its names are
/// [`verdict_names`] in Chinese).
fn checks(out: &Output, lang: Lang, runs: &mut Runs) -> Result<Vec<Verdict>, ValidationError> {
    let (sc, seed) = (&out.scenario, out.scenario.seed);
    let names = verdict_names(Lang::Zh);
    if out.results.len() < 4 {
        return Ok(names
            .iter()
            .map(|n| Verdict {
                name: n.to_string(),
                pass: None,
                detail: Text::NeedsFour.fill(lang, &[&out.results.len()]),
            })
            .collect());
    }
    let r = &out.results;
    let (s1, s2, s3, s4) = (&r[0], &r[1], &r[2], &r[3]);
    // Each strategy starts its own PRNG from the seed, so S3 and S4 alone give exactly
    // the figures a whole forced run would.
    let forced = sc.with_budget(100);
    forced.validate()?;
    let mut forced_run = |i: usize| runs.run(&forced, &forced.strategies[i], seed);
    let (f3, f4) = (&forced_run(2), &forced_run(3));
    Ok(vec![
        Verdict {
            name: names[0].to_string(),
            pass: Some(far_below(
                s4.overload_seconds as u64,
                s2.overload_seconds as u64,
            )),
            detail: format!("{} vs {}", s4.overload_seconds, s2.overload_seconds),
        },
        Verdict {
            name: names[1].to_string(),
            pass: Some(s1.amplification < s2.amplification && s1.amplification < s3.amplification),
            detail: format!(
                "{} vs {} / {}",
                amplification(s1),
                amplification(s2),
                amplification(s3)
            ),
        },
        Verdict {
            name: names[2].to_string(),
            pass: Some(
                far_below(s4.recovery_window_total, s2.recovery_window_total)
                    && far_below(s4.recovery_window_total, s3.recovery_window_total),
            ),
            detail: format!(
                "{} vs {} / {}",
                s4.recovery_window_total, s2.recovery_window_total, s3.recovery_window_total
            ),
        },
        Verdict {
            name: names[3].to_string(),
            pass: Some(same_figures(f3, f4)),
            detail: Text::AmplificationDifference.fill(
                lang,
                &[&fixed((f4.amplification - f3.amplification).abs(), 3)],
            ),
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_below_is_at_most_half() {
        assert!(far_below(4, 34));
        assert!(far_below(17, 34));
        assert!(!far_below(18, 34));
        assert!(!far_below(0, 0));
    }
}
