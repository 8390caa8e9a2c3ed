//! Trade-offs over the points of a sweep: constraints mark the feasible points, an
//! objective picks the best feasible one, and two axes give the Pareto front of the
//! feasible points. A metric is named `<group>.<metric>` (`strategies[5].delivery_pct`,
//! `run.success_ratio`, `tiers[1].amplification`) and read through one statistic of its
//! spread over the seeds (`median` by default; `p95` reads "in 95% of seeds").

use crate::ensemble::{Ensemble, Spread};
use serde::{Deserialize, Serialize};

/// Which figure of a metric's spread over the seeds is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stat {
    /// Smallest value.
    Min,
    /// 5th percentile.
    P5,
    /// 25th percentile.
    P25,
    /// Median.
    #[default]
    Median,
    /// 75th percentile.
    P75,
    /// 95th percentile.
    P95,
    /// Largest value.
    Max,
    /// Mean.
    Mean,
}

impl Stat {
    /// The figure of `s`.
    pub fn of(self, s: &Spread) -> f64 {
        match self {
            Stat::Min => s.min,
            Stat::P5 => s.p5,
            Stat::P25 => s.p25,
            Stat::Median => s.median,
            Stat::P75 => s.p75,
            Stat::P95 => s.p95,
            Stat::Max => s.max,
            Stat::Mean => s.mean,
        }
    }

    /// Its name as written in sweep definitions.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Min => "min",
            Stat::P5 => "p5",
            Stat::P25 => "p25",
            Stat::Median => "median",
            Stat::P75 => "p75",
            Stat::P95 => "p95",
            Stat::Max => "max",
            Stat::Mean => "mean",
        }
    }
}

/// Whether more or less is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// More is better.
    Max,
    /// Less is better.
    Min,
}

/// A metric read through a statistic: `p95(strategies[5].overload_seconds)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricRef {
    /// `<group>.<metric>`.
    pub metric: String,
    /// The statistic over the seeds.
    #[serde(default)]
    pub stat: Stat,
}

/// What to optimise. Read by this module's own reader (`flat`), as serde's derived
/// reader with the metric flattened into it read it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Objective {
    /// The metric.
    #[serde(flatten)]
    pub of: MetricRef,
    /// Maximise or minimise it.
    pub goal: Goal,
}

/// A comparison of a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// At most.
    #[serde(rename = "<=")]
    AtMost,
    /// At least.
    #[serde(rename = ">=")]
    AtLeast,
}

/// A condition every feasible point meets: `p95(strategies[5].overload_seconds) <= 2`.
/// Read by this module's own reader (`flat`), as [`Objective`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constraint {
    /// The metric.
    #[serde(flatten)]
    pub of: MetricRef,
    /// At most or at least.
    pub op: Op,
    /// The bound.
    pub value: f64,
}

mod flat {
    //! The readers of [`Objective`] and [`Constraint`]: their own fields and a
    //! [`MetricRef`]'s (`metric`, `stat`) in one object, unknown fields rejected. serde's
    //! derived reader of that form (`#[serde(flatten)]`) buffers the metric's fields
    //! (`Content`: 17.5 KB of code before wasm-opt, with the delay preview's reader);
    //! these read them as it did, with its messages: each own field as it comes (an error
    //! names the field), then a missing own field, then the metric's fields from the
    //! object (an error names the field too, where that reader named the object), then
    //! the first unknown field (named with the object's known fields).

    use super::{Constraint, MetricRef, Objective, Stat};
    use crate::validate;
    use core::fmt;
    use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
    use serde_json::Value;

