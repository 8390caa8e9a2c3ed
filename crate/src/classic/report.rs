//! Every text rendering of classic results, so formatting lives in Rust only: the
//! article's four reports (`run`, `herd`, `sweep`, `breaker`), the playground's results
//! table, the Markdown and CSV exports, and the article's four acceptance checks.

use super::engine::{simulate, Output, StrategyResult, RECOVERY_WINDOW_S};
use super::scenario::Scenario;
use crate::javafmt::{fixed, java_list, pad};
use crate::report::csv_field;
use crate::rng::JavaRandom;
use crate::validate::ValidationError;
use core::fmt::Write as _;
use serde::{Deserialize, Serialize};

/// The seeds of the article's six-seed sweep.
pub const ARTICLE_SEEDS: [i64; 6] = [4242, 1, 7, 99, 2026, 313131];

/// `1.30x`: amplification as the article prints it.
pub fn amplification(r: &StrategyResult) -> String {
    format!("{}x", fixed(r.amplification, 2))
}

/// `90.8%`: delivery as the article prints it.
pub fn delivery(r: &StrategyResult) -> String {
    format!("{}%", fixed(r.delivery_pct, 1))
}

/// `1/[21]/0`: breaker trips, the seconds they happened, harmful rejections.
pub fn breaker_cell(r: &StrategyResult) -> String {
    format!(
        "{}/{}/{}",
        r.breaker_trips,
        java_list(&r.trip_at),
        r.breaker_harmful
    )
}

pub use crate::report::Table;

