//! The CLI's short forms of a sweep's parts (`--param`, `--objective`, `--constraint`,
//! `--pareto`), read and written, and the page's trade-off controls that use them.

use super::choose::{self, Constraint, Goal, MetricRef, Objective};
use super::{err, render, Param, Range, Scale, Sweep};
use crate::validate::ValidationError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A sweep from the CLI's short forms: `--param PATH=LIST|FROM..TO:STEPS[:log]`.
pub fn param_from_cli(text: &str) -> Option<Param> {
    let (path, spec) = text.split_once('=')?;
    let path = path.trim().to_string();
    if let Some((range, rest)) = spec.split_once(':') {
        let (from, to) = range.split_once("..")?;
        let (steps, scale) = match rest.split_once(':') {
            Some((s, "log")) => (s, Scale::Log),
            Some((s, "linear")) => (s, Scale::Linear),
            Some(_) => return None,
            None => (rest, Scale::Linear),
        };
        return Some(Param {
            path,
            values: None,
            range: Some(Range {
                from: from.trim().parse().ok()?,
                to: to.trim().parse().ok()?,
                steps: steps.trim().parse().ok()?,
                scale,
            }),
        });
    }
    let values = spec
        .split(',')
        .map(|v| v.trim().parse::<f64>().ok())
        .collect::<Option<Vec<f64>>>()?;
    Some(Param {
        path,
        values: Some(values),
        range: None,
    })
}

/// `[stat(]group.metric[)]`: a metric reference from the CLI.
pub fn metric_from_cli(text: &str) -> MetricRef {
    let t = text.trim();
    if let Some((stat, rest)) = t.split_once('(') {
        if let Some(metric) = rest.strip_suffix(')') {
            let stat =
                crate::validate::read_value(&Value::String(stat.to_string())).unwrap_or_default();
            return MetricRef {
                metric: metric.to_string(),
                stat,
            };
        }
    }
    MetricRef {
        metric: t.to_string(),
        stat: Default::default(),
    }
}

/// `--objective max:METRIC` into an objective.
pub fn objective_from_cli(text: &str) -> Option<Objective> {
    let (goal, m) = text.split_once(':')?;
    let goal = match goal {
        "max" => Goal::Max,
        "min" => Goal::Min,
        _ => return None,
    };
    Some(Objective {
        of: metric_from_cli(m),
        goal,
    })
}

/// `--constraint 'p95(METRIC)<=2'` into a constraint.
pub fn constraint_from_cli(text: &str) -> Option<Constraint> {
    let (m, op, v) = if let Some((m, v)) = text.split_once("<=") {
        (m, choose::Op::AtMost, v)
    } else {
        let (m, v) = text.split_once(">=")?;
        (m, choose::Op::AtLeast, v)
    };
    Some(Constraint {
        of: metric_from_cli(m),
        op,
        value: v.trim().parse().ok()?,
    })
}

/// `max:METRIC` as the CLI writes an objective (the inverse of [`objective_from_cli`]).
pub fn objective_to_cli(o: &Objective) -> String {
    let goal = match o.goal {
        Goal::Max => "max",
        Goal::Min => "min",
    };
    format!("{goal}:{}", render::metric_label(&o.of))
}

/// `p95(METRIC)<=2` as the CLI writes a constraint (the inverse of [`constraint_from_cli`]).
pub fn constraint_to_cli(c: &Constraint) -> String {
    let op = match c.op {
        choose::Op::AtMost => "<=",
        choose::Op::AtLeast => ">=",
    };
    format!("{}{op}{}", render::metric_label(&c.of), c.value)
}

/// The trade-off controls as the CLI's options write them: `--objective`, every
/// `--constraint` and `--pareto` (empty texts for the parts a sweep lacks).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceTexts {
    /// `max:METRIC` or `min:METRIC`, or empty for none.
    #[serde(default)]
    pub objective: String,
    /// One `[STAT(]METRIC[)]<=VALUE` (or `>=`) per constraint.
    #[serde(default)]
    pub constraints: Vec<String>,
    /// `max|min:METRIC,max|min:METRIC`, or empty for none.
    #[serde(default)]
    pub pareto: String,
}

impl ChoiceTexts {
    /// The texts of `sweep`'s objective, constraints and Pareto axes.
    pub fn of(sweep: &Sweep) -> ChoiceTexts {
        ChoiceTexts {
            objective: sweep
                .objective
                .as_ref()
                .map(objective_to_cli)
                .unwrap_or_default(),
            constraints: sweep.constraints.iter().map(constraint_to_cli).collect(),
            pareto: sweep
                .pareto
                .as_ref()
                .map(|[a, b]| format!("{},{}", objective_to_cli(a), objective_to_cli(b)))
                .unwrap_or_default(),
        }
    }

    /// Replaces `sweep`'s objective, constraints and Pareto axes with these (blank
    /// texts clear them); a text that does not parse is named by its control
    /// (`objective`, `constraints[1]`, `pareto`), in the CLI's syntax.
    pub fn apply(&self, sweep: &mut Sweep) -> Result<(), ValidationError> {
        let o = self.objective.trim();
        sweep.objective = if o.is_empty() {
            None
        } else {
            Some(objective_from_cli(o).ok_or_else(|| {
                err(
                    "objective".into(),
                    format!("{o:?}"),
                    "max:METRIC or min:METRIC",
                )
            })?)
        };
        sweep.constraints = self
            .constraints
            .iter()
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
            .enumerate()
            .map(|(i, c)| {
                constraint_from_cli(c).ok_or_else(|| {
                    err(
                        format!("constraints[{i}]"),
                        format!("{c:?}"),
                        "[STAT(]METRIC[)]<=VALUE or >=VALUE",
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        let p = self.pareto.trim();
        sweep.pareto = if p.is_empty() {
            None
        } else {
            let axes: Vec<_> = p.split(',').map(objective_from_cli).collect();
            match axes.as_slice() {
                [Some(a), Some(b)] => Some([a.clone(), b.clone()]),
                _ => {
                    return Err(err(
                        "pareto".into(),
                        format!("{p:?}"),
                        "max|min:METRIC,max|min:METRIC",
                    ))
                }
            }
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_short_forms() {
        let p = param_from_cli("strategies[5].breaker_trip_failures=50..2000:40:log").unwrap();
        assert_eq!(p.range.as_ref().unwrap().steps, 40);
        assert_eq!(p.range.unwrap().scale, Scale::Log);
        assert_eq!(
            param_from_cli("capacity=100,200").unwrap().values,
            Some(vec![100.0, 200.0])
        );
        assert!(param_from_cli("capacity").is_none());
        assert!(param_from_cli("capacity=1..2:3:cubic").is_none());
        let c = constraint_from_cli("p95(strategies[5].overload_seconds)<=2").unwrap();
        assert_eq!(
            (c.of.stat, c.op, c.value),
            (choose::Stat::P95, choose::Op::AtMost, 2.0)
        );
        let o = objective_from_cli("max:strategies[5].delivery_pct").unwrap();
        assert_eq!((o.goal, o.of.stat), (Goal::Max, choose::Stat::Median));
        assert_eq!(super::super::parse_shard("3/8"), Some((3, 8)));
        assert_eq!(super::super::parse_shard("8/8"), None);
    }
}
