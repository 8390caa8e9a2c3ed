//! Every text rendering of classic results, so formatting lives in Rust only: the
//! article's four reports (`run`, `herd`, `sweep`, `breaker`), the playground's results
//! table, and the Markdown and CSV exports. Each cell's text is [`super::cells`]'s; the
//! acceptance checks the reports print are [`super::checks`]'s.

use super::cells::{amplification, answered, breaker_cell, delivery};
use super::checks::verdicts_in;
use super::engine::{simulate, Output, StrategyResult, RECOVERY_WINDOW_S};
use super::scenario::Scenario;
use super::texts::Text;
use crate::javafmt::{fixed, java_list, pad};
use crate::lang::{Lang, Texts};
use crate::report::csv_field;
use crate::validate::ValidationError;
use core::fmt::Write as _;
use serde::{Deserialize, Serialize};

/// The seeds of the article's six-seed report (`retrystorm sweep`, section 6).
pub const ARTICLE_SEEDS: [i64; 6] = [4242, 1, 7, 99, 2026, 313131];

pub use crate::report::Table;

/// The columns of how requests ended, after the article's: the answered view of delivery
/// and the count of each ending (they sum to the business requests).
const ENDING_COLUMNS: [Text; 6] = [
    Text::Answered,
    Text::Delivered,
    Text::EndedUpstream,
    Text::EndedDeadline,
    Text::EndedBudget,
    Text::EndedBreaker,
];

/// The ending cells of a result, in [`ENDING_COLUMNS`] order.
fn ending_cells(r: &StrategyResult) -> Vec<String> {
    vec![
        answered(r),
        r.delivered.to_string(),
        r.ended_upstream.to_string(),
        r.ended_deadline.to_string(),
        r.ended_budget.to_string(),
        r.ended_breaker.to_string(),
    ]
}

/// True when some strategy of the run has a cost model (the cost columns are shown).
pub fn has_cost(out: &Output) -> bool {
    out.results.iter().any(|r| r.cost.is_some())
}

/// A results table: `columns` and `cells` of each result, then the endings, then the
/// cost columns when some strategy has a cost model.
fn results_table(
    out: &Output,
    lang: Lang,
    columns: &[Text],
    cells: impl Fn(&StrategyResult) -> Vec<String>,
) -> Table {
    let mut columns: Vec<&str> = columns.iter().map(|c| c.get(lang)).collect();
    columns.extend(ENDING_COLUMNS.map(|c| c.get(lang)));
    let cost = has_cost(out);
    if cost {
        columns.extend(crate::cost::columns(lang));
    }
    let rows = out
        .results
        .iter()
        .map(|r| {
            let mut row = cells(r);
            row.extend(ending_cells(r));
            if cost {
                row.extend(crate::cost::cells(r.cost.as_ref()));
            }
            row
        })
        .collect();
    Table::new(&columns, rows)
}

/// The playground's results table: the article's columns, the recovery-window total,
/// the answered view and the endings, and the cost columns when a cost model is set.
pub fn table(out: &Output) -> Table {
    table_in(out, Lang::En)
}

/// [`table`] with its column titles in `lang` (the cells are the same figures).
pub fn table_in(out: &Output, lang: Lang) -> Table {
    let columns = [
        Text::Strategy,
        Text::Amplification,
        Text::Delivery,
        Text::PeakQps,
        Text::OverloadS,
        Text::P50Ms,
        Text::P99Ms,
        Text::BreakerCell,
        Text::RecoveryWindow,
    ];
    results_table(out, lang, &columns, |r| {
        vec![
            r.name.clone(),
            amplification(r),
            delivery(r),
            r.peak.to_string(),
            r.overload_seconds.to_string(),
            r.p50_ms.to_string(),
            r.p99_ms.to_string(),
            breaker_cell(r),
            r.recovery_window_total.to_string(),
        ]
    })
}

/// The CLI's second table after the article's report: both delivery views, the endings
/// and (with a cost model) the cost, one row per strategy.
pub fn endings_table(out: &Output) -> Table {
    results_table(
        out,
        Lang::En,
        &[Text::Strategy, Text::Amplification, Text::Delivery],
        |r| vec![r.name.clone(), amplification(r), delivery(r)],
    )
}

