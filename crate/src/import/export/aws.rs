//! A policy as an AWS config file profile (`retry_mode`, `max_attempts`), the mirror of
//! [`crate::import`]'s AWS reader: the SDKs' waits and quota are fixed by the mode, so
//! only a policy of their own kinds can be written exactly.

use super::{checked_name, Cannot, Header};
use crate::cluster::libraries::{AwsBackoff, AwsMode};
use crate::cluster::{Backoff, Budget};
use crate::import::aws::standard_quota;
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;
use std::fmt::Write;

crate::catalogue! {
    /// What a config file cannot say about a policy.
    pub enum Quirk {
        /// A wait of another kind: `{0}` the policy's waits.
        FixedWaits => ("AWS SDK 的等待由 retry_mode 决定，不能配置：策略的等待（{0}）写成 standard 模式的等待", "the AWS SDKs' waits are fixed by retry_mode and cannot be set: the policy's ({0}) is written as standard mode's"),
        /// aws-sdk-go-v2's waits.
        GoWaits => ("配置文件不能选择 SDK：aws-sdk-go-v2 的等待写成 standard 模式，用 botocore 读入时等待不同", "a config file cannot choose the SDK: aws-sdk-go-v2's waits are written as standard mode, which botocore waits differently"),
        /// Another budget: `{0}` the budget in words.
        OtherBudget => ("AWS SDK 唯一的预算是 standard 模式的重试配额（500 个令牌，每次重试 5 个），策略中的预算未写入（{0}）", "the AWS SDKs' only budget is standard mode's retry quota (500 tokens, 5 a retry), so the policy's is left out ({0})"),
        /// A quota of other sizes: `{0}` the quota in words.
        QuotaSizes => ("配置文件不能设置重试配额的大小：写入的是默认配额，而不是（{0}）", "a config file cannot size the retry quota: the default one is written, not ({0})"),
        /// Legacy mode with a quota.
        LegacyQuota => ("legacy 模式没有重试配额：有配额的策略写成 standard 模式", "legacy mode has no retry quota: a policy with the quota is written as standard mode"),
        /// Standard mode without a quota.
        StandardQuota => ("standard 模式总有重试配额（500 个令牌，每次重试 5 个）：没有预算的策略读回时会有它", "standard mode always has its retry quota (500 tokens, 5 a retry): the policy without a budget gets it back"),
    }
}

/// `(text, what cannot be expressed)` for profile `name` (`default` writes `[default]`).
pub fn write(p: &Policy, name: &str, lang: Lang) -> Result<(String, Vec<String>), ValidationError> {
    checked_name(
        name,
        &['_', '-', '.'],
        "a profile name of letters, digits, _, - and .",
    )?;
    let lib = Library::Aws;
    let mut cannot = Vec::new();
    let quota = standard_quota();
    let has_quota = matches!(p.budget, Budget::AwsQuota { .. });
    let mode = match &p.backoff {
        Backoff::Aws(AwsBackoff {
            mode: AwsMode::Legacy,
        }) if !has_quota => AwsMode::Legacy,
        Backoff::Aws(AwsBackoff {
            mode: AwsMode::Legacy,
        }) => {
            cannot.push(Quirk::LegacyQuota.get(lang).to_string());
            AwsMode::Standard
        }
        Backoff::Aws(AwsBackoff {
            mode: AwsMode::Standard,
        }) => AwsMode::Standard,
        Backoff::Aws(AwsBackoff {
            mode: AwsMode::GoV2,
        }) => {
            cannot.push(Quirk::GoWaits.get(lang).to_string());
            AwsMode::Standard
        }
        other => {
            let retries = p.max_attempts.saturating_sub(1).max(1);
            let w = words::waits(other, &p.jitter, retries, lang);
            cannot.push(Quirk::FixedWaits.fill(lang, &[&w]));
            AwsMode::Standard
        }
    };
    match &p.budget {
        Budget::None if mode == AwsMode::Standard => {
            cannot.push(Quirk::StandardQuota.get(lang).to_string());
        }
        Budget::None => {}
        b @ Budget::AwsQuota { .. } => {
            if *b != quota {
                let w = words::budget(b, lang).unwrap_or_default();
                cannot.push(Quirk::QuotaSizes.fill(lang, &[&w]));
            }
        }
        other => {
            let w = words::budget(other, lang).unwrap_or_default();
            cannot.push(Quirk::OtherBudget.fill(lang, &[&w]));
        }
    }
    if let Some(b) = words::breaker(&p.breaker, lang) {
        cannot.push(Cannot::NoBreaker.fill(lang, &[&lib.title(), &b]));
    }
    let mut out = format!(
        "# {}\n",
        Header::Written.fill(lang, &[&lib.title(), &"~/.aws/config"])
    );
    for c in &cannot {
        let _ = writeln!(out, "# {}{c}", crate::import::texts::Text::Cannot.get(lang));
    }
    if name == "default" {
        out.push_str("[default]\n");
    } else {
        let _ = writeln!(out, "[profile {name}]");
    }
    let mode = match mode {
        AwsMode::Legacy => "legacy",
        _ => "standard",
    };
    let _ = writeln!(
        out,
        "retry_mode = {mode}\nmax_attempts = {}",
        p.max_attempts
    );
    Ok((out, cannot))
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
