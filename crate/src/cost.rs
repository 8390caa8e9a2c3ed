//! What retries cost when the upstream bills by the token (a model gateway): the
//! optional cost model of a classic strategy, and its arithmetic, kept apart from any
//! engine so both models can charge the same way.
//!
//! Every attempt that reached the upstream and succeeded is billed its input and its
//! output tokens; an attempt that failed is billed its input tokens when its kind of
//! failure is listed in [`Cost::billed`] (the upstream had started work), and nothing
//! otherwise. Requests that never left the client (refused by an open breaker,
//! abandoned by an empty retry budget) are never billed: they are not attempts.

use crate::javafmt::fixed;
use crate::lang::{Lang, Texts};
use crate::validate::Problems;
use serde::{Deserialize, Serialize};

/// Most tokens an attempt may send or receive (a long-context prompt is ~10^6).
pub const MAX_TOKENS: u64 = 10_000_000;
/// Highest price per 1,000 tokens, in any currency unit.
pub const MAX_PRICE_PER_1K: f64 = 1_000.0;
/// Most entries of [`Cost::billed`] (there are three kinds).
pub const MAX_BILLED: usize = 3;

/// A kind of failed attempt that can be billed for its input tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Billed {
    /// The upstream answered with a server error (the classic model's outage seconds).
    Error,
    /// The upstream was over capacity and shed the attempt.
    Overload,
    /// The attempt was cut by the client's deadline or timeout after it was sent.
    Timeout,
}

impl Billed {
    /// The kinds billed by default: server errors and timeouts (the upstream started
    /// work), not overload rejections (shed before any work).
    pub fn defaults() -> Vec<Billed> {
        vec![Billed::Error, Billed::Timeout]
    }

    /// Every kind, in the order a selector lists them.
    pub fn kinds() -> Vec<Billed> {
        vec![Billed::Error, Billed::Overload, Billed::Timeout]
    }
}

impl Default for Cost {
    /// What an editor starts from: a model-gateway call of 1,000 input and 200 output
    /// tokens at 0.003 and 0.015 per 1,000, server errors and timeouts billed.
    fn default() -> Self {
        Cost {
            input_tokens: 1000,
            output_tokens: 200,
            input_price_per_1k: 0.003,
            output_price_per_1k: 0.015,
            billed: Billed::defaults(),
        }
    }
}

/// A per-token price list and what a failed attempt is billed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// Input (prompt) tokens every attempt sends, 0..=[`MAX_TOKENS`].
    pub input_tokens: u64,
    /// Output tokens a successful attempt returns, 0..=[`MAX_TOKENS`].
    pub output_tokens: u64,
    /// Price of 1,000 input tokens, 0..=[`MAX_PRICE_PER_1K`].
    pub input_price_per_1k: f64,
    /// Price of 1,000 output tokens, 0..=[`MAX_PRICE_PER_1K`].
    pub output_price_per_1k: f64,
    /// Failed attempts billed for their input tokens, 0..=[`MAX_BILLED`] kinds
    /// (default: `error` and `timeout`).
    #[serde(default = "Billed::defaults")]
    pub billed: Vec<Billed>,
}

impl Cost {
    /// Checks every field against its documented range.
    pub fn problems(&self, p: &mut Problems) {
        p.range("input_tokens", self.input_tokens, 0, MAX_TOKENS);
        p.range("output_tokens", self.output_tokens, 0, MAX_TOKENS);
        p.range_f64(
            "input_price_per_1k",
            self.input_price_per_1k,
            0.0,
            MAX_PRICE_PER_1K,
        );
        p.range_f64(
            "output_price_per_1k",
            self.output_price_per_1k,
            0.0,
            MAX_PRICE_PER_1K,
        );
        p.len("billed", self.billed.len(), 0, MAX_BILLED);
    }

    /// Whether a failure of this kind is billed its input tokens.
    pub fn bills(&self, kind: Billed) -> bool {
        self.billed.contains(&kind)
    }

    /// What one business request sent once and answered costs: the unit of
    /// cost amplification.
    pub fn unit(&self) -> f64 {
        self.price(self.input_tokens, self.output_tokens)
    }

