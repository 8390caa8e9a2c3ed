//! Finagle and Linkerd retry budgets:
//!
//! - a Finagle (Scala) `RetryBudget(ttl = 10.seconds, minRetriesPerSec = 10,
//!   percentCanRetry = 0.2)` line, its arguments by name or position (finagle-core
//!   `service/RetryBudget.scala`: `RetryBudget()` is 10 s, 10, 0.2; `RetryBudget.Empty`
//!   never retries; `RetryBudget.Infinite` is no budget), with `RetryPolicy.tries(n)`
//!   (attempts, the first included) and `Backoff.const(d)`: the engine's
//!   [`Budget::Windowed`], which follows Finagle exactly;
//! - a Linkerd `ServiceProfile` (linkerd2 b24cd405 `controller/api/destination/
//!   profile_translator.go`, linkerd2-proxy 29637b64 `linkerd/service-profiles/src/proto.rs`
//!   and `linkerd/app/outbound/src/http/retry.rs`): `spec.retryBudget` (the default 0.2,
//!   10, 10 s when absent; when present every field is taken, a missing `ttl` being an
//!   error of the controller and one outside 1..60 s no budget, so no retries),
//!   `spec.routes[].isRetryable`. The proxy's budget is tower's `TpsBudget`, which
//!   differs from Finagle's (see [`Budget::Windowed`]): it is read as the nearest
//!   windowed budget, at its effective ratio, and the differences are said. A
//!   ServiceProfile has no per-request limit and no backoff: the run allows the engine's
//!   most attempts, at once, and says so.

use super::policy::{Origins, Policy};
use super::tree::{self, Names, Node};
use super::Read;
use crate::cluster::{Backoff, Budget, Scope, MAX_ATTEMPTS};
use crate::lang::{Lang, Texts};
use crate::validate::{echo, ErrorKind, ValidationError};

crate::catalogue! {
    /// What Finagle and Linkerd do that their settings do not say.
    pub enum Quirk {
        /// tries counts attempts: `{0}` attempts, `{1}` retries.
        TriesCountsAttempts => ("RetryPolicy.tries({0}) 计的是尝试次数（含第一次调用）：{1} 次重试", "RetryPolicy.tries({0}) counts attempts, the first call included: {1} retries"),
        /// Linkerd deposits per response not retried.
        LinkerdDeposits => ("Linkerd 的预算（tower 的 TpsBudget）只在响应不被重试时存入（成功或不可重试的失败），不是每个请求：全部失败时只剩每秒最少重试数；模拟按 Finagle 的预算，每个请求都存入", "Linkerd's budget (tower's TpsBudget) deposits only for a response that is not retried (a success or a failure not retryable), not per request: when every answer fails only the minimum retries per second remain; the run uses Finagle's budget, which every request feeds"),
        /// tower's floor of the ratio: `{0}` as written, `{1}` as applied, percent.
        LinkerdRatio => ("retryRatio {0}：tower 每次重试取出 ⌊1 / 比例⌋ 次存入，实际为 {1}%", "retryRatio {0}: tower withdraws ⌊1 / ratio⌋ deposits per retry, so {1}% applies"),
        /// No per-request limit: `{0}` the engine's most attempts.
        LinkerdNoLimit => ("ServiceProfile 没有每个请求的重试上限，只有预算：模拟最多 {0} 次尝试（引擎的上限），且不等待", "a ServiceProfile has no per-request retry limit, only the budget: the run allows at most {0} attempts (the engine's bound), without waiting"),
        /// A route that is not retryable: `{0}` the route.
        NotRetryable => ("路由 {0} 没有 isRetryable: true：Linkerd 不重试它", "route {0} has no isRetryable: true: Linkerd does not retry it"),
        /// A ttl outside the proxy's range: `{0}` as written.
        TtlOutOfRange => ("ttl {0} 不在 1 s 到 60 s 之间：代理不建立预算，路由不重试", "ttl {0} is not between 1 s and 60 s: the proxy builds no budget, so the routes are not retried"),
        /// Linkerd's default budget.
        LinkerdDefaultBudget => ("没有 spec.retryBudget：Linkerd 的默认预算是 retryRatio 0.2、minRetriesPerSecond 10、ttl 10s", "no spec.retryBudget: Linkerd's default budget is retryRatio 0.2, minRetriesPerSecond 10, ttl 10s"),
    }
}

