//! Text and CSV renderings of an [`Ensemble`]: per group a table of every metric's
//! median, p5–p95 and min–max ranges and mean ± sd, then the counted verdicts.

use super::{Count, Ensemble, Group, MetricSpread, Sample};
use crate::report::{csv_field, Table};
use core::fmt::Write as _;

/// A number as a table shows it: whole numbers without decimals, others with up to
/// three decimals (trailing zeros dropped), `—` for none.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "—".into();
    }
    if v.fract() == 0.0 && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `median [p5–p95]`: a cell of an ensemble's results table.
pub fn cell(m: &MetricSpread) -> String {
    match &m.spread {
        None => "—".into(),
        Some(s) => median_range(s.median, s.p5, s.p95),
    }
}

/// `median [p5–p95]`, or the median alone when the range is one number as written
/// (every seed alike, or a spread below the third decimal): the table's cells and the
/// banded charts' readouts.
pub fn median_range(median: f64, p5: f64, p95: f64) -> String {
    let (lo, hi) = (num(p5), num(p95));
    if lo == hi {
        num(median)
    } else {
        format!("{} [{lo}–{hi}]", num(median))
    }
}

/// "PASS on 997 of 1000 seeds", or "not applicable".
pub(crate) fn count_text(pass: usize, of: usize) -> String {
    if of == 0 {
        "not applicable".into()
    } else {
        format!("PASS on {pass} of {of} seeds")
    }
}

/// A counted verdict as the reports say it: the classic checks "PASS on k of N seeds";
/// the cluster model's "recovered in k of N seeds", "metastable in k of N seeds".
pub fn verdict_text(model: &str, c: &Count) -> String {
    if model == "cluster" && c.of > 0 {
        format!("{} in {} of {} seeds", c.name, c.pass, c.of)
    } else {
        count_text(c.pass, c.of)
    }
}

fn group_text(out: &mut String, g: &Group) {
    let width = g
        .metrics
        .iter()
        .map(|m| m.metric.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(out, "== {} ==", g.name);
    let _ = writeln!(
        out,
        "{:<width$}  {:>12}  {:>25}  {:>25}  {:>24}  {:>6}",
        "metric", "median", "p5 – p95", "min – max", "mean ± sd", "seeds"
    );
    for m in &g.metrics {
        let Some(s) = &m.spread else {
            let _ = writeln!(out, "{:<width$}  {:>12}", m.metric, "—");
            continue;
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>12}  {:>25}  {:>25}  {:>24}  {:>6}",
            m.metric,
            num(s.median),
            format!("{} – {}", num(s.p5), num(s.p95)),
            format!("{} – {}", num(s.min), num(s.max)),
            format!("{} ± {}", num(s.mean), num(s.sd)),
            s.n
        );
    }
    out.push('\n');
}

/// The CLI's text report of an ensemble.
pub fn text(title: &str, e: &Ensemble) -> String {
    let mut out = String::new();
    let n = e.seeds.len();
    let _ = writeln!(out, "{title} ({} model): ensemble of {n} seeds", e.model);
    let shown: Vec<String> = e.seeds.iter().take(5).map(|s| s.to_string()).collect();
    let more = if n > 5 { ", …" } else { "" };
    let _ = writeln!(out, "seeds: {}{more}", shown.join(", "));
    out.push('\n');
    for g in &e.groups {
        group_text(&mut out, g);
    }
    let _ = writeln!(out, "verdicts:");
    if e.model == "cluster" {
        // "recovered in 22 of 24 seeds" with the recovery times; then how many stayed stuck.
        if let Some(line) = recovery_line(e) {
            let _ = writeln!(out, "  {line}");
        }
        if let Some(m) = e
            .verdicts
            .iter()
            .find(|v| v.name == "metastable" && v.of > 0)
        {
            let _ = writeln!(out, "  {}", verdict_text(&e.model, m));
        }
    } else {
        for v in &e.verdicts {
            let _ = writeln!(out, "  {}: {}", v.name, count_text(v.pass, v.of));
        }
    }
    out
}

/// "recovered in 12 of 40 seeds; recovery time …": the cluster headline.
pub fn recovery_line(e: &Ensemble) -> Option<String> {
    let rec = e.verdicts.iter().find(|v| v.name == "recovered")?;
    if rec.of == 0 {
        return Some("no trigger in any seed: nothing to recover from".into());
    }
    let mut s = format!("recovered in {} of {} seeds", rec.pass, rec.of);
    let time = e
        .groups
        .first()?
        .metrics
        .iter()
        .find(|m| m.metric == "recovery_time_ms")?;
    if let Some(t) = &time.spread {
        let _ = write!(
            s,
            "; recovery time among those: median {} ms, p5–p95 {}–{} ms, max {} ms",
            num(t.median),
            num(t.p5),
            num(t.p95),
            num(t.max)
        );
    }
    Some(s)
}

