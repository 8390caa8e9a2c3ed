//! Planning a sweep: its definition checked against the base scenario and expanded into
//! the values of each parameter, the seeds and the scenario of every point.

use super::definition::{range_values, Scale};
use super::{choose::MetricRef, cli_forms::metric_from_cli, err, path};
use super::{Param, Sweep, MAX_CLASSIC_WORK, MAX_PARAMS, MAX_POINTS, MAX_RUNS, MAX_VALUES};
use crate::ensemble;
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use serde_json::Value;

/// A sweep ready to run: the values of each parameter and the scenario of each point.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The definition.
    pub sweep: Sweep,
    /// The base scenario.
    pub base: AnyScenario,
    /// Per parameter, its values after rounding.
    pub values: Vec<Vec<f64>>,
    /// The seeds every point runs.
    pub seeds: Vec<i64>,
    /// Per point, its parameter values and its scenario.
    pub points: Vec<(Vec<f64>, AnyScenario)>,
}

/// True when the field at `steps` takes integers: it holds one in the scenario, or (for
/// an absent optional field) its first fractional value is refused as it is and accepted
/// rounded.
fn integer_field(doc: &Value, steps: &[path::Step], raw: &[f64]) -> bool {
    if path::holds_integer(doc, steps) {
        return true;
    }
    // Only a value with a fraction can tell; without one, rounding changes nothing.
    let Some(&first) = raw.iter().find(|x| x.fract() != 0.0) else {
        return false;
    };
    let accepts = |x: f64| {
        let mut d = doc.clone();
        path::set(&mut d, steps, x).is_ok() && scenario::from_value(d).is_ok()
    };
    !accepts(first) && accepts(first.round())
}

impl Sweep {
    /// Checks the definition against `base` and expands it into points.
    pub fn plan(&self, base: &AnyScenario) -> Result<Plan, ValidationError> {
        if self.params.len() > MAX_PARAMS {
            return Err(err(
                "params".into(),
                format!("{} parameters", self.params.len()),
                format!("0..={MAX_PARAMS} parameters"),
            ));
        }
        let doc = base.to_value();
        let mut values = Vec::new();
        let mut steps = Vec::new();
        for (i, p) in self.params.iter().enumerate() {
            let (st, v) = param_values(&doc, i, p)?;
            values.push(v);
            steps.push(st);
        }
        let seeds = self.plan_seeds(base)?;
        let npoints: usize = values.iter().map(Vec::len).product();
        if npoints > MAX_POINTS {
            return Err(err(
                "params".into(),
                format!("{npoints} points"),
                format!("at most {MAX_POINTS} points"),
            ));
        }
        let runs = npoints * seeds.len();
        if runs > MAX_RUNS {
            return Err(err(
                "seeds".into(),
                format!("{npoints} points × {} seeds = {runs} runs", seeds.len()),
                format!("at most {MAX_RUNS} runs"),
            ));
        }
        let points = (0..npoints)
            .map(|i| {
                let at = point_values(&values, i);
                let sc = self.point_scenario(&doc, &steps, &at)?;
                Ok((at, sc))
            })
            .collect::<Result<Vec<_>, ValidationError>>()?;
        if let AnyScenario::Classic(_) = base {
            check_classic_work(&points, seeds.len())?;
        }
        self.check_metrics(base)?;
        Ok(Plan {
            sweep: self.clone(),
            base: base.clone(),
            values,
            seeds,
            points,
        })
    }

    /// The seeds every point runs: `seed_list`, or `seeds` (1 when absent) derived from
    /// the base scenario's seed.
    fn plan_seeds(&self, base: &AnyScenario) -> Result<Vec<i64>, ValidationError> {
        match (&self.seeds, &self.seed_list) {
            (Some(_), Some(_)) => Err(err(
                "seed_list".into(),
                "both seeds and seed_list",
                "one of seeds or seed_list",
            )),
            (None, Some(list)) => {
                ensemble::check_count("seed_list", list.len())?;
                Ok(list.clone())
            }
            (n, None) => {
                let n = n.unwrap_or(1);
                ensemble::check_count("seeds", n)?;
                Ok(ensemble::derive_seeds(base.seed(), n))
            }
        }
    }

    /// The scenario of the point whose parameter values are `at`: the base document with
    /// each swept field set, read and checked as any scenario is.
    fn point_scenario(
        &self,
        doc: &Value,
        steps: &[Vec<path::Step>],
        at: &[f64],
    ) -> Result<AnyScenario, ValidationError> {
        let mut d = doc.clone();
        for (k, (st, x)) in steps.iter().zip(at).enumerate() {
            path::set(&mut d, st, *x).map_err(|m| {
                err(
                    format!("params[{k}].path"),
                    format!("{:?}", self.params[k].path),
                    m,
                )
            })?;
        }
        scenario::from_value(d).map_err(|e| {
            let label: Vec<String> = self
                .params
                .iter()
                .zip(at)
                .map(|(p, x)| format!("{} = {x}", crate::validate::echo(&p.path)))
                .collect();
            // The field that is wrong stays named; the point is context.
            let point = format!("at the point {}", label.join(", "));
            match e.field.as_str() {
                "" => ValidationError::document(format!("{point}: {e}")),
                _ => ValidationError {
                    allowed: format!("{} ({point})", e.allowed),
                    ..e
                },
            }
        })
    }