    /// The price of these token counts.
    fn price(&self, input: u64, output: u64) -> f64 {
        input as f64 / 1000.0 * self.input_price_per_1k
            + output as f64 / 1000.0 * self.output_price_per_1k
    }

    /// The bill of `delivered` successful attempts and failed attempts counted by kind
    /// (`[error, overload, timeout]`).
    pub fn bill(&self, delivered: u64, failed: [u64; 3]) -> Bill {
        let billed_failures: u64 = Billed::kinds()
            .iter()
            .zip(failed)
            .filter(|(k, _)| self.bills(**k))
            .map(|(_, n)| n)
            .sum();
        let input_tokens = (delivered + billed_failures) * self.input_tokens;
        let output_tokens = delivered * self.output_tokens;
        Bill {
            billed_failures,
            input_tokens,
            output_tokens,
            total: self.price(input_tokens, output_tokens),
        }
    }
}

/// The bill of some attempts: what was billed and its price.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bill {
    /// Failed attempts billed for their input tokens.
    pub billed_failures: u64,
    /// Input tokens billed.
    pub input_tokens: u64,
    /// Output tokens billed.
    pub output_tokens: u64,
    /// Their price.
    pub total: f64,
}

/// What a run's retries cost under a [`Cost`] model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostResult {
    /// Everything billed.
    pub total: f64,
    /// `total / delivered`; `None` when nothing was delivered.
    pub per_delivered: Option<f64>,
    /// `total` over the cost of every business request sent once and answered;
    /// `None` when that cost is zero.
    pub amplification: Option<f64>,
    /// Input tokens billed (successful attempts and billed failures).
    pub input_tokens: u64,
    /// Output tokens billed (successful attempts).
    pub output_tokens: u64,
    /// Failed attempts billed for their input tokens.
    pub billed_failures: u64,
    /// Cost charged to each time bucket (the chart's cost per second).
    pub per_sec: Vec<f64>,
}

impl CostResult {
    /// The run's cost from its per-bucket bills, `business` requests and `delivered` ones.
    pub fn new(cost: &Cost, per_bucket: &[Bill], business: u64, delivered: u64) -> Self {
        let sum = |f: fn(&Bill) -> u64| per_bucket.iter().map(f).sum::<u64>();
        let (input_tokens, output_tokens) = (sum(|b| b.input_tokens), sum(|b| b.output_tokens));
        // The total is priced from the summed tokens, so it does not depend on how the
        // per-bucket prices round.
        let total = cost.price(input_tokens, output_tokens);
        let base = business as f64 * cost.unit();
        CostResult {
            total,
            per_delivered: (delivered > 0).then(|| total / delivered as f64),
            amplification: (base > 0.0).then(|| total / base),
            input_tokens,
            output_tokens,
            billed_failures: sum(|b| b.billed_failures),
            per_sec: per_bucket.iter().map(|b| b.total).collect(),
        }
    }
}

crate::catalogue! {
    /// The cost columns of a results table (classic strategies, cluster routes), shown
    /// when some row has a cost model.
    enum Column {
        /// What the run cost in all.
        Total => ("成本", "cost"),
        /// The cost of each delivered request.
        PerDelivered => ("成本/交付", "cost/delivered"),
        /// The cost against the cost of the same requests without retries.
        Amplification => ("成本放大", "cost amplification"),
    }
}

crate::catalogue! {
    /// What each cost column holds, with its unit, in the order of [`Column`].
    enum Meaning {
        /// What the run cost in all.
        Total => ("整次运行的成本（按成本模型的价格单位）", "what the whole run cost (in the units of the cost model's prices)"),
        /// The cost of each delivered request.
        PerDelivered => (
            "成本 ÷ 已交付请求（每个请求的价格单位）",
            "cost ÷ delivered requests (price units per request)"
        ),
        /// The cost against the cost of the same requests without retries.
        Amplification => (
            "成本 ÷ 同样请求不重试时的成本（倍）",
            "cost ÷ the cost of the same requests without retries (a ratio)"
        ),
    }
}

