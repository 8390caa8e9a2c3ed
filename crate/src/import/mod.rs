//! Reading a real library's retry configuration as a client policy of the cluster model
//! (`retrystorm import`): the file's settings mapped onto the engine's kinds for that
//! library ([`crate::cluster::libraries`], the budgets and breakers), with the library's
//! defaults filled in and its quirks said in words. Every setting that cannot be read is
//! a [`ValidationError`] naming its key path in the file, the value and what is allowed,
//! like a scenario's.
//!
//! [`import`] is a pure function of the text, so the page can call it from a wasm module
//! of its own; the words come from the catalogues beside each reader and in [`texts`](crate::import::texts).

mod aws;
mod cenkalti;
mod duration;
mod envoy;
pub mod export;
pub(crate) mod failsafe;
mod golang;
mod grpc;
mod ini;
mod linkerd;
mod policy;
mod polly;
mod properties;
mod resilience4j;
mod resilience4j_breaker;
mod spring;
mod tenacity;
pub mod texts;
mod tree;
pub mod words;

pub use policy::{Origins, Policy};

use crate::lang::{Lang, Texts};
use crate::validate::{ErrorKind, ValidationError};
use texts::Text;

/// Longest configuration text read, in bytes.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// The libraries whose configuration files can be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Library {
    /// Spring Boot `application.yml` / `.properties` with `resilience4j.retry.*` and
    /// `resilience4j.circuitbreaker.*`.
    Resilience4j,
    /// A gRPC service config (JSON, `methodConfig[].retryPolicy`, `retryThrottling`).
    Grpc,
    /// An AWS config file (`~/.aws/config`, a profile's `retry_mode` and `max_attempts`).
    Aws,
    /// Polly v8 / Microsoft.Extensions.Http.Resilience options in an `appsettings.json`
    /// (a section's `Retry` and `CircuitBreaker`).
    Polly,
    /// A Python tenacity decorator line (`@retry(stop=…, wait=…)`).
    Tenacity,
    /// An Envoy route `retry_policy` with its cluster's `circuit_breakers`, or an Istio
    /// `VirtualService` (with its `DestinationRule`).
    Envoy,
    /// Go code setting up a cenkalti/backoff `ExponentialBackOff` and its attempt limit.
    Cenkalti,
    /// Go code building a failsafe-go `retrypolicy` and `circuitbreaker`.
    Failsafe,
    /// A Finagle `RetryBudget(…)` line (Scala) or a Linkerd `ServiceProfile`.
    Finagle,
}

impl Library {
    /// Every library, in the order `--from` lists them.
    pub const ALL: [Library; 9] = [
        Library::Resilience4j,
        Library::Grpc,
        Library::Aws,
        Library::Polly,
        Library::Tenacity,
        Library::Envoy,
        Library::Cenkalti,
        Library::Failsafe,
        Library::Finagle,
    ];

    /// The name `--from` and `--to` take.
    pub fn name(self) -> &'static str {
        match self {
            Library::Resilience4j => "resilience4j",
            Library::Grpc => "grpc",
            Library::Aws => "aws",
            Library::Polly => "polly",
            Library::Tenacity => "tenacity",
            Library::Envoy => "envoy",
            Library::Cenkalti => "cenkalti",
            Library::Failsafe => "failsafe-go",
            Library::Finagle => "finagle",
        }
    }

    /// The library's own name, as its users write it.
    pub fn title(self) -> &'static str {
        match self {
            Library::Resilience4j => "Resilience4j",
            Library::Grpc => "gRPC",
            Library::Aws => "AWS SDK",
            Library::Polly => "Polly",
            Library::Tenacity => "tenacity",
            Library::Envoy => "Envoy",
            Library::Cenkalti => "cenkalti/backoff",
            Library::Failsafe => "failsafe-go",
            Library::Finagle => "Finagle / Linkerd",
        }
    }

    /// The library named as `--from` takes it.
    pub fn from_name(name: &str) -> Result<Library, ValidationError> {
        Library::ALL
            .into_iter()
            .find(|l| l.name() == name)
            .ok_or_else(|| {
                let names: Vec<_> = Library::ALL.iter().map(|l| l.name()).collect();
                ValidationError::new("--from", crate::validate::echo(name), names.join(", "))
                    .of_kind(ErrorKind::Type)
            })
    }

    /// Guesses the library from the text.
    pub fn detect(text: &str) -> Result<Library, ValidationError> {
        // Go code first: a Go file may mention "retry(" and "wait_" in its own names.
        if failsafe::looks_like(text) {
            Ok(Library::Failsafe)
        } else if cenkalti::looks_like(text) {
            Ok(Library::Cenkalti)
        } else if tenacity::looks_like(text) {
            Ok(Library::Tenacity)
        } else if text.trim_start().starts_with('{') && text.contains("methodConfig") {
            Ok(Library::Grpc)
        } else if polly::looks_like(text) {
            Ok(Library::Polly)
        } else if aws::looks_like(text) {
            Ok(Library::Aws)
        } else if envoy::looks_like(text) {
            Ok(Library::Envoy)
        } else if linkerd::looks_like(text) {
            Ok(Library::Finagle)
        } else if text.contains("resilience4j") {
            Ok(Library::Resilience4j)
        } else {
            let names: Vec<_> = Library::ALL.iter().map(|l| l.name()).collect();
            Err(ValidationError::document(format!(
                "the library is not recognised; name it with --from ({})",
                names.join(", ")
            )))
        }
    }
}

