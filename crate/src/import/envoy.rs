//! Envoy and Istio retry settings (YAML, several documents allowed):
//!
//! - an Istio `VirtualService`'s `spec.http[].retries`, as istiod converts it (checked
//!   against istio/istio 86c9f01f, `pilot/pkg/networking/core/route/retry/retry.go`
//!   `ConvertPolicy`): no `retries` is Istio's default policy of 2 retries (retryOn
//!   `connect-failure,refused-stream,unavailable,cancelled,retriable-status-codes`, no
//!   per-try timeout, no back-off of its own); `retries` with `attempts` absent or ≤ 0 is
//!   no retry policy at all, so no retries; `attempts` counts retries (Envoy's
//!   `num_retries`); `retries.backoff` is Envoy's `retry_back_off.base_interval` only (the
//!   max stays Envoy's 10 × base); `perTryTimeout`, `retryOn` and `retryRemoteLocalities`
//!   (Envoy's previous-priorities retry priority) decide what is retried and where, not
//!   when, and are not read. istiod sets every circuit-breaker threshold, `max_retries`
//!   included, to 4294967295 (`cluster_traffic_policy.go`
//!   `getDefaultCircuitBreakerThresholds`) and applies a `DestinationRule`'s
//!   `trafficPolicy.connectionPool.http.maxRetries` only when it is above 0; a
//!   `trafficPolicy.retryBudget` (`applyRetryBudget`: `percent` default 20,
//!   `minRetryConcurrency` default 3, 0 meaning the default) is Envoy's `retry_budget`,
//!   which Envoy uses instead of `max_retries`;
//! - an Envoy route's `retry_policy` (`num_retries`, default 1; `retry_back_off`,
//!   default 25 ms base, 10 × base max) and a cluster's `circuit_breakers.thresholds`
//!   (`retry_budget`, else `max_retries`, default 3: Envoy limits the retries outstanding
//!   even with no thresholds written), as `source/common/router/retry_state_impl.cc` and
//!   `source/common/upstream/resource_manager_impl.h` use them.
//!
//! Envoy's other "circuit breakers" (connections, pending and active requests) are
//! concurrency limits, not a state machine, and its outlier detection ejects hosts: the
//! engine's breakers are neither, so both are said, not read.

use super::duration::{proto_ms, spring_ms};
use super::policy::{Origins, Policy};
use super::tree::{self, Names, Node};
use super::Read;
use crate::cluster::libraries::EnvoyBackoff;
use crate::cluster::{
    Backoff, Budget, Scope, DEFAULT_ENVOY_BUDGET_PERCENT, DEFAULT_ENVOY_MAX_RETRIES,
    DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY,
};
use crate::lang::{Lang, Texts};
use crate::validate::{echo, ErrorKind, ValidationError};
use yaml_rust2::Yaml;

crate::catalogue! {
    /// What Envoy and Istio do that their settings do not say.
    pub enum Quirk {
        /// Retries, not attempts: `{0}` the key, `{1}` retries, `{2}` attempts.
        CountsRetries => ("{0} 计的是重试次数：{1} 次重试 = {2} 次尝试", "{0} counts retries: {1} retries = {2} attempts"),
        /// Istio's default policy.
        IstioDefault => ("这条路由没有 retries：Istio 的默认策略是 2 次重试（connect-failure、refused-stream、unavailable、cancelled、retriable-status-codes）", "this route has no retries: Istio's default policy is 2 retries (connect-failure, refused-stream, unavailable, cancelled, retriable-status-codes)"),
        /// Istio's unlimited max_retries.
        IstioNoLimit => ("Istio 把 max_retries 设为 4294967295（没有 DestinationRule 的 connectionPool.http.maxRetries）：重试并发不受限制", "Istio sets max_retries to 4294967295 (no DestinationRule sets connectionPool.http.maxRetries): retries outstanding are not limited"),
        /// Concurrency limits: `{0}` the keys.
        ConcurrencyLimits => ("Envoy 的 circuit_breakers（{0}）是并发上限，不是熔断状态机：未模拟", "Envoy's circuit_breakers ({0}) are concurrency limits, not a breaker's state machine: not simulated"),
        /// Outlier detection.
        Outlier => ("outlier_detection 按主机剔除，不是熔断器：未模拟", "outlier_detection ejects hosts, it is not a breaker: not simulated"),
        /// Rate-limited back-off.
        RateLimited => ("rate_limited_retry_back_off（按响应头等待）未模拟", "rate_limited_retry_back_off (waits a response header asks for) is not simulated"),
        /// Retries written without attempts: `{0}` the key path.
        IstioNoAttempts => ("{0} 缺失或 ≤ 0：istiod 不为这条路由写重试策略，因此不重试", "{0} is absent or ≤ 0: istiod writes no retry policy for this route, so it does not retry"),
        /// maxRetries of 0: `{0}` the value.
        IstioZeroMaxRetries => ("connectionPool.http.maxRetries: {0} 被忽略：istiod 只在大于 0 时写入它，重试并发不受限制", "connectionPool.http.maxRetries: {0} is ignored: istiod writes it only when above 0, so retries outstanding are not limited"),
        /// The budget's interval, not read.
        IstioBudgetInterval => ("retryBudget.budgetInterval 未读取：模拟按当前在途的请求计算预算", "retryBudget.budgetInterval is not read: the run counts the budget over the requests in flight now"),
        /// Outstanding retries include those in backoff.
        Outstanding => ("重试从排定起就计入上限，包括还在退避等待中的重试", "a retry counts against the limit from when it is scheduled, its backoff wait included"),
    }
}