/// The cost columns' glossary entries in `lang`, in the order of [`columns`].
pub fn glossary(lang: Lang) -> Vec<crate::glossary::Entry> {
    Column::ALL
        .iter()
        .zip(Meaning::ALL)
        .map(|(c, m)| crate::glossary::Entry::new(c.get(lang), m.get(lang)))
        .collect()
}

/// The titles of the cost columns in `lang`, in the order of [`cells`].
pub fn columns(lang: Lang) -> Vec<&'static str> {
    Column::ALL.iter().map(|c| c.get(lang)).collect()
}

/// The cells of the cost columns for one row: `—` without a cost model or where a
/// figure is undefined (nothing delivered, a free unit).
pub fn cells(c: Option<&CostResult>) -> Vec<String> {
    let dash = || "—".to_string();
    match c {
        None => vec![dash(); Column::ALL.len()],
        Some(c) => vec![
            fixed(c.total, 2),
            c.per_delivered.map_or_else(dash, |v| fixed(v, 4)),
            c.amplification
                .map_or_else(dash, |v| format!("{}x", fixed(v, 2))),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_titles_are_sound() {
        assert_eq!(crate::lang::problems::<Column>(), Vec::<String>::new());
        assert_eq!(crate::lang::problems::<Meaning>(), Vec::<String>::new());
        assert_eq!(Meaning::ALL.len(), Column::ALL.len());
        assert_eq!(
            columns(Lang::En),
            ["cost", "cost/delivered", "cost amplification"]
        );
    }

    fn gateway(billed: Vec<Billed>) -> Cost {
        Cost {
            input_tokens: 4000,
            output_tokens: 200,
            input_price_per_1k: 0.003,
            output_price_per_1k: 0.015,
            billed,
        }
    }

    #[test]
    fn each_billing_rule_by_hand() {
        // 10 delivered, failures: 3 errors, 4 overloads, 5 timeouts.
        let failed = [3, 4, 5];
        let cases = [
            (vec![], 0),
            (vec![Billed::Error], 3),
            (vec![Billed::Overload], 4),
            (vec![Billed::Timeout], 5),
            (Billed::defaults(), 8),
            (vec![Billed::Error, Billed::Overload, Billed::Timeout], 12),
        ];
        for (billed, n) in cases {
            let b = gateway(billed.clone()).bill(10, failed);
            assert_eq!(b.billed_failures, n, "{billed:?}");
            assert_eq!(b.input_tokens, (10 + n) * 4000, "{billed:?}");
            assert_eq!(b.output_tokens, 2000);
            // 4000 input tokens are 0.012, 200 output tokens 0.003.
            let want = (10 + n) as f64 * 0.012 + 10.0 * 0.003;
            assert!((b.total - want).abs() < 1e-12, "{billed:?}: {}", b.total);
        }
    }

    #[test]
    fn amplification_and_per_delivered() {
        let c = gateway(Billed::defaults());
        assert!((c.unit() - 0.015).abs() < 1e-15);
        // Two buckets: 5 delivered + 2 errors, then 3 delivered + 1 overload (not billed).
        let bills = [c.bill(5, [2, 0, 0]), c.bill(3, [0, 1, 0])];
        let r = CostResult::new(&c, &bills, 10, 8);
        assert_eq!(r.input_tokens, 10 * 4000);
        assert_eq!(r.output_tokens, 8 * 200);
        assert_eq!(r.billed_failures, 2);
        // 40,000 input tokens = 0.12, 1,600 output tokens = 0.024.
        assert!((r.total - 0.144).abs() < 1e-12);
        assert!((r.per_delivered.unwrap() - 0.018).abs() < 1e-12);
        assert!((r.amplification.unwrap() - 0.96).abs() < 1e-12);
        assert_eq!(r.per_sec.len(), 2);
        let free = Cost {
            input_price_per_1k: 0.0,
            output_price_per_1k: 0.0,
            ..c
        };
        let r = CostResult::new(&free, &[free.bill(0, [1, 0, 0])], 1, 0);
        assert_eq!((r.per_delivered, r.amplification), (None, None));
    }
}
