//! The classic model of the article: one-second buckets, one upstream with hard
//! capacity, a whole-window outage, and strategies compared on one seed.

pub mod cells;
pub mod checks;
pub mod engine;
pub mod glossary;
pub mod report;
pub mod scenario;
mod texts;
pub mod verdict;

pub use engine::{
    run, run_strategy, run_with, simulate, simulate_with, Output, Runs, StrategyResult,
};
pub use scenario::{Attribution, Jitter, Outage, Scenario, Strategy};