/// The playground's results table: the article's columns plus the recovery-window total.
pub fn table(out: &Output) -> Table {
    let columns = [
        "strategy",
        "amplification",
        "delivery",
        "peak QPS",
        "overload s",
        "p50 ms",
        "p99 ms",
        "breaker trips/trip s/harmful",
        "recovery window",
    ];
    Table::new(
        &columns,
        out.results
            .iter()
            .map(|r| {
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
            .collect(),
    )
}

/// The header line of the article's `RetryStorm` report.
fn run_header(sc: &Scenario, seed: i64, budget_override: Option<u32>) -> String {
    let mut s = format!(
        "上游第 {}~{} 秒整体不可用，容量 {} req/s，{} 客户端 × {} 秒，seed={}",
        sc.outage.from_s, sc.outage.to_s, sc.capacity, sc.clients, sc.duration_s, seed
    );
    if let Some(pct) = budget_override {
        let _ = write!(s, "，budgetPct={pct}（全局覆盖）");
    }
    s
}

/// The article's six-strategy report (`RetryStorm`), column widths and all.
pub fn run_text(out: &Output, budget_override: Option<u32>) -> String {
    let sc = &out.scenario;
    let mut s = String::new();
    let _ = writeln!(s, "{}", run_header(sc, sc.seed, budget_override));
    s.push('\n');
    let _ = writeln!(
        s,
        "{}{}{}{}{}{}{}熔断开/跳闸秒/误伤",
        pad("策略", 24),
        pad("放大倍数", 10),
        pad("交付率", 9),
        pad("峰值QPS", 9),
        pad("过载秒", 8),
        pad("交付中位ms", 12),
        pad("p99ms", 10)
    );
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
    s.push_str(
        "注：交付率按「业务请求最终有没有拿到结果」计，被 deadline 掐掉与预算拒发都算未交付。\n",
    );
    let _ = writeln!(
        s,
        "业务请求总数 {}，放大倍数 = 上游收到的 attempt 数 / 业务请求数。",
        sc.business_requests()
    );
    s
}

/// The seconds the recovery-window report shows: one before the outage to three after it.
pub fn herd_seconds(sc: &Scenario) -> core::ops::Range<u32> {
    let from = sc.outage.from_s.saturating_sub(1);
    let to = (sc.outage.to_s + RECOVERY_WINDOW_S + 1).min(sc.duration_s);
    from..to.max(from)
}

/// The article's `Herd` report: attempts per second around the outage for the first
/// four strategies, which strategies are over capacity, and the recovery-window totals.
pub fn herd_text(out: &Output) -> String {
    let sc = &out.scenario;
    let shown = &out.results[..out.results.len().min(4)];
    let mut s = String::new();
    let _ = writeln!(
        s,
        "每秒到达上游的请求数（容量 {}，故障 {}~{} 秒）",
        sc.capacity, sc.outage.from_s, sc.outage.to_s
    );
    s.push('\n');
    let mut head = pad("秒", 6);
    for r in shown {
        head.push_str(&pad(short_name(&r.name), 14));
    }
    head.push_str("过载(任一策略)");
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
    let _ = writeln!(
        s,
        "恢复后 {} 秒（第 {}~{} 秒）到达总量：{}",
        RECOVERY_WINDOW_S,
        sc.outage.to_s,
        end,
        totals.join("、")
    );
    let attempts: Vec<String> = shown
        .iter()
        .map(|r| format!("{} {}", short_name(&r.name), r.attempts))
        .collect();
    let _ = writeln!(
        s,
        "全程 attempt 总量：{}（业务请求 {}）",
        attempts.join("、"),
        sc.business_requests()
    );
    s
}

/// The label before the first space (`S1` of `S1 固定重试3次`), or the whole name.
fn short_name(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}

/// `2.34x / 34s / 100.0%`: the sweep's cell.
fn sweep_cell(r: &StrategyResult) -> String {
    format!(
        "{} / {}s / {}",
        amplification(r),
        r.overload_seconds,
        delivery(r)
    )
}

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

/// The names of the article's four acceptance checks, in the order [`verdicts`] returns them.
pub const VERDICT_NAMES: [&str; 4] = [
    "S4 的过载秒远小于 S2 (overload seconds of S4 at most half of S2's)",
    "S1 的放大倍数低于 S2 和 S3 (S1 amplifies less than S2 and S3)",
    "恢复后 3 秒到达总量 S4 远小于 S2 与 S3 (S4's recovery window at most half of S2's and S3's)",
    "预算改成 100 后 S4 逐位等于 S3 (with budget 100, S4 equals S3 in every figure)",
];

/// The article's four acceptance checks ("判定标准") on strategies 1–4 by position
/// (S1 retries without backoff, S2 backs off without jitter, S3 adds full jitter, S4 adds
/// the budget); the fourth re-runs the scenario with every budget forced to 100.
pub fn verdicts(sc: &Scenario, seed: i64) -> Result<Vec<Verdict>, ValidationError> {
    verdicts_of(&simulate(sc, seed)?)
}

/// The four acceptance checks of a run already made (`out`); only the budget-forced
/// check runs again, and then only S3 and S4.
pub fn verdicts_of(out: &Output) -> Result<Vec<Verdict>, ValidationError> {
    let (sc, seed) = (&out.scenario, out.scenario.seed);
    let names = VERDICT_NAMES;
    if out.results.len() < 4 {
        return Ok(names
            .iter()
            .map(|n| Verdict {
                name: n.to_string(),
                pass: None,
                detail: format!(
                    "needs at least 4 strategies (S1–S4 by position); this scenario has {}",
                    out.results.len()
                ),
            })
            .collect());
    }
    let r = &out.results;
    let (s1, s2, s3, s4) = (&r[0], &r[1], &r[2], &r[3]);
    // Each strategy starts its own PRNG from the seed, so S3 and S4 alone give exactly
    // the figures a whole forced run would.
    let forced = sc.with_budget(100);
    forced.validate()?;
    let forced_run = |i: usize| {
        crate::classic::run_strategy(&forced, &forced.strategies[i], &mut JavaRandom::new(seed))
    };
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
            detail: format!(
                "amplification difference {}",
                fixed((f4.amplification - f3.amplification).abs(), 3)
            ),
        },
    ])
}