    /// Checks that every metric the definition names (objective, constraints, Pareto
    /// axes, plot) is one the base scenario's runs report.
    fn check_metrics(&self, base: &AnyScenario) -> Result<(), ValidationError> {
        let probe = base_metrics(base);
        let check = |field: String, m: &MetricRef| -> Result<(), ValidationError> {
            if probe.contains(&m.metric) {
                Ok(())
            } else {
                Err(err(field, format!("{:?}", m.metric), "a metric as <group>.<metric>, e.g. strategies[5].delivery_pct, run.success_ratio, tiers[1].amplification"))
            }
        };
        if let Some(o) = &self.objective {
            check("objective.metric".into(), &o.of)?;
        }
        for (i, c) in self.constraints.iter().enumerate() {
            check(format!("constraints[{i}].metric"), &c.of)?;
            crate::validate::in_range_f64(
                &format!("constraints[{i}].value"),
                c.value,
                -1e300,
                1e300,
            )?;
        }
        if let Some(p) = &self.pareto {
            for (i, a) in p.iter().enumerate() {
                check(format!("pareto[{i}].metric"), &a.of)?;
            }
        }
        if let Some(p) = &self.plot {
            check("plot".into(), &metric_from_cli(p))?;
        }
        Ok(())
    }
}

/// Parameter `i`'s path, read, and its values: the list or the expanded range, rounded
/// for a field that takes integers, each value kept once.
fn param_values(
    doc: &Value,
    i: usize,
    p: &Param,
) -> Result<(Vec<path::Step>, Vec<f64>), ValidationError> {
    let at = |f: &str| format!("params[{i}].{f}");
    let st = path::parse(&p.path).ok_or_else(|| {
        err(at("path"), format!("{:?}", p.path), "a field path such as capacity, outage.to_s, strategies[5].breaker_trip_failures or strategies[*].budget_pct")
    })?;
    let raw = match (&p.values, &p.range) {
        (Some(v), None) => {
            if v.is_empty() || v.len() > MAX_VALUES {
                return Err(err(
                    at("values"),
                    format!("{} values", v.len()),
                    format!("1..={MAX_VALUES} values"),
                ));
            }
            if let Some(bad) = v.iter().find(|x| !x.is_finite()) {
                return Err(err(at("values"), bad, "finite numbers"));
            }
            v.clone()
        }
        (None, Some(r)) => {
            crate::validate::in_range(&at("range.steps"), r.steps, 2, MAX_VALUES)?;
            crate::validate::in_range_f64(&at("range.from"), r.from, -1e15, 1e15)?;
            crate::validate::in_range_f64(&at("range.to"), r.to, -1e15, 1e15)?;
            if r.scale == Scale::Log && (r.from <= 0.0 || r.to <= 0.0) {
                return Err(err(
                    at("range.from"),
                    r.from.min(r.to),
                    "from and to above 0 for a log scale",
                ));
            }
            range_values(r)
        }
        _ => {
            return Err(err(
                at("values"),
                "both or neither of values and range",
                "exactly one of values or range",
            ))
        }
    };
    let mut v: Vec<f64> = if integer_field(doc, &st, &raw) {
        raw.iter().map(|x| x.round()).collect()
    } else {
        raw
    };
    // Keep the first of repeated values (rounding can make neighbours equal).
    let mut seen = Vec::with_capacity(v.len());
    v.retain(|x| {
        let new = !seen.contains(&x.to_bits());
        seen.push(x.to_bits());
        new
    });
    Ok((st, v))
}

/// The parameter values of point `i`: the first parameter varies slowest.
fn point_values(values: &[Vec<f64>], i: usize) -> Vec<f64> {
    let mut at = Vec::with_capacity(values.len());
    let mut rest = i;
    for v in values.iter().rev() {
        at.push(v[rest % v.len()]);
        rest /= v.len();
    }
    at.reverse();
    at
}

/// Refuses a classic sweep over [`MAX_CLASSIC_WORK`] simulated business requests ×
/// strategies in all.
fn check_classic_work(
    points: &[(Vec<f64>, AnyScenario)],
    seeds: usize,
) -> Result<(), ValidationError> {
    let work: u64 = points
        .iter()
        .map(|(_, s)| match s {
            AnyScenario::Classic(c) => c.business_requests() * c.strategies.len() as u64,
            AnyScenario::Cluster(_) => 0,
        })
        .sum::<u64>()
        .saturating_mul(seeds as u64);
    if work > MAX_CLASSIC_WORK {
        return Err(err("seeds".into(), format!("{work} request-runs"), format!("at most {MAX_CLASSIC_WORK} simulated business requests × strategies over the sweep")));
    }
    Ok(())
}

/// Every `<group>.<metric>` name a scenario's runs report, from its structure
/// ([`ensemble::metric_names`]): nothing is run, so planning stays quick for any scenario.
fn base_metrics(base: &AnyScenario) -> Vec<String> {
    let groups = ensemble::group_names(base);
    groups
        .iter()
        .zip(ensemble::metric_names(base))
        .flat_map(|((key, _), ms)| ms.into_iter().map(move |m| format!("{key}.{m}")))
        .collect()
}
