//! The classic scenario: the article's outage script and its strategies, with the
//! documented bounds that keep any input from panicking, overflowing or running away.

use crate::cost::Cost;
use crate::validate::{Problems, ValidationError};
use serde::{Deserialize, Serialize};

/// Most clients a scenario may have.
pub const MAX_CLIENTS: u32 = 1_000_000;
/// Longest run, in virtual seconds.
pub const MAX_DURATION_S: u32 = 3_600;
/// Most business requests (`clients × duration_s`) one run may simulate, so one run
/// stays within memory and a few seconds even at 31 attempts per request.
pub const MAX_REQUESTS: u64 = 20_000_000;
/// Largest upstream capacity (attempts per second).
pub const MAX_CAPACITY: u32 = 100_000_000;
/// Largest added upstream latency.
pub const MAX_LATENCY_MS: u32 = 60_000;
/// Largest consecutive-failure threshold of the breaker.
pub const MAX_TRIP_FAILURES: u32 = 100_000_000;
/// Most strategies one scenario may compare.
pub const MAX_STRATEGIES: usize = 12;
/// Longest strategy name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Most retries after the first attempt (`base_ms << 30` still fits easily in 64 bits).
pub const MAX_RETRY: u32 = 30;
/// Largest backoff base.
pub const MAX_BASE_MS: u64 = 600_000;
/// Largest retry budget, in percent of capacity (100 turns the budget off).
pub const MAX_BUDGET_PCT: u32 = 100;
/// Largest deadline; it also bounds the latency histogram to a few MB.
pub const MAX_DEADLINE_MS: u64 = 3_600_000;

/// The outage window `[from_s, to_s)`: every attempt charged to these seconds fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outage {
    /// First second of the outage.
    pub from_s: u32,
    /// First second after the outage.
    pub to_s: u32,
}

/// How a retry's backoff is randomised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Jitter {
    /// Sleep exactly `base_ms << attempt`; draws no random number.
    None,
    /// Sleep `floor(nextDouble() × (base_ms << attempt))`.
    Full,
}

/// Which second a retry is charged to, from its arrival second `arr` and its accumulated
/// wait (every variant is clamped to the last second).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Attribution {
    /// The article's convention: second `arr + ceil(wait_ms / 1000)`.
    #[default]
    Ceil,
    /// Second `arr + floor(wait_ms / 1000)`.
    Floor,
    /// Second `arr + floor((wait_ms + 500) / 1000)`: to the nearest, halves up.
    Round,
}

impl Attribution {
    /// Every convention, in the order a selector lists them (the article's first).
    pub const ALL: [Attribution; 3] = [Attribution::Ceil, Attribution::Floor, Attribution::Round];

    /// True for the article's convention (the default, left out of written scenarios).
    pub fn is_article(&self) -> bool {
        *self == Attribution::Ceil
    }

    /// The name as written in the `attribution` field.
    pub fn name(self) -> &'static str {
        match self {
            Attribution::Ceil => "ceil",
            Attribution::Floor => "floor",
            Attribution::Round => "round",
        }
    }

    /// Milliseconds added to the wait before the division by 1000 that gives the second.
    pub fn round_up_ms(self) -> u64 {
        match self {
            Attribution::Ceil => 999,
            Attribution::Floor => 0,
            Attribution::Round => 500,
        }
    }
}

