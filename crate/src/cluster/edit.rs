//! Editing rules of a cluster scenario, for an editor (the playground's) that must not
//! re-implement them:
//! - [`Load::rate_at_ms`] and [`load_shape`]: the offered rate at a time, the rule the
//!   simulation's arrivals follow (the last schedule segment covering the time wins, a
//!   ramp is linear over its segment, else the base rate);
//! - [`add_tier`], [`move_tier`], [`remove_tier`]: changes to the chain of tiers that keep
//!   the scenario meaningful. Client policies belong to hops (positions in the chain),
//!   so they stay where they are when tiers move; the last tier has no client; faults
//!   follow the tier they were put on and are renumbered, or dropped with it.
//!
//! The tier edits work on the scenario document (JSON), not on a parsed [`Scenario`]: an
//! editor holds a document that may not parse yet (a half-typed number is text), and a
//! structural edit must not lose what is being typed elsewhere.
//!
//! [`Scenario`]: super::Scenario

use super::present;
use super::scenario::Load;
use crate::validate::ValidationError;
use serde_json::Value;

impl Load {
    /// The open-loop rate at `ms` (requests per second): the last schedule segment whose
    /// `[start_ms, end_ms)` holds `ms` (a ramp is linear over the segment), else the base
    /// rate.
    pub fn rate_at_ms(&self, ms: f64) -> f64 {
        // Later segments win, so search from the end.
        for s in self.schedule.iter().rev() {
            if (s.start_ms as f64) <= ms && ms < s.end_ms as f64 {
                return match s.to_rate_per_s {
                    None => s.rate_per_s,
                    Some(to) => {
                        let span = (s.end_ms - s.start_ms) as f64;
                        let f = if span > 0.0 {
                            (ms - s.start_ms as f64) / span
                        } else {
                            0.0
                        };
                        s.rate_per_s + (to - s.rate_per_s) * f
                    }
                };
            }
        }
        self.rate_per_s
    }
}

/// The rate at `samples + 1` evenly spaced times from 0 to `duration_ms` (both ends).
pub fn load_shape(load: &Load, duration_ms: f64, samples: usize) -> Vec<f64> {
    let n = samples.max(1);
    (0..=n)
        .map(|i| load.rate_at_ms(i as f64 / n as f64 * duration_ms))
        .collect()
}

/// The tiers array of a scenario document, or the error naming it.
fn tiers(doc: &mut Value) -> Result<&mut Vec<Value>, ValidationError> {
    doc.get_mut("tiers")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| ValidationError::new("tiers", "", "a list of tiers"))
}

fn check_index(field: &str, i: usize, len: usize) -> Result<(), ValidationError> {
    if i < len {
        Ok(())
    } else {
        Err(ValidationError::new(field, i, format!("0..{len}")))
    }
}

/// What a tier edit adds, as scenario documents: a new tier, and the hop policy of a tier
/// that gains a next one.
#[derive(Debug, Clone, PartialEq)]
pub struct NewParts {
    /// A new tier (its name is made unique when added).
    pub tier: Value,
    /// A new hop's client policy.
    pub client: Value,
}

impl NewParts {
    /// The engine's defaults ([`present::defaults`]).
    pub fn defaults() -> NewParts {
        let d = present::defaults();
        // Serializing the engine's own types to JSON cannot fail.
        let json = |v: Result<Value, serde_json::Error>| v.unwrap_or(Value::Null);
        NewParts {
            tier: json(serde_json::to_value(d.tier)),
            client: json(serde_json::to_value(d.client)),
        }
    }
}

/// Gives every tier but the last the hop policy of its position (`hops[k]`, a new client
/// where there is none), and the last tier none.
fn set_hops(tiers: &mut [Value], mut hops: Vec<Value>, parts: &NewParts) {
    let n = tiers.len();
    for (k, t) in tiers.iter_mut().enumerate() {
        let client = if k + 1 == n {
            Value::Null
        } else {
            match hops.get_mut(k).map(Value::take) {
                Some(c) if !c.is_null() => c,
                _ => parts.client.clone(),
            }
        };
        if let Value::Object(map) = t {
            map.insert("client".into(), client);
        }
    }
}

/// Each tier's client, in chain order (the hop policies).
fn hops(tiers: &[Value]) -> Vec<Value> {
    tiers
        .iter()
        .map(|t| t.get("client").cloned().unwrap_or(Value::Null))
        .collect()
}

/// Rewrites every fault's tier with `f(tier)`; `None` removes the fault.
fn renumber_faults(doc: &mut Value, f: impl Fn(u64) -> Option<u64>) {
    let Some(faults) = doc.get_mut("faults").and_then(Value::as_array_mut) else {
        return;
    };
    faults.retain_mut(|fault| {
        // A fault whose tier is not a number yet is left for validation to name.
        let Some(tier) = fault.get("tier").and_then(Value::as_u64) else {
            return true;
        };
        match f(tier) {
            Some(t) => {
                fault["tier"] = t.into();
                true
            }
            None => false,
        }
    });
}

