//! Writing a client policy as a library's configuration (`retrystorm export`): the
//! snippet the library reads, so that [`import`](crate::import::import) of it gives the
//! same policy back wherever the library can say it, and what it cannot say in words
//! ("Resilience4j has no retry budget: …") instead of silently dropped.
//!
//! [`export`] is a pure function of the policy, like `import`; each library's writer is
//! the mirror of its reader.

mod aws;
mod cenkalti;
pub mod classic;
mod envoy;
mod failsafe;
mod finagle;
mod grpc;
mod polly;
mod resilience4j;
mod tenacity;

use super::policy::Policy;
use super::words::{self, Draw};
use super::Library;
use crate::cluster::{Backoff, Jitter};
use crate::lang::{Lang, Texts};
use crate::validate::{ErrorKind, ValidationError};

crate::catalogue! {
    /// What a library's configuration cannot say about a policy.
    pub enum Cannot {
        /// No retry budget at all: `{0}` the library, `{1}` the budget in words.
        NoBudget => ("{0} 没有重试预算，策略中的预算未写入（{1}）", "{0} has no retry budget, so the policy's is left out ({1})"),
        /// A budget of another kind: `{0}` the library, `{1}` the budget in words.
        OtherBudget => ("{0} 只有它自己的重试节流（maxTokens、tokenRatio 的令牌桶），策略中的预算未写入（{1}）", "{0}'s only budget is its own retry throttling (a maxTokens/tokenRatio token bucket), so the policy's is left out ({1})"),
        /// No breaker at all: `{0}` the library, `{1}` the breaker in words.
        NoBreaker => ("{0} 没有熔断器，策略中的熔断器未写入（{1}）", "{0} has no circuit breaker, so the policy's is left out ({1})"),
        /// A breaker of another kind: `{0}` the library, `{1}` the breaker in words.
        OtherBreaker => ("{0} 的熔断器按计数或时间窗口的失败率判断，策略中的这种熔断器未写入（{1}）", "{0}'s breaker judges a failure rate over a count or time window, so the policy's is left out ({1})"),
        /// A wait the library cannot write: `{0}` the library, `{1}` the policy's waits,
        /// `{2}` the written ones.
        NearestWait => ("{0} 无法精确写出这种等待（{1}）；写入的是最接近的：{2}", "{0} cannot write this wait exactly ({1}); the nearest it can is written: {2}"),
        /// A budget shared by the tier: `{0}` the library.
        SharedBudget => ("{0} 的重试节流按每个客户端实例（通道）各一份：整个调用层共用的预算写成每个实例各一份", "{0} keeps its retry throttling per client instance (per channel): the budget the calling tier shares is written as one per instance"),
        /// A breaker shared by the tier: `{0}` the library.
        SharedBreaker => ("{0} 的熔断器按每个客户端实例各一个：整个调用层共用的熔断器写成每个实例各一个", "{0} keeps one breaker per client instance: the breaker the calling tier shares is written as one per instance"),
    }
}

crate::catalogue! {
    /// The exported file's own words.
    pub enum Header {
        /// The first comment line: `{0}` the library, `{1}` the file.
        Written => ("{0}（{1}），由 retrystorm 写出", "{0} ({1}), written by retrystorm"),
    }
}

/// A policy written as a library's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// The library written for.
    pub library: Library,
    /// The configuration text (YAML or JSON, as the library reads it).
    pub text: String,
    /// What the library cannot express about the policy, one sentence each.
    pub cannot: Vec<String>,
}

impl Exported {
    /// Everything as one JSON object (`library`, `text`, `cannot`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "library": self.library.name(),
            "text": self.text,
            "cannot": self.cannot,
        })
    }
}

/// Writes `policy` as `library`'s configuration, its instance, route or service named
/// `name`, with what the library cannot express said in `lang`.
pub fn export(
    policy: &Policy,
    library: Library,
    name: &str,
    lang: Lang,
) -> Result<Exported, ValidationError> {
    let (text, cannot) = match library {
        Library::Resilience4j => resilience4j::write(policy, name, lang)?,
        Library::Grpc => grpc::write(policy, name, lang)?,
        Library::Aws => aws::write(policy, name, lang)?,
        Library::Polly => polly::write(policy, name, lang)?,
        Library::Tenacity => tenacity::write(policy, lang),
        Library::Envoy => envoy::write(policy, name, lang)?,
        Library::Cenkalti => cenkalti::write(policy, lang),
        Library::Failsafe => failsafe::write(policy, lang),
        Library::Finagle => finagle::write(policy, lang),
    };
    Ok(Exported {
        library,
        text,
        cannot,
    })
}

/// A name a file can hold as it is: letters, digits and `allowed`, 1..=100 of them.
fn checked_name(name: &str, allowed: &[char], what: &str) -> Result<(), ValidationError> {
    let ok = !name.is_empty()
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || allowed.contains(&c));
    if ok {
        Ok(())
    } else {
        Err(
            ValidationError::new("--instance", crate::validate::echo(name), what)
                .of_kind(ErrorKind::Type),
        )
    }
}

/// The nearest exponential to a backoff the library cannot write: the engine's first
/// wait, the growth from the first to the second and the longest wait over `retries`,
/// each at the middle of its random range; ms.
struct Nearest {
    first_ms: f64,
    multiplier: f64,
    max_ms: f64,
}

fn nearest(b: &Backoff, retries: u32) -> Nearest {
    let mut carry = 0;
    let sleeps: Vec<f64> = (1..=retries.clamp(2, 64))
        .map(|k| {
            crate::cluster::backoff::sleep(b, &Jitter::None, k, &mut carry, &mut Draw(0.5)) as f64
                / 1000.0
        })
        .collect();
    let first_ms = sleeps[0];
    let multiplier = if first_ms > 0.0 {
        (sleeps[1] / first_ms * 1000.0).round() / 1000.0
    } else {
        1.0
    };
    Nearest {
        first_ms,
        multiplier: multiplier.max(1.0),
        max_ms: sleeps.iter().copied().fold(first_ms, f64::max),
    }
}

/// The "cannot write this wait exactly" sentence, unless `written` waits exactly as the
/// policy does (the same sleep before every retry at every draw tried: a constant wait of
/// one library is another's constant wait).
fn nearest_wait(library: Library, p: &Policy, written: &Backoff, lang: Lang) -> Option<String> {
    let retries = p.max_attempts.saturating_sub(1).max(1);
    let same = [0.0, 0.37, 0.5, 0.999].iter().all(|&u| {
        let (mut a, mut b) = (0, 0);
        (1..=retries.min(64)).all(|k| {
            crate::cluster::backoff::sleep(&p.backoff, &p.jitter, k, &mut a, &mut Draw(u))
                == crate::cluster::backoff::sleep(written, &Jitter::None, k, &mut b, &mut Draw(u))
        })
    });
    (!same).then(|| {
        Cannot::NearestWait.fill(
            lang,
            &[
                &library.title(),
                &words::waits(&p.backoff, &p.jitter, retries, lang),
                &words::waits(written, &Jitter::None, retries, lang),
            ],
        )
    })
}

#[cfg(test)]
mod tests;
