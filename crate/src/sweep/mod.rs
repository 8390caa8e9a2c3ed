//! Sweeps: vary one or two numeric fields of a scenario over a grid, run every point as
//! an ensemble of the same seeds, and pick the trade-off (see [`choose`]).
//!
//! # Definition (one JSON format for the CLI, the page and links)
//! ```json
//! { "params": [ { "path": "strategies[5].breaker_trip_failures",
//!                 "range": { "from": 50, "to": 2000, "steps": 40, "scale": "log" } } ],
//!   "seeds": 100,
//!   "objective": { "metric": "strategies[5].delivery_pct", "goal": "max" },
//!   "constraints": [ { "metric": "strategies[5].overload_seconds", "stat": "p95", "op": "<=", "value": 2 } ],
//!   "pareto": [ { "metric": "strategies[5].delivery_pct", "goal": "max" },
//!               { "metric": "strategies[5].breaker_harmful", "goal": "min" } ],
//!   "plot": "strategies[5].delivery_pct" }
//! ```
//! - No parameter is one point: the sweep is then exactly the scenario's ensemble, so
//!   the page runs ensembles and sweeps through one plan and one worker protocol.
//! - A parameter is a path ([`path`]) and either `values` (a list) or a `range` of
//!   `steps` values from `from` to `to`, `linear` or `log` (geometric). A field that holds
//!   an integer in the scenario gets each value rounded to the nearest integer, and a
//!   value repeated by that rounding is kept once.
//! - Two parameters make a grid: the first varies slowest. Point `i` is
//!   `(values₀[i / n₁], values₁[i % n₁])`.
//! - Every point runs the same seeds (common random numbers, so differences between
//!   points are the parameter's, not the seeds'): `seeds` derived from the scenario's
//!   seed as ensembles derive them, or `seed_list`.
//! - The work is bounded: at most [`MAX_POINTS`] points and [`MAX_RUNS`] runs (points ×
//!   seeds), and for the classic model at most [`MAX_CLASSIC_WORK`] simulated
//!   business requests × strategies in all.
//!
//! # Shards
//! The runs are the items `point × seeds + seed index`, in that order. Shard `K/N` runs
//! the items whose index is `K` modulo `N` and writes one JSON line per item;
//! [`merge`] gathers any complete set of shard files, in any order, into exactly the
//! result of the unsharded run, because both summarise the same samples in item order.

pub mod advice;
pub mod choose;
pub mod fields;
pub mod path;
pub mod presets;
pub mod render;
mod shards;
pub mod words;

pub use fields::{numeric_fields, NumericField};
pub use shards::{
    merge, merge_named, parse_shard, shard_jsonl, ShardHeader, ShardLine, MAX_SHARDS,
};

use crate::classic;
use crate::ensemble::{self, Ensemble, Sample};
use crate::scenario::{self, AnyScenario};
use crate::validate::ValidationError;
use choose::{Constraint, Goal, MetricRef, Objective};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most swept parameters.
pub const MAX_PARAMS: usize = 2;
/// Most values of one parameter.
pub const MAX_VALUES: usize = 1_000;
/// Most points of a sweep.
pub const MAX_POINTS: usize = 10_000;
/// Most runs (points × seeds) of a sweep.
pub const MAX_RUNS: usize = 200_000;
/// Most simulated business requests × strategies over a classic sweep (about two
/// minutes of one core).
pub const MAX_CLASSIC_WORK: u64 = 20_000_000_000;

/// Linear or geometric spacing of a range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    /// Evenly spaced.
    #[default]
    Linear,
    /// Evenly spaced logarithms (`from` and `to` above 0).
    Log,
}

/// `steps` values from `from` to `to`, both included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// First value.
    pub from: f64,
    /// Last value.
    pub to: f64,
    /// How many values, 2..=[`MAX_VALUES`].
    pub steps: usize,
    /// Spacing.
    #[serde(default)]
    pub scale: Scale,
}

/// One swept field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// The field's path.
    pub path: String,
    /// The values, as a list …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
    /// … or as a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
}

/// A whole sweep definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sweep {
    /// Up to [`MAX_PARAMS`] parameters (none: one point, the scenario's ensemble).
    #[serde(default)]
    pub params: Vec<Param>,
    /// Seeds per point, derived from the scenario's seed (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<usize>,
    /// Or these seeds.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_seeds")]
    pub seed_list: Option<Vec<i64>>,
    /// What to optimise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<Objective>,
    /// What every acceptable point meets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<Constraint>,
    /// Two metrics whose trade-off is drawn, each with its goal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pareto: Option<[Objective; 2]>,
    /// The metric a chart of the sweep shows (`[stat(]group.metric[)]`, as `--constraint`
    /// writes one); only the page's charts read it, the CLI's outputs do not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plot: Option<String>,
}

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

