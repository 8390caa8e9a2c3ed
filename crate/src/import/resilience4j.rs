//! Spring Boot's `resilience4j.retry.*` (`application.yml`), read as the Spring starter
//! reads it: `CommonRetryConfigurationProperties` (resilience4j-framework-common 2.x) —
//! `configs.default` under every instance unless `baseConfig` names another, relaxed
//! names (`wait-duration` = `waitDuration`), and `configureRetryIntervalFunction`'s
//! choice of interval function, quirks included.

use super::duration::spring_ms;
use super::{attempts_words, first_waits, Imported, Library};
use crate::cluster::libraries::Resilience4jBackoff;
use crate::cluster::{Backoff, MAX_ATTEMPTS};
use crate::lang::Lang;
use crate::validate::ValidationError;
use yaml_rust2::{Yaml, YamlLoader};

/// `maxAttempts` when the file leaves it out (`RetryConfig.DEFAULT_MAX_ATTEMPTS`).
const DEFAULT_MAX_ATTEMPTS: u32 = 3;
/// `waitDuration` when the file leaves it out (`RetryConfig.DEFAULT_WAIT_DURATION`), ms.
const DEFAULT_WAIT_MS: u64 = 500;
/// `IntervalFunction.DEFAULT_MULTIPLIER`.
const DEFAULT_MULTIPLIER: f64 = 1.5;
/// `IntervalFunction.DEFAULT_RANDOMIZATION_FACTOR`.
const DEFAULT_FACTOR: f64 = 0.5;

/// One instance's (or config's) retry properties, each with the key path it came from.
#[derive(Default, Clone)]
struct Props {
    wait_duration: Option<(String, f64)>,
    max_attempts: Option<(String, u32)>,
    enable_exponential_backoff: Option<(String, bool)>,
    exponential_backoff_multiplier: Option<(String, f64)>,
    exponential_max_wait_duration: Option<(String, f64)>,
    enable_randomized_wait: Option<(String, bool)>,
    randomized_wait_factor: Option<(String, f64)>,
    base_config: Option<String>,
}

impl Props {
    /// `ConfigUtils.mergePropertiesIfAny`: what `self` (the instance) leaves out comes from `base`.
    fn over(self, base: &Props) -> Props {
        Props {
            wait_duration: self.wait_duration.or(base.wait_duration.clone()),
            max_attempts: self.max_attempts.or(base.max_attempts.clone()),
            enable_exponential_backoff: self
                .enable_exponential_backoff
                .or(base.enable_exponential_backoff.clone()),
            exponential_backoff_multiplier: self
                .exponential_backoff_multiplier
                .or(base.exponential_backoff_multiplier.clone()),
            exponential_max_wait_duration: self
                .exponential_max_wait_duration
                .or(base.exponential_max_wait_duration.clone()),
            enable_randomized_wait: self
                .enable_randomized_wait
                .or(base.enable_randomized_wait.clone()),
            randomized_wait_factor: self
                .randomized_wait_factor
                .or(base.randomized_wait_factor.clone()),
            base_config: self.base_config,
        }
    }
}

/// Spring's relaxed binding: `wait-duration`, `wait_duration` and `waitDuration` are one key.
fn canonical(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// A mapping's entry by relaxed name.
fn get<'a>(map: &'a Yaml, key: &str) -> Option<&'a Yaml> {
    let Yaml::Hash(h) = map else { return None };
    let want = canonical(key);
    h.iter()
        .find(|(k, _)| k.as_str().map(canonical).as_deref() == Some(want.as_str()))
        .map(|(_, v)| v)
}

/// The entry at a property path, however the file nests or dots it (`resilience4j:` /
/// `retry:` or one key `resilience4j.retry:`, as Spring binds both).
fn path_get<'a>(map: &'a Yaml, segments: &[&str]) -> Option<&'a Yaml> {
    if segments.is_empty() {
        return Some(map);
    }
    let Yaml::Hash(h) = map else { return None };
    for (k, v) in h {
        let Some(key) = k.as_str() else { continue };
        let parts: Vec<String> = key.split('.').map(canonical).collect();
        let n = parts.len();
        if n <= segments.len() && parts.iter().zip(segments).all(|(p, s)| *p == canonical(s)) {
            if let Some(found) = path_get(v, &segments[n..]) {
                return Some(found);
            }
        }
    }
    None
}

