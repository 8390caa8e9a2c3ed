//! A client policy in plain words, whichever library it came from or goes to: "3
//! attempts = 1 call + 2 retries", the first waits as the engine draws them (at the
//! middle of their random range, or the top of it for a fully random wait), the budget
//! and the breaker. The numbers are the engine's own, so the words cannot drift from
//! what runs.

use super::policy::Policy;
use super::texts::Text;
use crate::cluster::libraries::{AwsMode, GrpcJitter, PollyDelay, TenacityWait};
use crate::cluster::{Backoff, Breaker, Budget, Jitter, Scope, WindowKind};
use crate::lang::{Lang, Texts};
use crate::rng::UnitDouble;

/// Retries whose waits are listed.
const LISTED: u32 = 4;

/// The policy in words, one sentence per line.
pub fn words(p: &Policy, lang: Lang) -> Vec<String> {
    let mut out = vec![attempts(p.max_attempts, lang)];
    if p.max_attempts > 1 {
        out.push(waits(&p.backoff, &p.jitter, p.max_attempts - 1, lang));
    }
    if let Some(b) = budget(&p.budget, lang) {
        out.push(b);
    }
    if let Some(b) = breaker(&p.breaker, lang) {
        out.push(b);
    }
    out
}

/// "3 attempts = 1 call + 2 retries".
pub fn attempts(n: u32, lang: Lang) -> String {
    match n {
        0 | 1 => Text::NoRetries.get(lang).to_string(),
        2 => Text::OneRetry.get(lang).to_string(),
        n => Text::Attempts.fill(lang, &[&n, &(n - 1)]),
    }
}

/// A duration in words: "750 ms", "1.5 s", "2 min".
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", num(ms))
    } else if ms < 120_000.0 {
        format!("{} s", num(ms / 1000.0))
    } else {
        format!("{} min", num(ms / 60_000.0))
    }
}

/// A number with at most three significant decimals, no trailing zeros.
pub fn num(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    let s = format!("{r}");
    if s.contains('e') {
        format!("{x}")
    } else {
        s
    }
}

/// A percentage from a fraction.
fn pct(f: f64) -> String {
    num(f * 100.0)
}

/// A generator that always draws the same number: the middle (½) or the top (1) of
/// every random range, so a wait is named by where it lies.
pub(crate) struct Draw(pub f64);

impl UnitDouble for Draw {
    fn next_unit(&mut self) -> f64 {
        self.0
    }
}

/// The sleeps before retries 1..=n as the engine computes them for draw `u`, ms.
fn sleeps(b: &Backoff, n: u32, u: f64) -> Vec<f64> {
    let mut carry = 0;
    (1..=n.min(LISTED))
        .map(|k| {
            crate::cluster::backoff::sleep(b, &Jitter::None, k, &mut carry, &mut Draw(u)) as f64
                / 1000.0
        })
        .collect()
}

