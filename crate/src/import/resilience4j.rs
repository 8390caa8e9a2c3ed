//! Spring Boot's `resilience4j.retry.*` and `resilience4j.circuitbreaker.*`
//! (`application.yml` or `.properties`), read as the Spring starter binds them
//! (resilience4j-framework-common 2.x):
//!
//! - retry (`CommonRetryConfigurationProperties.createRetryConfig`): an instance starts
//!   from its base config's *built* `RetryConfig` (`baseConfig`, else `configs.default`);
//!   only the `enable*` flags, the multiplier and the max wait are copied from the base's
//!   properties (`ConfigUtils.mergePropertiesIfAny`), so an instance that sets its own
//!   `waitDuration` does not inherit the base's `randomizedWaitFactor`, and one that does
//!   not set `waitDuration` keeps the base's interval whatever flags it sets
//!   (`configureRetryIntervalFunction` acts only beside a `waitDuration`);
//! - circuit breaker (`CommonCircuitBreakerConfigurationProperties`): an instance over
//!   its base (`baseConfig`, else the config of its own name, else `configs.default`),
//!   field by field; the open state's interval function likewise only beside a
//!   `waitDurationInOpenState`.

use super::duration::spring_ms;
use super::policy::{Origins, Policy};
use super::tree::{Names, Node};
use super::Read;
use crate::cluster::libraries::Resilience4jBackoff;
use crate::cluster::Backoff;
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;

crate::catalogue! {
    /// What the Spring starter does that its property names do not say.
    pub enum Quirk {
        /// A flag without `waitDuration` beside it: `{0}` the flag's key path.
        FlagWithoutWait => ("`{0}` 不起作用：同一层没有设置 waitDuration", "`{0}` has no effect: no waitDuration is set beside it"),
        /// A max wait the starter drops: `{0}` its key path.
        MaxIgnored => ("`{0}` 被忽略：它还需要 exponentialBackoffMultiplier（随机等待时还需要 randomizedWaitFactor）", "`{0}` is ignored: it needs exponentialBackoffMultiplier (and, with randomized wait, randomizedWaitFactor)"),
        /// A multiplier or factor without its flag: `{0}` its key path.
        WithoutFlag => ("`{0}` 不起作用：没有对应的 enable* 开关", "`{0}` has no effect: its enable* flag is not set"),
        /// A base's factor the instance does not inherit: `{0}` its key path.
        FactorNotInherited => ("`{0}` 不会被继承：实例自己设置了 waitDuration，随机系数取默认 0.5", "`{0}` is not inherited: the instance sets its own waitDuration, so the factor is the default 0.5"),
        /// Profile documents: `{0}` how many.
        Profiles => ("{0} 个带 profile 的文档未读入：只读默认 profile", "{0} profile-specific document(s) not read: only the default profile is"),
        /// How retry and breaker nest.
        Nesting => ("Spring 的默认切面顺序是 Retry(CircuitBreaker(…))：熔断器记录每一次尝试，包括重试", "Spring's default aspect order is Retry(CircuitBreaker(…)): the breaker records every attempt, retries included"),
        /// Only a breaker, no retry.
        NoRetry => ("这个实例没有 resilience4j.retry 配置：不重试", "this instance has no resilience4j.retry settings: no retries"),
    }
}

/// `RetryConfig.DEFAULT_MAX_ATTEMPTS`.
const DEFAULT_MAX_ATTEMPTS: u32 = 3;
/// `RetryConfig.DEFAULT_WAIT_DURATION`, ms.
const DEFAULT_WAIT_MS: f64 = 500.0;
/// `IntervalFunction.DEFAULT_MULTIPLIER`.
const DEFAULT_MULTIPLIER: f64 = 1.5;
/// `IntervalFunction.DEFAULT_RANDOMIZATION_FACTOR`.
const DEFAULT_FACTOR: f64 = 0.5;
/// Deepest `baseConfig` chain followed.
const MAX_BASES: usize = 8;

/// What Spring durations look like, for messages.
const DURATION: &str = "a duration (500ms, 2s, PT0.5S or milliseconds)";

/// A setting as read: its key path and value.
type Set<T> = Option<(String, T)>;