/// The endings table as text with a caption saying what the two delivery views are,
/// printed by `retrystorm run` after the article's report.
pub fn endings_text(out: &Output) -> String {
    let sc = &out.scenario;
    let mut s = format!(
        "How the {} business requests ended (attribution: {}). delivery = delivered / business \
         requests; answered = delivered / (business requests − ended budget − ended breaker), \
         leaving out the requests the client gave up on by itself.\n\n",
        sc.business_requests(),
        sc.attribution.name()
    );
    s.push_str(&crate::report::text(&endings_table(out)));
    s
}

/// The results table as CSV (the same columns as [`table`]).
pub fn csv_table(out: &Output) -> String {
    crate::report::csv(&table(out))
}

/// The header line of the article's `RetryStorm` report.
fn run_header(sc: &Scenario, seed: i64, budget_override: Option<u32>, lang: Lang) -> String {
    let (from, to) = (sc.outage.from_s, sc.outage.to_s);
    let (cap, clients, dur) = (sc.capacity, sc.clients, sc.duration_s);
    let mut s = Text::RunHeader.fill(lang, &[&from, &to, &cap, &clients, &dur, &seed]);
    if let Some(pct) = budget_override {
        s.push_str(&Text::BudgetOverride.fill(lang, &[&pct]));
    }
    s.push_str(&attribution_note(sc, lang));
    s
}

/// What a report's header adds for the attribution: nothing for the article's, so its
/// report stays as printed, or the convention's name.
fn attribution_note(sc: &Scenario, lang: Lang) -> String {
    if sc.attribution.is_article() {
        String::new()
    } else {
        Text::Attribution.fill(lang, &[&sc.attribution.name()])
    }
}

/// The article's six-strategy report (`RetryStorm`), column widths and all.
pub fn run_text(out: &Output, budget_override: Option<u32>) -> String {
    run_text_in(out, budget_override, Lang::Zh)
}

/// A report's heading line: each `(title, width)` padded to its width (display width, as
/// the article's `Support.pad`), then the last title unpadded.
fn heading(lang: Lang, columns: &[(Text, usize)], last: Text) -> String {
    let mut s: String = columns.iter().map(|&(t, w)| pad(t.get(lang), w)).collect();
    s.push_str(last.get(lang));
    s
}

/// [`run_text`] with its headings in `lang` (the figures and widths are the same).
pub fn run_text_in(out: &Output, budget_override: Option<u32>, lang: Lang) -> String {
    let sc = &out.scenario;
    let mut s = String::new();
    let _ = writeln!(s, "{}", run_header(sc, sc.seed, budget_override, lang));
    s.push('\n');
    let columns = [
        (Text::Strategy, 24),
        (Text::RunAmplification, 10),
        (Text::RunDelivery, 9),
        (Text::PeakQps, 9),
        (Text::RunOverloadS, 8),
        (Text::RunMedianMs, 12),
        (Text::RunP99Ms, 10),
    ];
    let _ = writeln!(s, "{}", heading(lang, &columns, Text::BreakerCell));
    let _ = writeln!(s, "{}", "-".repeat(100));
    for r in &out.results {
        let _ = writeln!(
            s,
            "{}{}{}{}{}{}{}{}",
            pad(&r.name, 24),
            pad(&amplification(r), 10),
            pad(&delivery(r), 9),
            pad(&r.peak.to_string(), 9),
            pad(&r.overload_seconds.to_string(), 8),
            pad(&r.p50_ms.to_string(), 12),
            pad(&r.p99_ms.to_string(), 10),
            breaker_cell(r)
        );
    }
    s.push('\n');
    s.push_str(Text::RunNote.get(lang));
    let _ = writeln!(
        s,
        "{}",
        Text::RunTotals.fill(lang, &[&sc.business_requests()])
    );
    s
}

/// What `retrystorm run` prints for a classic scenario: the article's report byte for
/// byte, the endings table after it, and the run's verdict in words as the last line.
pub fn run_report_in(out: &Output, budget_override: Option<u32>, lang: Lang) -> String {
    format!(
        "{}\n{}\n{}\n",
        run_text_in(out, budget_override, lang),
        endings_text(out),
        super::verdict::line(out, lang)
    )
}

/// The seconds the recovery-window report shows: one before the outage to three after it.
pub(crate) fn herd_seconds(sc: &Scenario) -> core::ops::Range<u32> {
    let from = sc.outage.from_s.saturating_sub(1);
    let to = (sc.outage.to_s + RECOVERY_WINDOW_S + 1).min(sc.duration_s);
    from..to.max(from)
}