    /// The metric's fields and the first unknown field of an object, once its own fields
    /// are read.
    struct Rest {
        metric: Vec<(String, Value)>,
        unknown: Option<String>,
        /// Every field of the object, for the message of an unknown one.
        fields: &'static [&'static str],
    }

    impl Rest {
        /// Reads every entry of `map`: `own` reads the value of one of the struct's own
        /// fields (false: the key is not one); the metric's are kept for [`Rest::metric`].
        fn read<'de, A: MapAccess<'de>>(
            map: &mut A,
            fields: &'static [&'static str],
            mut own: impl FnMut(&str, &mut A) -> Result<bool, A::Error>,
        ) -> Result<Rest, A::Error> {
            let mut rest = Rest {
                metric: Vec::new(),
                unknown: None,
                fields,
            };
            while let Some(key) = map.next_key::<String>()? {
                if key == "metric" || key == "stat" {
                    rest.metric.push((key, map.next_value()?));
                } else if !own(&key, map)? {
                    map.next_value::<IgnoredAny>()?;
                    rest.unknown.get_or_insert(key);
                }
            }
            Ok(rest)
        }

        /// The metric, then the check for unknown fields.
        fn metric<E: de::Error>(self) -> Result<MetricRef, E> {
            let (mut metric, mut stat) = (None, None);
            // Read from the buffered object, their errors still name the field.
            for (key, v) in &self.metric {
                if key == "metric" {
                    metric = Some(validate::read_member::<String, E>(key, v)?);
                } else {
                    stat = Some(validate::read_member::<Stat, E>(key, v)?);
                }
            }
            let metric = metric.ok_or_else(|| E::missing_field("metric"))?;
            if let Some(key) = self.unknown {
                let e = de::Error::unknown_field(&key, self.fields);
                return Err(validate::member_error(&key, &e));
            }
            Ok(MetricRef {
                metric,
                stat: stat.unwrap_or_default(),
            })
        }
    }

    /// Reads the value of the own field `name` into `slot` (a second one is an error).
    fn own<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
        slot: &mut Option<T>,
        name: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        if slot.is_some() {
            return Err(de::Error::duplicate_field(name));
        }
        *slot = Some(map.next_value()?);
        Ok(())
    }

    /// The value of the own field `name`, or serde's message for a missing one.
    fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
        slot.ok_or_else(|| E::missing_field(name))
    }

    /// The visitor of a struct named `$name` in messages.
    macro_rules! object_visitor {
        ($ty:ident, $name:literal, |$map:ident| $body:block) => {
            impl<'de> Deserialize<'de> for $ty {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    struct V;
                    impl<'de> Visitor<'de> for V {
                        type Value = $ty;
                        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                            f.write_str($name)
                        }
                        fn visit_map<A: MapAccess<'de>>(
                            self,
                            mut $map: A,
                        ) -> Result<$ty, A::Error> {
                            $body
                        }
                    }
                    d.deserialize_map(V)
                }
            }
        };
    }

    object_visitor!(Objective, "struct Objective", |map| {
        let mut goal = None;
        let rest = Rest::read(
            &mut map,
            &["metric", "stat", "goal"],
            |key, map| match key {
                "goal" => own(&mut goal, "goal", map).map(|()| true),
                _ => Ok(false),
            },
        )?;
        let goal = required(goal, "goal")?;
        Ok(Objective {
            of: rest.metric()?,
            goal,
        })
    });

    object_visitor!(Constraint, "struct Constraint", |map| {
        let (mut op, mut value) = (None, None);
        let rest = Rest::read(
            &mut map,
            &["metric", "stat", "op", "value"],
            |key, map| match key {
                "op" => own(&mut op, "op", map).map(|()| true),
                "value" => own(&mut value, "value", map).map(|()| true),
                _ => Ok(false),
            },
        )?;
        let (op, value) = (required(op, "op")?, required(value, "value")?);
        Ok(Constraint {
            of: rest.metric()?,
            op,
            value,
        })
    });
}

/// The value of `m` in an ensemble; `None` when no group or metric has that name, or no
/// seed has a value.
pub fn value(e: &Ensemble, m: &MetricRef) -> Option<f64> {
    let spread = e.metric(&m.metric)?.1.spread?;
    Some(m.stat.of(&spread))
}

/// True when `e` meets every constraint (a missing value never does).
pub fn feasible(e: &Ensemble, constraints: &[Constraint]) -> bool {
    constraints.iter().all(|c| match value(e, &c.of) {
        Some(v) => match c.op {
            Op::AtMost => v <= c.value,
            Op::AtLeast => v >= c.value,
        },
        None => false,
    })
}

