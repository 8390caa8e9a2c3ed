//! cenkalti/backoff settings as Go code writes them, read as the library does
//! (`exponential.go`, `tries.go`, `retry.go` of v4.1.3, Debian's
//! golang-github-cenkalti-backoff-dev 4.1.3-1; v5's `retry.go` options):
//!
//! - `b := backoff.NewExponentialBackOff()` then `b.InitialInterval = 100 *
//!   time.Millisecond`, `b.RandomizationFactor`, `b.Multiplier`, `b.MaxInterval`,
//!   `b.MaxElapsedTime` (the defaults 500 ms, 0.5, 1.5, 60 s, 15 min for the ones not set);
//!   v4.3's and v5's options `backoff.WithInitialInterval(…)` and friends the same;
//! - a composite literal `&backoff.ExponentialBackOff{InitialInterval: …}`, whose fields
//!   left out are Go's zero, not the defaults (a zero `Multiplier` or `MaxInterval` makes
//!   every wait after the first 0: refused, naming the field);
//! - `backoff.NewConstantBackOff(d)` and `&backoff.ZeroBackOff{}`;
//! - the attempt limit: v4 `backoff.WithMaxRetries(b, n)` counts *retries* (`tries.go`:
//!   `NextBackOff` is asked once per failure and stops after n), v5
//!   `backoff.WithMaxTries(n)` counts *attempts*, the first included.
//!
//! Without either the library retries until `MaxElapsedTime`, which the engine does not
//! model (its client has an attempt limit): refused, with what is allowed. Lines that are
//! not backoff settings are not read, and the note says which.

use super::golang::{self, args, calls, duration_ns, line_of, number, whole};
use super::policy::{Origins, Policy};
use super::Read;
use crate::cluster::libraries::CenkaltiBackoff;
use crate::cluster::Backoff;
use crate::lang::{Lang, Texts};
use crate::validate::{echo, ErrorKind, ValidationError};

crate::catalogue! {
    /// What cenkalti/backoff does that its code does not say.
    pub enum Quirk {
        /// WithMaxRetries: `{0}` as written, `{1}` retries, `{2}` attempts.
        CountsRetries => ("{0} 计的是重试次数，不含第一次调用：{2} 次尝试 = 1 次调用 + {1} 次重试", "{0} counts retries, not attempts: {2} attempts = 1 call + {1} retries"),
        /// WithMaxTries: `{0}` as written, `{1}` retries.
        CountsAttempts => ("{0} 计的是尝试次数（含第一次调用）：{1} 次重试", "{0} counts attempts, the first call included: {1} retries"),
        /// MaxElapsedTime is not simulated: `{0}` its value.
        ElapsedNotSimulated => ("MaxElapsedTime（{0}）未模拟：模拟中只按尝试次数停止重试", "MaxElapsedTime ({0}) is not simulated: the run stops retrying at the attempt limit only"),
        /// A composite literal's zero RandomizationFactor.
        LiteralNoJitter => ("复合字面量中未写 RandomizationFactor：它是 0（不是默认的 0.5），等待没有抖动", "the composite literal leaves RandomizationFactor out: it is 0 (not the default 0.5), so the waits are not jittered"),
        /// Lines not read: `{0}` their numbers.
        Unread => ("第 {0} 行不是退避设置，未读取", "lines {0} are not backoff settings: not read"),
    }
}

/// The fields of `ExponentialBackOff` a setting can name, and their option functions.
const FIELDS: [(&str, &str); 5] = [
    ("InitialInterval", "WithInitialInterval"),
    ("RandomizationFactor", "WithRandomizationFactor"),
    ("Multiplier", "WithMultiplier"),
    ("MaxInterval", "WithMaxInterval"),
    ("MaxElapsedTime", "WithMaxElapsedTime"),
];