/// The article's `Herd` report: attempts per second around the outage for the first
/// four strategies, which strategies are over capacity, and the recovery-window totals.
pub fn herd_text(out: &Output) -> String {
    herd_text_in(out, Lang::Zh)
}

/// [`herd_text`] with its headings in `lang`.
pub fn herd_text_in(out: &Output, lang: Lang) -> String {
    let sc = &out.scenario;
    let shown = &out.results[..out.results.len().min(4)];
    let mut s = String::new();
    let (cap, from, to) = (sc.capacity, sc.outage.from_s, sc.outage.to_s);
    s.push_str(&Text::HerdHeader.fill(lang, &[&cap, &from, &to]));
    s.push_str(&attribution_note(sc, lang));
    s.push_str("\n\n");
    let mut head = pad(Text::Sec.get(lang), 6);
    for r in shown {
        head.push_str(&pad(short_name(&r.name), 14));
    }
    head.push_str(Text::OverloadedAny.get(lang));
    let _ = writeln!(s, "{head}");
    for sec in herd_seconds(sc) {
        let mut line = pad(&sec.to_string(), 6);
        let mut over = Vec::new();
        for r in shown {
            let v = r.per_sec[sec as usize];
            line.push_str(&pad(&v.to_string(), 14));
            if v > sc.capacity {
                over.push(short_name(&r.name));
            }
        }
        line.push_str(&over.join(","));
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s.push('\n');
    let end = (sc.outage.to_s + RECOVERY_WINDOW_S).min(sc.duration_s);
    let totals: Vec<String> = shown
        .iter()
        .map(|r| format!("{} {}", short_name(&r.name), r.recovery_window_total))
        .collect();
    let sep = Text::ListSep.get(lang);
    let totals = totals.join(sep);
    let window = [
        &RECOVERY_WINDOW_S as &dyn core::fmt::Display,
        &sc.outage.to_s,
        &end,
        &totals,
    ];
    let _ = writeln!(s, "{}", Text::HerdRecovery.fill(lang, &window));
    let attempts: Vec<String> = shown
        .iter()
        .map(|r| format!("{} {}", short_name(&r.name), r.attempts))
        .collect();
    let attempts = attempts.join(sep);
    let _ = writeln!(
        s,
        "{}",
        Text::HerdAttempts.fill(lang, &[&attempts, &sc.business_requests()])
    );
    s
}

/// The label before the first space (`S1` of `S1 固定重试3次`), or the whole name.
fn short_name(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}

/// `2.34x / 34s / 100.0%`: a cell of the multi-seed table.
fn multi_seed_cell(r: &StrategyResult) -> String {
    format!(
        "{} / {}s / {}",
        amplification(r),
        r.overload_seconds,
        delivery(r)
    )
}

/// The article's multi-seed report (`retrystorm sweep`, named as the article's
/// `Sweep`; not a parameter sweep, that is [`crate::sweep`]): S2–S4 over several seeds,
/// the budget-forced-to-100 check, and the four acceptance checks printed PASS/FAIL.
pub fn multi_seed_text(sc: &Scenario, seeds: &[i64]) -> Result<String, ValidationError> {
    multi_seed_text_in(sc, seeds, Lang::Zh)
}

/// [`multi_seed_text`] with its headings in `lang`.
pub fn multi_seed_text_in(
    sc: &Scenario,
    seeds: &[i64],
    lang: Lang,
) -> Result<String, ValidationError> {
    let mut s = String::new();
    let base = simulate(sc, sc.seed)?;
    if base.results.len() < 4 {
        return Err(ValidationError::new(
            "strategies",
            format!("{} strategies", base.results.len()),
            "at least 4 strategies for the sweep (S1–S4 by position)",
        ));
    }
    let label = |i: usize| short_name(&base.results[i].name).to_string();
    let _ = writeln!(s, "{}", Text::SeedsHeader.fill(lang, &[&seeds.len()]));
    s.push('\n');
    let cell = Text::SeedsCell.get(lang);
    let _ = writeln!(
        s,
        "{}{}{}{}{}{}",
        pad("seed", 22),
        pad(&format!("{} {cell}", label(1)), 28),
        pad(&format!("{} {cell}", label(2)), 28),
        pad(&format!("{} {cell}", label(3)), 28),
        format_args!("{}−{} ", label(2), label(1)),
        Text::AmpDiff.get(lang)
    );
    let mut s3_amps = Vec::new();
    for &seed in seeds {
        let out = simulate(sc, seed)?;
        let r = &out.results;
        s3_amps.push(r[2].amplification);
        let _ = writeln!(
            s,
            "{}{}{}{}{}",
            pad(&seed.to_string(), 22),
            pad(&multi_seed_cell(&r[1]), 28),
            pad(&multi_seed_cell(&r[2]), 28),
            pad(&multi_seed_cell(&r[3]), 28),
            fixed(r[2].amplification - r[1].amplification, 2)
        );
    }
    if !s3_amps.is_empty() {
        let min = s3_amps.iter().copied().fold(f64::INFINITY, f64::min);
        let max = s3_amps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = s3_amps.iter().sum::<f64>() / s3_amps.len() as f64;
        let (min, max, mean, range) = (
            fixed(min, 2),
            fixed(max, 2),
            fixed(mean, 3),
            fixed(max - min, 3),
        );
        let spread = [
            &label(2) as &dyn core::fmt::Display,
            &min,
            &max,
            &mean,
            &range,
        ];
        let _ = writeln!(s, "{}", Text::SeedsSpread.fill(lang, &spread));
    }

    s.push('\n');
    let forced = simulate(&sc.with_budget(100), sc.seed)?;
    let _ = writeln!(s, "{}", Text::BudgetCheck.fill(lang, &[&sc.seed]));
    for r in &forced.results {
        let row: [&dyn core::fmt::Display; 7] = [
            &pad(&r.name, 24),
            &amplification(r),
            &delivery(r),
            &r.peak,
            &r.overload_seconds,
            &r.p50_ms,
            &r.p99_ms,
        ];
        let _ = writeln!(s, "{}", Text::ForcedRow.fill(lang, &row));
    }

    s.push('\n');
    let _ = writeln!(s, "{}", Text::ChecksHeader.fill(lang, &[&sc.seed]));
    for v in verdicts_in(sc, sc.seed, lang)? {
        let mark = match v.pass {
            Some(true) => "PASS",
            Some(false) => "FAIL",
            None => "N/A ",
        };
        let line = Text::CheckLine.fill(lang, &[&mark, &v.name, &v.detail]);
        let _ = writeln!(s, "{line}");
    }
    Ok(s)
}

/// The article's `Breaker` report: one row per strategy (the seven single-variable groups
/// of `scenarios/breaker-groups.json`), with the breaker's settings and what it did.
pub fn breaker_text(out: &Output) -> String {
    breaker_text_in(out, Lang::Zh)
}

/// [`breaker_text`] with its headings in `lang`.
pub fn breaker_text_in(out: &Output, lang: Lang) -> String {
    let sc = &out.scenario;
    let mut s = String::new();
    let (cap, from, to, seed) = (sc.capacity, sc.outage.from_s, sc.outage.to_s, sc.seed);
    // "budget" is wider than "预算": the English column is wider so it stays apart.
    let budget_w = match lang {
        Lang::Zh => 6,
        Lang::En => 8,
    };
    let header = Text::BreakerHeader.fill(lang, &[&cap, &from, &to, &seed]);
    let _ = writeln!(s, "{header}");
    s.push('\n');
    let columns = [
        (Text::Group, 28),
        (Text::Budget, budget_w),
        (Text::Deadline, 10),
        (Text::TripsAt, 10),
        (Text::RunAmplification, 10),
        (Text::BreakerDelivery, 8),
        (Text::RunOverloadS, 8),
        (Text::Peak, 7),
        (Text::TrippedAt, 12),
    ];
    let _ = writeln!(s, "{}", heading(lang, &columns, Text::Harmful));
    let _ = writeln!(s, "{}", "-".repeat(110));
    for (st, r) in sc.strategies.iter().zip(&out.results) {
        let budget = if st.budget_pct >= 100 {
            Text::Off.get(lang).to_string()
        } else {
            format!("{}%", st.budget_pct)
        };
        let deadline = if st.deadline_ms % 1000 == 0 {
            format!("{}s", st.deadline_ms / 1000)
        } else {
            format!("{}ms", st.deadline_ms)
        };
        let threshold = if st.breaker {
            st.breaker_trip_failures
                .unwrap_or(sc.breaker_trip_failures)
                .to_string()
        } else {
            "—".to_string()
        };
        let _ = writeln!(
            s,
            "{}{}{}{}{}{}{}{}{}{}",
            pad(&r.name, 28),
            pad(&budget, budget_w),
            pad(&deadline, 10),
            pad(&threshold, 10),
            pad(&amplification(r), 10),
            pad(&delivery(r), 8),
            pad(&r.overload_seconds.to_string(), 8),
            pad(&r.peak.to_string(), 7),
            pad(&java_list(&r.trip_at), 12),
            r.breaker_harmful
        );
    }
    s
}

/// The article's four reports by name, for the page's report views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArticleReport {
    /// `retrystorm run`: the six-strategy table (section 2) and the endings.
    Run,
    /// `retrystorm herd`: the per-second recovery window (section 3).
    Herd,
    /// `retrystorm sweep`: six seeds, the budget check and the acceptance checks (section 6).
    /// Named `sweep` in links and in the page, as the CLI command is.
    #[serde(rename = "sweep")]
    MultiSeed,
    /// `retrystorm breaker`: the breaker groups (section 5).
    Breaker,
}