/// The index of the best of `candidates` (pairs of point index and objective value):
/// highest or lowest value, the earlier point on a tie.
pub fn best(candidates: &[(usize, f64)], goal: Goal) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for &(i, v) in candidates {
        let better = match best {
            None => true,
            Some((_, b)) => match goal {
                Goal::Max => v > b,
                Goal::Min => v < b,
            },
        };
        if better {
            best = Some((i, v));
        }
    }
    best.map(|b| b.0)
}

/// The Pareto front of `points` (index, x, y) where each axis has its goal: the points
/// no other point beats on one axis without losing on the other. Sort by x (best
/// first, then best y), then keep each point whose y beats every y kept before it.
/// Equal points are all kept.
pub fn pareto(points: &[(usize, f64, f64)], gx: Goal, gy: Goal) -> Vec<usize> {
    // Orient both axes so that larger is better.
    let o = |g: Goal, v: f64| if g == Goal::Max { v } else { -v };
    let mut p: Vec<(usize, f64, f64)> = points
        .iter()
        .map(|&(i, x, y)| (i, o(gx, x), o(gy, y)))
        .collect();
    p.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(b.2.total_cmp(&a.2))
            .then(a.0.cmp(&b.0))
    });
    let mut front = Vec::new();
    let mut best_y = f64::NEG_INFINITY;
    let mut last: Option<(f64, f64)> = None;
    for &(i, x, y) in &p {
        // A duplicate of the last kept point is on the front too.
        if y > best_y || last == Some((x, y)) {
            front.push(i);
            best_y = best_y.max(y);
            last = Some((x, y));
        }
    }
    front.sort_unstable();
    front
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairwise definition: dominated when another point is at least as good on both
    /// axes and better on one.
    fn brute(points: &[(usize, f64, f64)], gx: Goal, gy: Goal) -> Vec<usize> {
        let ge = |g: Goal, a: f64, b: f64| if g == Goal::Max { a >= b } else { a <= b };
        let gt = |g: Goal, a: f64, b: f64| if g == Goal::Max { a > b } else { a < b };
        let mut out: Vec<usize> = points
            .iter()
            .filter(|p| {
                !points.iter().any(|q| {
                    ge(gx, q.1, p.1) && ge(gy, q.2, p.2) && (gt(gx, q.1, p.1) || gt(gy, q.2, p.2))
                })
            })
            .map(|p| p.0)
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn hand_computed_front() {
        // Delivery (max) vs overload seconds (min): A(90, 5) B(95, 8) C(85, 9) D(95, 6) E(99, 20)
        // C is beaten by A; B is beaten by D; the front is A, D, E.
        let pts = [
            (0, 90.0, 5.0),
            (1, 95.0, 8.0),
            (2, 85.0, 9.0),
            (3, 95.0, 6.0),
            (4, 99.0, 20.0),
        ];
        assert_eq!(pareto(&pts, Goal::Max, Goal::Min), vec![0, 3, 4]);
        assert_eq!(best(&[(0, 90.0), (3, 95.0), (4, 95.0)], Goal::Max), Some(3));
        assert_eq!(best(&[(0, 90.0), (3, 95.0)], Goal::Min), Some(0));
        assert_eq!(best(&[], Goal::Min), None);
    }

    #[test]
    fn front_equals_the_pairwise_definition() {
        // A small LCG makes many point clouds, with ties (values on a coarse grid).
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % 7) as f64
        };
        for round in 0..300 {
            let n = 1 + round % 12;
            let pts: Vec<(usize, f64, f64)> = (0..n).map(|i| (i, next(), next())).collect();
            for (gx, gy) in [
                (Goal::Max, Goal::Max),
                (Goal::Max, Goal::Min),
                (Goal::Min, Goal::Max),
                (Goal::Min, Goal::Min),
            ] {
                assert_eq!(
                    pareto(&pts, gx, gy),
                    brute(&pts, gx, gy),
                    "{pts:?} {gx:?} {gy:?}"
                );
            }
        }
    }
}
