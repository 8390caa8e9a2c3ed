//! Polly v8 options in an `appsettings.json`, as Microsoft.Extensions.Http.Resilience's
//! standard handler binds them (`HttpStandardResilienceOptions`: a section with `Retry`
//! and `CircuitBreaker`, keys matched without regard to case): `Retry` is
//! `HttpRetryStrategyOptions` (Polly's `RetryStrategyOptions` with `BackoffType`
//! Exponential and `UseJitter` true; `MaxRetryAttempts` 3 counts retries, `Delay` 2 s),
//! `CircuitBreaker` is `HttpCircuitBreakerStrategyOptions` (`FailureRatio` 0.1,
//! `MinimumThroughput` 100, `SamplingDuration` 30 s, `BreakDuration` 5 s), and the standard
//! handler always has both. Durations are .NET `TimeSpan`s (`"00:00:02"`, `"1.00:00:00"`;
//! a bare number is days, as `TimeSpan.Parse` reads it).

use super::policy::{Origins, Policy};
use super::tree::{self, Names, Node};
use super::Read;
use crate::cluster::libraries::{PollyBackoff, PollyDelay};
use crate::cluster::{
    Backoff, Breaker, Scope, DEFAULT_POLLY_BREAK_MS, DEFAULT_POLLY_FAILURE_RATIO,
    DEFAULT_POLLY_MINIMUM_THROUGHPUT, DEFAULT_POLLY_SAMPLING_MS,
};
use crate::lang::{Lang, Texts};
use crate::validate::{ErrorKind, ValidationError};

crate::catalogue! {
    /// What Polly does that its option names do not say.
    pub enum Quirk {
        /// Retries, not attempts: `{0}` retries, `{1}` attempts.
        CountsRetries => ("MaxRetryAttempts 计的是重试次数：{0} 次重试 = {1} 次尝试", "MaxRetryAttempts counts retries: {0} retries = {1} attempts"),
        /// A bare number is days: `{0}` the key path, `{1}` the value.
        Days => ("`{0}` = {1} 按 TimeSpan.Parse 读作天数", "`{0}` = {1} is read as days, as TimeSpan.Parse reads a bare number"),
        /// Timeouts not read.
        Timeouts => ("AttemptTimeout 和 TotalRequestTimeout 未读入：场景中客户端的超时仍然适用", "AttemptTimeout and TotalRequestTimeout are not read: the scenario's client timeout applies"),
        /// The breaker is per HttpClient.
        PerClient => ("熔断器按每个 HttpClient 管道计算（每个调用实例一个）", "the breaker is kept per HttpClient pipeline (one per caller instance)"),
    }
}

/// What a `TimeSpan` looks like, for messages.
const TIMESPAN: &str = "a TimeSpan such as \"00:00:02\" or \"00:00:00.5\"";

/// A .NET `TimeSpan` as `TimeSpan.Parse` reads it (`[-][d.]hh:mm[:ss[.fffffff]]`, or a
/// whole number of days), in ticks of 100 ns; `None` where it throws or is negative.
pub fn ticks(text: &str) -> Option<u64> {
    let t = text.trim();
    const DAY: u64 = 864_000_000_000;
    if !t.contains(':') {
        return t.parse::<u64>().ok()?.checked_mul(DAY);
    }
    let (days, clock) = match t.split_once('.') {
        Some((d, rest)) if !d.contains(':') => (d.parse::<u64>().ok()?, rest),
        _ => (0, t),
    };
    let mut parts = clock.split(':');
    let h: u64 = parts.next()?.parse().ok()?;
    let m: u64 = parts.next()?.parse().ok()?;
    let (s, frac) = match parts.next() {
        Some(sec) => match sec.split_once('.') {
            Some((s, f)) => (s.parse::<u64>().ok()?, f),
            None => (sec.parse::<u64>().ok()?, ""),
        },
        None => (0, ""),
    };
    if parts.next().is_some() || h > 23 || m > 59 || s > 59 || frac.len() > 7 {
        return None;
    }
    if !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let f: u64 = format!("{frac:0<7}").parse().ok()?;
    Some(days * DAY + h * 36_000_000_000 + m * 600_000_000 + s * 10_000_000 + f)
}

/// `ticks` in ms.
fn ms_of(t: u64) -> f64 {
    t as f64 / 10_000.0
}

/// A section is one of the standard handler's when it has a `Retry` or `CircuitBreaker`
/// mapping.
fn is_section(n: &Node) -> bool {
    ["Retry", "CircuitBreaker"].iter().any(|k| {
        n.get(k, Names::Relaxed)
            .is_some_and(|c| matches!(c.node, yaml_rust2::Yaml::Hash(_)))
    })
}