/// One level's retry properties.
#[derive(Default, Clone)]
struct RetryProps {
    wait: Set<f64>,
    attempts: Set<u32>,
    exp: Set<bool>,
    rand: Set<bool>,
    mult: Set<f64>,
    max: Set<f64>,
    factor: Set<f64>,
    base: Set<String>,
}

fn set<T>(n: &Node, v: T) -> Set<T> {
    Some((n.path.clone(), v))
}

fn retry_props(n: &Node) -> Result<RetryProps, ValidationError> {
    let mut p = RetryProps::default();
    if !matches!(n.node, yaml_rust2::Yaml::Hash(_) | yaml_rust2::Yaml::Null) {
        return Err(n.bad("a mapping of retry properties"));
    }
    for (key, v) in n.entries() {
        match super::tree::relaxed(&key).as_str() {
            "waitduration" => p.wait = set(&v, v.ms(spring_ms, DURATION)?),
            "maxattempts" => {
                let a = v.u64()?;
                p.attempts = set(
                    &v,
                    u32::try_from(a).map_err(|_| v.bad("a whole number ≥ 0"))?,
                )
            }
            "enableexponentialbackoff" => p.exp = set(&v, v.bool()?),
            "enablerandomizedwait" => p.rand = set(&v, v.bool()?),
            "exponentialbackoffmultiplier" => p.mult = set(&v, v.f64()?),
            "exponentialmaxwaitduration" => p.max = set(&v, v.ms(spring_ms, DURATION)?),
            "randomizedwaitfactor" => p.factor = set(&v, v.f64()?),
            "baseconfig" => p.base = set(&v, v.text().unwrap_or_default()),
            // Exceptions, predicates and events decide which failures retry, not when: the
            // engine's `retry_on` says that.
            _ => {}
        }
    }
    Ok(p)
}

/// A retry config as the starter builds it: the attempts and the interval's properties
/// (from the level that set `waitDuration`), each `None` when no level set it.
#[derive(Default)]
struct BuiltRetry {
    attempts: Set<u32>,
    interval: Option<RetryProps>,
    /// The factor a base had that an instance with its own wait does not inherit.
    lost_factor: Option<String>,
}

/// The quirks found while building, with the defaults filled in.
#[derive(Default)]
struct Notes {
    quirks: Vec<String>,
    defaults: Vec<String>,
}

fn build_retry(
    configs: Option<&Node>,
    name: &str,
    mut p: RetryProps,
    depth: usize,
    notes: &mut Notes,
    lang: Lang,
) -> Result<BuiltRetry, ValidationError> {
    if p.wait.is_none() {
        for flag in [&p.exp, &p.rand].into_iter().flatten() {
            if flag.1 {
                notes
                    .quirks
                    .push(Quirk::FlagWithoutWait.fill(lang, &[&flag.0]));
            }
        }
    }
    let base_name = match &p.base {
        Some((_, b)) => Some(b.clone()),
        None => (name != "default"
            && configs
                .and_then(|c| c.get("default", Names::Relaxed))
                .is_some())
        .then(|| "default".to_string()),
    };
    let base = match base_name {
        Some(b) if depth < MAX_BASES && b != name => {
            let node = configs
                .and_then(|c| c.get(&b, Names::Relaxed))
                .ok_or_else(|| {
                    let (at, _) = p.base.clone().unwrap_or_default();
                    ValidationError::new(at, b.clone(), "a name under resilience4j.retry.configs")
                })?;
            let bp = retry_props(&node)?;
            // mergePropertiesIfAny: the flags, multiplier and max wait come from the base.
            p.exp = p.exp.or(bp.exp.clone());
            p.rand = p.rand.or(bp.rand.clone());
            p.mult = p.mult.or(bp.mult.clone());
            p.max = p.max.or(bp.max.clone());
            let lost = (p.wait.is_some() && p.factor.is_none())
                .then(|| bp.factor.as_ref().map(|f| f.0.clone()))
                .flatten();
            let mut built = build_retry(configs, &b, bp, depth + 1, notes, lang)?;
            built.lost_factor = lost;
            Some(built)
        }
        Some(b) => {
            return Err(ValidationError::new(
                p.base.map(|b| b.0).unwrap_or_default(),
                b,
                format!("a base config other than itself, at most {MAX_BASES} deep"),
            ))
        }
        None => None,
    };
    let base = base.unwrap_or_default();
    let attempts = match p.attempts.clone() {
        // `maxAttempts: 0` is skipped by the starter: the base's (or the default) stays.
        Some((_, 0)) | None => base.attempts,
        some => some,
    };
    let (interval, lost_factor) = if p.wait.is_some() {
        (Some(p), base.lost_factor)
    } else {
        (base.interval, None)
    };
    Ok(BuiltRetry {
        attempts,
        interval,
        lost_factor,
    })
}

