//! A policy as Envoy configuration: a route's `retry_policy` and its cluster's
//! `circuit_breakers` threshold, the mirror of [`crate::import`]'s Envoy reader. (An Istio
//! `VirtualService` cannot set a retry budget or, before `retries.backoff`, the wait, so
//! Envoy's own configuration is what is written.)

use super::{checked_name, nearest, nearest_wait, Header};
use crate::cluster::libraries::EnvoyBackoff;
use crate::cluster::{Backoff, Budget, Scope};
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;
use std::fmt::Write;

crate::catalogue! {
    /// What Envoy's configuration cannot say about a policy.
    pub enum Quirk {
        /// A breaker: `{0}` the breaker in words.
        NoBreaker => ("Envoy 的 circuit_breakers 是并发上限，不是熔断状态机，策略中的熔断器未写入（{0}）", "Envoy's circuit_breakers are concurrency limits, not a breaker's state machine, so the policy's breaker is left out ({0})"),
        /// Another budget: `{0}` the budget in words.
        OtherBudget => ("Envoy 只能限制同时进行的重试（retry_budget 或 max_retries），策略中的预算未写入（{0}）", "Envoy only limits the retries outstanding at once (retry_budget or max_retries), so the policy's budget is left out ({0})"),
        /// A tier-wide limit.
        SharedBudget => ("Envoy 的上限按每个 Envoy（每个调用实例的 sidecar）计算：整个调用层共用的上限写成每个实例一份", "Envoy's limits are per Envoy (each caller instance's sidecar): the limit the calling tier shares is written as one per instance"),
    }
}

/// `(text, what cannot be expressed)` for route and cluster `name`.
pub fn write(p: &Policy, name: &str, lang: Lang) -> Result<(String, Vec<String>), ValidationError> {
    checked_name(
        name,
        &['_', '-', '.'],
        "a route name of letters, digits, _, - and .",
    )?;
    let lib = Library::Envoy;
    let mut cannot = Vec::new();
    let retries = p.max_attempts.saturating_sub(1);
    let b = match &p.backoff {
        Backoff::Envoy(b) => b.clone(),
        other => {
            let n = nearest(other, retries);
            let base = (n.first_ms.round() as u64).max(1);
            let b = EnvoyBackoff {
                base_interval_ms: base,
                max_interval_ms: Some((n.max_ms.round() as u64).max(base)),
            };
            cannot.extend(nearest_wait(lib, p, &Backoff::Envoy(b.clone()), lang));
            b
        }
    };
    let limit = match &p.budget {
        Budget::None => "max_retries: 4294967295".to_string(),
        Budget::EnvoyMaxRetries { max_retries, scope } => {
            shared(*scope, &mut cannot, lang);
            format!("max_retries: {max_retries}")
        }
        Budget::EnvoyRetryBudget {
            budget_percent,
            min_retry_concurrency,
            scope,
        } => {
            shared(*scope, &mut cannot, lang);
            format!(
                "retry_budget:\n          budget_percent: {{value: {budget_percent}}}\n          \
                 min_retry_concurrency: {min_retry_concurrency}"
            )
        }
        other => {
            let w = words::budget(other, lang).unwrap_or_default();
            cannot.push(Quirk::OtherBudget.fill(lang, &[&w]));
            "max_retries: 4294967295".to_string()
        }
    };
    if let Some(w) = words::breaker(&p.breaker, lang) {
        cannot.push(Quirk::NoBreaker.fill(lang, &[&w]));
    }
    let mut out = format!(
        "# {}\n",
        Header::Written.fill(
            lang,
            &[
                &lib.title(),
                &"route retry_policy, cluster circuit_breakers"
            ]
        )
    );
    for c in &cannot {
        let _ = writeln!(out, "# {}{c}", crate::import::texts::Text::Cannot.get(lang));
    }
    let max = b
        .max_interval_ms
        .map(|m| format!(", max_interval: {}", seconds(m)))
        .unwrap_or_default();
    let _ = write!(
        out,
        "route_config:\n  virtual_hosts:\n  - name: {name}\n    domains: [\"*\"]\n    routes:\n    \
         - match: {{prefix: \"/\"}}\n      route:\n        cluster: {name}\n        retry_policy:\n          \
         retry_on: 5xx,reset,connect-failure\n          num_retries: {retries}\n          \
         retry_back_off: {{base_interval: {}{max}}}\nclusters:\n- name: {name}\n  circuit_breakers:\n    \
         thresholds:\n    - priority: DEFAULT\n      {}\n",
        seconds(b.base_interval_ms),
        limit.replace("\n          ", "\n        ")
    );
    Ok((out, cannot))
}

/// The tier-wide scope said.
fn shared(scope: Scope, cannot: &mut Vec<String>, lang: Lang) {
    if scope == Scope::Shared {
        cannot.push(Quirk::SharedBudget.get(lang).to_string());
    }
}

/// Whole ms as a protobuf duration (`0.025s`).
fn seconds(ms: u64) -> String {
    let frac = format!("{:03}", ms % 1000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{}s", ms / 1000)
    } else {
        format!("{}.{frac}s", ms / 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