/// What a duration looks like, for messages.
const DURATION: &str = "a duration such as \"0.025s\"";

/// `max_retries` at or above this is no limit (istiod writes 4294967295).
const NO_LIMIT: u64 = u32::MAX as u64;

/// Whether a text looks like Envoy or Istio retry settings.
pub fn looks_like(text: &str) -> bool {
    text.contains("kind: VirtualService") || text.contains("retry_policy")
}

/// Every mapping at `key` anywhere under `n`, with the nearest enclosing `name`.
fn find<'a>(
    n: &Node<'a>,
    key: &str,
    name: Option<String>,
    out: &mut Vec<(Option<String>, Node<'a>)>,
) {
    let own = n.get("name", Names::Exact).and_then(|v| v.text()).or(name);
    if let Some(v) = n.get(key, Names::Exact) {
        out.push((own.clone(), v));
    }
    for (_, c) in n.entries() {
        find(&c, key, own.clone(), out);
    }
    for c in n.items() {
        find(&c, key, own.clone(), out);
    }
}

/// Reads the route named `name` (an Istio http route's or VirtualService's name, or the
/// name of the Envoy route or virtual host around a `retry_policy`), or the first one.
pub fn read(text: &str, name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let docs = tree::yaml(text)?;
    let istio = docs
        .iter()
        .any(|d| matches!(&d["kind"], Yaml::String(k) if k == "VirtualService"));
    if istio {
        read_istio(&docs, name, lang)
    } else {
        read_envoy(&docs, name, lang)
    }
}

