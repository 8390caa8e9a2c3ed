//! An AWS config file (`~/.aws/config`): a profile's `retry_mode` and `max_attempts`, read
//! as botocore reads them (`configprovider.py`: both from the profile's section, no
//! default for the mode but `'legacy'` in `client.py` `_get_retry_mode`; `max_attempts`
//! counts every attempt, the first included, in both modes: `standard.py` takes it as
//! `total_max_attempts`, and `client.py` `_transform_legacy_retries` turns it into the
//! legacy handler's retries by subtracting 1). Standard mode always has its retry quota
//! (`retries/quota.py`: 500 tokens, 5 a retry, 10 after a timeout, 1 back for a success
//! without retries); legacy has none.

use super::ini;
use super::policy::{Origins, Policy};
use super::Read;
use crate::cluster::libraries::{AwsBackoff, AwsMode};
use crate::cluster::{
    Backoff, Budget, Scope, DEFAULT_AWS_NO_RETRY_INCREMENT, DEFAULT_AWS_RETRY_COST,
    DEFAULT_AWS_TIMEOUT_COST, DEFAULT_AWS_TOKENS,
};
use crate::lang::{Lang, Texts};
use crate::validate::{echo, ErrorKind, ValidationError};

crate::catalogue! {
    /// What an AWS SDK does that its config file does not say.
    pub enum Quirk {
        /// Adaptive mode's rate limiter.
        Adaptive => ("adaptive 模式的客户端限速器（CUBIC 令牌桶）未模拟：按 standard 模式读入", "adaptive mode's client-side rate limiter (a CUBIC token bucket) is not simulated: read as standard mode"),
        /// Which SDK's waits.
        Sdk => ("等待按 botocore（Python）计算；aws-sdk-go-v2 的第一次重试等待 0 到 2 s，从第 5 次重试起固定 20 s", "the waits are botocore's (Python); aws-sdk-go-v2 waits 0 to 2 s before the first retry and exactly 20 s from the fifth"),
        /// The quota is per client.
        QuotaPerClient => ("重试配额按每个客户端对象计算（每个调用实例一份）", "the retry quota is kept per client object (one per caller instance)"),
    }
}

/// `[default]` or `[profile NAME]`: the profiles botocore reads from a config file
/// (`configloader.py` `build_profile_map`; other sections are SSO sessions or services).
fn profile(section: &str) -> Option<&str> {
    if section == "default" {
        return Some("default");
    }
    section
        .strip_prefix("profile")
        .filter(|r| r.starts_with([' ', '\t']))
        .map(str::trim)
}

/// Whether a text looks like an AWS config file: a `[default]` or `[profile …]` header.
pub fn looks_like(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        l.strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|s| profile(s.trim()).is_some())
    })
}

/// Reads profile `name` (the `default` profile, or the only one, otherwise).
pub fn read(text: &str, name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let sections = ini::read(text)?;
    let profiles: Vec<(&str, &ini::Section)> = sections
        .iter()
        .filter_map(|s| profile(&s.name).map(|p| (p, s)))
        .collect();
    let names: Vec<&str> = profiles.iter().map(|(p, _)| *p).collect();
    let found = match name {
        Some(n) => profiles.iter().find(|(p, _)| *p == n),
        None if profiles.len() == 1 => profiles.first(),
        None => profiles.iter().find(|(p, _)| *p == "default"),
    };
    let Some((pname, section)) = found else {
        return Err(ValidationError::new(
            if name.is_some() {
                "--instance"
            } else {
                "profile"
            },
            echo(name.unwrap_or("none")),
            if names.is_empty() {
                "a [default] or [profile NAME] section".to_string()
            } else {
                format!("one of: {}", names.join(", "))
            },
        )
        .of_kind(ErrorKind::Type));
    };
    let at = |key: &str| format!("{}.{key}", section.name);
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let mut origins = Origins::default();
    let mode = match section.get("retry_mode") {
        None => {
            defaults.push("retry_mode = legacy".to_string());
            AwsMode::Legacy
        }
        Some(m) => match m {
            "legacy" => AwsMode::Legacy,
            "standard" => AwsMode::Standard,
            "adaptive" => {
                quirks.push(Quirk::Adaptive.get(lang).to_string());
                AwsMode::Standard
            }
            other => {
                return Err(ValidationError::new(
                    at("retry_mode"),
                    echo(other),
                    "legacy, standard or adaptive",
                )
                .of_kind(ErrorKind::Type))
            }
        },
    };
    let attempts = match section.get("max_attempts") {
        Some(v) => {
            let n: u32 = v.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                ValidationError::new(at("max_attempts"), echo(v), "a whole number ≥ 1")
                    .of_kind(ErrorKind::Type)
            })?;
            origins.note("max_attempts", at("max_attempts"), v);
            n
        }
        None => {
            let n = if mode == AwsMode::Legacy { 5 } else { 3 };
            defaults.push(format!("max_attempts = {n}"));
            n
        }
    };
    quirks.push(Quirk::Sdk.get(lang).to_string());
    let mut policy = Policy::new(attempts, Backoff::Aws(AwsBackoff { mode }));
    if mode == AwsMode::Standard {
        policy.budget = standard_quota();
        quirks.push(Quirk::QuotaPerClient.get(lang).to_string());
    }
    Ok(Read {
        source: if *pname == "default" {
            "default".to_string()
        } else {
            format!("profile {pname}")
        },
        policy: origins.checked(policy)?,
        quirks,
        defaults,
    })
}

/// Standard mode's retry quota as botocore builds it (`retries/quota.py`).
pub fn standard_quota() -> Budget {
    Budget::AwsQuota {
        initial_tokens: DEFAULT_AWS_TOKENS,
        retry_cost: DEFAULT_AWS_RETRY_COST,
        timeout_cost: DEFAULT_AWS_TIMEOUT_COST,
        no_retry_increment: DEFAULT_AWS_NO_RETRY_INCREMENT,
        scope: Scope::PerInstance,
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
