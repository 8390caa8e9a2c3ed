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
mod cli_forms;
mod definition;
pub mod fields;
pub mod path;
mod plan;
pub mod presets;
pub mod render;
mod run;
mod shards;
pub mod words;

pub use cli_forms::{
    constraint_from_cli, constraint_to_cli, metric_from_cli, objective_from_cli, objective_to_cli,
    param_from_cli, ChoiceTexts,
};
pub use definition::{range_values, Param, Range, Scale, Sweep};
pub use fields::{numeric_fields, NumericField};
pub use plan::Plan;
pub use run::{Point, SweepResult};
pub use shards::{
    merge, merge_named, parse_shard, shard_jsonl, ShardHeader, ShardLine, MAX_SHARDS,
};

use crate::validate::ValidationError;

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

fn err(
    field: String,
    value: impl std::fmt::Display,
    allowed: impl Into<String>,
) -> ValidationError {
    ValidationError::new(field, value, allowed)
}