fn read_istio(docs: &[Yaml], name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let mut routes: Vec<(String, Node)> = Vec::new();
    let mut max_retries: Option<Node> = None;
    let mut retry_budget: Option<Node> = None;
    let mut outlier = false;
    for d in docs {
        let root = Node::root(d);
        let kind = root.get("kind", Names::Exact).and_then(|k| k.text());
        match kind.as_deref() {
            Some("VirtualService") => {
                let vs = root
                    .at(&["metadata", "name"], Names::Exact)
                    .and_then(|n| n.text())
                    .unwrap_or_default();
                for (i, r) in root
                    .at(&["spec", "http"], Names::Exact)
                    .map(|h| h.items())
                    .unwrap_or_default()
                    .into_iter()
                    .enumerate()
                {
                    let rname = r
                        .get("name", Names::Exact)
                        .and_then(|n| n.text())
                        .unwrap_or_else(|| format!("{vs} http[{i}]"));
                    routes.push((rname, r));
                }
            }
            Some("DestinationRule") => {
                outlier |= root
                    .at(&["spec", "trafficPolicy", "outlierDetection"], Names::Exact)
                    .is_some();
                retry_budget = retry_budget
                    .or(root.at(&["spec", "trafficPolicy", "retryBudget"], Names::Exact));
                max_retries = max_retries.or(root.at(
                    &[
                        "spec",
                        "trafficPolicy",
                        "connectionPool",
                        "http",
                        "maxRetries",
                    ],
                    Names::Exact,
                ));
            }
            _ => {}
        }
    }
    let names: Vec<String> = routes.iter().map(|(n, _)| n.clone()).collect();
    let picked = match name {
        Some(n) => routes
            .iter()
            .find(|(r, _)| r == n || r.starts_with(&format!("{n} "))),
        None => routes
            .iter()
            .find(|(_, r)| r.get("retries", Names::Exact).is_some())
            .or(routes.first()),
    };
    let Some((rname, route)) = picked else {
        return Err(ValidationError::new(
            if name.is_some() {
                "--instance"
            } else {
                "spec.http"
            },
            echo(name.unwrap_or("missing")),
            if names.is_empty() {
                "a VirtualService with http routes".to_string()
            } else {
                format!("one of: {}", names.join(", "))
            },
        )
        .of_kind(ErrorKind::Type));
    };
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let retries = match route.get("retries", Names::Exact) {
        None => {
            quirks.push(Quirk::IstioDefault.get(lang).to_string());
            2
        }
        Some(r) => match r.get("attempts", Names::Exact) {
            Some(a) => {
                let text = a.text().unwrap_or_default();
                let v: i64 = text
                    .trim()
                    .parse()
                    .map_err(|_| a.bad("a whole number (≤ 0 disables retries)"))?;
                origins.note("max_attempts", &a.path, a.shown());
                v.max(0) as u64
            }
            None => 0,
        },
    };
    if let (Some(r), 0) = (route.get("retries", Names::Exact), retries) {
        quirks.push(Quirk::IstioNoAttempts.fill(lang, &[&format!("{}.attempts", r.path)]));
    }
    if retries > 0 {
        quirks
            .push(Quirk::CountsRetries.fill(lang, &[&"Istio attempts", &retries, &(retries + 1)]));
    }
    let mut backoff = EnvoyBackoff {
        base_interval_ms: 25,
        max_interval_ms: None,
    };
    match route.at(&["retries", "backoff"], Names::Exact) {
        Some(b) => {
            let ms = b.ms(spring_ms, "a duration such as \"100ms\" or \"1s\"")?;
            origins.note("backoff.base_interval_ms", &b.path, b.shown());
            backoff.base_interval_ms = ms.round() as u64;
        }
        None => defaults.push("base_interval = 25ms (Envoy's)".to_string()),
    }
    let budget = match (&retry_budget, &max_retries) {
        (Some(rb), _) => {
            let percent = match rb.get("percent", Names::Exact) {
                Some(p) => {
                    origins.note("budget.budget_percent", &p.path, p.shown());
                    p.f64()?
                }
                None => {
                    defaults.push("retryBudget.percent = 20".to_string());
                    20.0
                }
            };
            let min = match rb.get("minRetryConcurrency", Names::Exact) {
                Some(m) if m.u64()? > 0 => {
                    origins.note("budget.min_retry_concurrency", &m.path, m.shown());
                    u32::try_from(m.u64()?).unwrap_or(u32::MAX)
                }
                _ => {
                    defaults.push("retryBudget.minRetryConcurrency = 3".to_string());
                    3
                }
            };
            if rb.get("budgetInterval", Names::Exact).is_some() {
                quirks.push(Quirk::IstioBudgetInterval.get(lang).to_string());
            }
            Budget::EnvoyRetryBudget {
                budget_percent: percent,
                min_retry_concurrency: min,
                scope: Scope::PerInstance,
            }
        }
        (None, Some(m)) => {
            // `if settings.Http.MaxRetries > 0` (cluster_traffic_policy.go): 0 or less is
            // not written, and the default 4294967295 stays.
            let text = m.text().unwrap_or_default();
            match text.trim().parse::<i64>() {
                Ok(v) if v <= 0 => {
                    quirks.push(Quirk::IstioZeroMaxRetries.fill(lang, &[&v]));
                    Budget::None
                }
                _ => {
                    let v = m.u64()?;
                    origins.note("budget.max_retries", &m.path, m.shown());
                    limit(v)
                }
            }
        }
        (None, None) => {
            quirks.push(Quirk::IstioNoLimit.get(lang).to_string());
            Budget::None
        }
    };
    if budget != Budget::None {
        quirks.push(Quirk::Outstanding.get(lang).to_string());
    }
    if outlier {
        quirks.push(Quirk::Outlier.get(lang).to_string());
    }
    let mut policy = Policy::new(
        u32::try_from(retries + 1).unwrap_or(u32::MAX),
        if retries > 0 {
            Backoff::Envoy(backoff)
        } else {
            Backoff::None
        },
    );
    policy.budget = budget;
    Ok(Read {
        source: format!("Istio VirtualService, route {rname}"),
        policy: origins.checked(policy)?,
        quirks,
        defaults,
    })
}

/// `max_retries`: a limit, or none at istiod's 4294967295.
fn limit(v: u64) -> Budget {
    if v >= NO_LIMIT {
        Budget::None
    } else {
        Budget::EnvoyMaxRetries {
            max_retries: u32::try_from(v).unwrap_or(u32::MAX),
            scope: Scope::PerInstance,
        }
    }
}