/// Whether a text looks like a Finagle or Linkerd budget.
pub fn looks_like(text: &str) -> bool {
    text.contains("RetryBudget") || text.contains("kind: ServiceProfile")
}

/// Reads the text's Finagle line or Linkerd ServiceProfile.
pub fn read(text: &str, name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    if text.contains("kind: ServiceProfile") || text.contains("retryRatio") {
        read_profile(text, name, lang)
    } else {
        read_finagle(text, lang)
    }
}

/// A Scala duration (`10.seconds`, `500.milliseconds`, `1.second`,
/// `Duration.fromSeconds(10)`, `Duration.fromMilliseconds(500)`), ms.
fn scala_ms(v: &str) -> Option<f64> {
    let t = v.trim();
    if let Some(inner) = t.strip_prefix("Duration.from") {
        let (unit, rest) = inner.split_once('(')?;
        let n: f64 = rest.strip_suffix(')')?.trim().parse().ok()?;
        let scale = match unit {
            "Seconds" => 1000.0,
            "Milliseconds" => 1.0,
            "Minutes" => 60_000.0,
            _ => return None,
        };
        return Some(n * scale);
    }
    let (n, unit) = t
        .split_once('.')
        .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))?;
    let n: f64 = n.parse().ok()?;
    let scale = match unit.trim_end_matches("()") {
        "millisecond" | "milliseconds" => 1.0,
        "second" | "seconds" => 1000.0,
        "minute" | "minutes" => 60_000.0,
        _ => return None,
    };
    Some(n * scale)
}

/// What a Scala duration looks like, for messages.
const SCALA_DURATION: &str =
    "a duration such as 10.seconds, 500.milliseconds or Duration.fromSeconds(10)";