/// The tree with every dotted key (`resilience4j.retry.instances.a:`) spelled out as
/// nested mappings and merged with its siblings, as Spring binds a property path.
fn expand(y: &Yaml) -> Yaml {
    let Yaml::Hash(h) = y else { return y.clone() };
    let mut out = yaml_rust2::yaml::Hash::new();
    for (k, v) in h {
        let v = expand(v);
        match k.as_str() {
            Some(key) if key != "<<" && key.contains('.') => {
                let mut parts = key.split('.').rev();
                let mut nested = v;
                let first = parts.next().unwrap_or_default();
                let mut h1 = yaml_rust2::yaml::Hash::new();
                h1.insert(Yaml::String(first.to_string()), nested);
                nested = Yaml::Hash(h1);
                for part in parts {
                    let mut h2 = yaml_rust2::yaml::Hash::new();
                    h2.insert(Yaml::String(part.to_string()), nested);
                    nested = Yaml::Hash(h2);
                }
                if let Yaml::Hash(n) = nested {
                    for (nk, nv) in n {
                        merge_into(&mut out, nk, nv);
                    }
                }
            }
            _ => merge_into(&mut out, k.clone(), v),
        }
    }
    Yaml::Hash(out)
}

/// Puts `v` at `k`, merging two mappings entry by entry (a later scalar wins).
fn merge_into(out: &mut yaml_rust2::yaml::Hash, k: Yaml, v: Yaml) {
    match (out.get_mut(&k), v) {
        (Some(Yaml::Hash(old)), Yaml::Hash(new)) => {
            for (nk, nv) in new {
                merge_into(old, nk, nv);
            }
        }
        (_, v) => {
            out.insert(k, v);
        }
    }
}

