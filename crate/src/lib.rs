//! Retry Storm Playground engine: deterministic retry-storm simulators with no I/O,
//! wasm or DOM dependency.
//!
//! - [`classic`]: the article's one-second-bucket model, exact to every published figure.
//! - [`cluster`]: an event-driven model of tiers, timeouts, queues, faults, budgets and
//!   breakers. Its public face is [`cluster::Scenario`] and its types, [`cluster::run`],
//!   [`cluster::Simulation`] (the same run in slices), [`cluster::RunResult`] and its
//!   parts ([`cluster::metrics`]), [`cluster::present`] and [`cluster::report`]; the
//!   engine's internals (event queue, backoff, budgets, breakers, faults) are private.
//! - [`cost`]: what retries cost when the upstream bills by the token.
//! - [`ensemble`]: one scenario over many seeds, every metric as a spread, verdicts counted.
//! - [`sweep`]: one or two fields varied over a grid, each point an ensemble; trade-offs.
//! - [`scenario`]: one JSON format for both, told apart by its `model` field.
//! - [`validate`]: one validation model for both: every problem named by its full path.
//! - [`report`]: one report layer for both: tables as text, Markdown and CSV.
//! - [`lang`]: the two languages and the one shape of the engine's words (catalogues).
//! - [`rng`]: `java.util.Random`, bit for bit.

pub mod classic;
pub mod cluster;
pub mod cost;
pub mod ensemble;
pub mod javafmt;
pub mod lang;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod seed;
pub mod share;
pub mod sweep;
pub mod validate;

pub use validate::ValidationError;
