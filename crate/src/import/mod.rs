//! Reading a real library's retry configuration as a client policy of the cluster model
//! (`retrystorm import`): the file's settings mapped onto the library's own backoff rule
//! ([`crate::cluster::libraries`]), with the library's defaults filled in and its quirks
//! said in words. Every setting that cannot be read is a [`ValidationError`] naming its
//! key path in the file, the value and what is allowed, like a scenario's.

mod duration;
mod grpc;
mod resilience4j;

use crate::cluster::{Backoff, Budget, Jitter};
use crate::lang::Lang;
use crate::validate::ValidationError;

/// The libraries whose configuration files can be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Library {
    /// Spring Boot `application.yml` with `resilience4j.retry.*`.
    Resilience4j,
    /// A gRPC service config (JSON, `methodConfig[].retryPolicy`, `retryThrottling`).
    Grpc,
}

impl Library {
    /// The library named as `--from` takes it.
    pub fn from_name(name: &str) -> Result<Library, ValidationError> {
        match name {
            "resilience4j" => Ok(Library::Resilience4j),
            "grpc" => Ok(Library::Grpc),
            other => Err(ValidationError::new(
                "--from",
                other,
                "resilience4j or grpc",
            )),
        }
    }

    /// Guesses the library from the text: a JSON object with `methodConfig` is a gRPC
    /// service config; a text naming `resilience4j` is a Spring Boot file.
    pub fn detect(text: &str) -> Result<Library, ValidationError> {
        if text.trim_start().starts_with('{') && text.contains("methodConfig") {
            Ok(Library::Grpc)
        } else if text.contains("resilience4j") {
            Ok(Library::Resilience4j)
        } else {
            Err(ValidationError::document(
                "the library is not recognised: a Spring Boot file with resilience4j.retry or a gRPC service config (JSON with methodConfig); name it with --from",
            ))
        }
    }
}

/// A client policy read from a configuration, and what it means in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The library it was read as.
    pub library: Library,
    /// Attempts per call, the first included (the engine's `max_attempts`).
    pub max_attempts: u32,
    /// The library's own backoff rule with the settings read.
    pub backoff: Backoff,
    /// The retry budget, when the configuration has one.
    pub budget: Option<Budget>,
    /// What the policy does, one sentence per line.
    pub words: Vec<String>,
    /// Settings that do not do what their name suggests, as the library's code reads them.
    pub quirks: Vec<String>,
    /// Defaults the library fills in for settings the file leaves out.
    pub defaults: Vec<String>,
}

impl Imported {
    /// The client policy's fields as JSON: `max_attempts`, `backoff`, `jitter` (none: the
    /// library's rule randomizes by itself) and `budget` when there is one.
    pub fn policy_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "max_attempts": self.max_attempts,
            "backoff": self.backoff,
            "jitter": Jitter::None,
        });
        if let Some(b) = &self.budget {
            v["budget"] = serde_json::to_value(b).unwrap_or_default();
        }
        v
    }

    /// The explanation as the CLI prints it.
    pub fn text(&self, lang: Lang) -> String {
        let mut out = String::new();
        for w in &self.words {
            out.push_str(w);
            out.push('\n');
        }
        let (quirk, default) = match lang {
            Lang::Zh => ("注意：", "默认值："),
            Lang::En => ("note: ", "default: "),
        };
        for q in &self.quirks {
            out.push_str(quirk);
            out.push_str(q);
            out.push('\n');
        }
        for d in &self.defaults {
            out.push_str(default);
            out.push_str(d);
            out.push('\n');
        }
        out
    }
}

/// Reads `text` as `library`'s configuration (`instance`: which named instance, when the
/// file has several).
pub fn import(
    text: &str,
    library: Library,
    instance: Option<&str>,
    lang: Lang,
) -> Result<Imported, ValidationError> {
    match library {
        Library::Resilience4j => resilience4j::read(text, instance, lang),
        Library::Grpc => grpc::read(text, instance, lang),
    }
}

/// The first waits of a backoff at the middle of its random range, "500 ms, 750 ms, 1.1 s".
fn first_waits(b: &Backoff, retries: u32) -> String {
    (1..=retries.min(4))
        .map(|n| ms_words(crate::cluster::backoff::base_delay(b, n) as f64 / 1000.0))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A duration in words: "750 ms", "1.5 s", "2 min".
fn ms_words(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{} ms", (ms * 10.0).round() / 10.0)
    } else if ms < 120_000.0 {
        format!("{} s", (ms / 100.0).round() / 10.0)
    } else {
        format!("{} min", (ms / 6000.0).round() / 10.0)
    }
}

/// "3 attempts = 1 call + 2 retries" in `lang`.
fn attempts_words(attempts: u32, lang: Lang) -> String {
    let retries = attempts.saturating_sub(1);
    match lang {
        Lang::Zh => format!("{attempts} 次尝试 = 1 次调用 + {retries} 次重试"),
        Lang::En => format!(
            "{attempts} attempts = 1 call + {retries} {}",
            if retries == 1 { "retry" } else { "retries" }
        ),
    }
}

#[cfg(test)]
mod tests;
