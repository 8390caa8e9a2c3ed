//! How each figure of a classic result is printed, as the article prints it: the one
//! place the reports, the verdict in words and the page's table take a cell's text from.

use super::engine::StrategyResult;
use crate::javafmt::{fixed, java_list};

/// `1.30x`: amplification as the article prints it.
pub fn amplification(r: &StrategyResult) -> String {
    format!("{}x", fixed(r.amplification, 2))
}

/// `90.8%`: delivery as the article prints it.
pub fn delivery(r: &StrategyResult) -> String {
    format!("{}%", fixed(r.delivery_pct, 1))
}

/// `90.8%`: the answered view of delivery (self-restraint left out), as delivery is printed.
pub fn answered(r: &StrategyResult) -> String {
    format!("{}%", fixed(r.answered_pct, 1))
}

/// `1/[21]/0`: breaker trips, the seconds they happened, harmful rejections.
pub fn breaker_cell(r: &StrategyResult) -> String {
    format!(
        "{}/{}/{}",
        r.breaker_trips,
        java_list(&r.trip_at),
        r.breaker_harmful
    )
}