/// "500 ms, 750 ms, 1.1 s"
fn list(ms: &[f64]) -> String {
    ms.iter()
        .map(|m| duration(*m))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The waits of a backoff (and a common jitter over it) in words.
pub(crate) fn waits(b: &Backoff, j: &Jitter, retries: u32, lang: Lang) -> String {
    let mid = |b: &Backoff| list(&sleeps(b, retries, 0.5));
    let top = |b: &Backoff| list(&sleeps(b, retries, 1.0));
    let growth = |m: f64| Text::Growth.fill(lang, &[&num(m)]);
    let at_most = |ms: f64| Text::AtMost.fill(lang, &[&duration(ms)]);
    let spread = |f: f64| Text::Spread.fill(lang, &[&pct(f)]);
    let line = match b {
        Backoff::None => return Text::AtOnce.get(lang).to_string(),
        Backoff::Fixed { delays_ms } => {
            let shown: Vec<f64> = (0..retries.min(LISTED) as usize)
                .map(|i| delays_ms[i.min(delays_ms.len() - 1)] as f64)
                .collect();
            Text::Waits.fill(lang, &[&list(&shown)])
        }
        Backoff::Constant { ms } => Text::Waits.fill(lang, &[&duration(*ms as f64)]),
        Backoff::ExponentialDistributed { mean_ms } => {
            Text::WaitsExponentially.fill(lang, &[&duration(*mean_ms)])
        }
        Backoff::Exponential {
            multiplier, cap_ms, ..
        } => format!(
            "{}{}{}",
            Text::Waits.fill(lang, &[&mid(b)]),
            growth(*multiplier),
            at_most(*cap_ms as f64)
        ),
        Backoff::Resilience4j(r) => {
            let mut s = Text::Waits.fill(lang, &[&mid(b)]);
            if let Some(m) = r.exponential_backoff_multiplier {
                s += &growth(m);
            }
            if let Some(f) = r.randomized_wait_factor {
                s += &spread(f);
            }
            if let Some(max) = r.exponential_max_wait_duration_ms {
                s += &at_most(max as f64);
            }
            s
        }
        Backoff::Grpc(g) => {
            let s = match g.randomization {
                GrpcJitter::Plus20Percent => {
                    Text::Waits.fill(lang, &[&mid(b)])
                        + &growth(g.backoff_multiplier)
                        + &spread(0.2)
                }
                GrpcJitter::Full => {
                    Text::WaitsUpTo.fill(lang, &[&top(b)]) + &growth(g.backoff_multiplier)
                }
            };
            s + &at_most(g.max_backoff_ms)
        }
        Backoff::Envoy(e) => {
            let tops: Vec<f64> = (1..=retries.min(LISTED))
                .map(|n| e.interval_ms(n) as f64)
                .collect();
            Text::WaitsUpTo.fill(lang, &[&list(&tops)])
                + &growth(2.0)
                + &at_most(e.max_interval_ms.unwrap_or(e.base_interval_ms * 10) as f64)
        }
        Backoff::Polly(p) => {
            let s = match (p.backoff_type, p.use_jitter) {
                (PollyDelay::Exponential, true) => Text::WaitsAbout.fill(lang, &[&mid(b)]),
                (t, jitter) => {
                    let mut s = Text::Waits.fill(lang, &[&mid(b)]);
                    match t {
                        PollyDelay::Linear => s += &Text::Plus.fill(lang, &[&duration(p.delay_ms)]),
                        PollyDelay::Exponential => s += &growth(2.0),
                        PollyDelay::Constant => {}
                    }
                    if jitter {
                        s += &spread(0.25);
                    }
                    s
                }
            };
            match p.max_delay_ms {
                Some(max) => s + &at_most(max),
                None => s,
            }
        }
        Backoff::Aws(a) => {
            let s = Text::WaitsUpTo.fill(lang, &[&top(b)]) + &growth(2.0);
            match a.mode {
                AwsMode::Legacy => s,
                AwsMode::Standard | AwsMode::GoV2 => s + &at_most(20_000.0),
            }
        }
        Backoff::Tenacity(t) => {
            let s = match t.wait {
                TenacityWait::Exponential => Text::Waits.fill(lang, &[&mid(b)]),
                TenacityWait::RandomExponential => Text::WaitsUpTo.fill(lang, &[&top(b)]),
                TenacityWait::ExponentialJitter => {
                    Text::Waits.fill(lang, &[&list(&sleeps(b, retries, 0.0))])
                        + &Text::PlusUpTo.fill(lang, &[&duration(t.jitter_s * 1000.0)])
                }
            };
            let mut s = s + &growth(t.exp_base);
            if t.min_s > 0.0 {
                s += &Text::AtLeast.fill(lang, &[&duration(t.min_s * 1000.0)]);
            }
            if let Some(max) = t.max_s {
                s += &at_most(max * 1000.0);
            }
            s
        }
        Backoff::CenkaltiBackoff(c) => {
            Text::Waits.fill(lang, &[&mid(b)])
                + &growth(c.multiplier)
                + &spread(c.randomization_factor)
                + &Text::IntervalAtMost.fill(
                    lang,
                    &[
                        &duration(c.max_interval_ms),
                        &duration(c.max_interval_ms * (1.0 + c.randomization_factor)),
                    ],
                )
        }
        Backoff::FailsafeGo(f) => {
            let mut s = Text::Waits.fill(lang, &[&mid(b)]);
            if let Some(max) = f.max_delay_ms {
                s += &growth(f.delay_factor);
                s += &at_most(max);
            }
            if f.jitter_ms > 0.0 {
                s += &Text::PlusMinus.fill(lang, &[&duration(f.jitter_ms)]);
            } else if f.jitter_factor > 0.0 {
                s += &spread(f.jitter_factor);
            }
            s
        }
        Backoff::SpringCloudGateway(g) => {
            let mut s = Text::Waits.fill(lang, &[&mid(b)]);
            s += &if g.based_on_previous_value {
                Text::GrowthOfPrevious.fill(lang, &[&g.backoff_factor])
            } else {
                growth(g.backoff_factor as f64)
            };
            if let Some(max) = g.max_backoff_ms {
                s += &at_most(max as f64);
            }
            s
        }
    };
    line + &jitter_words(j, lang)
}

/// A common jitter over a common backoff.
fn jitter_words(j: &Jitter, lang: Lang) -> String {
    match j {
        Jitter::None => String::new(),
        Jitter::Full => Text::FullJitter.get(lang).to_string(),
        Jitter::Equal => Text::EqualJitter.get(lang).to_string(),
        Jitter::Decorrelated => Text::DecorrelatedJitter.get(lang).to_string(),
        Jitter::Percent { percent } => Text::Spread.fill(lang, &[&num(*percent)]),
    }
}

/// " (one shared by the calling tier)" for a shared scope.
fn scope(s: Scope, lang: Lang) -> &'static str {
    match s {
        Scope::PerInstance => "",
        Scope::Shared => Text::Shared.get(lang),
    }
}