/// `configureRetryIntervalFunction`'s choice, with its quirks.
fn interval(
    p: Option<&RetryProps>,
    origins: &mut Origins,
    notes: &mut Notes,
    lang: Lang,
) -> Backoff {
    let Some(p) = p else {
        notes
            .defaults
            .push(format!("waitDuration = {DEFAULT_WAIT_MS}ms"));
        return r4j(DEFAULT_WAIT_MS, None, None, None);
    };
    let (wait_at, wait) = p.wait.clone().unwrap_or_default();
    origins.note("backoff.wait_duration_ms", &wait_at, format!("{wait}ms"));
    let on = |f: &Set<bool>| f.as_ref().is_some_and(|f| f.1);
    let (exp, rand) = (on(&p.exp), on(&p.rand));
    let mult = p.mult.as_ref().map(|m| m.1);
    let factor = p.factor.as_ref().map(|f| f.1);
    for (value, flag) in [(&p.mult, exp), (&p.factor, rand)] {
        if let (Some((at, _)), false) = (value, flag) {
            notes.quirks.push(Quirk::WithoutFlag.fill(lang, &[at]));
        }
    }
    let max_applies = exp && mult.is_some() && (factor.is_some() || !rand);
    if let (Some((at, _)), false) = (&p.max, max_applies) {
        notes.quirks.push(Quirk::MaxIgnored.fill(lang, &[at]));
    }
    if exp && mult.is_none() {
        notes.defaults.push(format!(
            "exponentialBackoffMultiplier = {DEFAULT_MULTIPLIER}"
        ));
    }
    if rand && factor.is_none() {
        notes
            .defaults
            .push(format!("randomizedWaitFactor = {DEFAULT_FACTOR}"));
    }
    for (field, s) in [
        ("backoff.exponential_backoff_multiplier", &p.mult),
        ("backoff.randomized_wait_factor", &p.factor),
        ("backoff.exponential_max_wait_duration_ms", &p.max),
    ] {
        if let Some((at, v)) = s {
            origins.note(field, at, v.to_string());
        }
    }
    let max = if max_applies {
        p.max.as_ref().map(|m| m.1)
    } else {
        None
    };
    match (exp, rand) {
        (true, true) => r4j(
            wait,
            Some(mult.unwrap_or(DEFAULT_MULTIPLIER)),
            Some(factor.unwrap_or(DEFAULT_FACTOR)),
            max,
        ),
        (true, false) => r4j(wait, Some(mult.unwrap_or(DEFAULT_MULTIPLIER)), None, max),
        (false, true) => r4j(wait, None, Some(factor.unwrap_or(DEFAULT_FACTOR)), None),
        (false, false) => r4j(wait, None, None, None),
    }
}

fn r4j(wait: f64, mult: Option<f64>, factor: Option<f64>, max_ms: Option<f64>) -> Backoff {
    // `waitDuration: 0` is allowed (`RetryConfig.Builder.waitDuration` refuses only < 0):
    // every product of 0 is 0, so the retries go at once; randomized, `randomize(0, f)`
    // draws `0 + U × 1` and floors it at 1 ms, so every wait is 1 ms (a cap is ≥ 1 ms).
    if wait.round() == 0.0 {
        return match factor {
            Some(_) => Backoff::Constant { ms: 1 },
            None => Backoff::None,
        };
    }
    Backoff::Resilience4j(Resilience4jBackoff {
        wait_duration_ms: wait.round() as u64,
        exponential_backoff_multiplier: mult,
        randomized_wait_factor: factor,
        exponential_max_wait_duration_ms: max_ms.map(|m| m.round() as u64),
    })
}

