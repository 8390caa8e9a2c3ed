//! Retry Storm Playground engine: deterministic retry-storm simulators with no I/O,
//! wasm or DOM dependency.
//!
//! # Using the library
//!
//! A scenario is one JSON document; [`scenario::parse`] reads and validates it into an
//! [`AnyScenario`] (the classic or the cluster model, told apart by its `model` field).
//! Then, for either model:
//!
//! - one run: [`classic::simulate`] gives a [`classic::Output`], [`cluster::run`] a
//!   [`cluster::RunResult`] ([`cluster::Simulation`] runs the same in slices);
//! - many seeds: [`ensemble::run`] gives an [`Ensemble`] (every figure as a spread);
//! - a grid: a [`Sweep`] (read by [`Sweep::from_json`]) planned over the scenario and
//!   run ([`sweep::Plan::run`]) gives a [`SweepResult`];
//! - reports: [`classic::report`] (the article's reports, tables, Markdown, CSV) and
//!   [`cluster::report`] / [`cluster::present`], as [`report::Table`]s or text, in
//!   either [`Lang`];
//! - links: [`share::encode`] and [`share::decode`] of a [`ShareState`].
//!
//! Every error is a [`ValidationError`] naming the field by its path, the value found
//! and what is allowed.
//!
//! ```
//! use retrystorm::{classic, ensemble, scenario, AnyScenario};
//!
//! // The article's scenario, as bundled; any JSON text reads the same way.
//! let article = scenario::bundled().into_iter().find(|b| b.id == "article").unwrap();
//! let sc = scenario::parse(article.json).unwrap();
//! let AnyScenario::Classic(c) = &sc else { unreachable!() };
//! let out = classic::simulate(c, c.seed).unwrap();
//! assert_eq!(out.results.len(), c.strategies.len());
//! let spread = ensemble::run(&sc, &ensemble::derive_seeds(c.seed, 3), Some(1)).unwrap();
//! assert_eq!(spread.seeds.len(), 3);
//!
//! let err = scenario::parse(&article.json.replacen("\"clients\":200", "\"clients\":0", 1));
//! assert_eq!(err.unwrap_err().field, "clients");
//! ```
//!
//! # Modules
//!
//! - [`classic`]: the article's one-second-bucket model, exact to every published figure.
//! - [`cluster`]: an event-driven model of tiers, timeouts, queues, faults, budgets and
//!   breakers. Its public face is [`cluster::Scenario`] and its types, [`cluster::run`],
//!   [`cluster::Simulation`] (the same run in slices), [`cluster::RunResult`] and its
//!   parts ([`cluster::metrics`]), [`cluster::present`] and [`cluster::report`]; the
//!   engine's internals (event queue, budgets, breakers, faults) are private.
//! - [`cost`]: what retries cost when the upstream bills by the token.
//! - [`ensemble`]: one scenario over many seeds, every metric as a spread, verdicts counted.
//! - [`estimate`]: what a run, ensemble or sweep will cost (work, memory, output, time)
//!   before it starts.
//! - [`studies`]: published setups of independent simulators restated in the cluster
//!   model, their figures beside the model's within the seed spreads' tolerance.
//! - [`sweep`]: one or two fields varied over a grid, each point an ensemble; trade-offs.
//! - [`scenario`]: one JSON format for both, told apart by its `model` field.
//! - [`share`]: the versioned share-link codec.
//! - [`validate`]: the validation error and the JSON readers that name every field by
//!   its full path (the checks themselves are the crate's own).
//! - [`report`]: one report layer for both: tables as text, Markdown and CSV.
//! - [`progress`]: a long job's progress and the request to stop it, as plain atomics.
//! - [`lang`]: the two languages and the one shape of the engine's words (catalogues).
//! - [`javafmt`], [`rng`], [`seed`]: Java's number format and `java.util.Random`, bit for
//!   bit, and seeds in JSON (exact in JavaScript).

/// A bundled scenario or sweep file (`bundled_json!("article.json")`,
/// `bundled_json!("sweeps/breaker-threshold.json")`) as its JSON text without layout
/// whitespace (written by `build.rs` from `../scenarios`).
#[macro_export]
macro_rules! bundled_json {
    ($file:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/", $file))
    };
}

pub mod classic;
pub mod cluster;
pub mod cost;
pub mod ensemble;
pub mod estimate;
pub mod glossary;
#[cfg(feature = "import")]
/// Real libraries' configuration files read as client policies (`retrystorm import`).
pub mod import;
pub mod javafmt;
pub mod lang;
pub mod progress;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod seed;
pub mod share;
pub mod studies;
pub mod sweep;
pub mod validate;

pub use ensemble::Ensemble;
pub use lang::Lang;
pub use scenario::AnyScenario;
pub use share::ShareState;
pub use sweep::{Sweep, SweepResult};
pub use validate::ValidationError;