/// The budget in words, `None` without one.
pub(crate) fn budget(b: &Budget, lang: Lang) -> Option<String> {
    let s = match b {
        Budget::None => return None,
        Budget::CapacityPercent {
            percent,
            capacity_per_s,
            scope: sc,
        } => {
            Text::BudgetCapacity.fill(
                lang,
                &[
                    &num((percent * capacity_per_s / 100.0).floor()),
                    &num(*percent),
                    &num(*capacity_per_s),
                ],
            ) + scope(*sc, lang)
        }
        Budget::TokenBucket {
            percent,
            max_tokens,
            scope: sc,
        } => Text::BudgetTokens.fill(lang, &[max_tokens, &num(percent / 100.0)]) + scope(*sc, lang),
        Budget::GrpcThrottle {
            max_tokens,
            token_ratio,
            scope: sc,
        } => {
            Text::BudgetGrpc.fill(
                lang,
                &[
                    max_tokens,
                    &num(*token_ratio),
                    &num(*max_tokens as f64 / 2.0),
                ],
            ) + scope(*sc, lang)
        }
        Budget::Windowed {
            min_retries_per_sec: 0,
            percent_can_retry,
            ..
        } if *percent_can_retry == 0.0 => Text::BudgetEmpty.get(lang).to_string(),
        Budget::Windowed {
            ttl_ms,
            min_retries_per_sec,
            percent_can_retry,
            scope: sc,
        } => {
            Text::BudgetWindowed.fill(
                lang,
                &[
                    &duration(*ttl_ms as f64),
                    &num(*percent_can_retry),
                    min_retries_per_sec,
                ],
            ) + scope(*sc, lang)
        }
        Budget::Ratio {
            ratio_percent,
            window_ms: 0,
            min_requests,
            scope: sc,
        } => {
            Text::BudgetRatioCumulative.fill(lang, &[&num(*ratio_percent), min_requests])
                + scope(*sc, lang)
        }
        Budget::Ratio {
            ratio_percent,
            window_ms,
            min_requests,
            scope: sc,
        } => {
            Text::BudgetRatio.fill(
                lang,
                &[
                    &num(*ratio_percent),
                    &duration(*window_ms as f64),
                    min_requests,
                ],
            ) + scope(*sc, lang)
        }
        Budget::SuccessBucket {
            percent,
            max_tokens,
            scope: sc,
        } => {
            Text::BudgetSuccessBucket.fill(lang, &[max_tokens, &num(percent / 100.0)])
                + scope(*sc, lang)
        }
        Budget::EnvoyRetryBudget {
            budget_percent,
            min_retry_concurrency,
            scope: sc,
        } => {
            Text::BudgetEnvoy.fill(lang, &[&num(*budget_percent), min_retry_concurrency])
                + scope(*sc, lang)
        }
        Budget::EnvoyMaxRetries {
            max_retries,
            scope: sc,
        } => Text::BudgetEnvoyMax.fill(lang, &[max_retries]) + scope(*sc, lang),
        Budget::AwsQuota {
            initial_tokens,
            retry_cost,
            timeout_cost,
            no_retry_increment,
            scope: sc,
        } => {
            Text::BudgetAws.fill(
                lang,
                &[initial_tokens, retry_cost, timeout_cost, no_retry_increment],
            ) + scope(*sc, lang)
        }
    };
    Some(s)
}

