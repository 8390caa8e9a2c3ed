//! The event-driven cluster model: open- and closed-loop load into a chain of
//! tiers with bounded queues, timeouts, faults on a schedule, client retry policies with
//! backoff and jitter, retry budgets, circuit breakers and bulkheads.
//!
//! - [`Scenario`] is the input (JSON, `deny_unknown_fields`, [`Scenario::validate`]).
//! - [`run`] runs it; [`Simulation`] is the same run in slices (progress, cancel).
//! - [`RunResult`] is the output: per-bucket, per-tier counters and whole-run figures;
//!   [`metrics`] defines every counter, "steady state", "recovered" and "metastable".
//! - [`present`] holds its figures and tables, [`report`] renders it as text, markdown
//!   or CSV.
//! - [`defaults`] is every default object an editor offers, [`edit`] the editing rules.
//!
//! Time runs in integer microseconds; the event queue orders by (time, sequence number);
//! randomness is one `java.util.Random` stream; transcendental functions are computed
//! with basic IEEE operations only (the crate-internal `math` module). Same scenario and seed, same bytes out, on
//! every platform including wasm32.

// The engine's internals: crate-private, so the public API is what a user needs.
/// Backoff delays and jitter (also sampled by the page's delay preview).
pub mod backoff;
pub(crate) mod breaker;
pub(crate) mod budget;
pub(crate) mod faults;
pub(crate) mod health;
/// Real libraries' own retry delay rules (Resilience4j, gRPC, Envoy, Polly, AWS, tenacity, …).
pub mod libraries;
pub(crate) mod math;
pub(crate) mod queue;
pub(crate) mod retry_gates;
pub(crate) mod sim;
pub(crate) mod window;

pub mod defaults;
pub mod edit;
pub mod glossary;
pub mod metrics;
pub mod present;
pub mod report;
pub mod scenario;
pub(crate) mod texts;
pub mod verdict;

#[cfg(test)]
mod policy_conformance;
#[cfg(test)]
mod policy_tests;

pub use metrics::{Bucket, Percentiles, RouteSummary, RunResult, Summary, TierBucket, TierSummary};
pub use scenario::*;
pub use sim::{Simulation, DRAIN_LIMIT_MS, MAX_LIVE_JOBS};

use crate::validate::ValidationError;

/// Events processed per `advance` slice inside [`run`].
const SLICE: u64 = 1 << 20;

/// Validates `scenario` and runs it with `seed` to the end.
pub fn run(scenario: &Scenario, seed: i64) -> Result<RunResult, ValidationError> {
    let mut sim = Simulation::new(scenario, seed)?;
    while !sim.advance(SLICE)? {}
    Ok(sim.finish())
}