fn read_finagle(text: &str, lang: Lang) -> Result<Read, ValidationError> {
    let code = super::golang::uncommented(text);
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let budget = if code.contains("RetryBudget.Empty") {
        Budget::Windowed {
            ttl_ms: 10_000,
            min_retries_per_sec: 0,
            percent_can_retry: 0.0,
            scope: Scope::PerInstance,
        }
    } else if code.contains("RetryBudget.Infinite") {
        Budget::None
    } else {
        let (_, args, _) = super::golang::calls(&code, "RetryBudget").next().ok_or_else(|| {
            ValidationError::new(
                "RetryBudget",
                "missing",
                "RetryBudget(ttl = 10.seconds, minRetriesPerSec = 10, percentCanRetry = 0.2), RetryBudget.Empty or RetryBudget.Infinite",
            )
        })?;
        let order = ["ttl", "minRetriesPerSec", "percentCanRetry"];
        let (mut ttl, mut min, mut pct) = (10_000.0, 10u64, 0.2);
        let mut set = [false; 3];
        for (i, a) in args.iter().enumerate() {
            let (key, v) = match a.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => match order.get(i) {
                    Some(k) => (k.to_string(), a.clone()),
                    None => {
                        return Err(ValidationError::new(
                            "RetryBudget",
                            echo(a),
                            "at most three arguments",
                        )
                        .of_kind(ErrorKind::Type))
                    }
                },
            };
            let at = format!("RetryBudget.{key}");
            match key.as_str() {
                "ttl" => {
                    ttl = scala_ms(&v).ok_or_else(|| {
                        ValidationError::new(&at, echo(&v), SCALA_DURATION).of_kind(ErrorKind::Type)
                    })?;
                    origins.note("budget.ttl_ms", &at, &v);
                    set[0] = true;
                }
                "minRetriesPerSec" => {
                    min = super::golang::whole(&v, &at, 0)? as u64;
                    origins.note("budget.min_retries_per_sec", &at, &v);
                    set[1] = true;
                }
                "percentCanRetry" => {
                    pct = super::golang::number(&v, &at)?;
                    origins.note("budget.percent_can_retry", &at, &v);
                    set[2] = true;
                }
                _ => {
                    return Err(ValidationError::new(
                        &at,
                        echo(&v),
                        format!("one of {}", order.join(", ")),
                    )
                    .of_kind(ErrorKind::Type))
                }
            }
        }
        for (i, d) in [
            "ttl = 10.seconds",
            "minRetriesPerSec = 10",
            "percentCanRetry = 0.2",
        ]
        .iter()
        .enumerate()
        {
            if !set[i] {
                defaults.push(d.to_string());
            }
        }
        if ttl.fract() != 0.0 {
            return Err(ValidationError::new(
                "RetryBudget.ttl",
                echo(&ttl.to_string()),
                "whole milliseconds",
            )
            .of_kind(ErrorKind::Type));
        }
        Budget::Windowed {
            ttl_ms: ttl as u64,
            min_retries_per_sec: u32::try_from(min).unwrap_or(u32::MAX),
            percent_can_retry: super::failsafe::percent_of(pct),
            scope: Scope::PerInstance,
        }
    };
    let attempts = match super::golang::calls(&code, "RetryPolicy.tries").next() {
        Some((_, a, _)) => {
            let n =
                super::golang::whole(a.first().map_or("", String::as_str), "RetryPolicy.tries", 1)?;
            origins.note("max_attempts", "RetryPolicy.tries", n.to_string());
            quirks.push(Quirk::TriesCountsAttempts.fill(lang, &[&n, &(n - 1)]));
            u32::try_from(n).unwrap_or(u32::MAX)
        }
        None => {
            return Err(ValidationError::new(
                "RetryPolicy.tries",
                "missing",
                "RetryPolicy.tries(N) beside the budget: the engine runs a number of attempts",
            ))
        }
    };
    let backoff = match super::golang::calls(&code, "Backoff.const").next() {
        Some((_, a, _)) => {
            let v = a.first().cloned().unwrap_or_default();
            let ms = scala_ms(&v).ok_or_else(|| {
                ValidationError::new("Backoff.const", echo(&v), SCALA_DURATION)
                    .of_kind(ErrorKind::Type)
            })?;
            origins.note("backoff.ms", "Backoff.const", &v);
            Backoff::Constant {
                ms: ms.round() as u64,
            }
        }
        None if code.contains("Backoff.") => {
            return Err(ValidationError::new(
                "Backoff",
                "not read",
                "Backoff.const(d) (the engine has no other Finagle backoff)",
            )
            .of_kind(ErrorKind::Type))
        }
        None => Backoff::None,
    };
    let mut policy = Policy::new(attempts, backoff);
    policy.budget = budget;
    Ok(Read {
        source: "RetryBudget".to_string(),
        policy: origins.checked(policy)?,
        quirks,
        defaults,
    })
}

/// Go's `time.ParseDuration` (`10s`, `300ms`, `1m30s`), ms.
fn go_ms(text: &str) -> Option<f64> {
    let mut t = text.trim();
    if t == "0" {
        return Some(0.0);
    }
    let mut total = 0.0;
    while !t.is_empty() {
        let n = t.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
        let v: f64 = t[..n].parse().ok()?;
        let rest = &t[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..u] {
            "ns" => 1e-6,
            "us" | "µs" => 1e-3,
            "ms" => 1.0,
            "s" => 1000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            _ => return None,
        };
        total += v * scale;
        t = &rest[u..];
    }
    Some(total)
}