/// Every section in the file, depth first.
fn sections<'a>(n: &Node<'a>, out: &mut Vec<Node<'a>>) {
    if is_section(n) {
        out.push(n.clone());
        return;
    }
    for (_, c) in n.entries() {
        sections(&c, out);
    }
}

/// Whether a text looks like Polly options: JSON with `MaxRetryAttempts`, `BackoffType`
/// or `FailureRatio` in it.
pub fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with('{')
        && [
            "MaxRetryAttempts",
            "BackoffType",
            "FailureRatio",
            "BreakDuration",
        ]
        .iter()
        .any(|k| text.contains(k))
}

/// The child `key` of an optional mapping.
fn child<'a>(parent: &Option<Node<'a>>, key: &str) -> Option<Node<'a>> {
    parent.as_ref().and_then(|p| p.get(key, Names::Relaxed))
}

/// What reading a section notes besides the policy.
struct Notes {
    quirks: Vec<String>,
    defaults: Vec<String>,
    origins: Origins,
    lang: Lang,
}

impl Notes {
    /// The `TimeSpan` at `key` of `parent` in ms (the policy's `field`), or
    /// `default_ms` named as a default when absent.
    fn span(
        &mut self,
        parent: &Option<Node>,
        key: &str,
        field: &str,
        default_ms: Option<f64>,
    ) -> Result<Option<f64>, ValidationError> {
        match child(parent, key) {
            Some(n) => {
                let text = n.text().unwrap_or_default();
                let t = ticks(&text).ok_or_else(|| n.bad(TIMESPAN))?;
                if !text.contains(':') {
                    self.quirks
                        .push(Quirk::Days.fill(self.lang, &[&n.path, &text]));
                }
                self.origins.note(field, &n.path, n.shown());
                Ok(Some(ms_of(t)))
            }
            None => {
                if let Some(d) = default_ms {
                    self.defaults.push(format!("{key} = {}", timespan(d)));
                }
                Ok(default_ms)
            }
        }
    }
}

