//! A client policy as a strategy row of the classic model (the article's table), so a
//! library's configuration runs against the article's outage: its attempts, its waits as
//! the nearest `base_ms × 2^k` with or without full jitter, and its breaker as the
//! article's one shared consecutive-failure breaker. What the row cannot say is said in
//! words, as for a library ([`super::Cannot`] and [`Classic`]).

use super::{nearest, Cannot};
use crate::classic::engine::backoff_ms;
use crate::classic::scenario::{
    Jitter as ClassicJitter, Strategy, MAX_BASE_MS, MAX_DURATION_S, MAX_NAME_CHARS, MAX_RETRY,
    MAX_TRIP_FAILURES,
};
use crate::cluster::{Backoff, Breaker, Budget, Jitter};
use crate::import::policy::Policy;
use crate::import::words::{self, Draw};
use crate::lang::{Lang, Texts};

/// The article's deadline for S1–S4: a retry whose accumulated wait passes it fails.
const ARTICLE_DEADLINE_MS: u64 = 30_000;

crate::catalogue! {
    /// What a strategy row of the classic model cannot say about a policy.
    pub enum Classic {
        /// The model's own name, where a library's title goes in [`Cannot`]'s sentences.
        Model => ("经典模型", "The classic model"),
        /// More retries than a row may have: `{0}` the policy's, `{1}` the most.
        Retries => ("经典模型每行最多 {1} 次重试，策略的 {0} 次写成 {1} 次", "A classic row has at most {1} retries, so the policy's {0} are written as {1}"),
        /// The classic budget: `{0}` the budget in words.
        Budget => ("经典模型的重试预算只有一种：每秒至多上游容量的某个百分比，由所有客户端共用；策略中的预算未写入（{0}）", "The classic model's only retry budget is a share of the upstream's capacity each second, shared by all clients, so the policy's is left out ({0})"),
        /// A capacity-share budget, written as the row's `budget_pct`: `{0}` the percent.
        BudgetShare => ("预算写成上游容量的 {0}%（经典模型的容量是场景的 capacity，所有客户端共用）", "The budget is written as {0}% of the upstream's capacity (the scenario's `capacity`, shared by all clients)"),
        /// The classic breaker: `{0}` the breaker in words.
        Breaker => ("经典模型只有文章的熔断器：所有客户端共用一个，连续失败计数，打开时间到即关闭、没有试探调用；策略中的熔断器未写入（{0}）", "The classic model has only the article's breaker: one for all clients, counting consecutive failures, closing when its time is up with no trial calls; so the policy's is left out ({0})"),
        /// A consecutive-failure breaker written as the article's: `{0}` the breaker in words.
        BreakerNearest => ("熔断器写成文章的那种：所有客户端共用一个，打开时间按整秒计、到时即关闭、没有试探调用（策略中为：{0}）", "The breaker is written as the article's: one for all clients, open for whole seconds, closing when its time is up with no trial calls (the policy's: {0})"),
        /// The deadline filled in: `{0}` ms.
        Deadline => ("deadline_ms = {0}（文章 S1–S4 的值：策略没有总时限）", "deadline_ms = {0} (the article's for S1–S4: the policy has no overall deadline)"),
    }
}

/// A policy written as a classic strategy row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The strategy, named `name` (cut to the longest name a row may have).
    pub strategy: Strategy,
    /// What the row cannot say of the policy, one sentence each.
    pub cannot: Vec<String>,
    /// Values the row needs that the policy does not set (`deadline_ms = 30000 …`).
    pub defaults: Vec<String>,
}

impl Row {
    /// Everything as one JSON object (`strategy`, `cannot`, `defaults`), the strategy as a
    /// scenario file spells it.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "strategy": self.strategy,
            "cannot": self.cannot,
            "defaults": self.defaults,
        })
    }
}

