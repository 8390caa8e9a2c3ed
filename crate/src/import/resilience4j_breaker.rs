//! Spring Boot's `resilience4j.circuitbreaker.*`, read as
//! `CommonCircuitBreakerConfigurationProperties.createCircuitBreakerConfig` builds it
//! (resilience4j-framework-common 2.x): the instance's properties over its base's
//! (`baseConfig`, else the config of the instance's own name, else `configs.default`),
//! field by field, and `CircuitBreakerConfig`'s defaults for the rest; onto the engine's
//! Resilience4j breaker kind.

use super::duration::spring_ms;
use super::policy::Origins;
use super::tree::{relaxed, Names, Node};
use crate::cluster::{Breaker, Scope, WindowKind};
use crate::lang::{Lang, Texts};
use crate::validate::ValidationError;

crate::catalogue! {
    /// What the breaker's properties do that their names do not say.
    pub enum Quirk {
        /// A count window smaller than the minimum: `{0}` the minimum, `{1}` the window.
        MinimumOverWindow => ("minimumNumberOfCalls {0} 大于 slidingWindowSize {1}：计数窗口在 {1} 次调用时就开始判断", "minimumNumberOfCalls {0} is more than slidingWindowSize {1}: a count window judges at {1} calls"),
        /// The open wait's growth the engine lacks: `{0}` the wait used.
        OpenBackoff => ("打开状态等待的指数增长未模拟：每次打开都等待 {0}", "the open state's exponential wait is not simulated: every opening lasts {0}"),
        /// The half-open limit the engine lacks.
        HalfOpenWait => ("maxWaitDurationInHalfOpenState 未模拟：半开状态一直等到试探全部返回", "maxWaitDurationInHalfOpenState is not simulated: half-open lasts until its probes are answered"),
    }
}

/// `CircuitBreakerConfig`'s defaults, as `(property, value as written)`.
const DEFAULTS: [(&str, &str); 8] = [
    ("slidingWindowType", "COUNT_BASED"),
    ("slidingWindowSize", "100"),
    ("minimumNumberOfCalls", "100"),
    ("failureRateThreshold", "50"),
    ("slowCallRateThreshold", "100"),
    ("slowCallDurationThreshold", "60s"),
    ("waitDurationInOpenState", "60s"),
    ("permittedNumberOfCallsInHalfOpenState", "10"),
];

/// Deepest `baseConfig` chain followed.
const MAX_BASES: usize = 8;

/// The breaker read from a file.
#[derive(Debug, Clone)]
pub struct ReadBreaker {
    /// The engine's breaker.
    pub breaker: Breaker,
    /// Defaults filled in, `property = value`.
    pub defaults: Vec<String>,
    /// `(minimum, window)` when a count window is smaller than its minimum.
    minimum_over_window: Option<(u32, u32)>,
    /// The open wait, when the file asked for it to grow.
    open_backoff: Option<f64>,
    /// Whether `maxWaitDurationInHalfOpenState` was set above 0.
    half_open_wait: bool,
}

impl ReadBreaker {
    /// Its quirks in `lang`.
    pub fn quirks(&self, lang: Lang) -> Vec<String> {
        let mut q = Vec::new();
        if let Some((m, w)) = self.minimum_over_window {
            q.push(Quirk::MinimumOverWindow.fill(lang, &[&m, &w]));
        }
        if let Some(w) = self.open_backoff {
            q.push(Quirk::OpenBackoff.fill(lang, &[&super::words::duration(w)]));
        }
        if self.half_open_wait {
            q.push(Quirk::HalfOpenWait.get(lang).to_string());
        }
        q
    }
}