/// The text `retrystorm <report> --lang <lang>` prints for this run's scenario and seed
/// (the multi-seed report over the article's six seeds), byte for byte, so the page shows and exports
/// exactly what the CLI prints.
pub fn article_report(
    out: &Output,
    which: ArticleReport,
    lang: Lang,
) -> Result<String, ValidationError> {
    Ok(match which {
        ArticleReport::Run => run_report_in(out, None, lang),
        ArticleReport::Herd => herd_text_in(out, lang),
        ArticleReport::MultiSeed => multi_seed_text_in(&out.scenario, &ARTICLE_SEEDS, lang)?,
        ArticleReport::Breaker => breaker_text_in(out, lang),
    })
}

/// The results table as GitHub-flavoured Markdown, with a caption line naming the scenario.
pub fn markdown_table(out: &Output) -> String {
    let sc = &out.scenario;
    let caption = format!(
        "Retry Storm Playground — {} clients × {} s, capacity {}/s, outage [{}, {}) s, seed {}\n\n",
        sc.clients, sc.duration_s, sc.capacity, sc.outage.from_s, sc.outage.to_s, sc.seed
    );
    caption + &crate::report::markdown(&table(out))
}

/// [`markdown_table`] with the run's verdict in `lang` under it: the page's Markdown export.
pub fn markdown_in(out: &Output, lang: Lang) -> String {
    format!(
        "{}\n{}\n",
        markdown_table(out),
        super::verdict::line(out, lang)
    )
}

