//! The editor's defaults: one default object for everything an editor can add or switch
//! to, gathered from the `Default` impls and `kinds()` lists declared beside each type in
//! [`super::scenario`], so no front end re-declares a default.

use super::libraries;
use super::scenario::*;
use serde::Serialize;

/// Default objects for everything an editor can add or switch to, each kind with its
/// own defaults, plus the values of every enumerated field.
#[derive(Debug, Clone, Serialize)]
pub struct Defaults {
    /// A small complete scenario (two tiers, a pause fault).
    pub scenario: Scenario,
    /// The fields a scenario leaves out of its document while they are off (so every
    /// scenario written before them keeps its bytes), at their off values: an editor
    /// shows them after the other fields of their section.
    pub off: Off,
    /// A new tier (the last of a chain: no client).
    pub tier: Tier,
    /// The client policy a tier gets when it starts calling a next tier.
    pub client: Client,
    /// A new route of a tier (its `to` is set by the editor).
    pub route: Route,
    /// A cost model when one is switched on.
    pub cost: crate::cost::Cost,
    /// One default per service/think-time distribution kind.
    pub dist: Vec<Dist>,
    /// One default per backoff kind.
    pub backoff: Vec<Backoff>,
    /// One default per jitter kind.
    pub jitter: Vec<Jitter>,
    /// One default per retry-budget kind.
    pub budget: Vec<Budget>,
    /// One default per breaker kind.
    pub breaker: Vec<Breaker>,
    /// A bulkhead when one is switched on.
    pub bulkhead: Bulkhead,
    /// A hop's network delay when one is switched on.
    pub network: Network,
    /// Closed-loop callers when switched on.
    pub closed_loop: ClosedLoop,
    /// A new rate-schedule segment (a spike).
    pub segment: RateSegment,
    /// A new fault (its tier and start are set by the editor).
    pub fault: Fault,
    /// One default per fault effect kind.
    pub effect: Vec<FaultEffect>,
    /// Allowed values of enumerated fields, by field name.
    pub enums: Enums,
}

/// Allowed values of the enumerated fields.
#[derive(Debug, Clone, Serialize)]
pub struct Enums {
    /// `load.arrivals`.
    pub arrivals: Vec<Arrivals>,
    /// `tiers[].balancer`.
    pub balancer: Vec<Balancer>,
    /// `scope` of budgets and breakers.
    pub scope: Vec<Scope>,
    /// `window` of Resilience4j breakers.
    pub window: Vec<WindowKind>,
    /// `client.retry_on` entries.
    pub retry_on: Vec<RetryOn>,
    /// `cost.billed` entries (both models).
    pub billed: Vec<crate::cost::Billed>,
    /// `randomization` of a gRPC backoff.
    pub randomization: Vec<libraries::GrpcJitter>,
    /// `implementation` of a gRPC backoff.
    pub implementation: Vec<libraries::GrpcClient>,
    /// `backoff_type` of a Polly backoff.
    pub backoff_type: Vec<libraries::PollyDelay>,
    /// `mode` of an AWS backoff.
    pub mode: Vec<libraries::AwsMode>,
    /// `wait` of a tenacity backoff.
    pub wait: Vec<libraries::TenacityWait>,
}

/// The fields left out of a scenario while they are off, by section (see [`Defaults::off`]).
#[derive(Debug, Clone, Serialize)]
pub struct Off {
    /// Of `load`: its `jitter_ms`.
    pub load: OffLoad,
    /// Of `steady`: its `drain`.
    pub steady: OffSteady,
}

/// `load`'s fields left out while off.
#[derive(Debug, Clone, Serialize)]
pub struct OffLoad {
    /// `load.jitter_ms`.
    pub jitter_ms: f64,
}

/// `steady`'s fields left out while off.
#[derive(Debug, Clone, Serialize)]
pub struct OffSteady {
    /// `steady.drain`.
    pub drain: bool,
}