/// The levels that decide instance `name`'s settings, nearest first.
fn levels<'a>(cb: &Node<'a>, name: &str) -> Result<Vec<Node<'a>>, ValidationError> {
    let configs = cb.get("configs", Names::Relaxed);
    let config = |n: &str| configs.as_ref().and_then(|c| c.get(n, Names::Relaxed));
    let own = cb
        .get("instances", Names::Relaxed)
        .and_then(|i| i.get(name, Names::Relaxed));
    let mut out = Vec::new();
    let mut next = match &own {
        Some(o) => {
            out.push(o.clone());
            match o.get("baseConfig", Names::Relaxed) {
                Some(b) => Some((b.text().unwrap_or_default(), Some(b))),
                None if config(name).is_some() => Some((name.to_string(), None)),
                None => Some(("default".to_string(), None)),
            }
        }
        None if config(name).is_some() => Some((name.to_string(), None)),
        None => Some(("default".to_string(), None)),
    };
    while let Some((b, at)) = next.take() {
        let Some(node) = config(&b) else {
            // An explicit baseConfig must exist (ConfigurationNotFoundException).
            if let Some(at) = at {
                return Err(at.bad("a name under resilience4j.circuitbreaker.configs"));
            }
            break;
        };
        if out.len() > MAX_BASES || out.iter().any(|l| l.path == node.path) {
            return Err(ValidationError::new(
                node.path.clone(),
                b,
                format!("a base config chain without cycles, at most {MAX_BASES} deep"),
            ));
        }
        next = node
            .get("baseConfig", Names::Relaxed)
            .map(|n| (n.text().unwrap_or_default(), Some(n)));
        out.push(node);
    }
    Ok(out)
}

/// The breaker of instance `name`, `None` when neither it nor a config applies.
pub fn read(
    cb: &Node,
    name: &str,
    origins: &mut Origins,
) -> Result<Option<ReadBreaker>, ValidationError> {
    let levels = levels(cb, name)?;
    if levels.is_empty() {
        return Ok(None);
    }
    let find = |key: &str| levels.iter().find_map(|l| l.get(key, Names::Relaxed));
    let mut defaults = Vec::new();
    let mut take = |key: &str, field: &str, origins: &mut Origins| -> Option<Node> {
        let found = find(key);
        match &found {
            Some(n) => origins.note(field, &n.path, n.shown()),
            None => {
                if let Some((k, v)) = DEFAULTS.iter().find(|(k, _)| *k == key) {
                    defaults.push(format!("{k} = {v}"));
                }
            }
        }
        found
    };
    let count = |n: Option<Node>, default: u32| -> Result<u32, ValidationError> {
        n.map_or(Ok(default), |n| {
            let v = n.u64()?;
            u32::try_from(v).map_err(|_| n.bad("a whole number ≥ 1"))
        })
    };
    let pct = |n: Option<Node>, default: f64| n.map_or(Ok(default), |n| n.f64());
    let ms = |n: Option<Node>, default: f64| {
        n.map_or(Ok(default), |n| {
            n.ms(spring_ms, "a duration (500ms, 2s, PT0.5S or milliseconds)")
        })
    };
    let window = match take("slidingWindowType", "breaker.window", origins) {
        Some(n) => window_kind(&n)?,
        None => WindowKind::Count,
    };
    let window_size = count(
        take("slidingWindowSize", "breaker.window_size", origins),
        100,
    )?;
    let minimum = count(
        take("minimumNumberOfCalls", "breaker.minimum_calls", origins),
        100,
    )?;
    let failure = pct(
        take(
            "failureRateThreshold",
            "breaker.failure_rate_percent",
            origins,
        ),
        50.0,
    )?;
    let slow_rate = pct(
        take(
            "slowCallRateThreshold",
            "breaker.slow_call_rate_percent",
            origins,
        ),
        100.0,
    )?;
    let slow_ms = ms(
        take("slowCallDurationThreshold", "breaker.slow_call_ms", origins),
        60_000.0,
    )?;
    let half_open = count(
        take(
            "permittedNumberOfCallsInHalfOpenState",
            "breaker.half_open_calls",
            origins,
        ),
        10,
    )?;
    let automatic = match find("automaticTransitionFromOpenToHalfOpenEnabled") {
        Some(n) => n.bool()?,
        None => false,
    };
    let half_open_wait = match find("maxWaitDurationInHalfOpenState") {
        Some(n) => n.ms(spring_ms, "a duration (500ms, 2s, PT0.5S or milliseconds)")? > 0.0,
        None => false,
    };
    // The open wait and its interval function come from the level that sets the wait.
    let (wait_open, jitter, open_backoff) = open_wait(&levels, origins, &mut defaults)?;
    let minimum_over_window =
        (window == WindowKind::Count && minimum > window_size).then_some((minimum, window_size));
    Ok(Some(ReadBreaker {
        breaker: Breaker::Resilience4j {
            window,
            window_size,
            minimum_calls: minimum,
            failure_rate_percent: failure,
            slow_call_ms: Some(slow_ms.round() as u64),
            slow_call_rate_percent: slow_rate,
            wait_open_ms: wait_open,
            open_jitter_ms: jitter,
            half_open_calls: half_open,
            ramp_stage_ms: None,
            automatic_half_open: automatic,
            scope: Scope::PerInstance,
        },
        defaults,
        minimum_over_window,
        open_backoff,
        half_open_wait,
    }))
}