/// Attempts per second for every strategy as CSV: `second,<strategy>…,capacity,outage`,
/// then, for each strategy with a cost model, its cost per second (`cost <strategy>`).
pub fn csv_per_sec(out: &Output) -> String {
    let sc = &out.scenario;
    let costed: Vec<(&str, &[f64])> = out
        .results
        .iter()
        .filter_map(|r| {
            r.cost
                .as_ref()
                .map(|c| (r.name.as_str(), c.per_sec.as_slice()))
        })
        .collect();
    let mut s = String::from("second");
    for r in &out.results {
        s.push(',');
        s.push_str(&csv_field(&r.name));
    }
    s.push_str(",capacity,outage");
    for (name, _) in &costed {
        s.push(',');
        s.push_str(&csv_field(&format!("cost {name}")));
    }
    s.push('\n');
    for sec in 0..sc.duration_s {
        let _ = write!(s, "{sec}");
        for r in &out.results {
            let _ = write!(s, ",{}", r.per_sec[sec as usize]);
        }
        let outage = u8::from(sec >= sc.outage.from_s && sec < sc.outage.to_s);
        let _ = write!(s, ",{},{outage}", sc.capacity);
        for (_, per_sec) in &costed {
            let _ = write!(s, ",{}", per_sec[sec as usize]);
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::checks::verdicts;

    /// The figures of a report: every run of digits, in order. A check's line counts only
    /// its numbers after the name (the two languages word the names differently).
    fn figures(text: &str) -> Vec<&str> {
        text.lines()
            .map(|line| match line.find("] ") {
                Some(_) => line.rsplit(['：', ':']).next().unwrap_or(line),
                None => line,
            })
            .flat_map(|line| line.split(|c: char| !c.is_ascii_digit()))
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// The page's table in Chinese: every column title in Chinese, including the endings'
    /// and (with a cost model) the cost columns, over the same cells as the English table.
    #[test]
    fn chinese_table_titles_every_column_in_chinese() {
        let han = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let doc = crate::scenario::bundled()
            .into_iter()
            .find(|b| b.id == "model-gateway-cost")
            .unwrap();
        let crate::scenario::AnyScenario::Classic(sc) = crate::scenario::parse(doc.json).unwrap()
        else {
            panic!("model-gateway-cost is a classic scenario")
        };
        let out = simulate(&sc, sc.seed).unwrap();
        assert!(has_cost(&out));
        let (zh, en) = (table_in(&out, Lang::Zh), table(&out));
        assert_eq!(zh.columns.len(), en.columns.len());
        // "p99ms" and "峰值QPS" keep their Latin units; every other title is Chinese.
        for c in zh.columns.iter().filter(|c| c.as_str() != "p99ms") {
            assert!(han(c), "{c}");
        }
        assert!(en.columns.iter().all(|c| !han(c)));
        assert_eq!(zh.rows, en.rows);
    }

    /// `--lang en` translates the words only: every report keeps its lines and its
    /// figures (the same digits in the same order) and differs from the Chinese.
    #[test]
    fn english_reports_have_the_chinese_figures() {
        let sc = Scenario::article();
        let out = simulate(&sc, sc.seed).unwrap();
        for which in [
            ArticleReport::Run,
            ArticleReport::Herd,
            ArticleReport::MultiSeed,
            ArticleReport::Breaker,
        ] {
            let zh = article_report(&out, which, Lang::Zh).unwrap();
            let en = article_report(&out, which, Lang::En).unwrap();
            assert_ne!(zh, en, "{which:?}");
            assert_eq!(zh.lines().count(), en.lines().count(), "{which:?}");
            assert_eq!(figures(&zh), figures(&en), "{which:?}");
        }
    }

    /// The Chinese report by name is the CLI's default text.
    #[test]
    fn chinese_is_the_default() {
        let sc = Scenario::article();
        let out = simulate(&sc, sc.seed).unwrap();
        assert_eq!(
            article_report(&out, ArticleReport::Herd, Lang::default()).unwrap(),
            herd_text(&out)
        );
        assert_eq!(
            article_report(&out, ArticleReport::Breaker, Lang::default()).unwrap(),
            breaker_text(&out)
        );
    }

    /// An edited strategy makes the reproduction checks not applicable rather than FAIL,
    /// in both languages and in the CLI's report; a new seed, a convention or a renamed
    /// strategy keeps them checked.
    #[test]
    fn checks_on_strategies_not_the_articles_are_not_applicable() {
        let mut edited = Scenario::article();
        edited.strategies[3].budget_pct = 100;
        for (lang, words) in [
            (
                Lang::En,
                "not applicable: the strategies are no longer the article's",
            ),
            (Lang::Zh, "不适用：策略已不再是文章的策略"),
        ] {
            let v = verdicts_in(&edited, edited.seed, lang).unwrap();
            assert_eq!(v.len(), 4);
            assert!(
                v.iter().all(|v| v.pass.is_none() && v.detail == words),
                "{v:?}"
            );
            let text = multi_seed_text_in(&edited, &[4242], lang).unwrap();
            assert_eq!(text.matches(words).count(), 4, "{text}");
            assert!(!text.contains("[FAIL]"), "{text}");
        }
        // The same edit, judged as the article's checks alone, does fail: n/a is not a pass.
        assert!(verdicts(&edited, edited.seed)
            .unwrap()
            .iter()
            .any(|v| v.pass == Some(false)));
        let mut kept = Scenario::article();
        kept.seed = 7;
        kept.attribution = super::super::scenario::Attribution::Floor;
        kept.strategies[2].name = "S3 renamed".into();
        kept.strategies[5].max_retry = 1;
        let v = verdicts_in(&kept, kept.seed, Lang::En).unwrap();
        assert!(v.iter().all(|v| v.pass.is_some()), "{v:?}");
        let mut moved = Scenario::article();
        moved.capacity = 300;
        let v = verdicts_in(&moved, moved.seed, Lang::En).unwrap();
        assert!(v.iter().all(|v| v.pass.is_none()), "{v:?}");
    }
}