/// The defaults of [`Defaults`], each declared once beside its type.
pub fn defaults() -> Defaults {
    Defaults {
        scenario: Scenario::default(),
        off: Off {
            load: OffLoad {
                jitter_ms: Load::default().jitter_ms,
            },
            steady: OffSteady {
                drain: Steady::default().drain,
            },
        },
        tier: Tier::default(),
        client: Client::default(),
        route: Route::default(),
        cost: crate::cost::Cost::default(),
        dist: Dist::kinds(),
        backoff: Backoff::kinds(),
        jitter: Jitter::kinds(),
        budget: Budget::kinds(),
        breaker: Breaker::kinds(),
        bulkhead: Bulkhead::default(),
        network: Network::default(),
        closed_loop: ClosedLoop::default(),
        segment: RateSegment::default(),
        fault: Fault::default(),
        effect: FaultEffect::kinds(),
        enums: Enums {
            arrivals: Arrivals::kinds(),
            balancer: Balancer::kinds(),
            scope: Scope::kinds(),
            window: WindowKind::kinds(),
            retry_on: RetryOn::kinds(),
            billed: crate::cost::Billed::kinds(),
            randomization: vec![
                libraries::GrpcJitter::Plus20Percent,
                libraries::GrpcJitter::Full,
            ],
            implementation: vec![libraries::GrpcClient::Go, libraries::GrpcClient::Node],
            backoff_type: vec![
                libraries::PollyDelay::Constant,
                libraries::PollyDelay::Linear,
                libraries::PollyDelay::Exponential,
            ],
            mode: vec![
                libraries::AwsMode::Legacy,
                libraries::AwsMode::Standard,
                libraries::AwsMode::GoV2,
            ],
            wait: vec![
                libraries::TenacityWait::Exponential,
                libraries::TenacityWait::RandomExponential,
                libraries::TenacityWait::ExponentialJitter,
            ],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_shown_while_off_are_left_out_of_a_scenario_while_off() {
        let d = defaults();
        let doc = crate::validate::json_value(&d.scenario);
        let off = crate::validate::json_value(&d.off);
        let sections = off.as_object().expect("an object");
        assert!(!sections.is_empty());
        for (section, fields) in sections {
            for (key, value) in fields.as_object().expect("an object") {
                // Not in the document, and written at its off value it reads the same.
                assert!(doc[section].get(key).is_none(), "{section}.{key}");
                let mut with = doc.clone();
                with[section][key] = value.clone();
                let read: Scenario = serde_json::from_value(with).expect("reads");
                assert_eq!(read, d.scenario, "{section}.{key}");
            }
        }
    }

    #[test]
    fn defaults_are_valid_in_every_kind() {
        let d = defaults();
        d.scenario.validate().unwrap();
        assert!(Scenario::problems(&d.scenario).is_empty());
        let base = d.scenario.clone();
        let check = |f: &dyn Fn(&mut Scenario)| {
            let mut s = base.clone();
            f(&mut s);
            assert!(
                Scenario::problems(&s).is_empty(),
                "{:?}",
                Scenario::problems(&s)
            );
        };
        for b in &d.budget {
            check(&|s| s.tiers[0].client.as_mut().unwrap().budget = b.clone());
        }
        for b in &d.breaker {
            check(&|s| s.tiers[0].client.as_mut().unwrap().breaker = b.clone());
        }
        for b in &d.backoff {
            check(&|s| {
                let c = s.tiers[0].client.as_mut().unwrap();
                c.backoff = b.clone();
                // A rule that draws its own delay: no second jitter beside it.
                if b.randomizes() {
                    c.jitter = Jitter::None;
                }
            });
        }
        for j in &d.jitter {
            check(&|s| s.tiers[0].client.as_mut().unwrap().jitter = j.clone());
        }
        for x in &d.dist {
            check(&|s| s.tiers[1].service = x.clone());
        }
        for e in &d.effect {
            check(&|s| s.faults[0].effect = e.clone());
        }
        check(&|s| s.tiers[0].client.as_mut().unwrap().bulkhead = Some(d.bulkhead.clone()));
        check(&|s| s.tiers[0].client.as_mut().unwrap().network = Some(d.network.clone()));
        check(&|s| s.load.closed_loop = Some(d.closed_loop.clone()));
        check(&|s| s.load.schedule = vec![d.segment.clone()]);
        check(&|s| {
            s.tiers.insert(
                1,
                Tier {
                    client: Some(d.client.clone()),
                    ..d.tier.clone()
                },
            )
        });
    }
}
