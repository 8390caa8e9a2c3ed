//! The metric names a scenario's runs report, read from the scenario's structure without
//! running it: what a sweep checks its metrics against before it starts (a run of a long
//! cluster scenario only to learn the names held the page's main thread for seconds).
//!
//! The names are those of the numeric leaves of an empty result of the same shape as
//! the run's: every field present (an absent figure is still a named `null` leaf), the
//! only shape a scenario decides being whether a classic strategy has a cost model.
//! The empty results are struct literals, so a field added to a result does not
//! compile here until it is given; a test compares the names with a real run's for
//! every bundled scenario.

use super::{numeric_leaves, CLASSIC_SKIP, CLUSTER_TIER_SKIP};
use crate::classic::{self, StrategyResult};
use crate::cluster::{Summary, TierSummary};
use crate::cost::CostResult;
use crate::scenario::AnyScenario;

/// Per group of `scenario` (in the order of [`super::Sample::groups`]), the names of
/// its metrics, exactly as a run of it reports them.
pub fn metric_names(scenario: &AnyScenario) -> Vec<Vec<String>> {
    let names = |leaves: Vec<(String, Option<f64>)>| leaves.into_iter().map(|l| l.0).collect();
    match scenario {
        AnyScenario::Classic(sc) => sc
            .strategies
            .iter()
            .map(|st| names(numeric_leaves(&empty_strategy(st), CLASSIC_SKIP)))
            .collect(),
        AnyScenario::Cluster(sc) => {
            let tier = names(numeric_leaves(&TierSummary::default(), CLUSTER_TIER_SKIP));
            std::iter::once(names(numeric_leaves(&Summary::default(), &[])))
                .chain(sc.tiers.iter().map(|_| tier.clone()))
                .collect()
        }
    }
}

/// A strategy's result with every figure zero, shaped as its runs' are: with a cost
/// when it has a cost model (the only field a run leaves out).
fn empty_strategy(st: &classic::Strategy) -> StrategyResult {
    StrategyResult {
        name: String::new(),
        attempts: 0,
        delivered: 0,
        failed: 0,
        amplification: 0.0,
        delivery_pct: 0.0,
        peak: 0,
        overload_seconds: 0,
        p50_ms: 0,
        p99_ms: 0,
        breaker_trips: 0,
        trip_at: Vec::new(),
        breaker_harmful: 0,
        per_sec: Vec::new(),
        recovery_window_total: 0,
        answered_pct: 0.0,
        ended_upstream: 0,
        ended_deadline: 0,
        ended_budget: 0,
        ended_breaker: 0,
        cost: st.cost.as_ref().map(|_| CostResult {
            total: 0.0,
            per_delivered: None,
            amplification: None,
            input_tokens: 0,
            output_tokens: 0,
            billed_failures: 0,
            per_sec: Vec::new(),
        }),
    }
}
