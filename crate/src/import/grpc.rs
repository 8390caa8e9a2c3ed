//! A gRPC service config (JSON): `methodConfig[].retryPolicy` and `retryThrottling`, read
//! as grpc-go reads them (`service_config.go`: durations as `"0.1s"`, `maxAttempts`
//! clamped to 5 by the channel's `defaultMaxCallAttempts`, `dialoptions.go`).

use super::{attempts_words, first_waits, Imported, Library};
use crate::cluster::libraries::{GrpcBackoff, GrpcClient, GrpcJitter};
use crate::cluster::{Backoff, Budget, Scope};
use crate::lang::Lang;
use crate::validate::ValidationError;
use serde_json::Value;

/// grpc-go's `defaultMaxCallAttempts`: a larger `maxAttempts` is treated as 5.
const MAX_CALL_ATTEMPTS: u32 = 5;

/// A gRPC duration (`"0.1s"`: decimal seconds and an `s`), in ms.
fn duration_ms(v: &Value, at: &str) -> Result<f64, ValidationError> {
    let bad = || {
        ValidationError::new(
            at,
            crate::validate::echo(&v.to_string()),
            "a duration in seconds such as \"0.1s\"",
        )
    };
    let s = v.as_str().ok_or_else(bad)?;
    let secs: f64 = s
        .strip_suffix('s')
        .ok_or_else(bad)?
        .parse()
        .map_err(|_| bad())?;
    if !(secs.is_finite() && secs > 0.0) {
        return Err(bad());
    }
    Ok(secs * 1000.0)
}

/// Reads a service config; `name` picks a `methodConfig` entry by its first
/// `name[].service` (the first entry with a retry policy otherwise).
pub fn read(text: &str, name: Option<&str>, lang: Lang) -> Result<Imported, ValidationError> {
    let doc: Value = crate::validate::parse_json(text)?;
    let configs = doc
        .get("methodConfig")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            ValidationError::new("methodConfig", "missing", "a list of method configs")
        })?;
    let pick = configs.iter().enumerate().find(|(_, c)| {
        c.get("retryPolicy").is_some()
            && name.is_none_or(|n| {
                c.get("name")
                    .and_then(Value::as_array)
                    .is_some_and(|names| {
                        names
                            .iter()
                            .any(|x| x.get("service").and_then(Value::as_str) == Some(n))
                    })
            })
    });
    let (i, config) = pick.ok_or_else(|| {
        ValidationError::new(
            "methodConfig",
            name.unwrap_or("any"),
            "a method config with a retryPolicy",
        )
    })?;
    let at = |k: &str| format!("methodConfig[{i}].retryPolicy.{k}");
    let rp = &config["retryPolicy"];
    let attempts = rp
        .get("maxAttempts")
        .and_then(Value::as_u64)
        .ok_or_else(|| {
            ValidationError::new(
                at("maxAttempts"),
                rp.get("maxAttempts")
                    .map_or("missing".into(), Value::to_string),
                "a whole number > 1",
            )
        })?;
    if attempts < 2 {
        return Err(ValidationError::new(
            at("maxAttempts"),
            attempts,
            "a whole number > 1",
        ));
    }
    let mut quirks = Vec::new();
    let clamped = (attempts as u32).min(MAX_CALL_ATTEMPTS);
    if attempts > u64::from(MAX_CALL_ATTEMPTS) {
        quirks.push(match lang {
            Lang::Zh => format!("gRPC 把 maxAttempts {attempts} 限制为 {MAX_CALL_ATTEMPTS}"),
            Lang::En => format!("gRPC clamps maxAttempts {attempts} to {MAX_CALL_ATTEMPTS}"),
        });
    }
    let field = |k: &str| {
        rp.get(k)
            .ok_or_else(|| ValidationError::new(at(k), "missing", "required in a retryPolicy"))
    };
    let initial = duration_ms(field("initialBackoff")?, &at("initialBackoff"))?;
    let max = duration_ms(field("maxBackoff")?, &at("maxBackoff"))?;
    let multiplier = field("backoffMultiplier")?
        .as_f64()
        .filter(|m| *m > 0.0)
        .ok_or_else(|| {
            ValidationError::new(
                at("backoffMultiplier"),
                rp["backoffMultiplier"].to_string(),
                "a number > 0",
            )
        })?;
    let backoff = Backoff::Grpc(GrpcBackoff {
        initial_backoff_ms: initial,
        backoff_multiplier: multiplier,
        max_backoff_ms: max,
        randomization: GrpcJitter::Plus20Percent,
        implementation: GrpcClient::Go,
    });
    let budget = match doc.get("retryThrottling") {
        None => None,
        Some(t) => {
            let tokens = t
                .get("maxTokens")
                .and_then(Value::as_u64)
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| {
                    ValidationError::new(
                        "retryThrottling.maxTokens",
                        t.get("maxTokens")
                            .map_or("missing".into(), Value::to_string),
                        "1..=1000",
                    )
                })?;
            let ratio = t
                .get("tokenRatio")
                .and_then(Value::as_f64)
                .filter(|r| *r > 0.0)
                .ok_or_else(|| {
                    ValidationError::new(
                        "retryThrottling.tokenRatio",
                        t.get("tokenRatio")
                            .map_or("missing".into(), Value::to_string),
                        "a number > 0",
                    )
                })?;
            Some(Budget::GrpcThrottle {
                max_tokens: tokens as u32,
                token_ratio: ratio,
                scope: Scope::PerInstance,
            })
        }
    };
    let zh = lang == Lang::Zh;
    let mut words = vec![
        if zh {
            "gRPC 重试策略".to_string()
        } else {
            "gRPC retry policy".to_string()
        },
        attempts_words(clamped, lang),
    ];
    let waits = first_waits(&backoff, clamped - 1);
    words.push(if zh {
        format!(
            "等待 {waits}（×{multiplier}），各 ±20%，退避最长 {}",
            super::ms_words(max)
        )
    } else {
        format!(
            "waits {waits} (×{multiplier}), each ±20%, backoff at most {}",
            super::ms_words(max)
        )
    });
    if let Some(Budget::GrpcThrottle {
        max_tokens,
        token_ratio,
        ..
    }) = &budget
    {
        words.push(if zh {
            format!("重试节流：{max_tokens} 个令牌，每次失败 −1，每次成功 +{token_ratio}，令牌 ≤ {} 时不再重试", *max_tokens as f64 / 2.0)
        } else {
            format!("retry throttling: {max_tokens} tokens, −1 per failure, +{token_ratio} per success, no retries while tokens ≤ {}", *max_tokens as f64 / 2.0)
        });
    }
    Ok(Imported {
        library: Library::Grpc,
        max_attempts: clamped,
        backoff,
        budget,
        words,
        quirks,
        defaults: Vec::new(),
    })
}