/// "10 probes", "1 probe".
fn probes(n: u32, lang: Lang) -> String {
    match n {
        1 => Text::OneProbe.get(lang).to_string(),
        n => Text::Probes.fill(lang, &[&n]),
    }
}

/// The breaker in words, `None` without one.
pub(crate) fn breaker(b: &Breaker, lang: Lang) -> Option<String> {
    let sep = match lang {
        Lang::Zh => "；",
        Lang::En => "; ",
    };
    let open = |ms: u64, jitter: u64| {
        if jitter > 0 {
            Text::StaysOpenJitter.fill(lang, &[&duration(ms as f64), &duration(jitter as f64)])
        } else {
            Text::StaysOpen.fill(lang, &[&duration(ms as f64)])
        }
    };
    let s = match b {
        Breaker::None => return None,
        Breaker::Consecutive {
            failures,
            open_ms,
            open_jitter_ms,
            half_open_calls,
            scope: sc,
        } => [
            Text::BreakerConsecutive.fill(lang, &[failures]) + scope(*sc, lang),
            open(*open_ms, *open_jitter_ms),
            probes(*half_open_calls, lang),
        ]
        .join(sep),
        Breaker::Resilience4j {
            window,
            window_size,
            minimum_calls,
            failure_rate_percent,
            slow_call_ms,
            slow_call_rate_percent,
            wait_open_ms,
            open_jitter_ms,
            half_open_calls,
            ramp_stage_ms,
            automatic_half_open,
            scope: sc,
        } => {
            let text = match window {
                WindowKind::Count => Text::BreakerCount,
                WindowKind::Time => Text::BreakerTime,
            };
            // For a count window Resilience4j judges at min(minimum, window) calls.
            let minimum = match window {
                WindowKind::Count => (*minimum_calls).min(*window_size),
                WindowKind::Time => *minimum_calls,
            };
            let mut first = text.fill(lang, &[&num(*failure_rate_percent), window_size, &minimum]);
            if let Some(slow) = slow_call_ms {
                first += &Text::BreakerSlow.fill(
                    lang,
                    &[&num(*slow_call_rate_percent), &duration(*slow as f64)],
                );
            }
            first += scope(*sc, lang);
            let mut parts = vec![
                first,
                open(*wait_open_ms, *open_jitter_ms),
                probes(*half_open_calls, lang),
            ];
            if *automatic_half_open {
                parts.push(Text::AutoHalfOpen.get(lang).to_string());
            }
            if let Some(r) = ramp_stage_ms {
                parts.push(Text::Ramp.fill(lang, &[&duration(*r as f64)]));
            }
            parts.join(sep)
        }
        Breaker::Polly {
            failure_ratio,
            minimum_throughput,
            sampling_duration_ms,
            break_duration_ms,
            scope: sc,
        } => [
            Text::BreakerPolly.fill(
                lang,
                &[
                    &pct(*failure_ratio),
                    &duration(*sampling_duration_ms as f64),
                    minimum_throughput,
                ],
            ) + scope(*sc, lang),
            open(*break_duration_ms, 0),
            probes(1, lang),
        ]
        .join(sep),
        Breaker::RetryOnly {
            failure_percent,
            window_ms,
            scope: sc,
        } => {
            let over = match window_ms {
                0 => Text::SoFar.get(lang).to_string(),
                w => Text::Over.fill(lang, &[&duration(*w as f64)]),
            };
            Text::BreakerRetryOnly.fill(lang, &[&num(*failure_percent), &over]) + scope(*sc, lang)
        }
        Breaker::SreAdaptive {
            k,
            window_ms,
            scope: sc,
        } => {
            Text::BreakerSre.fill(lang, &[&num(*k), &duration(*window_ms as f64)])
                + scope(*sc, lang)
        }
    };
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::libraries::Resilience4jBackoff;

    #[test]
    fn the_issue_s_example_reads_as_it_says() {
        let mut p = Policy::new(
            3,
            Backoff::Resilience4j(Resilience4jBackoff {
                wait_duration_ms: 500,
                exponential_backoff_multiplier: Some(1.5),
                randomized_wait_factor: Some(0.5),
                exponential_max_wait_duration_ms: None,
            }),
        );
        p.breaker = Breaker::Resilience4j {
            window: WindowKind::Count,
            window_size: 100,
            minimum_calls: 100,
            failure_rate_percent: 50.0,
            slow_call_ms: None,
            slow_call_rate_percent: 100.0,
            wait_open_ms: 60_000,
            open_jitter_ms: 0,
            half_open_calls: 10,
            ramp_stage_ms: None,
            automatic_half_open: false,
            scope: Scope::PerInstance,
        };
        assert_eq!(
            words(&p, Lang::En),
            [
                "3 attempts = 1 call + 2 retries",
                "waits 500 ms, 750 ms (×1.5), each ±50%",
                "breaker opens at ≥ 50% failures of the last 100 calls once 100 calls are recorded; stays open 60 s; 10 probes",
            ]
        );
        assert_eq!(words(&p, Lang::Zh)[0], "3 次尝试 = 1 次调用 + 2 次重试");
    }

    #[test]
    fn every_kind_has_words_in_both_languages() {
        let d = crate::cluster::defaults::defaults();
        for b in &d.backoff {
            for lang in [Lang::Zh, Lang::En] {
                let w = waits(b, &Jitter::None, 3, lang);
                assert!(!w.is_empty() && !w.contains('{'), "{b:?}: {w}");
            }
        }
        for b in &d.budget {
            for lang in [Lang::Zh, Lang::En] {
                let w = budget(b, lang).unwrap_or_default();
                assert!(!w.contains('{'), "{b:?}: {w}");
            }
        }
        for b in &d.breaker {
            for lang in [Lang::Zh, Lang::En] {
                let w = breaker(b, lang).unwrap_or_default();
                assert!(!w.contains('{'), "{b:?}: {w}");
            }
        }
        assert_eq!(duration(750.0), "750 ms");
        assert_eq!(duration(1125.0), "1.125 s");
        assert_eq!(duration(180_000.0), "3 min");
    }
}