/// One retry strategy, a row of the article's tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strategy {
    /// Label shown in every table (always rendered as text), 1..=[`MAX_NAME_CHARS`]
    /// characters without control characters.
    pub name: String,
    /// Retries after the first attempt, 0..=[`MAX_RETRY`]: 3 means up to 4 attempts.
    pub max_retry: u32,
    /// Backoff before retry `k` (0-based) is `base_ms << k`; 0..=[`MAX_BASE_MS`].
    pub base_ms: u64,
    /// Backoff randomisation.
    pub jitter: Jitter,
    /// Retry budget refilled each second as a percentage of capacity, 0..=[`MAX_BUDGET_PCT`];
    /// 100 turns it off.
    pub budget_pct: u32,
    /// A retry whose accumulated wait exceeds this fails (after being counted);
    /// 0..=[`MAX_DEADLINE_MS`].
    pub deadline_ms: u64,
    /// Whether the strategy sits behind the shared consecutive-failure breaker.
    pub breaker: bool,
    /// Overrides the scenario's breaker threshold for this strategy, 0..=[`MAX_TRIP_FAILURES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_trip_failures: Option<u32>,
    /// Overrides the scenario's breaker open time for this strategy, 0..=[`MAX_DURATION_S`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker_open_s: Option<u32>,
    /// What each attempt costs (see [`crate::cost`]); absent, no cost is tracked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// A whole classic scenario: the outage script plus the strategies compared on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Clients, each sending one business request per virtual second, 1..=[`MAX_CLIENTS`]
    /// (and `clients × duration_s` ≤ [`MAX_REQUESTS`]).
    pub clients: u32,
    /// Virtual seconds simulated, 1..=[`MAX_DURATION_S`].
    pub duration_s: u32,
    /// Attempts an upstream second can serve, 0..=[`MAX_CAPACITY`].
    pub capacity: u32,
    /// Seconds in which every attempt fails, within `0..=duration_s`.
    pub outage: Outage,
    /// Added to every delivered request's latency, 0..=[`MAX_LATENCY_MS`] ms.
    pub upstream_latency_ms: u32,
    /// Consecutive failures beyond which the breaker opens (strictly greater),
    /// 0..=[`MAX_TRIP_FAILURES`].
    pub breaker_trip_failures: u32,
    /// Virtual seconds the breaker stays open, 0..=[`MAX_DURATION_S`].
    pub breaker_open_s: u32,
    /// Seed of the `java.util.Random` each strategy's run starts from.
    #[serde(with = "crate::seed")]
    pub seed: i64,
    /// The strategies compared, in table order, 1..=[`MAX_STRATEGIES`].
    pub strategies: Vec<Strategy>,
    /// Which second a retry is charged to: `ceil` (the article's, the default),
    /// `floor` or `round`; see [`Attribution`].
    #[serde(default, skip_serializing_if = "Attribution::is_article")]
    pub attribution: Attribution,
}

impl Strategy {
    fn article(
        name: &str,
        max_retry: u32,
        base_ms: u64,
        jitter: Jitter,
        budget_pct: u32,
        deadline_ms: u64,
        breaker: bool,
    ) -> Self {
        Strategy {
            name: name.to_string(),
            max_retry,
            base_ms,
            jitter,
            budget_pct,
            deadline_ms,
            breaker,
            breaker_trip_failures: None,
            breaker_open_s: None,
            cost: None,
        }
    }

    /// The six strategies of the article, S1 to S6.
    pub fn article_six() -> Vec<Strategy> {
        use Jitter::{Full, None};
        vec![
            Strategy::article("S1 固定重试3次", 3, 0, None, 100, 30_000, false),
            Strategy::article("S2 指数退避无抖动", 5, 500, None, 100, 30_000, false),
            Strategy::article("S3 指数退避全抖动", 5, 500, Full, 100, 30_000, false),
            Strategy::article("S4 全抖动+重试预算20%", 5, 500, Full, 20, 30_000, false),
            Strategy::article("S5 预算+deadline", 5, 500, Full, 20, 3_000, false),
            Strategy::article("S6 预算+熔断", 5, 500, Full, 20, 3_000, true),
        ]
    }

    /// Checks every field of this strategy against its documented range.
    fn problems(&self, p: &mut Problems) {
        p.name("name", &self.name, MAX_NAME_CHARS);
        p.range("max_retry", self.max_retry, 0, MAX_RETRY);
        p.range("base_ms", self.base_ms, 0, MAX_BASE_MS);
        p.range("budget_pct", self.budget_pct, 0, MAX_BUDGET_PCT);
        p.range("deadline_ms", self.deadline_ms, 0, MAX_DEADLINE_MS);
        if let Some(t) = self.breaker_trip_failures {
            p.range("breaker_trip_failures", t, 0, MAX_TRIP_FAILURES);
        }
        if let Some(s) = self.breaker_open_s {
            p.range("breaker_open_s", s, 0, MAX_DURATION_S);
        }
        if let Some(c) = &self.cost {
            p.at("cost", |p| c.problems(p));
        }
    }
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario::article()
    }
}