fn read_profile(text: &str, name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let docs = tree::yaml(text)?;
    let doc = docs
        .iter()
        .find(|d| {
            Node::root(d)
                .get("kind", Names::Exact)
                .and_then(|k| k.text())
                .as_deref()
                == Some("ServiceProfile")
        })
        .ok_or_else(|| ValidationError::new("kind", "missing", "ServiceProfile"))?;
    let root = Node::root(doc);
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let defaults = Vec::new();
    let routes = root
        .at(&["spec", "routes"], Names::Exact)
        .map(|r| r.items())
        .unwrap_or_default();
    let named: Vec<(String, Node)> = routes
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            (
                r.get("name", Names::Exact)
                    .and_then(|n| n.text())
                    .unwrap_or_else(|| format!("routes[{i}]")),
                r,
            )
        })
        .collect();
    let retryable = |r: &Node| {
        r.get("isRetryable", Names::Exact)
            .and_then(|v| v.bool().ok())
            .unwrap_or(false)
    };
    let picked = match name {
        Some(n) => named.iter().find(|(r, _)| r == n).ok_or_else(|| {
            let names: Vec<_> = named.iter().map(|(r, _)| r.as_str()).collect();
            ValidationError::new(
                "--instance",
                echo(n),
                format!("one of: {}", names.join(", ")),
            )
            .of_kind(ErrorKind::Type)
        })?,
        None => named
            .iter()
            .find(|(_, r)| retryable(r))
            .or(named.first())
            .ok_or_else(|| {
                ValidationError::new("spec.routes", "missing", "a ServiceProfile with routes")
            })?,
    };
    let (rname, route) = picked;
    if let Some(v) = route.get("isRetryable", Names::Exact) {
        v.bool()?;
    }
    let mut retries_on = retryable(route);
    if !retries_on {
        quirks.push(Quirk::NotRetryable.fill(lang, &[rname]));
    }
    let budget = match root.at(&["spec", "retryBudget"], Names::Exact) {
        None => {
            quirks.push(Quirk::LinkerdDefaultBudget.get(lang).to_string());
            Some((0.2f64, 10u64, 10_000.0f64))
        }
        Some(b) => {
            // profile_translator.go takes every field: one left out is zero, and a
            // missing ttl fails to parse.
            let ratio = match b.get("retryRatio", Names::Exact) {
                Some(r) => {
                    origins.note("budget.percent_can_retry", &r.path, r.shown());
                    r.f64()?
                }
                None => 0.0,
            };
            if !(0.0..=1000.0).contains(&ratio) {
                let r = b
                    .get("retryRatio", Names::Exact)
                    .map(|r| r.shown())
                    .unwrap_or_default();
                return Err(ValidationError::new(
                    format!("{}.retryRatio", b.path),
                    echo(&r),
                    "0 to 1000 (linkerd2-proxy's bound)",
                )
                .of_kind(ErrorKind::Range));
            }
            let min = match b.get("minRetriesPerSecond", Names::Exact) {
                Some(m) => {
                    origins.note("budget.min_retries_per_sec", &m.path, m.shown());
                    m.u64()?
                }
                None => 0,
            };
            let t = b.get("ttl", Names::Exact).ok_or_else(|| {
                ValidationError::new(
                    format!("{}.ttl", b.path),
                    "missing",
                    "a Go duration such as \"10s\" (the controller fails without one)",
                )
            })?;
            let ttl = t.ms(go_ms, "a Go duration such as \"10s\" or \"1m30s\"")?;
            origins.note("budget.ttl_ms", &t.path, t.shown());
            if !(1000.0..=60_000.0).contains(&ttl) {
                quirks.push(Quirk::TtlOutOfRange.fill(lang, &[&t.shown()]));
                retries_on = false;
                None
            } else {
                Some((ratio, min, ttl))
            }
        }
    };
    let (attempts, budget) = match (retries_on, budget) {
        (true, Some((ratio, min, ttl))) => {
            // tower's TpsBudget::new: (deposit, withdraw) = (0, 1) at 0, (1, ⌊1/r⌋) up to
            // 1, else (1000, ⌊1000/r⌋): a retry costs withdraw/deposit requests.
            let pct = if ratio == 0.0 {
                0.0
            } else if ratio <= 1.0 {
                100.0 / (1.0 / ratio).floor()
            } else {
                100.0 * 1000.0 / (1000.0 / ratio).floor()
            };
            let pct = super::failsafe::percent_of(pct / 100.0);
            if (pct - ratio * 100.0).abs() > 1e-9 {
                quirks.push(
                    Quirk::LinkerdRatio.fill(lang, &[&ratio, &crate::import::words::num(pct)]),
                );
            }
            quirks.push(Quirk::LinkerdDeposits.get(lang).to_string());
            quirks.push(Quirk::LinkerdNoLimit.fill(lang, &[&MAX_ATTEMPTS]));
            (
                MAX_ATTEMPTS,
                Budget::Windowed {
                    ttl_ms: ttl.round() as u64,
                    min_retries_per_sec: u32::try_from(min).unwrap_or(u32::MAX),
                    percent_can_retry: pct,
                    scope: Scope::PerInstance,
                },
            )
        }
        _ => (1, Budget::None),
    };
    let mut policy = Policy::new(attempts, Backoff::None);
    policy.budget = budget;
    Ok(Read {
        source: format!("ServiceProfile, route {rname}"),
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