/// What a reader makes of a file: the policy and its notes; the words are added by
/// [`import`].
pub(crate) struct Read {
    /// Which part of the file was read (`instance inventory`).
    pub source: String,
    /// The policy, already checked by the engine.
    pub policy: Policy,
    /// Settings that do not do what their name suggests, in the reader's language.
    pub quirks: Vec<String>,
    /// Defaults filled in, `setting = value`.
    pub defaults: Vec<String>,
}

/// A client policy read from a configuration, and what it means in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The library it was read as.
    pub library: Library,
    /// Which part of the file was read (`instance inventory`).
    pub source: String,
    /// The policy.
    pub policy: Policy,
    /// What the policy does, one sentence per line, its source first.
    pub words: Vec<String>,
    /// Settings that do not do what their name suggests, as the library's code reads them.
    pub quirks: Vec<String>,
    /// Defaults the library fills in for settings the file leaves out (`setting = value`).
    pub defaults: Vec<String>,
}

impl Imported {
    /// The client policy's fields as JSON, to merge into a scenario's client.
    pub fn policy_json(&self) -> serde_json::Value {
        self.policy.to_json()
    }

    /// Everything as one JSON object (`library`, `source`, `policy`, `words`, `quirks`,
    /// `defaults`): what the page's paste box shows.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "library": self.library.name(),
            "source": self.source,
            "policy": self.policy_json(),
            "words": self.words,
            "quirks": self.quirks,
            "defaults": self.defaults,
        })
    }

    /// The explanation as the CLI prints it: the words, then each quirk and default.
    pub fn text(&self, lang: Lang) -> String {
        let mut out = String::new();
        for w in &self.words {
            out.push_str(w);
            out.push('\n');
        }
        for (label, lines) in [(Text::Note, &self.quirks), (Text::Default, &self.defaults)] {
            for l in lines {
                out.push_str(label.get(lang));
                out.push_str(l);
                out.push('\n');
            }
        }
        out
    }
}

/// Reads `text` as `library`'s configuration (`instance`: which named instance, route
/// or profile, when the file has several), in `lang`.
pub fn import(
    text: &str,
    library: Library,
    instance: Option<&str>,
    lang: Lang,
) -> Result<Imported, ValidationError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(ValidationError::document(format!(
            "a configuration of at most {MAX_TEXT_BYTES} bytes"
        )));
    }
    let read = match library {
        Library::Resilience4j => resilience4j::read(text, instance, lang),
        Library::Grpc => grpc::read(text, instance, lang),
        Library::Aws => aws::read(text, instance, lang),
        Library::Polly => polly::read(text, instance, lang),
        Library::Tenacity => tenacity::read(text, instance, lang),
        Library::Envoy => envoy::read(text, instance, lang),
        Library::Cenkalti => cenkalti::read(text, instance, lang),
        Library::Failsafe => failsafe::read(text, instance, lang),
        Library::Finagle => linkerd::read(text, instance, lang),
    }
    .map_err(worded)?;
    let mut words = vec![Text::Source.fill(lang, &[&library.title(), &read.source])];
    words.extend(words::words(&read.policy, lang));
    Ok(Imported {
        library,
        source: read.source,
        policy: read.policy,
        words,
        quirks: read.quirks,
        defaults: read.defaults,
    })
}

/// A setting that is absent "is missing", as a scenario's field is; the readers give
/// every other error its kind (a value of the wrong form "is not allowed", a number
/// beyond the engine's bounds "is out of range").
fn worded(e: ValidationError) -> ValidationError {
    if e.value == "missing" {
        e.of_kind(ErrorKind::Missing)
    } else {
        e
    }
}

#[cfg(test)]
mod tests;