/// Whether a text looks like cenkalti/backoff code.
pub fn looks_like(text: &str) -> bool {
    [
        "backoff.NewExponentialBackOff",
        "backoff.ExponentialBackOff{",
        "backoff.WithMaxRetries",
        "backoff.WithMaxTries",
        "backoff.NewConstantBackOff",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// One setting found in the code: the field, its key as written, the value's text, its
/// byte offset.
struct Setting {
    field: &'static str,
    key: String,
    value: String,
    at: usize,
}

/// Every setting of an `ExponentialBackOff` field in the code, in the order written.
fn settings(code: &str) -> Vec<Setting> {
    let mut out = Vec::new();
    for (field, option) in FIELDS {
        // `b.Field = value` (not `==`), up to the end of the line or a `;`.
        let dotted = format!(".{field}");
        let mut from = 0;
        while let Some(i) = code[from..].find(&dotted) {
            let at = from + i;
            from = at + dotted.len();
            let after = &code[from..];
            let next = after.chars().next();
            if next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let t = after.trim_start_matches([' ', '\t']);
            if !t.starts_with('=') || t.starts_with("==") {
                continue;
            }
            let value = &t[1..];
            let end = value.find(['\n', ';']).unwrap_or(value.len());
            let receiver = code[..at]
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .next()
                .unwrap_or("");
            out.push(Setting {
                field,
                key: format!("{receiver}.{field}"),
                value: value[..end].trim().to_string(),
                at,
            });
        }
        // `backoff.WithField(value)` (v4.3 and v5 options).
        for (at, a, _) in calls(code, option) {
            let key = format!("{option}(…)");
            match a.as_slice() {
                [v] => out.push(Setting {
                    field,
                    key,
                    value: v.clone(),
                    at,
                }),
                _ => out.push(Setting {
                    field,
                    key,
                    value: String::new(),
                    at,
                }),
            }
        }
    }
    // `ExponentialBackOff{Field: value, …}`.
    for lit in literals(code) {
        out.extend(lit.fields);
    }
    out.sort_by_key(|s| s.at);
    out
}

/// A composite literal `backoff.ExponentialBackOff{…}`: its offset and fields.
struct Literal {
    at: usize,
    fields: Vec<Setting>,
}

fn literals(code: &str) -> Vec<Literal> {
    let name = "backoff.ExponentialBackOff{";
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(name) {
        let at = from + i;
        let open = at + name.len() - 1;
        from = open + 1;
        let Some((parts, _)) = args(code, open) else {
            continue;
        };
        let mut fields = Vec::new();
        for p in parts {
            let Some((k, v)) = p.split_once(':') else {
                continue;
            };
            let k = k.trim();
            if let Some((field, _)) = FIELDS.iter().find(|(f, _)| *f == k) {
                fields.push(Setting {
                    field,
                    key: format!("ExponentialBackOff{{{field}}}"),
                    value: v.trim().to_string(),
                    at: open + code[open..].find(&p).unwrap_or(0),
                });
            }
        }
        out.push(Literal { at, fields });
    }
    out
}

/// The attempt limit as written.
struct Limit {
    attempts: u64,
    words: String,
    key: &'static str,
    value: String,
    at: usize,
}

/// The attempt limit (the tighter one if both are written).
fn attempts(code: &str, lang: Lang) -> Result<Limit, ValidationError> {
    let mut found: Vec<Limit> = Vec::new();
    for (at, a, _) in calls(code, "WithMaxRetries") {
        let key = "backoff.WithMaxRetries(b, n)";
        let [_, n] = a.as_slice() else {
            return Err(ValidationError::new(
                key,
                echo(&a.join(", ")),
                "two arguments: the backoff and the number of retries",
            )
            .of_kind(ErrorKind::Type));
        };
        let n = whole(n, key, 0)? as u64;
        let written = format!("backoff.WithMaxRetries(…, {n})");
        let words = Quirk::CountsRetries.fill(lang, &[&written, &n, &(n + 1)]);
        found.push(Limit {
            attempts: n.saturating_add(1),
            words,
            key,
            value: n.to_string(),
            at,
        });
    }
    for (at, a, _) in calls(code, "WithMaxTries") {
        let key = "backoff.WithMaxTries(n)";
        let [n] = a.as_slice() else {
            return Err(ValidationError::new(
                key,
                echo(&a.join(", ")),
                "one argument, the number of attempts",
            )
            .of_kind(ErrorKind::Type));
        };
        // v5: 0 is no limit (retry until MaxElapsedTime), which the engine cannot run.
        let n = whole(n, key, 1)? as u64;
        let written = format!("backoff.WithMaxTries({n})");
        let words = Quirk::CountsAttempts.fill(lang, &[&written, &n.saturating_sub(1)]);
        found.push(Limit {
            attempts: n,
            words,
            key,
            value: n.to_string(),
            at,
        });
    }
    // Both limits wrapped around one another: the tighter one stops first.
    found
        .into_iter()
        .min_by_key(|f| f.attempts)
        .ok_or_else(|| {
            ValidationError::new(
                "backoff.WithMaxRetries",
                "missing",
                "backoff.WithMaxRetries(b, N) (v4, N retries) or backoff.WithMaxTries(N) (v5, N attempts): \
                 without one the library retries until MaxElapsedTime, which the engine does not model",
            )
        })
}

/// Reads the code's backoff and attempt limit.
pub fn read(text: &str, _name: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let code = golang::uncommented(text);
    let mut origins = Origins::default();
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let mut read_lines = Vec::new();
    let limit = attempts(&code, lang)?;
    read_lines.push(line_of(&code, limit.at));
    origins.note("max_attempts", limit.key, &limit.value);
    quirks.push(limit.words);
    // The call that runs it reads nothing more, but it is not an unread setting.
    for (at, _, end) in calls(&code, "backoff.Retry") {
        read_lines.extend(line_of(&code, at)..=line_of(&code, end));
    }

    let found = settings(&code);
    let lits = literals(&code);
    let constant = calls(&code, "backoff.NewConstantBackOff")
        .last()
        .map(|(at, a, _)| (at, a));
    let zero = code.find("backoff.ZeroBackOff{");
    let exponential = code.find("backoff.NewExponentialBackOff(");
    let (source, backoff) = if let Some((at, a)) = constant.filter(|_| found.is_empty()) {
        read_lines.push(line_of(&code, at));
        let key = "backoff.NewConstantBackOff(d)";
        let [d] = a.as_slice() else {
            return Err(
                ValidationError::new(key, echo(&a.join(", ")), golang::DURATION)
                    .of_kind(ErrorKind::Type),
            );
        };
        let ns = duration_ns(d, key)?;
        if ns % 1e6 != 0.0 {
            return Err(ValidationError::new(
                key,
                echo(d),
                "whole milliseconds (the engine's constant wait)",
            )
            .of_kind(ErrorKind::Type));
        }
        origins.note("backoff.ms", key, d.clone());
        (
            "backoff.NewConstantBackOff".to_string(),
            Backoff::Constant {
                ms: (ns / 1e6) as u64,
            },
        )
    } else if let (Some(at), true) = (zero, found.is_empty()) {
        read_lines.push(line_of(&code, at));
        ("backoff.ZeroBackOff".to_string(), Backoff::None)
    } else if exponential.is_some() || !found.is_empty() || !lits.is_empty() {
        // A composite literal starts from Go's zeros; NewExponentialBackOff from the
        // library's defaults.
        let literal = lits.last().filter(|l| exponential.is_none_or(|e| l.at > e));
        let mut b = if literal.is_some() {
            CenkaltiBackoff {
                initial_interval_ms: 0.0,
                randomization_factor: 0.0,
                multiplier: 0.0,
                max_interval_ms: 0.0,
            }
        } else {
            CenkaltiBackoff {
                initial_interval_ms: 500.0,
                randomization_factor: 0.5,
                multiplier: 1.5,
                max_interval_ms: 60_000.0,
            }
        };
        let mut elapsed: Option<(String, f64)> = None;
        let mut set: Vec<&str> = Vec::new();
        for s in &found {
            read_lines.extend(line_of(&code, s.at)..=line_of(&code, s.at + s.value.len()));
            set.push(s.field);
            let (field, value) = match s.field {
                "RandomizationFactor" => {
                    ("backoff.randomization_factor", number(&s.value, &s.key)?)
                }
                "Multiplier" => ("backoff.multiplier", number(&s.value, &s.key)?),
                f => {
                    let ms = duration_ns(&s.value, &s.key)? / 1e6;
                    match f {
                        "InitialInterval" => ("backoff.initial_interval_ms", ms),
                        "MaxInterval" => ("backoff.max_interval_ms", ms),
                        _ => {
                            elapsed = Some((s.value.clone(), ms));
                            continue;
                        }
                    }
                }
            };
            match field {
                "backoff.randomization_factor" => b.randomization_factor = value,
                "backoff.multiplier" => b.multiplier = value,
                "backoff.initial_interval_ms" => b.initial_interval_ms = value,
                _ => b.max_interval_ms = value,
            }
            origins.note(field, &s.key, &s.value);
        }
        if let Some(l) = literal {
            read_lines.push(line_of(&code, l.at));
            for (field, why) in [
                ("Multiplier", "a multiplier ≥ 1: a composite literal leaves it 0, not the default 1.5, so every wait after the first is 0"),
                ("MaxInterval", "a duration: a composite literal leaves it 0, not the default 60 s, so every wait after the first is 0"),
            ] {
                if !set.contains(&field) {
                    return Err(ValidationError::new(
                        format!("ExponentialBackOff{{{field}}}"),
                        "missing",
                        why,
                    ));
                }
            }
            if !set.contains(&"RandomizationFactor") {
                quirks.push(Quirk::LiteralNoJitter.get(lang).to_string());
            }
            if !set.contains(&"InitialInterval") {
                return Err(ValidationError::new(
                    "ExponentialBackOff{InitialInterval}",
                    "missing",
                    "a duration: a composite literal leaves it 0, so no wait grows from it",
                ));
            }
        } else {
            if let Some(e) = exponential {
                read_lines.push(line_of(&code, e));
            }
            for (field, default) in [
                ("InitialInterval", "500 * time.Millisecond"),
                ("RandomizationFactor", "0.5"),
                ("Multiplier", "1.5"),
                ("MaxInterval", "60 * time.Second"),
            ] {
                if !set.contains(&field) {
                    defaults.push(format!("{field} = {default}"));
                }
            }
        }
        let elapsed_words = match &elapsed {
            // Zero: never stops on time, nothing to say.
            Some((_, ms)) if *ms == 0.0 => None,
            Some((v, _)) => Some(v.clone()),
            None if literal.is_none() => {
                defaults.push("MaxElapsedTime = 15 * time.Minute".to_string());
                Some("15 * time.Minute".to_string())
            }
            None => None,
        };
        if let Some(v) = elapsed_words {
            quirks.push(Quirk::ElapsedNotSimulated.fill(lang, &[&v]));
        }
        origins.note("backoff", "backoff.ExponentialBackOff", "…");
        let source = if literal.is_some() {
            "backoff.ExponentialBackOff{…}"
        } else {
            "backoff.NewExponentialBackOff()"
        };
        (source.to_string(), Backoff::CenkaltiBackoff(b))
    } else {
        return Err(ValidationError::new(
            "backoff",
            "missing",
            "backoff.NewExponentialBackOff(), &backoff.ExponentialBackOff{…}, backoff.NewConstantBackOff(d) or &backoff.ZeroBackOff{}",
        ));
    };
    if let Some(lines) = golang::unread_lines(&code, &read_lines) {
        quirks.push(Quirk::Unread.fill(lang, &[&lines]));
    }
    let attempts = u32::try_from(limit.attempts).unwrap_or(u32::MAX);
    Ok(Read {
        source,
        policy: origins.checked(Policy::new(attempts, backoff))?,
        quirks,
        defaults,
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