/// Appends `parts.tier` (named uniquely) at the end of the chain; the old last tier now
/// calls it through `parts.client`.
pub fn add_tier(doc: &mut Value, parts: &NewParts) -> Result<(), ValidationError> {
    let tiers = tiers(doc)?;
    let mut tier = parts.tier.clone();
    let base = tier["name"].as_str().unwrap_or("tier").to_string();
    let taken = |name: &str| tiers.iter().any(|t| t["name"].as_str() == Some(name));
    let mut name = base.clone();
    let mut n = 2;
    while taken(&name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    tier["name"] = name.into();
    let hops = hops(tiers);
    tiers.push(tier);
    set_hops(tiers, hops, parts);
    Ok(())
}

/// Swaps tiers `i` and `j`: hop policies stay at their positions, faults follow their tier.
pub fn move_tier(
    doc: &mut Value,
    i: usize,
    j: usize,
    parts: &NewParts,
) -> Result<(), ValidationError> {
    let tiers = tiers(doc)?;
    check_index("tiers", i, tiers.len())?;
    check_index("tiers", j, tiers.len())?;
    let hops = hops(tiers);
    tiers.swap(i, j);
    set_hops(tiers, hops, parts);
    let (i, j) = (i as u64, j as u64);
    renumber_faults(doc, |t| {
        Some(if t == i {
            j
        } else if t == j {
            i
        } else {
            t
        })
    });
    Ok(())
}

/// Removes tier `i` (never the only one): the hops close up around it (removing the last
/// tier drops the policy that called it), its faults go with it and later faults move up.
pub fn remove_tier(doc: &mut Value, i: usize, parts: &NewParts) -> Result<(), ValidationError> {
    let tiers = tiers(doc)?;
    check_index("tiers", i, tiers.len())?;
    if tiers.len() == 1 {
        return Err(ValidationError::new("tiers", 1, "at least one tier"));
    }
    let mut hops = hops(tiers);
    tiers.remove(i);
    // Hop k is the call from tier k to tier k + 1: removing tier i removes the hop into
    // it, which is the hop out of it except for the last tier (which had none).
    hops.remove(i.min(hops.len() - 2));
    set_hops(tiers, hops, parts);
    let i = i as u64;
    renumber_faults(doc, |t| match t.cmp(&i) {
        core::cmp::Ordering::Less => Some(t),
        core::cmp::Ordering::Equal => None,
        core::cmp::Ordering::Greater => Some(t - 1),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{RateSegment, Scenario};
    use crate::scenario::{bundled, parse, AnyScenario};
    use serde_json::json;

    /// The bundled naive GC stampede: two tiers (gateway → orders), one fault.
    fn stampede() -> Scenario {
        let b = bundled()
            .into_iter()
            .find(|b| b.id == "cluster-gc-stampede-naive")
            .expect("bundled");
        let AnyScenario::Cluster(s) = parse(b.json).expect("parses") else {
            panic!("{} is a cluster scenario", b.id)
        };
        s
    }

    fn load(schedule: Vec<RateSegment>) -> Load {
        let mut l = stampede().load;
        l.rate_per_s = 100.0;
        l.schedule = schedule;
        l
    }

    fn seg(start_ms: u64, end_ms: u64, rate: f64, to: Option<f64>) -> RateSegment {
        RateSegment {
            start_ms,
            end_ms,
            rate_per_s: rate,
            to_rate_per_s: to,
        }
    }

    #[test]
    fn the_rate_is_the_base_outside_segments_and_the_last_covering_segment_inside() {
        let l = load(vec![
            seg(1000, 3000, 500.0, None),
            seg(2000, 4000, 0.0, Some(1000.0)),
        ]);
        assert_eq!(l.rate_at_ms(0.0), 100.0);
        assert_eq!(l.rate_at_ms(999.9), 100.0);
        assert_eq!(l.rate_at_ms(1000.0), 500.0, "a segment starts at its start");
        assert_eq!(l.rate_at_ms(1999.0), 500.0);
        // From 2000 the later ramp wins over the earlier constant segment.
        assert_eq!(l.rate_at_ms(2000.0), 0.0);
        assert_eq!(l.rate_at_ms(3000.0), 500.0, "halfway up the ramp");
        assert_eq!(l.rate_at_ms(3500.0), 750.0);
        assert_eq!(l.rate_at_ms(4000.0), 100.0, "a segment's end is exclusive");
    }

    #[test]
    fn an_empty_segment_covers_nothing_and_the_shape_samples_both_ends() {
        let l = load(vec![seg(500, 500, 900.0, Some(0.0))]);
        assert_eq!(l.rate_at_ms(500.0), 100.0);
        let l = load(vec![seg(0, 1000, 0.0, Some(1000.0))]);
        assert_eq!(load_shape(&l, 2000.0, 4), [0.0, 500.0, 100.0, 100.0, 100.0]);
        assert_eq!(load_shape(&l, 1000.0, 0).len(), 2, "at least one interval");
    }

    fn parts() -> NewParts {
        NewParts::defaults()
    }

    fn doc() -> Value {
        let mut v = serde_json::to_value(stampede()).unwrap();
        // Three tiers with distinguishable hop policies, a fault on each.
        v["tiers"][1]["client"] = v["tiers"][0]["client"].clone();
        v["tiers"][1]["client"]["timeout_ms"] = 111.into();
        v["tiers"][0]["client"]["timeout_ms"] = 100.into();
        let mut third = v["tiers"][1].clone();
        third["name"] = "db".into();
        third["client"] = Value::Null;
        v["tiers"].as_array_mut().unwrap().push(third);
        let f = v["faults"][0].clone();
        v["faults"] = json!([f.clone(), f.clone(), f]);
        for k in 0..3 {
            v["faults"][k]["tier"] = k.into();
            v["faults"][k]["start_ms"] = (1000 * k).into();
        }
        v
    }

    fn names(v: &Value) -> Vec<&str> {
        v["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect()
    }

    fn timeouts(v: &Value) -> Vec<Option<u64>> {
        v["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["client"]["timeout_ms"].as_u64())
            .collect()
    }

    /// (tier, start_ms) of every fault.
    fn faults(v: &Value) -> Vec<(u64, u64)> {
        v["faults"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["tier"].as_u64().unwrap(), f["start_ms"].as_u64().unwrap()))
            .collect()
    }

    fn valid(v: &Value) {
        let s: Scenario = serde_json::from_value(v.clone()).unwrap();
        s.validate().unwrap();
    }

    #[test]
    fn moving_a_tier_keeps_the_hop_policies_in_place_and_the_faults_on_their_tier() {
        let mut v = doc();
        valid(&v);
        assert_eq!(names(&v), ["gateway", "orders", "db"]);
        move_tier(&mut v, 2, 1, &parts()).unwrap();
        assert_eq!(names(&v), ["gateway", "db", "orders"]);
        assert_eq!(timeouts(&v), [Some(100), Some(111), None]);
        // The fault at 2000 ms was on db (2), now tier 1; the one on orders follows it to 2.
        assert_eq!(faults(&v), [(0, 0), (2, 1000), (1, 2000)]);
        valid(&v);
        move_tier(&mut v, 0, 2, &parts()).unwrap();
        assert_eq!(names(&v), ["orders", "db", "gateway"]);
        assert_eq!(timeouts(&v), [Some(100), Some(111), None]);
        assert_eq!(faults(&v), [(2, 0), (0, 1000), (1, 2000)]);
        assert!(move_tier(&mut v, 0, 3, &parts()).is_err());
    }

    #[test]
    fn removing_a_tier_closes_the_chain_and_drops_or_renumbers_faults() {
        let mut v = doc();
        remove_tier(&mut v, 1, &parts()).unwrap();
        assert_eq!(names(&v), ["gateway", "db"]);
        assert_eq!(timeouts(&v), [Some(100), None]);
        assert_eq!(faults(&v), [(0, 0), (1, 2000)]);
        valid(&v);
        // Removing the last tier drops the hop that called it.
        let mut v = doc();
        remove_tier(&mut v, 2, &parts()).unwrap();
        assert_eq!(timeouts(&v), [Some(100), None]);
        assert_eq!(faults(&v), [(0, 0), (1, 1000)]);
        valid(&v);
        // Removing the first tier: the second tier's hop is now the entry's.
        let mut v = doc();
        remove_tier(&mut v, 0, &parts()).unwrap();
        assert_eq!(names(&v), ["orders", "db"]);
        assert_eq!(timeouts(&v), [Some(111), None]);
        assert_eq!(faults(&v), [(0, 1000), (1, 2000)]);
        remove_tier(&mut v, 0, &parts()).unwrap();
        let e = remove_tier(&mut v, 0, &parts()).unwrap_err();
        assert_eq!(e.field, "tiers");
    }

    #[test]
    fn adding_a_tier_names_it_uniquely_and_gives_the_old_last_tier_a_client() {
        let mut v = doc();
        add_tier(&mut v, &parts()).unwrap();
        add_tier(&mut v, &parts()).unwrap();
        let d = present::defaults();
        let base = d.tier.name.clone();
        assert_eq!(names(&v)[3..], [base.as_str(), &format!("{base}-2")]);
        let t = timeouts(&v);
        assert_eq!(t[..3], [Some(100), Some(111), Some(d.client.timeout_ms)]);
        assert_eq!(t[4], None);
        valid(&v);
    }

    #[test]
    fn a_document_that_does_not_parse_yet_keeps_its_text() {
        let mut v = doc();
        v["tiers"][0]["instances"] = "12x".into();
        v["faults"][1]["tier"] = "one".into();
        move_tier(&mut v, 0, 1, &parts()).unwrap();
        assert_eq!(v["tiers"][1]["instances"], "12x");
        assert_eq!(v["faults"][1]["tier"], "one");
        assert!(add_tier(&mut json!({"tiers": 3}), &parts()).is_err());
    }
}