/// Reads the section at `name` (its path, or the end of it: `Payments.Resilience`), or
/// the only one.
pub fn read(text: &str, name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let doc = tree::json(text)?;
    let root = Node::root(&doc);
    let mut found = Vec::new();
    sections(&root, &mut found);
    let label = |n: &Node| {
        if n.path.is_empty() {
            "(root)".to_string()
        } else {
            n.path.clone()
        }
    };
    let pick = match name {
        Some(want) => found.iter().find(|n| {
            let (path, want) = (n.path.to_ascii_lowercase(), want.to_ascii_lowercase());
            path == want || path.ends_with(&format!(".{want}"))
        }),
        None if found.len() == 1 => found.first(),
        None => None,
    };
    let Some(section) = pick else {
        let all: Vec<String> = found.iter().map(label).collect();
        return Err(ValidationError::new(
            if name.is_some() || !found.is_empty() {
                "--instance"
            } else {
                "Retry"
            },
            crate::validate::echo(name.unwrap_or(if found.is_empty() {
                "missing"
            } else {
                "not given"
            })),
            if all.is_empty() {
                "a section with Retry or CircuitBreaker options".to_string()
            } else {
                format!("one of: {}", all.join(", "))
            },
        )
        .of_kind(if found.is_empty() {
            ErrorKind::Missing
        } else {
            ErrorKind::Type
        }));
    };
    let mut notes = Notes {
        quirks: Vec::new(),
        defaults: Vec::new(),
        origins: Origins::default(),
        lang,
    };
    let retry = section.get("Retry", Names::Relaxed);
    let cb = section.get("CircuitBreaker", Names::Relaxed);
    let retries = match child(&retry, "MaxRetryAttempts") {
        Some(n) => {
            let v = n.u64()?;
            if v < 1 {
                return Err(n.bad("a whole number ≥ 1").of_kind(ErrorKind::Range));
            }
            notes.origins.note("max_attempts", &n.path, n.shown());
            u32::try_from(v).unwrap_or(u32::MAX)
        }
        None => {
            notes.defaults.push("MaxRetryAttempts = 3".into());
            3
        }
    };
    let attempts = retries.saturating_add(1);
    notes
        .quirks
        .push(Quirk::CountsRetries.fill(lang, &[&retries, &attempts]));
    let backoff_type = match child(&retry, "BackoffType") {
        Some(n) => match n.text().map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("constant") => PollyDelay::Constant,
            Some("linear") => PollyDelay::Linear,
            Some("exponential") => PollyDelay::Exponential,
            _ => return Err(n.bad("Constant, Linear or Exponential")),
        },
        None => {
            notes.defaults.push("BackoffType = Exponential".into());
            PollyDelay::Exponential
        }
    };
    let use_jitter = match child(&retry, "UseJitter") {
        Some(n) => n.bool()?,
        None => {
            notes.defaults.push("UseJitter = true".into());
            true
        }
    };
    let delay = notes
        .span(&retry, "Delay", "backoff.delay_ms", Some(2000.0))?
        .unwrap_or(2000.0);
    let max_delay = notes.span(&retry, "MaxDelay", "backoff.max_delay_ms", None)?;
    let mut policy = Policy::new(
        attempts,
        Backoff::Polly(PollyBackoff {
            backoff_type,
            delay_ms: delay,
            use_jitter,
            max_delay_ms: max_delay,
        }),
    );
    let ratio = match child(&cb, "FailureRatio") {
        Some(n) => {
            notes
                .origins
                .note("breaker.failure_ratio", &n.path, n.shown());
            n.f64()?
        }
        None => {
            notes
                .defaults
                .push(format!("FailureRatio = {DEFAULT_POLLY_FAILURE_RATIO}"));
            DEFAULT_POLLY_FAILURE_RATIO
        }
    };
    let throughput = match child(&cb, "MinimumThroughput") {
        Some(n) => {
            notes
                .origins
                .note("breaker.minimum_throughput", &n.path, n.shown());
            u32::try_from(n.u64()?).unwrap_or(u32::MAX)
        }
        None => {
            notes.defaults.push(format!(
                "MinimumThroughput = {DEFAULT_POLLY_MINIMUM_THROUGHPUT}"
            ));
            DEFAULT_POLLY_MINIMUM_THROUGHPUT
        }
    };
    let sampling = notes
        .span(
            &cb,
            "SamplingDuration",
            "breaker.sampling_duration_ms",
            Some(DEFAULT_POLLY_SAMPLING_MS as f64),
        )?
        .unwrap_or_default();
    let brk = notes
        .span(
            &cb,
            "BreakDuration",
            "breaker.break_duration_ms",
            Some(DEFAULT_POLLY_BREAK_MS as f64),
        )?
        .unwrap_or_default();
    policy.breaker = Breaker::Polly {
        failure_ratio: ratio,
        minimum_throughput: throughput,
        sampling_duration_ms: sampling.round() as u64,
        break_duration_ms: brk.round() as u64,
        scope: Scope::PerInstance,
    };
    notes.quirks.push(Quirk::PerClient.get(lang).to_string());
    if ["AttemptTimeout", "TotalRequestTimeout"]
        .iter()
        .any(|k| section.get(k, Names::Relaxed).is_some())
    {
        notes.quirks.push(Quirk::Timeouts.get(lang).to_string());
    }
    Ok(Read {
        source: label(section),
        policy: notes.origins.checked(policy)?,
        quirks: notes.quirks,
        defaults: notes.defaults,
    })
}

/// A duration in ms as a `TimeSpan` writes it: `[d.]hh:mm:ss[.fffffff]`.
pub fn timespan(ms: f64) -> String {
    let t = (ms * 10_000.0).round() as u64;
    let (days, rest) = (t / 864_000_000_000, t % 864_000_000_000);
    let (h, rest) = (rest / 36_000_000_000, rest % 36_000_000_000);
    let (m, rest) = (rest / 600_000_000, rest % 600_000_000);
    let (s, f) = (rest / 10_000_000, rest % 10_000_000);
    let mut out = if days > 0 {
        format!("{days}.{h:02}:{m:02}:{s:02}")
    } else {
        format!("{h:02}:{m:02}:{s:02}")
    };
    if f > 0 {
        let frac = format!("{f:07}");
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }

    #[test]
    fn timespans_read_as_dotnet_parses_them_and_write_back() {
        assert_eq!(ticks("00:00:02"), Some(20_000_000));
        assert_eq!(ticks("00:00:00.5"), Some(5_000_000));
        assert_eq!(ticks("1.00:00:00"), Some(864_000_000_000));
        assert_eq!(ticks("2"), Some(2 * 864_000_000_000));
        assert_eq!(ticks("00:01"), Some(600_000_000));
        assert_eq!(ticks("00:00:60"), None);
        assert_eq!(ticks("2s"), None);
        for text in [
            "00:00:02",
            "00:00:00.5",
            "1.00:00:00",
            "00:00:00.0000001",
            "12:34:56.789",
        ] {
            assert_eq!(timespan(ms_of(ticks(text).unwrap())), text);
        }
    }
}