/// The article's `Sweep` report: S2–S4 over several seeds, the budget-forced-to-100
/// check, and the four acceptance checks printed PASS/FAIL.
pub fn sweep_text(sc: &Scenario, seeds: &[i64]) -> Result<String, ValidationError> {
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
    let _ = writeln!(s, "多种子对照（{} 个种子）", seeds.len());
    s.push('\n');
    let _ = writeln!(
        s,
        "{}{}{}{}{}",
        pad("seed", 22),
        pad(&format!("{} 放大/过载/交付", label(1)), 28),
        pad(&format!("{} 放大/过载/交付", label(2)), 28),
        pad(&format!("{} 放大/过载/交付", label(3)), 28),
        format_args!("{}−{} 放大差", label(2), label(1))
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
            pad(&sweep_cell(&r[1]), 28),
            pad(&sweep_cell(&r[2]), 28),
            pad(&sweep_cell(&r[3]), 28),
            fixed(r[2].amplification - r[1].amplification, 2)
        );
    }
    if !s3_amps.is_empty() {
        let min = s3_amps.iter().copied().fold(f64::INFINITY, f64::min);
        let max = s3_amps.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = s3_amps.iter().sum::<f64>() / s3_amps.len() as f64;
        let _ = writeln!(
            s,
            "{} 放大倍数：{}x ~ {}x，均值 {}x，极差 {}",
            label(2),
            fixed(min, 2),
            fixed(max, 2),
            fixed(mean, 3),
            fixed(max - min, 3)
        );
    }

    s.push('\n');
    let forced = simulate(&sc.with_budget(100), sc.seed)?;
    let _ = writeln!(s, "预算归零对照：budgetPct 全部改成 100，seed={}", sc.seed);
    for r in &forced.results {
        let _ = writeln!(
            s,
            "  {}{} / {} / 峰值 {} / 过载 {}s / p50 {} ms / p99 {} ms",
            pad(&r.name, 24),
            amplification(r),
            delivery(r),
            r.peak,
            r.overload_seconds,
            r.p50_ms,
            r.p99_ms
        );
    }

    s.push('\n');
    let _ = writeln!(s, "判定标准（seed={}）", sc.seed);
    for v in verdicts(sc, sc.seed)? {
        let mark = match v.pass {
            Some(true) => "PASS",
            Some(false) => "FAIL",
            None => "N/A ",
        };
        let _ = writeln!(s, "  [{mark}] {}：{}", v.name, v.detail);
    }
    Ok(s)
}

/// The article's `Breaker` report: one row per strategy (the seven single-variable groups
/// of `scenarios/breaker-groups.json`), with the breaker's settings and what it did.
pub fn breaker_text(out: &Output) -> String {
    let sc = &out.scenario;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "熔断单变量对照（容量 {}，故障 {}~{} 秒，seed={}）",
        sc.capacity, sc.outage.from_s, sc.outage.to_s, sc.seed
    );
    s.push('\n');
    let _ = writeln!(
        s,
        "{}{}{}{}{}{}{}{}{}误伤数",
        pad("组", 28),
        pad("预算", 6),
        pad("deadline", 10),
        pad("跳闸阈值", 10),
        pad("放大倍数", 10),
        pad("交付率", 8),
        pad("过载秒", 8),
        pad("峰值", 7),
        pad("跳闸发生在", 12)
    );
    let _ = writeln!(s, "{}", "-".repeat(110));
    for (st, r) in sc.strategies.iter().zip(&out.results) {
        let budget = if st.budget_pct >= 100 {
            "关".to_string()
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
            pad(&budget, 6),
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

/// The results table as GitHub-flavoured Markdown, with a caption line naming the scenario.
pub fn markdown_table(out: &Output) -> String {
    let sc = &out.scenario;
    let caption = format!(
        "Retry Storm Playground — {} clients × {} s, capacity {}/s, outage [{}, {}) s, seed {}\n\n",
        sc.clients, sc.duration_s, sc.capacity, sc.outage.from_s, sc.outage.to_s, sc.seed
    );
    caption + &crate::report::markdown(&table(out))
}

/// Attempts per second for every strategy as CSV: `second,<strategy>…,capacity,outage`.
pub fn csv_per_sec(out: &Output) -> String {
    let sc = &out.scenario;
    let mut s = String::from("second");
    for r in &out.results {
        s.push(',');
        s.push_str(&csv_field(&r.name));
    }
    s.push_str(",capacity,outage\n");
    for sec in 0..sc.duration_s {
        let _ = write!(s, "{sec}");
        for r in &out.results {
            let _ = write!(s, ",{}", r.per_sec[sec as usize]);
        }
        let outage = u8::from(sec >= sc.outage.from_s && sec < sc.outage.to_s);
        let _ = writeln!(s, ",{},{outage}", sc.capacity);
    }
    s
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