/// The results tables of an ensemble: consecutive groups reporting the same metrics
/// (the strategies; the cluster model's tiers) share a table, with a row per group and a
/// column per metric, each cell [`cell`] ("median [p5–p95]"). So the classic model
/// gives one table and the cluster model two (the run, then its tiers).
pub fn tables(e: &Ensemble) -> Vec<Table> {
    let names = |g: &Group| -> Vec<String> { g.metrics.iter().map(|m| m.metric.clone()).collect() };
    let mut out: Vec<(Vec<String>, Table)> = Vec::new();
    for g in &e.groups {
        let metrics = names(g);
        let row: Vec<String> = std::iter::once(g.name.clone())
            .chain(g.metrics.iter().map(cell))
            .collect();
        match out.last_mut() {
            Some((m, t)) if *m == metrics => t.rows.push(row),
            _ => {
                let columns = std::iter::once("name".to_string())
                    .chain(metrics.iter().cloned())
                    .collect();
                out.push((
                    metrics,
                    Table {
                        columns,
                        rows: vec![row],
                    },
                ));
            }
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
}

/// The results table in Markdown, under a caption naming the seeds, then the counted
/// verdicts as a list.
pub fn markdown(e: &Ensemble) -> String {
    let mut out = format!(
        "Retry Storm Playground — ensemble of {} seeds (median [p5–p95])\n\n",
        e.seeds.len()
    );
    for (i, t) in tables(e).iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&crate::report::markdown(t));
    }
    if !e.verdicts.is_empty() {
        out.push('\n');
        for v in &e.verdicts {
            let _ = writeln!(
                out,
                "- {}: {}",
                crate::report::md_cell(&v.name),
                count_text(v.pass, v.of)
            );
        }
    }
    out
}

/// Every per-seed value as CSV (`seed,group,metric,value`; an empty value where a run
/// has none), then one row per seed and verdict (`seed,verdict,<name>,1|0|`).
pub fn csv(e: &Ensemble) -> String {
    let mut out = String::from(CSV_HEADER);
    for (i, seed) in e.seeds.iter().enumerate() {
        let groups = e.groups.iter().map(|g| {
            let metrics = g
                .metrics
                .iter()
                .map(move |m| (m.metric.as_str(), m.values[i]));
            (g.name.as_str(), metrics)
        });
        let verdicts = e.verdicts.iter().map(|c| (c.name.as_str(), c.per_seed[i]));
        seed_rows(&mut out, *seed, groups, verdicts);
    }
    out
}

/// The first line of [`csv`].
pub const CSV_HEADER: &str = "seed,group,metric,value\n";

/// One seed's rows of [`csv`], from its sample: what the CLI writes as each seed
/// comes in, so an ensemble's CSV is never held whole. `names` are the scenario's
/// groups' names ([`super::group_names`]) and `verdicts` its verdicts'
/// ([`super::verdict_names`]).
pub fn csv_seed(out: &mut String, names: &[(String, String)], verdicts: &[String], s: &Sample) {
    let groups = names
        .iter()
        .zip(&s.groups)
        .map(|((_, name), ms)| (name.as_str(), ms.iter().map(|(m, v)| (m.as_str(), *v))));
    let verdicts = verdicts
        .iter()
        .zip(&s.verdicts)
        .map(|(n, v)| (n.as_str(), *v));
    seed_rows(out, s.seed, groups, verdicts);
}

/// The rows of one seed: its metrics group by group, then its verdicts.
fn seed_rows<'a, M: Iterator<Item = (&'a str, Option<f64>)>>(
    out: &mut String,
    seed: i64,
    groups: impl Iterator<Item = (&'a str, M)>,
    verdicts: impl Iterator<Item = (&'a str, Option<bool>)>,
) {
    for (name, metrics) in groups {
        let group = csv_field(name);
        for (metric, v) in metrics {
            let v = v.map(|v| v.to_string()).unwrap_or_default();
            let _ = writeln!(out, "{seed},{group},{},{v}", csv_field(metric));
        }
    }
    for (name, v) in verdicts {
        let v = match v {
            Some(true) => "1",
            Some(false) => "0",
            None => "",
        };
        let _ = writeln!(out, "{seed},verdict,{},{v}", csv_field(name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_cells() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.23456), "1.235");
        assert_eq!(num(f64::NAN), "—");
        assert_eq!(count_text(997, 1000), "PASS on 997 of 1000 seeds");
        assert_eq!(count_text(0, 0), "not applicable");
    }

    #[test]
    fn groups_with_the_same_metrics_share_a_table() {
        let spread = |v: &[f64]| MetricSpread {
            metric: String::new(),
            spread: crate::ensemble::Spread::of(v),
            values: v.iter().map(|x| Some(*x)).collect(),
        };
        let group = |name: &str, metrics: &[(&str, &[f64])]| Group {
            key: name.into(),
            name: name.into(),
            metrics: metrics
                .iter()
                .map(|(m, v)| MetricSpread {
                    metric: m.to_string(),
                    ..spread(v)
                })
                .collect(),
        };
        let e = Ensemble {
            model: "cluster".into(),
            seeds: vec![1, 2, 3],
            groups: vec![
                group("run", &[("goodput", &[1.0, 2.0, 3.0])]),
                group("a", &[("amp", &[1.0, 1.0, 1.0]), ("x", &[0.0, 10.0, 20.0])]),
                group("b", &[("amp", &[2.0, 2.0, 2.0]), ("x", &[5.0, 5.0, 5.0])]),
            ],
            verdicts: vec![],
            bands: vec![],
        };
        let t = tables(&e);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].columns, ["name", "goodput"]);
        assert_eq!(t[0].rows, [["run", "2 [1.1–2.9]"]]);
        assert_eq!(t[1].columns, ["name", "amp", "x"]);
        // p5 of 0, 10, 20 is at rank 0.1 (type 7): 1; p95 at rank 1.9: 19.
        assert_eq!(t[1].rows, [["a", "1", "10 [1–19]"], ["b", "2", "5"]]);
    }
}