/// The scalar as the text Spring's converters see.
fn scalar(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Reads one instance's properties at `path`.
fn props(map: &Yaml, path: &str) -> Result<Props, ValidationError> {
    let mut p = Props::default();
    let Yaml::Hash(h) = map else {
        return Err(ValidationError::new(
            path,
            "not a mapping",
            "a mapping of retry properties",
        ));
    };
    let mut merged: Option<Props> = None;
    for (k, v) in h {
        let key = k.as_str().unwrap_or_default();
        if key == "<<" {
            // A YAML merge key (`<<: *defaults`), which SnakeYAML applies for Spring: the
            // anchored mapping's settings under this one's.
            merged = Some(props(v, path)?);
            continue;
        }
        let at = format!("{path}.{key}");
        let text = scalar(v).unwrap_or_default();
        let bad =
            |allowed: &str| ValidationError::new(at.clone(), crate::validate::echo(&text), allowed);
        match canonical(key).as_str() {
            "waitduration" => {
                p.wait_duration = Some((
                    at.clone(),
                    spring_ms(&text)
                        .ok_or_else(|| bad("a duration (500ms, 2s, PT0.5S or milliseconds)"))?,
                ))
            }
            "maxattempts" => {
                let n: u32 = text.parse().map_err(|_| bad("a whole number ≥ 0"))?;
                p.max_attempts = Some((at.clone(), n));
            }
            "enableexponentialbackoff" => {
                p.enable_exponential_backoff =
                    Some((at.clone(), text.parse().map_err(|_| bad("true or false"))?))
            }
            "exponentialbackoffmultiplier" => {
                let m: f64 = text.parse().map_err(|_| bad("a number"))?;
                p.exponential_backoff_multiplier = Some((at.clone(), m));
            }
            "exponentialmaxwaitduration" => {
                p.exponential_max_wait_duration = Some((
                    at.clone(),
                    spring_ms(&text)
                        .ok_or_else(|| bad("a duration (500ms, 2s, PT0.5S or milliseconds)"))?,
                ))
            }
            "enablerandomizedwait" => {
                p.enable_randomized_wait =
                    Some((at.clone(), text.parse().map_err(|_| bad("true or false"))?))
            }
            "randomizedwaitfactor" => {
                let f: f64 = text.parse().map_err(|_| bad("a number in 0..=1"))?;
                p.randomized_wait_factor = Some((at.clone(), f));
            }
            "baseconfig" => p.base_config = Some(text),
            // Exceptions, predicates and event settings shape which failures retry, not
            // when: the engine's `retry_on` says that.
            _ => {}
        }
    }
    Ok(match merged {
        Some(base) => p.over(&base),
        None => p,
    })
}

/// Reads a Spring Boot `application.yml`.
pub fn read(text: &str, instance: Option<&str>, lang: Lang) -> Result<Imported, ValidationError> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        ValidationError::document(format!(
            "not valid YAML: {}",
            crate::validate::one_line(&e.to_string())
        ))
    })?;
    // Spring merges the documents of the active profiles; without a profile, those that
    // do not ask for one, in order.
    let mut retry: Option<Yaml> = None;
    let mut skipped_profiles = 0;
    let docs: Vec<Yaml> = docs.iter().map(expand).collect();
    for doc in &docs {
        let profiled = path_get(doc, &["spring", "config", "activate"]).is_some()
            || path_get(doc, &["spring", "profiles"]).is_some();
        let Some(r) = path_get(doc, &["resilience4j", "retry"]) else {
            continue;
        };
        if profiled {
            skipped_profiles += 1;
        } else if retry.is_none() {
            retry = Some(r.clone());
        }
    }
    let retry = retry.ok_or_else(|| {
        ValidationError::new(
            "resilience4j.retry",
            "missing",
            "a mapping with configs or instances",
        )
    })?;
    let configs = get(&retry, "configs");
    let instances = get(&retry, "instances");
    let names: Vec<String> = match instances {
        Some(Yaml::Hash(h)) => h
            .keys()
            .filter_map(|k| k.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    let (name, path, own) = match instance {
        Some(n) => {
            let v = instances.and_then(|i| get(i, n)).ok_or_else(|| {
                ValidationError::new("--instance", n, format!("one of: {}", names.join(", ")))
            })?;
            (
                n.to_string(),
                format!("resilience4j.retry.instances.{n}"),
                v.clone(),
            )
        }
        None if names.len() == 1 => {
            let n = names[0].clone();
            let v = instances
                .and_then(|i| get(i, &n))
                .cloned()
                .unwrap_or(Yaml::Null);
            (n.clone(), format!("resilience4j.retry.instances.{n}"), v)
        }
        None if names.is_empty() => {
            let v = configs
                .and_then(|c| get(c, "default"))
                .cloned()
                .ok_or_else(|| {
                    ValidationError::new(
                        "resilience4j.retry",
                        "no instances",
                        "instances or configs.default",
                    )
                })?;
            (
                "default".to_string(),
                "resilience4j.retry.configs.default".to_string(),
                v,
            )
        }
        None => {
            return Err(ValidationError::new(
                "--instance",
                "not given",
                format!("one of: {}", names.join(", ")),
            ));
        }
    };
    let mut p = props(&own, &path)?;
    // CommonRetryConfigurationProperties.createRetryConfig: the named base, else `default`.
    let base_name = p
        .base_config
        .clone()
        .or_else(|| (name != "default").then(|| "default".to_string()));
    if let Some(b) = base_name {
        if let Some(base) = configs.and_then(|c| get(c, &b)) {
            let base = props(base, &format!("resilience4j.retry.configs.{b}"))?;
            p = p.over(&base);
        } else if p.base_config.is_some() {
            return Err(ValidationError::new(
                format!("{path}.baseConfig"),
                b,
                "a name under resilience4j.retry.configs",
            ));
        }
    }
    let mut out = policy(&p, lang)?;
    if skipped_profiles > 0 {
        out.quirks.push(match lang {
            Lang::Zh => format!("{skipped_profiles} 个带 profile 的文档未读入：只读默认 profile"),
            Lang::En => format!("{skipped_profiles} profile-specific document(s) not read: only the default profile is"),
        });
    }
    out.words.insert(
        0,
        match lang {
            Lang::Zh => format!("Resilience4j 重试实例 {name}"),
            Lang::En => format!("Resilience4j retry instance {name}"),
        },
    );
    Ok(out)
}

/// `configureRetryIntervalFunction` and `maxAttempts`, as the starter applies them.
fn policy(p: &Props, lang: Lang) -> Result<Imported, ValidationError> {
    let zh = lang == Lang::Zh;
    let mut quirks = Vec::new();
    let mut defaults = Vec::new();
    let flag = |f: &Option<(String, bool)>| f.as_ref().is_some_and(|(_, b)| *b);
    let exp = flag(&p.enable_exponential_backoff);
    let rand = flag(&p.enable_randomized_wait);
    let mult = p.exponential_backoff_multiplier.as_ref().map(|(_, m)| *m);
    let factor = p.randomized_wait_factor.as_ref().map(|(_, f)| *f);
    let max = p.exponential_max_wait_duration.as_ref().map(|(_, m)| *m);
    if let Some((at, f)) = &p.randomized_wait_factor {
        if !(0.0..=1.0).contains(f) {
            return Err(ValidationError::new(
                at.clone(),
                f,
                "0..=1 (IntervalFunction.checkRandomizationFactor)",
            ));
        }
    }
    let attempts = match &p.max_attempts {
        // `maxAttempts: 0` is skipped by the starter: the default stays.
        Some((_, 0)) | None => {
            defaults.push(format!("maxAttempts = {DEFAULT_MAX_ATTEMPTS}"));
            DEFAULT_MAX_ATTEMPTS
        }
        Some((at, n)) if *n > MAX_ATTEMPTS => {
            return Err(ValidationError::new(
                at.clone(),
                n,
                format!("1..={MAX_ATTEMPTS} (the engine's bound on attempts)"),
            ));
        }
        Some((_, n)) => *n,
    };
    let backoff = match &p.wait_duration {
        None => {
            for (name, set) in [
                ("enableExponentialBackoff", exp),
                ("enableRandomizedWait", rand),
            ] {
                if set {
                    quirks.push(if zh {
                        format!("{name} 不起作用：没有设置 waitDuration")
                    } else {
                        format!("{name} has no effect: waitDuration is not set")
                    });
                }
            }
            defaults.push(format!("waitDuration = {DEFAULT_WAIT_MS}ms"));
            r4j(DEFAULT_WAIT_MS, None, None, None)
        }
        Some((_, wait)) => {
            let wait = wait.round().max(1.0) as u64;
            if max.is_some() && !(exp && mult.is_some() && (factor.is_some() || !rand)) {
                quirks.push(if zh {
                    "exponentialMaxWaitDuration 被忽略：还需要 exponentialBackoffMultiplier（随机等待时还需要 randomizedWaitFactor）".to_string()
                } else {
                    "exponentialMaxWaitDuration is ignored: it needs exponentialBackoffMultiplier (and, with randomized wait, randomizedWaitFactor)".to_string()
                });
            }
            if (mult.is_some() && !exp) || (factor.is_some() && !rand) {
                quirks.push(if zh {
                    "倍率或随机系数没有对应的 enable 开关，不起作用".to_string()
                } else {
                    "a multiplier or factor without its enable* flag has no effect".to_string()
                });
            }
            match (exp, rand) {
                (true, true) => {
                    let m = mult.unwrap_or(DEFAULT_MULTIPLIER);
                    let f = factor.unwrap_or(DEFAULT_FACTOR);
                    let cap = if mult.is_some() && factor.is_some() {
                        max
                    } else {
                        None
                    };
                    r4j(wait, Some(m), Some(f), cap)
                }
                (true, false) => r4j(
                    wait,
                    Some(mult.unwrap_or(DEFAULT_MULTIPLIER)),
                    None,
                    if mult.is_some() { max } else { None },
                ),
                (false, true) => r4j(wait, None, Some(factor.unwrap_or(DEFAULT_FACTOR)), None),
                (false, false) => r4j(wait, None, None, None),
            }
        }
    };
    let Backoff::Resilience4j(rule) = &backoff else {
        unreachable!("r4j builds a Resilience4j backoff")
    };
    if exp && mult.is_none() && p.wait_duration.is_some() {
        defaults.push(format!(
            "exponentialBackoffMultiplier = {DEFAULT_MULTIPLIER}"
        ));
    }
    if rand && factor.is_none() && p.wait_duration.is_some() {
        defaults.push(format!("randomizedWaitFactor = {DEFAULT_FACTOR}"));
    }
    let mut words = vec![attempts_words(attempts, lang)];
    if attempts > 1 {
        let spread = match rule.randomized_wait_factor {
            Some(f) if zh => format!("，各 ±{}%", f * 100.0),
            Some(f) => format!(", each ±{}%", f * 100.0),
            None => String::new(),
        };
        let growth = match rule.exponential_backoff_multiplier {
            Some(m) if zh => format!("（×{m}）"),
            Some(m) => format!(" (×{m})"),
            None => String::new(),
        };
        let cap = match rule.exponential_max_wait_duration_ms {
            Some(c) if zh => format!("，最长 {}", super::ms_words(c as f64)),
            Some(c) => format!(", at most {}", super::ms_words(c as f64)),
            None => String::new(),
        };
        let waits = first_waits(&backoff, attempts - 1);
        words.push(if zh {
            format!("等待 {waits}{growth}{spread}{cap}")
        } else {
            format!("waits {waits}{growth}{spread}{cap}")
        });
    }
    Ok(Imported {
        library: Library::Resilience4j,
        max_attempts: attempts,
        backoff,
        budget: None,
        words,
        quirks,
        defaults,
    })
}

fn r4j(wait: u64, mult: Option<f64>, factor: Option<f64>, max_ms: Option<f64>) -> Backoff {
    Backoff::Resilience4j(Resilience4jBackoff {
        wait_duration_ms: wait,
        exponential_backoff_multiplier: mult,
        randomized_wait_factor: factor,
        exponential_max_wait_duration_ms: max_ms.map(|m| m.round().max(1.0) as u64),
    })
}