/// Writes `policy` as a classic strategy row named `name` (control characters dropped,
/// cut to [`MAX_NAME_CHARS`] characters; empty: "imported").
pub fn row(p: &Policy, name: &str, lang: Lang) -> Row {
    let mut cannot = Vec::new();
    let retries = p.max_attempts.saturating_sub(1);
    let max_retry = retries.min(MAX_RETRY);
    if retries > MAX_RETRY {
        cannot.push(Classic::Retries.fill(lang, &[&retries, &MAX_RETRY]));
    }
    let (base_ms, jitter) = waits(p, max_retry, lang, &mut cannot);
    let budget_pct = match &p.budget {
        Budget::None => 100,
        Budget::CapacityPercent { percent, .. } => {
            let pct = (*percent).round().clamp(0.0, 100.0) as u32;
            cannot.push(Classic::BudgetShare.fill(lang, &[&pct]));
            pct
        }
        other => {
            cannot.extend(words::budget(other, lang).map(|w| Classic::Budget.fill(lang, &[&w])));
            100
        }
    };
    let (breaker, trip, open_s) = match &p.breaker {
        Breaker::None => (false, None, None),
        b @ Breaker::Consecutive {
            failures, open_ms, ..
        } => {
            cannot
                .extend(words::breaker(b, lang).map(|w| Classic::BreakerNearest.fill(lang, &[&w])));
            // The article opens when the streak is strictly greater than the threshold;
            // the policy opens when it reaches `failures`.
            let trip = failures.saturating_sub(1).min(MAX_TRIP_FAILURES);
            let open_s = open_ms.div_ceil(1000).min(u64::from(MAX_DURATION_S)) as u32;
            (true, Some(trip), Some(open_s))
        }
        other => {
            cannot.extend(words::breaker(other, lang).map(|w| Classic::Breaker.fill(lang, &[&w])));
            (false, None, None)
        }
    };
    Row {
        strategy: Strategy {
            name: row_name(name),
            max_retry,
            base_ms,
            jitter,
            budget_pct,
            deadline_ms: ARTICLE_DEADLINE_MS,
            breaker,
            breaker_trip_failures: trip,
            breaker_open_s: open_s,
            cost: None,
        },
        cannot,
        defaults: vec![Classic::Deadline.fill(lang, &[&ARTICLE_DEADLINE_MS])],
    }
}

/// The row's `base_ms` and jitter: the policy's own when it waits `base × 2^(k−1)` before
/// retry `k` (uniform below it, or exactly it) to the millisecond; otherwise the nearest,
/// with its mean first wait, fully jittered if the policy draws at all, said in words.
fn waits(p: &Policy, retries: u32, lang: Lang, cannot: &mut Vec<String>) -> (u64, ClassicJitter) {
    // Random when the lowest and the highest draw wait differently before some retry (a
    // library's kind may randomize or not, by its settings).
    let random = {
        let (mut lo, mut hi) = (0, 0);
        (1..=retries.max(1)).any(|k| {
            crate::cluster::backoff::sleep(&p.backoff, &p.jitter, k, &mut lo, &mut Draw(0.0))
                != crate::cluster::backoff::sleep(
                    &p.backoff,
                    &p.jitter,
                    k,
                    &mut hi,
                    &mut Draw(0.999),
                )
        })
    };
    let jitter = if random {
        ClassicJitter::Full
    } else {
        ClassicJitter::None
    };
    // The nearest keeps the mean first wait: the first wait itself without a draw, twice
    // the middle draw's with full jitter (uniform below the top, so the mean is half).
    let first = match (&p.backoff, random) {
        (Backoff::None, _) => 0.0,
        (Backoff::Exponential { base_ms, .. }, _) => *base_ms as f64,
        (other, false) => nearest(other, retries).first_ms.round(),
        (_, true) => {
            let first_at = |u: f64| {
                let mut carry = 0;
                crate::cluster::backoff::sleep(&p.backoff, &p.jitter, 1, &mut carry, &mut Draw(u))
                    as f64
                    / 1000.0
            };
            // A library whose draw is the article's (uniform below the top: AWS, Envoy's
            // `random() % next`, whose top is one below `next`) is exact at the top's
            // base; else the mean's.
            let top = first_at(1.0).round();
            [top, top + 1.0]
                .into_iter()
                .find(|&b| same_waits(p, retries, (b as u64).min(MAX_BASE_MS), ClassicJitter::Full))
                .unwrap_or_else(|| (2.0 * first_at(0.5)).round())
        }
    };
    let base_ms = (first as u64).min(MAX_BASE_MS);
    if retries > 0 && !same_waits(p, retries, base_ms, jitter) {
        let written = Backoff::Exponential {
            base_ms,
            multiplier: 2.0,
            // The longest wait the row makes, so the words name no cap it never reaches.
            cap_ms: base_ms
                .checked_shl(retries - 1)
                .unwrap_or(u64::MAX)
                .clamp(base_ms, crate::cluster::MAX_TIME_MS),
        };
        let classic_jitter = if jitter == ClassicJitter::Full {
            Jitter::Full
        } else {
            Jitter::None
        };
        cannot.push(Cannot::NearestWait.fill(
            lang,
            &[
                &Classic::Model.get(lang),
                &words::waits(&p.backoff, &p.jitter, retries, lang),
                &words::waits(&written, &classic_jitter, retries, lang),
            ],
        ));
    }
    (base_ms, jitter)
}

