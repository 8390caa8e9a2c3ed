//! The client policy an import yields and an export reads: the fields of a cluster
//! client that a library's configuration decides (attempts, backoff, jitter, budget,
//! breaker), checked by the engine's own validation with each problem named at the
//! setting of the file it came from.

use crate::cluster::{Backoff, Breaker, Budget, Client, Jitter, Scenario};
use crate::validate::{ErrorKind, ValidationError};
use serde_json::Value;

/// A client policy: what a retry library's configuration sets.
#[derive(Debug, Clone, PartialEq)]
pub struct Policy {
    /// Attempts per call, the first included.
    pub max_attempts: u32,
    /// The wait before each retry.
    pub backoff: Backoff,
    /// The common jitter over it (none beside a library's own rule).
    pub jitter: Jitter,
    /// The retry budget or throttling.
    pub budget: Budget,
    /// The circuit breaker.
    pub breaker: Breaker,
}

impl Policy {
    /// Attempts and a backoff, with no jitter, budget or breaker.
    pub fn new(max_attempts: u32, backoff: Backoff) -> Self {
        Policy {
            max_attempts,
            backoff,
            jitter: Jitter::None,
            budget: Budget::None,
            breaker: Breaker::None,
        }
    }

    /// The policy of a client.
    pub fn of_client(c: &Client) -> Self {
        Policy {
            max_attempts: c.max_attempts,
            backoff: c.backoff.clone(),
            jitter: c.jitter.clone(),
            budget: c.budget.clone(),
            breaker: c.breaker.clone(),
        }
    }

    /// A client with this policy, the rest of it from `base`.
    pub fn on(&self, base: &Client) -> Client {
        let mut c = base.clone();
        c.max_attempts = self.max_attempts;
        c.backoff = self.backoff.clone();
        c.jitter = self.jitter.clone();
        c.budget = self.budget.clone();
        c.breaker = self.breaker.clone();
        c
    }

    /// The policy's fields as a client's JSON writes them, to merge into a client.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "max_attempts": self.max_attempts,
            "backoff": self.backoff,
            "jitter": self.jitter,
            "budget": self.budget,
            "breaker": self.breaker,
        })
    }

    /// Reads a client's JSON (`tiers[0].client` of a scenario): every field a client may
    /// have, checked as a scenario's client is.
    pub fn from_client_json(v: &Value, path: &str) -> Result<Policy, ValidationError> {
        let c: Client = crate::validate::from_value(v).map_err(|e| e.within(path))?;
        let p = Policy::of_client(&c);
        p.check().map_err(|e| e.within(path))?;
        Ok(p)
    }

    /// Reads the policy's own fields as [`Policy::to_json`] writes them (what `import`
    /// prints), the rest of the client being the engine's default, checked as a client is.
    pub fn from_json(v: &Value, path: &str) -> Result<Policy, ValidationError> {
        let mut client = serde_json::to_value(Client::default())
            .map_err(|e| ValidationError::new(path, "", e.to_string()).of_kind(ErrorKind::Type))?;
        if let (Some(c), Some(fields)) = (client.as_object_mut(), v.as_object()) {
            for (k, val) in fields {
                c.insert(k.clone(), val.clone());
            }
        }
        Policy::from_client_json(&client, path)
    }

    /// The engine's checks of these fields, as on any scenario's client; the error names
    /// the field inside the policy (`backoff.wait_duration_ms`).
    pub fn check(&self) -> Result<(), ValidationError> {
        let mut s = Scenario::default();
        let Some(tier) = s.tiers.iter_mut().find(|t| t.client.is_some()) else {
            return Ok(());
        };
        let base = tier.client.clone().unwrap_or_default();
        tier.client = Some(self.on(&base));
        let index = s.tiers.iter().position(|t| t.client.is_some()).unwrap_or(0);
        s.validate().map_err(|mut e| {
            let prefix = format!("tiers[{index}].client.");
            if let Some(rest) = e.field.strip_prefix(&prefix) {
                e.field = rest.to_string();
            }
            e
        })
    }
}

/// Where each of a policy's fields came from: the setting's key path in the file and its
/// value as written, so the engine's objection names what the reader wrote.
#[derive(Debug, Clone, Default)]
pub struct Origins(Vec<(String, String, String)>);

impl Origins {
    /// Records that the policy's `field` (`backoff.wait_duration_ms`) came from the file's
    /// `key` holding `value`.
    pub fn note(&mut self, field: &str, key: impl Into<String>, value: impl Into<String>) {
        self.0.push((field.to_string(), key.into(), value.into()));
    }

    /// The policy, if the engine accepts it; else its objection moved to the setting the
    /// field came from (the longest recorded field that holds it), with the engine's
    /// bound named in what is allowed.
    pub fn checked(&self, p: Policy) -> Result<Policy, ValidationError> {
        let Err(e) = p.check() else { return Ok(p) };
        let origin = self
            .0
            .iter()
            .filter(|(f, ..)| {
                e.field == *f
                    || e.field.starts_with(&format!("{f}."))
                    || e.field.starts_with(&format!("{f}["))
            })
            .max_by_key(|(f, ..)| f.len());
        match origin {
            Some((_, key, value)) => Err(ValidationError::new(
                key.clone(),
                crate::validate::echo(value),
                format!("{} = {} (the engine's bound)", e.field, e.allowed),
            )
            .of_kind(if e.kind == ErrorKind::Missing {
                ErrorKind::Range
            } else {
                e.kind
            })),
            None => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::libraries::Resilience4jBackoff;

    #[test]
    fn an_engine_bound_is_named_at_the_setting_it_came_from() {
        let p = Policy::new(
            3,
            Backoff::Resilience4j(Resilience4jBackoff {
                wait_duration_ms: 7_200_000,
                exponential_backoff_multiplier: None,
                randomized_wait_factor: None,
                exponential_max_wait_duration_ms: None,
            }),
        );
        let e = p.check().unwrap_err();
        assert_eq!(e.field, "backoff.wait_duration_ms");
        let mut o = Origins::default();
        o.note("backoff", "retry.instances.a", "…");
        o.note(
            "backoff.wait_duration_ms",
            "retry.instances.a.waitDuration",
            "2h",
        );
        let e = o.checked(p).unwrap_err();
        assert_eq!(e.field, "retry.instances.a.waitDuration");
        assert_eq!(e.value, "2h");
        assert_eq!(
            e.to_string(),
            "retry.instances.a.waitDuration = 2h is out of range: allowed \
             backoff.wait_duration_ms = 1..=3600000 (the engine's bound)"
        );
        let mut too_many = Policy::new(3, Backoff::None);
        // What `to_json` writes reads back as the same policy.
        assert_eq!(
            Policy::from_json(&too_many.to_json(), "policy").unwrap(),
            too_many
        );
        too_many.max_attempts = 11;
        o.note("max_attempts", "retry.instances.a.maxAttempts", "11");
        let e = o.checked(too_many).unwrap_err();
        assert_eq!(e.field, "retry.instances.a.maxAttempts");
    }
}
