//! A gRPC service config (JSON): `methodConfig[].retryPolicy` and `retryThrottling`, read
//! as grpc-go reads them (`service_config.go`: durations as `"0.1s"`, `maxAttempts`
//! required and above 1, clamped to 5 by the channel's `defaultMaxCallAttempts` in
//! `dialoptions.go`; `retryThrottling` one token bucket per channel).

use super::duration::proto_ms;
use super::policy::{Origins, Policy};
use super::tree::{self, Names, Node};
use super::Read;
use crate::cluster::libraries::{GrpcBackoff, GrpcClient, GrpcJitter};
use crate::cluster::{Backoff, Budget, Scope};
use crate::lang::{Lang, Texts};
use crate::validate::{ErrorKind, ValidationError};

crate::catalogue! {
    /// What a gRPC channel does that its service config does not say.
    pub enum Quirk {
        /// The channel's clamp: `{0}` as written, `{1}` the clamp.
        Clamped => ("gRPC 把 maxAttempts {0} 限制为 {1}", "gRPC clamps maxAttempts {0} to {1}"),
        /// Throttling is per channel.
        PerChannel => ("重试节流按每个通道（每个客户端实例）计算", "retry throttling is kept per channel (per caller instance)"),
    }
}

/// grpc-go's `defaultMaxCallAttempts`: a larger `maxAttempts` is treated as 5.
pub const MAX_CALL_ATTEMPTS: u32 = 5;

/// What a gRPC duration looks like, for messages.
const DURATION: &str = "a duration in seconds such as \"0.1s\"";

/// Reads a service config; `name` picks a `methodConfig` entry by one of its
/// `name[].service` (the first entry with a retry policy otherwise).
pub fn read(text: &str, name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let doc = tree::json(text)?;
    let root = Node::root(&doc);
    let config = method_config(&root, name)?;
    let rp = config
        .get("retryPolicy", Names::Exact)
        .ok_or_else(|| ValidationError::new("methodConfig", "missing", "a retryPolicy"))?;
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let field = |k: &str| {
        rp.get(k, Names::Exact).ok_or_else(|| {
            ValidationError::new(
                format!("{}.{k}", rp.path),
                "missing",
                "required in a retryPolicy",
            )
        })
    };
    let attempts_at = field("maxAttempts")?;
    let attempts = attempts_at.u64()?;
    if attempts < 2 {
        return Err(attempts_at
            .bad("a whole number > 1")
            .of_kind(ErrorKind::Range));
    }
    let clamped = attempts.min(u64::from(MAX_CALL_ATTEMPTS)) as u32;
    if attempts > u64::from(MAX_CALL_ATTEMPTS) {
        quirks.push(Quirk::Clamped.fill(lang, &[&attempts, &MAX_CALL_ATTEMPTS]));
    }
    let duration = |k: &str| -> Result<f64, ValidationError> {
        let n = field(k)?;
        let ms = n.ms(proto_ms, DURATION)?;
        if ms <= 0.0 {
            return Err(n.bad("a duration above 0").of_kind(ErrorKind::Range));
        }
        Ok(ms)
    };
    let initial = duration("initialBackoff")?;
    let max = duration("maxBackoff")?;
    let mult_at = field("backoffMultiplier")?;
    let multiplier = mult_at.f64()?;
    for (f, k) in [
        ("backoff.initial_backoff_ms", "initialBackoff"),
        ("backoff.max_backoff_ms", "maxBackoff"),
        ("backoff.backoff_multiplier", "backoffMultiplier"),
    ] {
        let n = field(k)?;
        origins.note(f, &n.path, n.shown());
    }
    let mut policy = Policy::new(
        clamped,
        Backoff::Grpc(GrpcBackoff {
            initial_backoff_ms: initial,
            backoff_multiplier: multiplier,
            max_backoff_ms: max,
            randomization: GrpcJitter::Plus20Percent,
            implementation: GrpcClient::Go,
        }),
    );
    if let Some(t) = root.get("retryThrottling", Names::Exact) {
        policy.budget = throttling(&t, &mut origins)?;
        quirks.push(Quirk::PerChannel.get(lang).to_string());
    }
    let source = config
        .get("name", Names::Exact)
        .and_then(|n| {
            n.items()
                .first()
                .and_then(|i| i.get("service", Names::Exact))
        })
        .and_then(|s| s.text())
        .unwrap_or_else(|| config.path.clone());
    Ok(Read {
        source,
        policy: origins.checked(policy)?,
        quirks,
        defaults: Vec::new(),
    })
}

/// The `methodConfig` entry that holds the retry policy.
fn method_config<'a>(root: &Node<'a>, name: Option<&str>) -> Result<Node<'a>, ValidationError> {
    let configs = root
        .get("methodConfig", Names::Exact)
        .filter(|c| matches!(c.node, yaml_rust2::Yaml::Array(_)))
        .ok_or_else(|| {
            ValidationError::new("methodConfig", "missing", "a list of method configs")
        })?;
    let services = |c: &Node| -> Vec<String> {
        c.get("name", Names::Exact)
            .map(|n| {
                n.items()
                    .iter()
                    .filter_map(|i| i.get("service", Names::Exact).and_then(|s| s.text()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let with_policy: Vec<Node> = configs
        .items()
        .into_iter()
        .filter(|c| c.get("retryPolicy", Names::Exact).is_some())
        .collect();
    let found = match name {
        Some(n) => with_policy
            .iter()
            .find(|c| services(c).iter().any(|s| s == n)),
        None => with_policy.first(),
    };
    found.cloned().ok_or_else(|| {
        let all: Vec<String> = with_policy.iter().flat_map(services).collect();
        ValidationError::new(
            if name.is_some() {
                "--instance"
            } else {
                "methodConfig"
            },
            crate::validate::echo(name.unwrap_or("none")),
            if all.is_empty() {
                "a method config with a retryPolicy".to_string()
            } else {
                format!("one of: {}", all.join(", "))
            },
        )
        .of_kind(ErrorKind::Type)
    })
}

/// `retryThrottling` as the channel's token bucket, one per client instance.
fn throttling(t: &Node, origins: &mut Origins) -> Result<Budget, ValidationError> {
    let get = |k: &str| {
        t.get(k, Names::Exact).ok_or_else(|| {
            ValidationError::new(
                format!("{}.{k}", t.path),
                "missing",
                "required in retryThrottling",
            )
        })
    };
    let tokens_at = get("maxTokens")?;
    let tokens = tokens_at.u64()?;
    let ratio_at = get("tokenRatio")?;
    let ratio = ratio_at.f64()?;
    origins.note("budget.max_tokens", &tokens_at.path, tokens_at.shown());
    origins.note("budget.token_ratio", &ratio_at.path, ratio_at.shown());
    Ok(Budget::GrpcThrottle {
        max_tokens: u32::try_from(tokens).unwrap_or(u32::MAX),
        token_ratio: ratio,
        scope: Scope::PerInstance,
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
