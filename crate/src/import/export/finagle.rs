//! A policy as Finagle (Scala) settings, the mirror of [`crate::import`]'s Finagle
//! reader: `RetryPolicy.tries(n)`, a `Backoff.const(d)` and the `RetryBudget(…)` the
//! engine's windowed budget follows. (A Linkerd ServiceProfile cannot limit attempts or
//! wait, so Finagle's own settings are what is written.)

use super::{nearest, nearest_wait, Cannot};
use crate::cluster::{Backoff, Budget, Jitter, Scope};
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use std::fmt::Write;

crate::catalogue! {
    /// What Finagle's settings cannot say about a policy.
    pub enum Quirk {
        /// A tier-wide budget.
        SharedBudget => ("Finagle 每个客户端各有一个 RetryBudget：整个调用层共用的预算写成每个实例一份", "Finagle keeps one RetryBudget per client: the budget the calling tier shares is written as one per instance"),
        /// Another budget: `{0}` the budget in words.
        OtherBudget => ("Finagle 的重试预算是 RetryBudget（按时间窗口存取），策略中的这种预算未写入（{0}）", "Finagle's retry budget is its RetryBudget (deposits and withdrawals over a window), so the policy's budget is left out ({0})"),
    }
}

/// `(text, what cannot be expressed)`.
pub fn write(p: &Policy, lang: Lang) -> (String, Vec<String>) {
    let lib = Library::Finagle;
    let mut cannot = Vec::new();
    let backoff = match (&p.backoff, &p.jitter) {
        (Backoff::None, Jitter::None) => None,
        (Backoff::Constant { ms }, Jitter::None) => Some(*ms),
        (other, _) => {
            let n = nearest(other, p.max_attempts.saturating_sub(1));
            let ms = n.first_ms.round() as u64;
            cannot.extend(nearest_wait(lib, p, &Backoff::Constant { ms }, lang));
            Some(ms)
        }
    };
    let budget = match &p.budget {
        Budget::None => "RetryBudget.Infinite".to_string(),
        Budget::Windowed {
            min_retries_per_sec: 0,
            percent_can_retry,
            ..
        } if *percent_can_retry == 0.0 => "RetryBudget.Empty".to_string(),
        Budget::Windowed {
            ttl_ms,
            min_retries_per_sec,
            percent_can_retry,
            scope,
        } => {
            if *scope == Scope::Shared {
                cannot.push(Quirk::SharedBudget.get(lang).to_string());
            }
            format!(
                "RetryBudget(ttl = {ttl_ms}.milliseconds, minRetriesPerSec = {min_retries_per_sec}, percentCanRetry = {})",
                percent_can_retry / 100.0
            )
        }
        other => {
            if let Some(w) = words::budget(other, lang) {
                cannot.push(Quirk::OtherBudget.fill(lang, &[&w]));
            }
            "RetryBudget.Infinite".to_string()
        }
    };
    if let Some(w) = words::breaker(&p.breaker, lang) {
        cannot.push(Cannot::NoBreaker.fill(lang, &[&lib.title(), &w]));
    }
    let mut out = format!(
        "// {}\n",
        super::Header::Written.fill(lang, &[&lib.title(), &"Scala"])
    );
    for c in &cannot {
        let _ = writeln!(
            out,
            "// {}{c}",
            crate::import::texts::Text::Cannot.get(lang)
        );
    }
    let _ = writeln!(out, "val budget = {budget}");
    let _ = writeln!(out, "val policy = RetryPolicy.tries({})", p.max_attempts);
    if let Some(ms) = backoff {
        let _ = writeln!(out, "val backoff = Backoff.const({ms}.milliseconds)");
    }
    (out, cannot)
}