fn err(
    field: String,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> ValidationError {
    ValidationError::new(field, value, allowed)
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

/// The values of a range: linear `from + (to − from)·i/(steps − 1)`, log
/// `from·(to/from)^(i/(steps − 1))`.
pub fn range_values(r: &Range) -> Vec<f64> {
    let n = r.steps.max(2);
    (0..n)
        .map(|i| {
            let t = i as f64 / (n - 1) as f64;
            if i == n - 1 {
                return r.to;
            }
            match r.scale {
                Scale::Linear => r.from + (r.to - r.from) * t,
                Scale::Log => r.from * (r.to / r.from).powf(t),
            }
        })
        .collect()
}

impl Sweep {
    /// Parses a definition from JSON text (unknown fields are errors, named by path).
    pub fn from_json(text: &str) -> Result<Sweep, ValidationError> {
        crate::validate::from_str(text)
    }

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
            let mut v: Vec<f64> = if integer_field(&doc, &st, &raw) {
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
            values.push(v);
            steps.push(st);
        }
        let seeds = match (&self.seeds, &self.seed_list) {
            (Some(_), Some(_)) => {
                return Err(err(
                    "seed_list".into(),
                    "both seeds and seed_list",
                    "one of seeds or seed_list",
                ))
            }
            (None, Some(list)) => {
                ensemble::check_count("seed_list", list.len())?;
                list.clone()
            }
            (n, None) => {
                let n = n.unwrap_or(1);
                ensemble::check_count("seeds", n)?;
                ensemble::derive_seeds(base.seed(), n)
            }
        };
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
        let mut points = Vec::with_capacity(npoints);
        for i in 0..npoints {
            let mut at = Vec::with_capacity(values.len());
            let mut rest = i;
            for v in values.iter().rev() {
                at.push(v[rest % v.len()]);
                rest /= v.len();
            }
            at.reverse();
            let mut d = doc.clone();
            for (k, (st, x)) in steps.iter().zip(&at).enumerate() {
                path::set(&mut d, st, *x).map_err(|m| {
                    err(
                        format!("params[{k}].path"),
                        format!("{:?}", self.params[k].path),
                        m,
                    )
                })?;
            }
            let sc = scenario::from_value(d).map_err(|e| {
                let label: Vec<String> = self
                    .params
                    .iter()
                    .zip(&at)
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
            })?;
            points.push((at, sc));
        }
        if let AnyScenario::Classic(_) = base {
            let work: u64 = points
                .iter()
                .map(|(_, s)| match s {
                    AnyScenario::Classic(c) => c.business_requests() * c.strategies.len() as u64,
                    AnyScenario::Cluster(_) => 0,
                })
                .sum::<u64>()
                .saturating_mul(seeds.len() as u64);
            if work > MAX_CLASSIC_WORK {
                return Err(err("seeds".into(), format!("{work} request-runs"), format!("at most {MAX_CLASSIC_WORK} simulated business requests × strategies over the sweep")));
            }
        }
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
        Ok(Plan {
            sweep: self.clone(),
            base: base.clone(),
            values,
            seeds,
            points,
        })
    }
}

/// Every `<group>.<metric>` name a scenario's runs report, read from one run of it
/// (the names come from the result's own fields, so they cannot drift from it).
fn base_metrics(base: &AnyScenario) -> Vec<String> {
    let Ok(sample) = ensemble::sample(base, base.seed()) else {
        return Vec::new();
    };
    let groups = ensemble::group_names(base);
    groups
        .iter()
        .zip(&sample.groups)
        .flat_map(|((key, _), ms)| ms.iter().map(move |(m, _)| format!("{key}.{m}")))
        .collect()
}

/// One point of a sweep's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Its index.
    pub index: usize,
    /// Its parameter values, in the order of the definition.
    pub params: Vec<f64>,
    /// Its ensemble.
    pub ensemble: Ensemble,
    /// Meets every constraint (true without constraints).
    pub feasible: bool,
    /// On the Pareto front of the feasible points.
    pub pareto: bool,
}

/// A sweep's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    /// The parameter paths.
    pub paths: Vec<String>,
    /// The points, in order.
    pub points: Vec<Point>,
    /// The best feasible point by the objective.
    pub best: Option<usize>,
}

impl Plan {
    /// Items (point, seed index) in order.
    pub fn items(&self) -> usize {
        self.points.len() * self.seeds.len()
    }

    /// Runs item `i` (point `i / seeds`, seed `i % seeds`).
    pub fn run_item(&self, i: usize) -> Result<Sample, ValidationError> {
        self.run_item_in(i, &mut classic::Runs::new())
    }

    /// [`Plan::run_item`] with the classic strategies run through `runs`.
    fn run_item_in(&self, i: usize, runs: &mut classic::Runs) -> Result<Sample, ValidationError> {
        let (p, s) = (i / self.seeds.len(), i % self.seeds.len());
        // A plan without parameters is one scenario's ensemble: the page draws its bands.
        let curves = self.sweep.params.is_empty();
        ensemble::sample_in(&self.points[p].1, self.seeds[s], curves, runs)
    }

