//! The sweep definition: the JSON a sweep is written in (the same for the CLI, the page
//! and links) and the values a range expands into.

use super::choose::{Constraint, Objective};
use crate::validate::ValidationError;
use serde::{Deserialize, Serialize};

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
    /// How many values, 2..=[`MAX_VALUES`](super::MAX_VALUES).
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
    /// Up to [`MAX_PARAMS`](super::MAX_PARAMS) parameters (none: one point, the scenario's ensemble).
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
}