/// Whether the row waits as the policy does before every retry, to the millisecond the
/// classic model counts in, at every draw tried (the classic engine's own `backoff_ms` against the cluster's sleep).
fn same_waits(p: &Policy, retries: u32, base_ms: u64, jitter: ClassicJitter) -> bool {
    [0.0, 0.37, 0.5, 0.999].iter().all(|&u| {
        let mut carry = 0;
        (1..=retries).all(|k| {
            let cluster_us =
                crate::cluster::backoff::sleep(&p.backoff, &p.jitter, k, &mut carry, &mut Draw(u));
            let classic_ms = match jitter {
                ClassicJitter::Full => backoff_ms::<true, _>(&mut Draw(u), base_ms, k - 1),
                ClassicJitter::None => backoff_ms::<false, _>(&mut Draw(u), base_ms, k - 1),
            };
            within_ms(cluster_us, classic_ms)
        })
    })
}

/// Whether a wait of `us` (the cluster's, rounded to the microsecond) is the classic
/// engine's `ms` (floored to the millisecond): it lies in `[ms, ms + 1]` ms.
fn within_ms(us: u64, ms: u64) -> bool {
    (ms * 1000..=ms * 1000 + 1000).contains(&us)
}

/// A row's name: the text without control characters, at most [`MAX_NAME_CHARS`].
fn row_name(name: &str) -> String {
    let clean: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect();
    let clean = clean.trim().to_string();
    if clean.is_empty() {
        "imported".into()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::Scenario;
    use crate::cluster::libraries::Resilience4jBackoff;

    fn exp(base_ms: u64, multiplier: f64, cap_ms: u64) -> Backoff {
        Backoff::Exponential {
            base_ms,
            multiplier,
            cap_ms,
        }
    }

    /// The article's S3 (5 retries, 500 ms × 2^k, full jitter) read back exactly: no
    /// "cannot" line, and the row is valid in the article's scenario.
    #[test]
    fn doubling_with_full_jitter_is_exact() {
        let mut p = Policy::new(6, exp(500, 2.0, 600_000));
        p.jitter = Jitter::Full;
        let r = row(&p, "S3 again", Lang::En);
        assert_eq!(r.cannot, Vec::<String>::new());
        let s = &r.strategy;
        assert_eq!(
            (s.max_retry, s.base_ms, s.jitter),
            (5, 500, ClassicJitter::Full)
        );
        assert_eq!(
            (s.budget_pct, s.deadline_ms, s.breaker),
            (100, 30_000, false)
        );
        let mut sc = Scenario::article();
        sc.strategies.push(s.clone());
        sc.validate().unwrap();
    }

    /// Where a row says its waits are the policy's, they are: at 500 draws, the classic
    /// engine's wait before every retry is the cluster's to the millisecond, for
    /// random doubling backoffs, Envoy's and AWS's (whose draws are the article's).
    #[test]
    fn exact_rows_wait_as_the_policy_at_any_draw() {
        use crate::cluster::libraries::{AwsBackoff, AwsMode, EnvoyBackoff};
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut exact = 0;
        for case in 0..300 {
            let n = 1 + (next() % 8) as u32;
            let base = next() % 2_000;
            let backoff = match case % 3 {
                0 => exp(base, 2.0, base << 8),
                1 => Backoff::Envoy(EnvoyBackoff {
                    base_interval_ms: base.max(1),
                    max_interval_ms: Some(base.max(1) * (1 + next() % 20)),
                }),
                _ => Backoff::Aws(AwsBackoff {
                    mode: AwsMode::Legacy,
                }),
            };
            let mut p = Policy::new(n, backoff);
            if case % 3 == 0 && next() % 2 == 0 {
                p.jitter = Jitter::Full;
            }
            let r = row(&p, "p", Lang::En);
            if r.cannot
                .iter()
                .any(|c| c.contains("cannot write this wait"))
            {
                continue;
            }
            exact += 1;
            for _ in 0..500 {
                let u = (next() >> 11) as f64 / (1u64 << 53) as f64;
                let mut carry = 0;
                for k in 1..n {
                    let us = crate::cluster::backoff::sleep(
                        &p.backoff,
                        &p.jitter,
                        k,
                        &mut carry,
                        &mut Draw(u),
                    );
                    let ms = match r.strategy.jitter {
                        ClassicJitter::Full => {
                            backoff_ms::<true, _>(&mut Draw(u), r.strategy.base_ms, k - 1)
                        }
                        ClassicJitter::None => {
                            backoff_ms::<false, _>(&mut Draw(u), r.strategy.base_ms, k - 1)
                        }
                    };
                    assert!(
                        within_ms(us, ms),
                        "{p:?} retry {k} draw {u}: {us} µs, {ms} ms"
                    );
                }
            }
        }
        // Most of these are exact (the caps reached by some Envoy cases are not).
        assert!(exact > 150, "{exact}");
    }

    /// A cap the waits reach, a growth other than 2, or a library's own rule is not the
    /// article's: the nearest is written and said.
    #[test]
    fn other_waits_are_the_nearest_and_said() {
        for b in [
            exp(500, 2.0, 1_500),
            exp(500, 1.5, 600_000),
            Backoff::Constant { ms: 200 },
            Backoff::Resilience4j(Resilience4jBackoff {
                wait_duration_ms: 500,
                exponential_backoff_multiplier: Some(2.0),
                randomized_wait_factor: Some(0.5),
                exponential_max_wait_duration_ms: None,
            }),
        ] {
            let p = Policy::new(4, b.clone());
            let r = row(&p, "x", Lang::En);
            assert_eq!(r.cannot.len(), 1, "{b:?}: {:?}", r.cannot);
            assert!(r.cannot[0].starts_with("The classic model cannot write this wait exactly"));
        }
        // The constant 200 ms: its first wait, no jitter.
        let r = row(
            &Policy::new(4, Backoff::Constant { ms: 200 }),
            "x",
            Lang::En,
        );
        assert_eq!(
            (r.strategy.base_ms, r.strategy.jitter),
            (200, ClassicJitter::None)
        );
    }

    /// No retries, or retry at once: base 0, nothing to say.
    #[test]
    fn immediate_retries_are_exact() {
        let r = row(&Policy::new(3, Backoff::None), "now", Lang::En);
        assert_eq!(r.cannot, Vec::<String>::new());
        assert_eq!((r.strategy.max_retry, r.strategy.base_ms), (2, 0));
        let r = row(&Policy::new(1, exp(500, 1.5, 1_000)), "once", Lang::En);
        assert_eq!((r.strategy.max_retry, r.cannot.len()), (0, 0));
    }

    /// More attempts than a row may have are cut, and said.
    #[test]
    fn retries_beyond_the_row_are_cut() {
        let r = row(&Policy::new(100, Backoff::None), "many", Lang::En);
        assert_eq!(r.strategy.max_retry, MAX_RETRY);
        assert_eq!(r.cannot.len(), 1);
    }

    /// A consecutive breaker of 5 failures opens the article's breaker at a streak
    /// strictly greater than 4, open for the whole seconds covering its open time.
    #[test]
    fn consecutive_breaker_becomes_the_articles() {
        let mut p = Policy::new(3, Backoff::None);
        p.breaker = Breaker::Consecutive {
            failures: 5,
            open_ms: 2_500,
            open_jitter_ms: 0,
            half_open_calls: 1,
            scope: Default::default(),
        };
        let r = row(&p, "cb", Lang::En);
        let s = &r.strategy;
        assert_eq!(
            (s.breaker, s.breaker_trip_failures, s.breaker_open_s),
            (true, Some(4), Some(3))
        );
        assert_eq!(r.cannot.len(), 1);
        assert!(
            r.cannot[0].contains("written as the article's"),
            "{:?}",
            r.cannot
        );
    }

    /// A budget of another kind and a breaker of another kind are left out, and said.
    #[test]
    fn other_budgets_and_breakers_are_left_out() {
        let mut p = Policy::new(3, Backoff::None);
        p.budget = Budget::TokenBucket {
            percent: 10.0,
            max_tokens: 10,
            scope: Default::default(),
        };
        let r = row(&p, "tb", Lang::Zh);
        assert_eq!(r.strategy.budget_pct, 100);
        assert_eq!(r.cannot.len(), 1);
        assert!(
            r.cannot[0].starts_with("经典模型的重试预算只有一种"),
            "{:?}",
            r.cannot
        );
    }

    /// The name keeps no control character and no more than a row's length.
    #[test]
    fn names_are_safe() {
        let r = row(&Policy::new(2, Backoff::None), "a\u{1b}[31mb\n", Lang::En);
        assert_eq!(r.strategy.name, "a[31mb");
        let long = "x".repeat(200);
        assert_eq!(
            row(&Policy::new(2, Backoff::None), &long, Lang::En)
                .strategy
                .name
                .chars()
                .count(),
            MAX_NAME_CHARS
        );
        assert_eq!(
            row(&Policy::new(2, Backoff::None), "\n", Lang::En)
                .strategy
                .name,
            "imported"
        );
    }
}