    /// Runs the items of shard `k` of `n` (all of them for `0/1`), in item order, on
    /// `threads` threads (`None`: every core).
    ///
    /// The items run seed by seed, each seed's points in order, in batches that each
    /// run through one [`classic::Runs`] ([`ensemble::map_batched`]): a strategy the
    /// swept field leaves unchanged from one point to the next is then run once per
    /// seed, not once per point (S1–S5 of a sweep of S6's threshold). Every sample is
    /// the one [`Plan::run_item`] gives.
    pub fn run_shard(
        &self,
        k: usize,
        n: usize,
        threads: Option<usize>,
    ) -> Result<Vec<(usize, Sample)>, ValidationError> {
        let seeds = self.seeds.len();
        let mut order: Vec<usize> = (0..self.items()).filter(|i| i % n == k).collect();
        // Seed by seed, each seed's points in order; a batch ends between two seeds
        // once it is full (a seed's first point runs every strategy, its next points
        // only what the sweep changes), or inside a seed's points longer than a batch.
        order.sort_unstable_by_key(|&i| (i % seeds, i));
        let len = ensemble::batch_len(order.len());
        let mut batches: Vec<&[usize]> = Vec::new();
        let mut rest = order.as_slice();
        while !rest.is_empty() {
            let full = len.min(rest.len());
            // The last start of a seed within reach, if any: a cut there splits no seed.
            let end = (1..=full)
                .rev()
                .find(|&j| j == rest.len() || rest[j] % seeds != rest[j - 1] % seeds)
                .unwrap_or(full);
            let (batch, after) = rest.split_at(end);
            batches.push(batch);
            rest = after;
        }
        let samples =
            ensemble::map_batched(&batches, threads, |&i, runs| self.run_item_in(i, runs))?;
        let order = batches.iter().flat_map(|b| b.iter().copied());
        let mut items: Vec<(usize, Sample)> = order.zip(samples).collect();
        items.sort_unstable_by_key(|x| x.0);
        Ok(items)
    }

    /// Summarises an ordered list of samples (one per item, from the first): every
    /// point whose seeds are all in, so a page can show the points as they complete;
    /// the constraints, front and best are those of these points.
    pub fn summarise(&self, samples: &[Sample]) -> SweepResult {
        let s = self.seeds.len();
        let complete = samples.len() / s.max(1);
        let mut points: Vec<Point> = self
            .points
            .iter()
            .take(complete)
            .enumerate()
            .map(|(i, (params, sc))| {
                let ensemble = ensemble::summarise(sc, &samples[i * s..(i + 1) * s]);
                let feasible = choose::feasible(&ensemble, &self.sweep.constraints);
                Point {
                    index: i,
                    params: params.clone(),
                    ensemble,
                    feasible,
                    pareto: false,
                }
            })
            .collect();
        if let Some([a, b]) = &self.sweep.pareto {
            let pts: Vec<(usize, f64, f64)> = points
                .iter()
                .filter(|p| p.feasible)
                .filter_map(|p| {
                    Some((
                        p.index,
                        choose::value(&p.ensemble, &a.of)?,
                        choose::value(&p.ensemble, &b.of)?,
                    ))
                })
                .collect();
            for i in choose::pareto(&pts, a.goal, b.goal) {
                points[i].pareto = true;
            }
        }
        let best = self.sweep.objective.as_ref().and_then(|o| {
            let c: Vec<(usize, f64)> = points
                .iter()
                .filter(|p| p.feasible)
                .filter_map(|p| Some((p.index, choose::value(&p.ensemble, &o.of)?)))
                .collect();
            choose::best(&c, o.goal)
        });
        SweepResult {
            paths: self.sweep.params.iter().map(|p| p.path.clone()).collect(),
            points,
            best,
        }
    }

    /// Runs the whole sweep.
    pub fn run(&self, threads: Option<usize>) -> Result<SweepResult, ValidationError> {
        let samples: Vec<Sample> = self
            .run_shard(0, 1, threads)?
            .into_iter()
            .map(|x| x.1)
            .collect();
        Ok(self.summarise(&samples))
    }
}

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

/// Optional seed lists written as seeds are (strings above 2^53).
mod opt_seeds {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct One(#[serde(with = "crate::seed")] i64);

    pub fn serialize<S: Serializer>(seeds: &Option<Vec<i64>>, s: S) -> Result<S::Ok, S::Error> {
        seeds
            .as_ref()
            .map(|v| v.iter().map(|&x| One(x)).collect::<Vec<_>>())
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
        Ok(Option::<Vec<One>>::deserialize(d)?.map(|v| v.into_iter().map(|o| o.0).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_expand_linear_and_log() {
        let lin = range_values(&Range {
            from: 0.0,
            to: 100.0,
            steps: 5,
            scale: Scale::Linear,
        });
        assert_eq!(lin, vec![0.0, 25.0, 50.0, 75.0, 100.0]);
        let log = range_values(&Range {
            from: 1.0,
            to: 1000.0,
            steps: 4,
            scale: Scale::Log,
        });
        for (a, b) in log.iter().zip([1.0, 10.0, 100.0, 1000.0]) {
            assert!((a - b).abs() < 1e-9, "{log:?}");
        }
    }

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
        assert_eq!(parse_shard("3/8"), Some((3, 8)));
        assert_eq!(parse_shard("8/8"), None);
    }
}