fn read_envoy(docs: &[Yaml], name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let mut policies = Vec::new();
    let mut breakers = Vec::new();
    let mut outliers = Vec::new();
    for d in docs {
        let root = Node::root(d);
        find(&root, "retry_policy", None, &mut policies);
        find(&root, "circuit_breakers", None, &mut breakers);
        find(&root, "outlier_detection", None, &mut outliers);
    }
    let names: Vec<String> = policies.iter().filter_map(|(n, _)| n.clone()).collect();
    let picked = match name {
        Some(n) => policies.iter().find(|(r, _)| r.as_deref() == Some(n)),
        None => policies.first(),
    };
    let Some((rname, rp)) = picked else {
        return Err(ValidationError::new(
            if name.is_some() {
                "--instance"
            } else {
                "retry_policy"
            },
            echo(name.unwrap_or("missing")),
            if names.is_empty() {
                "a route's retry_policy".to_string()
            } else {
                format!("one of: {}", names.join(", "))
            },
        )
        .of_kind(ErrorKind::Type));
    };
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let retries = match rp.get("num_retries", Names::Exact) {
        Some(n) => {
            origins.note("max_attempts", &n.path, n.shown());
            n.u64()?
        }
        None => {
            defaults.push("num_retries = 1".to_string());
            1
        }
    };
    quirks.push(Quirk::CountsRetries.fill(lang, &[&"num_retries", &retries, &(retries + 1)]));
    let mut backoff = EnvoyBackoff {
        base_interval_ms: 25,
        max_interval_ms: None,
    };
    match rp.get("retry_back_off", Names::Exact) {
        Some(b) => {
            let base = b.get("base_interval", Names::Exact).ok_or_else(|| {
                ValidationError::new(
                    format!("{}.base_interval", b.path),
                    "missing",
                    "required in retry_back_off",
                )
            })?;
            backoff.base_interval_ms = base.ms(proto_ms, DURATION)?.round() as u64;
            origins.note("backoff.base_interval_ms", &base.path, base.shown());
            if let Some(m) = b.get("max_interval", Names::Exact) {
                backoff.max_interval_ms = Some(m.ms(proto_ms, DURATION)?.round() as u64);
                origins.note("backoff.max_interval_ms", &m.path, m.shown());
            }
        }
        None => defaults.push("retry_back_off = 25ms base, 250ms max".to_string()),
    }
    if rp
        .get("rate_limited_retry_back_off", Names::Exact)
        .is_some()
    {
        quirks.push(Quirk::RateLimited.get(lang).to_string());
    }
    let threshold = breakers
        .iter()
        .flat_map(|(_, b)| {
            b.get("thresholds", Names::Exact)
                .map(|t| t.items())
                .unwrap_or_default()
        })
        .find(|t| {
            t.get("priority", Names::Exact)
                .and_then(|p| p.text())
                .is_none_or(|p| p == "DEFAULT")
        });
    let budget = match &threshold {
        Some(t) => {
            let limits: Vec<&str> = ["max_connections", "max_pending_requests", "max_requests"]
                .into_iter()
                .filter(|k| t.get(k, Names::Exact).is_some())
                .collect();
            if !limits.is_empty() {
                quirks.push(Quirk::ConcurrencyLimits.fill(lang, &[&limits.join(", ")]));
            }
            if let Some(rb) = t.get("retry_budget", Names::Exact) {
                let percent = match rb.at(&["budget_percent", "value"], Names::Exact) {
                    Some(p) => {
                        origins.note("budget.budget_percent", &p.path, p.shown());
                        p.f64()?
                    }
                    None => {
                        defaults.push(format!("budget_percent = {DEFAULT_ENVOY_BUDGET_PERCENT}"));
                        DEFAULT_ENVOY_BUDGET_PERCENT
                    }
                };
                let min = match rb.get("min_retry_concurrency", Names::Exact) {
                    Some(m) => {
                        origins.note("budget.min_retry_concurrency", &m.path, m.shown());
                        u32::try_from(m.u64()?).unwrap_or(u32::MAX)
                    }
                    None => {
                        defaults.push(format!(
                            "min_retry_concurrency = {DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY}"
                        ));
                        DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY
                    }
                };
                Budget::EnvoyRetryBudget {
                    budget_percent: percent,
                    min_retry_concurrency: min,
                    scope: Scope::PerInstance,
                }
            } else if let Some(m) = t.get("max_retries", Names::Exact) {
                origins.note("budget.max_retries", &m.path, m.shown());
                limit(m.u64()?)
            } else {
                defaults.push(format!("max_retries = {DEFAULT_ENVOY_MAX_RETRIES}"));
                limit(u64::from(DEFAULT_ENVOY_MAX_RETRIES))
            }
        }
        None => {
            defaults.push(format!("max_retries = {DEFAULT_ENVOY_MAX_RETRIES}"));
            limit(u64::from(DEFAULT_ENVOY_MAX_RETRIES))
        }
    };
    if budget != Budget::None {
        quirks.push(Quirk::Outstanding.get(lang).to_string());
    }
    if !outliers.is_empty() {
        quirks.push(Quirk::Outlier.get(lang).to_string());
    }
    let mut policy = Policy::new(
        u32::try_from(retries + 1).unwrap_or(u32::MAX),
        Backoff::Envoy(backoff),
    );
    policy.budget = budget;
    Ok(Read {
        source: rname.clone().unwrap_or_else(|| rp.path.clone()),
        policy: origins.checked(policy)?,
        quirks,
        defaults,
    })
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