/// The window kind as Spring binds `SlidingWindowType`.
fn window_kind(n: &Node) -> Result<WindowKind, ValidationError> {
    match n.text().map(|t| t.trim().to_ascii_uppercase()).as_deref() {
        Some("COUNT_BASED") => Ok(WindowKind::Count),
        Some("TIME_BASED") => Ok(WindowKind::Time),
        _ => Err(n.bad("COUNT_BASED or TIME_BASED")),
    }
}

/// `configureCircuitBreakerOpenStateIntervalFunction` of the nearest level that sets
/// `waitDurationInOpenState`: a constant wait; randomized, `w ± factor·w` (uniform, so
/// `w − factor·w` plus up to `2·factor·w`: the engine's open jitter); exponential, which
/// the engine lacks (its first wait, with a quirk). Returns the wait, the jitter and the
/// exponential's wait.
fn open_wait(
    levels: &[Node],
    origins: &mut Origins,
    defaults: &mut Vec<String>,
) -> Result<(u64, u64, Option<f64>), ValidationError> {
    let Some((level, n)) = levels.iter().find_map(|l| {
        l.get("waitDurationInOpenState", Names::Relaxed)
            .map(|n| (l, n))
    }) else {
        defaults.push("waitDurationInOpenState = 60s".into());
        return Ok((60_000, 0, None));
    };
    let wait = n.ms(spring_ms, "a duration (500ms, 2s, PT0.5S or milliseconds)")?;
    origins.note("breaker.wait_open_ms", &n.path, n.shown());
    let flag = |k: &str| -> Result<bool, ValidationError> {
        level
            .entries()
            .into_iter()
            .find(|(key, _)| relaxed(key) == relaxed(k))
            .map_or(Ok(false), |(_, v)| v.bool())
    };
    let (exp, rand) = (
        flag("enableExponentialBackoff")?,
        flag("enableRandomizedWait")?,
    );
    if exp && rand {
        return Err(ValidationError::new(
            format!("{}.enableRandomizedWait", level.path),
            "true",
            "not both enableExponentialBackoff and enableRandomizedWait (the starter refuses them)",
        ));
    }
    if exp {
        return Ok((wait.round() as u64, 0, Some(wait)));
    }
    if rand {
        let f = match level.get("randomizedWaitFactor", Names::Relaxed) {
            Some(f) => {
                let v = f.f64()?;
                if !(0.0..=1.0).contains(&v) {
                    return Err(f.bad("0..=1 (IntervalFunction.checkRandomizationFactor)"));
                }
                v
            }
            None => {
                defaults.push("randomizedWaitFactor = 0.5".into());
                0.5
            }
        };
        let delta = f * wait;
        return Ok((
            (wait - delta).round() as u64,
            (2.0 * delta).round() as u64,
            None,
        ));
    }
    Ok((wait.round() as u64, 0, None))
}

#[cfg(test)]
mod tests {
    use super::Quirk;

    #[test]
    fn the_catalogue_is_sound() {
        assert_eq!(crate::lang::problems::<Quirk>(), Vec::<String>::new());
    }
}