/// The names under `instances` of a section.
fn instance_names(section: Option<&Node>) -> Vec<String> {
    section
        .and_then(|s| s.get("instances", Names::Relaxed))
        .map(|i| i.entries().into_iter().map(|(k, _)| k).collect())
        .unwrap_or_default()
}

/// Reads a Spring Boot file's Resilience4j retry and circuit breaker of one instance.
pub fn read(text: &str, instance: Option<&str>, lang: Lang) -> Result<Read, ValidationError> {
    let file = super::spring::load(text)?;
    let root = Node::root(&file.tree);
    let retry = root.at(&["resilience4j", "retry"], Names::Relaxed);
    let cb = root.at(&["resilience4j", "circuitbreaker"], Names::Relaxed);
    if retry.is_none() && cb.is_none() {
        return Err(ValidationError::new(
            "resilience4j.retry",
            "missing",
            "resilience4j.retry or resilience4j.circuitbreaker with instances or configs",
        ));
    }
    let mut names = instance_names(retry.as_ref());
    for n in instance_names(cb.as_ref()) {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    let name = match (instance, names.len()) {
        (Some(n), _) if names.iter().any(|x| x == n) || names.is_empty() => n.to_string(),
        (Some(n), _) => {
            return Err(ValidationError::new(
                "--instance",
                n,
                format!("one of: {}", names.join(", ")),
            ))
        }
        (None, 0) => "default".to_string(),
        (None, 1) => names[0].clone(),
        (None, _) => {
            return Err(ValidationError::new(
                "--instance",
                "not given",
                format!("one of: {}", names.join(", ")),
            ))
        }
    };
    let mut notes = Notes::default();
    let mut origins = Origins::default();
    let (attempts, backoff) = match &retry {
        Some(r) => read_retry(r, &name, &mut origins, &mut notes, lang)?,
        None => {
            notes.quirks.push(Quirk::NoRetry.get(lang).to_string());
            (1, Backoff::None)
        }
    };
    let mut policy = Policy::new(attempts, backoff);
    if let Some(c) = &cb {
        if let Some(b) = super::resilience4j_breaker::read(c, &name, &mut origins)? {
            policy.breaker = b.breaker.clone();
            notes.quirks.extend(b.quirks(lang));
            notes.defaults.extend(b.defaults);
            if attempts > 1 {
                notes.quirks.push(Quirk::Nesting.get(lang).to_string());
            }
        }
    }
    if file.profiled > 0 {
        notes
            .quirks
            .push(Quirk::Profiles.fill(lang, &[&file.profiled]));
    }
    Ok(Read {
        source: format!("instance {name}"),
        policy: origins.checked(policy)?,
        quirks: notes.quirks,
        defaults: notes.defaults,
    })
}

/// The retry instance `name` (or the default config): its attempts and backoff.
fn read_retry(
    retry: &Node,
    name: &str,
    origins: &mut Origins,
    notes: &mut Notes,
    lang: Lang,
) -> Result<(u32, Backoff), ValidationError> {
    let configs = retry.get("configs", Names::Relaxed);
    let own = retry
        .get("instances", Names::Relaxed)
        .and_then(|i| i.get(name, Names::Relaxed));
    let props = match &own {
        Some(n) => retry_props(n)?,
        None => RetryProps::default(),
    };
    let built = build_retry(configs.as_ref(), name, props, 0, notes, lang)?;
    if let Some(at) = &built.lost_factor {
        notes
            .quirks
            .push(Quirk::FactorNotInherited.fill(lang, &[at]));
    }
    let attempts = match &built.attempts {
        Some((at, n)) => {
            origins.note("max_attempts", at, n.to_string());
            *n
        }
        None => {
            notes
                .defaults
                .push(format!("maxAttempts = {DEFAULT_MAX_ATTEMPTS}"));
            DEFAULT_MAX_ATTEMPTS
        }
    };
    let backoff = interval(built.interval.as_ref(), origins, notes, lang);
    Ok((attempts, backoff))
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