impl Scenario {
    /// The article's scenario: 200 clients, 60 s, capacity 240, outage [20, 26), seed 4242.
    pub fn article() -> Self {
        Scenario {
            clients: 200,
            duration_s: 60,
            capacity: 240,
            outage: Outage {
                from_s: 20,
                to_s: 26,
            },
            upstream_latency_ms: 200,
            breaker_trip_failures: 400,
            breaker_open_s: 5,
            seed: 4242,
            strategies: Strategy::article_six(),
            attribution: Attribution::Ceil,
        }
    }

    /// Business requests of one run: `clients × duration_s`.
    pub fn business_requests(&self) -> u64 {
        self.clients as u64 * self.duration_s as u64
    }

    /// Every field outside its range, in field order (empty when the scenario is valid).
    pub fn problems(&self) -> Vec<ValidationError> {
        let mut p = Problems::new();
        p.range("clients", self.clients, 1, MAX_CLIENTS);
        p.range("duration_s", self.duration_s, 1, MAX_DURATION_S);
        if self.business_requests() > MAX_REQUESTS {
            p.push(ValidationError::new(
                "clients",
                self.clients,
                format!(
                    "clients × duration_s ≤ {MAX_REQUESTS} (here {} × {} = {})",
                    self.clients,
                    self.duration_s,
                    self.business_requests()
                ),
            ));
        }
        p.range("capacity", self.capacity, 0, MAX_CAPACITY);
        // A start beyond the run is the start's problem alone: the end is then checked
        // against the run only, so the field the reader did not touch stays unmarked.
        let from_ok = self.outage.from_s <= self.duration_s;
        p.range("outage.from_s", self.outage.from_s, 0, self.duration_s);
        let to_floor = if from_ok { self.outage.from_s } else { 0 };
        p.range("outage.to_s", self.outage.to_s, to_floor, self.duration_s);
        // A reversed window is a problem of both ends (either edit can fix it), so the
        // page marks the start as well when the start was moved past the end. The end's
        // problem comes first, as the CLI shows the first one.
        if from_ok && self.outage.to_s < self.outage.from_s {
            p.range("outage.from_s", self.outage.from_s, 0, self.outage.to_s);
        }
        p.range(
            "upstream_latency_ms",
            self.upstream_latency_ms,
            0,
            MAX_LATENCY_MS,
        );
        p.range(
            "breaker_trip_failures",
            self.breaker_trip_failures,
            0,
            MAX_TRIP_FAILURES,
        );
        p.range("breaker_open_s", self.breaker_open_s, 0, MAX_DURATION_S);
        if self.strategies.is_empty() || self.strategies.len() > MAX_STRATEGIES {
            p.push(ValidationError::new(
                "strategies",
                format!("{} strategies", self.strategies.len()),
                format!("1..={MAX_STRATEGIES} strategies"),
            ));
        }
        for (i, s) in self.strategies.iter().enumerate() {
            p.at(&format!("strategies[{i}]"), |p| s.problems(p));
        }
        p.into_vec()
    }

    /// The first problem, if any: what the engine refuses to run.
    pub fn validate(&self) -> Result<(), ValidationError> {
        match self.problems().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The same scenario with every strategy's budget forced to `pct` (the article's `--budget`).
    pub fn with_budget(&self, pct: u32) -> Scenario {
        let mut s = self.clone();
        for st in &mut s.strategies {
            st.budget_pct = pct;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_is_valid_and_round_trips() {
        let s = Scenario::article();
        assert!(s.problems().is_empty());
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(Scenario::from_json(&text).unwrap(), s);
    }

    #[test]
    fn problems_name_nested_fields() {
        let mut s = Scenario::article();
        s.strategies[2].max_retry = 31;
        s.clients = 0;
        let p = s.problems();
        assert_eq!(p[0].field, "clients");
        assert_eq!(p[1].field, "strategies[2].max_retry");
        assert_eq!(
            p[1].to_string(),
            "strategies[2].max_retry = 31 is out of range: allowed 0..=30"
        );
    }
}
