//! Renderings of a sweep's result: JSON Lines (one line per point), CSV, and the text
//! summary with the feasible points, the Pareto front and the recommendation.

use super::choose::{self, MetricRef};
use super::SweepResult;
use crate::ensemble::render::num;
use crate::ensemble::Spread;
use crate::lang::Lang;
use crate::report::csv_field;
use core::fmt::Write as _;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A list of pairs written as a JSON object in list order.
struct Ordered<'a, T>(&'a [(String, T)]);

impl<T: Serialize> Serialize for Ordered<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(serde::Serialize)]
struct Count {
    pass: usize,
    of: usize,
}

#[derive(serde::Serialize)]
struct Line<'a> {
    point: usize,
    params: Ordered<'a, f64>,
    feasible: bool,
    pareto: bool,
    best: bool,
    metrics: Ordered<'a, Option<Spread>>,
    verdicts: Ordered<'a, Count>,
}

/// Every metric of a point as (`<group>.<metric>`, spread), in the run's order.
pub fn metrics(p: &super::Point) -> Vec<(String, Option<Spread>)> {
    p.ensemble
        .groups
        .iter()
        .flat_map(|g| {
            g.metrics
                .iter()
                .map(move |m| (format!("{}.{}", g.key, m.metric), m.spread))
        })
        .collect()
}

/// One JSON line per point: its parameters, marks, every metric's spread and the
/// counted verdicts.
pub fn jsonl(r: &SweepResult) -> String {
    let mut out = String::new();
    for p in &r.points {
        let params: Vec<(String, f64)> = r.paths.iter().cloned().zip(p.params.clone()).collect();
        let metrics = metrics(p);
        let verdicts: Vec<(String, Count)> = p
            .ensemble
            .verdicts
            .iter()
            .map(|v| {
                (
                    v.name.clone(),
                    Count {
                        pass: v.pass,
                        of: v.of,
                    },
                )
            })
            .collect();
        let line = Line {
            point: p.index,
            params: Ordered(&params),
            feasible: p.feasible,
            pareto: p.pareto,
            best: r.best == Some(p.index),
            metrics: Ordered(&metrics),
            verdicts: Ordered(&verdicts),
        };
        out.push_str(&serde_json::to_string(&line).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// One CSV row per point: parameters, marks, then each metric's median, p5 and p95.
pub fn csv(r: &SweepResult) -> String {
    let mut out = String::from("point");
    for p in &r.paths {
        let _ = write!(out, ",{}", csv_field(p));
    }
    out.push_str(",feasible,pareto,best");
    if let Some(first) = r.points.first() {
        for (k, _) in metrics(first) {
            for s in ["median", "p5", "p95"] {
                let _ = write!(out, ",{}", csv_field(&format!("{k}.{s}")));
            }
        }
    }
    out.push('\n');
    for p in &r.points {
        let _ = write!(out, "{}", p.index);
        for v in &p.params {
            let _ = write!(out, ",{v}");
        }
        let b = |x: bool| u8::from(x);
        let _ = write!(
            out,
            ",{},{},{}",
            b(p.feasible),
            b(p.pareto),
            b(r.best == Some(p.index))
        );
        for (_, s) in metrics(p) {
            match s {
                Some(s) => {
                    let _ = write!(out, ",{},{},{}", s.median, s.p5, s.p95);
                }
                None => out.push_str(",,,"),
            }
        }
        out.push('\n');
    }
    out
}

/// `p95(strategies[5].overload_seconds)`, or the bare name for the median.
pub fn metric_label(m: &MetricRef) -> String {
    if m.stat == choose::Stat::Median {
        m.metric.clone()
    } else {
        format!("{}({})", m.stat.name(), m.metric)
    }
}

/// The text summary ([`text_in`]) with the recommendation's words in English.
pub fn text(plan: &super::Plan, r: &SweepResult) -> String {
    text_in(plan, r, Lang::En)
}

/// The text summary: a row per point with the metrics the definition names, the marks,
/// the recommendation with its caveat, and last the recommendation in words in `lang`
/// (the page's sentence, [`super::advice`]: only over the settings the reader chooses).
pub fn text_in(plan: &super::Plan, r: &SweepResult, lang: Lang) -> String {
    let sw = &plan.sweep;
    let mut refs: Vec<MetricRef> = Vec::new();
    let mut add = |m: &MetricRef| {
        if !refs.contains(m) {
            refs.push(m.clone());
        }
    };
    if let Some(o) = &sw.objective {
        add(&o.of);
    }
    for c in &sw.constraints {
        add(&c.of);
    }
    if let Some(p) = &sw.pareto {
        add(&p[0].of);
        add(&p[1].of);
    }
    let mut out = String::new();
    let sizes: Vec<String> = plan.values.iter().map(|v| v.len().to_string()).collect();
    let _ = writeln!(
        out,
        "sweep of {} over {} values × {} seeds ({} model, {} runs)",
        r.paths.join(" × "),
        sizes.join(" × "),
        plan.seeds.len(),
        plan.base.model(),
        plan.items()
    );
    out.push('\n');
    let mut head: Vec<String> = r.paths.clone();
    head.extend(refs.iter().map(metric_label));
    head.push("marks".into());
    let _ = writeln!(out, "{}", head.join("\t"));
    for p in &r.points {
        let mut row: Vec<String> = p.params.iter().map(|v| num(*v)).collect();
        row.extend(
            refs.iter()
                .map(|m| choose::value(&p.ensemble, m).map_or("—".into(), num)),
        );
        let mut marks = Vec::new();
        if !sw.constraints.is_empty() {
            marks.push(if p.feasible { "feasible" } else { "infeasible" });
        }
        if p.pareto {
            marks.push("pareto");
        }
        if r.best == Some(p.index) {
            marks.push("BEST");
        }
        row.push(marks.join(","));
        let _ = writeln!(out, "{}", row.join("\t"));
    }
    out.push('\n');
    if let Some(o) = &sw.objective {
        let goal = match o.goal {
            choose::Goal::Max => "maximise",
            choose::Goal::Min => "minimise",
        };
        let subject: Vec<String> = sw
            .constraints
            .iter()
            .map(|c| {
                let op = match c.op {
                    choose::Op::AtMost => "<=",
                    choose::Op::AtLeast => ">=",
                };
                format!("{} {op} {}", metric_label(&c.of), num(c.value))
            })
            .collect();
        let subject = if subject.is_empty() {
            String::new()
        } else {
            format!(" subject to {}", subject.join(" and "))
        };
        match r.best {
            Some(b) => {
                let p = &r.points[b];
                let at: Vec<String> = r
                    .paths
                    .iter()
                    .zip(&p.params)
                    .map(|(k, v)| format!("{k} = {}", num(*v)))
                    .collect();
                let v = choose::value(&p.ensemble, &o.of).map_or("—".into(), num);
                let _ = writeln!(
                    out,
                    "recommended: {} ({goal} {} = {v}{subject})",
                    at.join(", "),
                    metric_label(&o.of)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "recommended: none: no point meets the constraints ({goal} {}{subject})",
                    metric_label(&o.of)
                );
            }
        }
        let _ = writeln!(
            out,
            "This answer holds for this scenario (its load, outage, strategies and {} seeds), not in general.",
            plan.seeds.len()
        );
    }
    if let Some(a) = super::advice::advice(plan, r, lang) {
        let _ = write!(out, "\n{}\n", a.text);
    }
    out
}
