//! A policy as a gRPC service config (JSON): one `methodConfig` with its `retryPolicy`
//! and the channel's `retryThrottling`, as grpc-go reads them (`service_config.go`), the
//! mirror of [`crate::import`]'s gRPC reader.

use super::{checked_name, nearest, nearest_wait, Cannot};
use crate::cluster::libraries::{GrpcBackoff, GrpcClient, GrpcJitter};
use crate::cluster::{Backoff, Budget, Scope};
use crate::import::grpc::MAX_CALL_ATTEMPTS;
use crate::import::policy::Policy;
use crate::import::words;
use crate::import::Library;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;
use std::fmt::Write;

crate::catalogue! {
    /// What a service config cannot say about a policy.
    pub enum Quirk {
        /// More attempts than the channel allows: `{0}` the policy's, `{1}` the clamp.
        Clamped => ("gRPC 通道把 maxAttempts 限制为 {1}：策略的 {0} 次尝试写成 {1} 次", "a gRPC channel clamps maxAttempts to {1}: the policy's {0} attempts are written as {1}"),
        /// One attempt.
        NoRetryPolicy => ("gRPC 的 retryPolicy 需要 maxAttempts ≥ 2：1 次尝试写成没有 retryPolicy 的 methodConfig", "a gRPC retryPolicy needs maxAttempts ≥ 2: one attempt is written as a methodConfig without one"),
        /// Full jitter.
        ClientJitter => ("服务配置不能选择抖动：grpc-go 和 grpc-js 乘以 U(0.8, 1.2)，只有 grpc-java 默认取 U(0, 退避)", "a service config cannot choose the jitter: grpc-go and grpc-js multiply by U(0.8, 1.2); only grpc-java draws U(0, backoff) by default"),
        /// grpc-js's arithmetic.
        ClientArithmetic => ("服务配置不能选择客户端：这个策略按 grpc-js 的算术（毫秒取整）等待，grpc-go 按纳秒计算", "a service config cannot choose the client: this policy waits by grpc-js's arithmetic (whole ms); grpc-go computes in nanoseconds"),
    }
}

/// The status codes written as retryable (the engine's `retry_on` decides what fails
/// and how; a `retryPolicy` needs at least one).
const RETRYABLE: &str = "[\"UNAVAILABLE\"]";

/// `(text, what cannot be expressed)` for service `name`.
pub fn write(p: &Policy, name: &str, lang: Lang) -> Result<(String, Vec<String>), ValidationError> {
    checked_name(
        name,
        &['_', '-', '.', '/'],
        "a service name of letters, digits, _, -, . and /",
    )?;
    let lib = Library::Grpc;
    let mut cannot = Vec::new();
    let mut out = String::from("{\n  \"methodConfig\": [\n    {\n");
    let _ = write!(out, "      \"name\": [{{\"service\": \"{name}\"}}]");
    if p.max_attempts < 2 {
        cannot.push(Quirk::NoRetryPolicy.get(lang).to_string());
    } else {
        let attempts = p.max_attempts.min(MAX_CALL_ATTEMPTS);
        if p.max_attempts > MAX_CALL_ATTEMPTS {
            cannot.push(Quirk::Clamped.fill(lang, &[&p.max_attempts, &MAX_CALL_ATTEMPTS]));
        }
        let (g, exact) = backoff(p);
        if !exact {
            cannot.extend(nearest_wait(lib, p, &Backoff::Grpc(g.clone()), lang));
        }
        if let Backoff::Grpc(own) = &p.backoff {
            if own.randomization == GrpcJitter::Full {
                cannot.push(Quirk::ClientJitter.get(lang).to_string());
            }
            if own.implementation == GrpcClient::Node {
                cannot.push(Quirk::ClientArithmetic.get(lang).to_string());
            }
        }
        let _ = write!(
            out,
            ",\n      \"retryPolicy\": {{\n        \"maxAttempts\": {attempts},\n        \
             \"initialBackoff\": \"{}\",\n        \"maxBackoff\": \"{}\",\n        \
             \"backoffMultiplier\": {},\n        \"retryableStatusCodes\": {RETRYABLE}\n      }}",
            seconds(g.initial_backoff_ms),
            seconds(g.max_backoff_ms),
            g.backoff_multiplier
        );
    }
    out.push_str("\n    }\n  ]");
    match &p.budget {
        Budget::None => {}
        Budget::GrpcThrottle {
            max_tokens,
            token_ratio,
            scope,
        } => {
            let _ = write!(
                out,
                ",\n  \"retryThrottling\": {{\"maxTokens\": {max_tokens}, \"tokenRatio\": {token_ratio}}}"
            );
            if *scope == Scope::Shared {
                cannot.push(Cannot::SharedBudget.fill(lang, &[&lib.title()]));
            }
        }
        other => {
            let b = words::budget(other, lang).unwrap_or_default();
            cannot.push(Cannot::OtherBudget.fill(lang, &[&lib.title(), &b]));
        }
    }
    out.push_str("\n}\n");
    if let Some(b) = words::breaker(&p.breaker, lang) {
        cannot.push(Cannot::NoBreaker.fill(lang, &[&lib.title(), &b]));
    }
    Ok((out, cannot))
}

/// The retry policy's backoff, and whether it is the policy's exactly.
fn backoff(p: &Policy) -> (GrpcBackoff, bool) {
    let grpc = |initial: f64, multiplier: f64, max: f64| GrpcBackoff {
        initial_backoff_ms: initial,
        backoff_multiplier: multiplier,
        max_backoff_ms: max,
        randomization: GrpcJitter::Plus20Percent,
        implementation: GrpcClient::Go,
    };
    match (&p.backoff, &p.jitter) {
        (Backoff::Grpc(g), _) => (g.clone(), true),
        (b, _) => {
            let n = nearest(b, p.max_attempts.saturating_sub(1));
            // A retryPolicy's backoffs must be above 0: 1 ms is the nearest to at once.
            let first = n.first_ms.max(1.0);
            (grpc(first, n.multiplier, n.max_ms.max(first)), false)
        }
    }
}

/// A protobuf JSON duration (`"0.1s"`): whole nanoseconds in decimal seconds, what
/// grpc-go keeps; reading it back gives `ms` whenever `ms` was read from such a text. A
/// duration finer than that is written in full, so that it still reads back.
fn seconds(ms: f64) -> String {
    let ns = (ms * 1e6).round() as u64;
    let frac = format!("{:09}", ns % 1_000_000_000);
    let frac = frac.trim_end_matches('0');
    let decimal = if frac.is_empty() {
        format!("{}s", ns / 1_000_000_000)
    } else {
        format!("{}.{frac}s", ns / 1_000_000_000)
    };
    if crate::import::duration::proto_ms(&decimal) == Some(ms) {
        decimal
    } else {
        format!("{}s", ms / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }

    #[test]
    fn durations_are_written_as_the_decimal_seconds_they_were_read_from() {
        use crate::import::duration::proto_ms;
        for text in ["0.1s", "2s", "0.000000001s", "1.2345678s", "3600s", "0.25s"] {
            assert_eq!(seconds(proto_ms(text).unwrap()), text);
        }
        // A duration no text gave still reads back as it is.
        for ms in [0.000_001, 1e-7, 1_234.567_890_123] {
            assert_eq!(proto_ms(&seconds(ms)), Some(ms), "{}", seconds(ms));
        }
    }
}
