//! Editing rules of a cluster scenario, for an editor (the playground's) that must not
//! re-implement them:
//! - [`Load::rate_at_ms`] and [`load_shape`]: the offered rate at a time, the rule the
//!   simulation's arrivals follow (the last schedule segment covering the time wins, a
//!   ramp is linear over its segment, else the base rate);
//! - [`add_tier`], [`move_tier`], [`remove_tier`]: changes to the chain of tiers that keep
//!   the scenario meaningful. Client policies belong to hops (positions in the chain),
//!   so they stay where they are when tiers move; the last tier has no client; faults
//!   follow the tier they were put on and are renumbered, or dropped with it;
//! - [`add_route`], [`remove_route`]: a tier's routes (a tree instead of a chain). A
//!   route's `to` follows the tier it calls when tiers move, and the route goes when its
//!   tier is removed. In a tree, a tier's client is its own (it calls the tier after it),
//!   so no edit gives a tier a client it did not have, except the old last tier when a
//!   tier is appended (as in a chain).
//!
//! The tier edits work on the scenario document (JSON), not on a parsed [`Scenario`]: an
//! editor holds a document that may not parse yet (a half-typed number is text), and a
//! structural edit must not lose what is being typed elsewhere.
//!
//! [`Scenario`]: super::Scenario

use super::defaults;
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
    /// A new route (its `to` is set when added).
    pub route: Value,
}

impl NewParts {
    /// The engine's defaults ([`defaults::defaults`]).
    pub fn defaults() -> NewParts {
        let d = defaults::defaults();
        NewParts {
            tier: crate::validate::json_value(&d.tier),
            client: crate::validate::json_value(&d.client),
            route: crate::validate::json_value(&d.route),
        }
    }
}

/// The routes of a tier document (empty when it has none).
fn routes_of(tier: &Value) -> &[Value] {
    tier.get("routes")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// True when some tier has routes: the tiers form a tree, not a chain.
fn is_tree(tiers: &[Value]) -> bool {
    tiers.iter().any(|t| !routes_of(t).is_empty())
}

/// Gives every tier but the last the hop policy of its position (`hops[k]`; in a chain a
/// new client where there is none), and the last tier and every tier with routes none.
fn set_hops(tiers: &mut [Value], mut hops: Vec<Value>, parts: &NewParts) {
    let n = tiers.len();
    // In a tree a tier without a client is a leaf or has routes: filling it in would
    // make a second caller of the tier after it.
    let tree = is_tree(tiers);
    for (k, t) in tiers.iter_mut().enumerate() {
        let client = if k + 1 == n || !routes_of(t).is_empty() {
            Value::Null
        } else {
            match hops.get_mut(k).map(Value::take) {
                Some(c) if !c.is_null() => c,
                _ if tree => Value::Null,
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

/// Rewrites the tier index at `key` of every entry of `list` with `f(index)`; `None`
/// removes the entry. An index that is not a number yet is left for validation to name.
fn renumber(list: &mut Vec<Value>, key: &str, f: &impl Fn(u64) -> Option<u64>) {
    list.retain_mut(|entry| {
        let Some(index) = entry.get(key).and_then(Value::as_u64) else {
            return true;
        };
        match f(index) {
            Some(i) => {
                entry[key] = i.into();
                true
            }
            None => false,
        }
    });
}

/// Rewrites every fault's tier with `f(tier)`; `None` removes the fault.
fn renumber_faults(doc: &mut Value, f: impl Fn(u64) -> Option<u64>) {
    if let Some(faults) = doc.get_mut("faults").and_then(Value::as_array_mut) {
        renumber(faults, "tier", &f);
    }
}

/// Rewrites every route's `to` with `f(to)`; `None` removes the route.
fn renumber_routes(tiers: &mut [Value], f: impl Fn(u64) -> Option<u64>) {
    for t in tiers {
        if let Some(routes) = t.get_mut("routes").and_then(Value::as_array_mut) {
            renumber(routes, "to", &f);
        }
    }
}

/// `parts.tier` named so that no tier of `tiers` has its name.
fn new_tier(tiers: &[Value], parts: &NewParts) -> Value {
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
    tier
}

/// Appends `parts.tier` (named uniquely) at the end of the chain; the old last tier now
/// calls it through `parts.client`.
pub fn add_tier(doc: &mut Value, parts: &NewParts) -> Result<(), ValidationError> {
    let tiers = tiers(doc)?;
    let tier = new_tier(tiers, parts);
    let mut hops = hops(tiers);
    // The old last tier calls the new one (in a tree too: nothing else calls it).
    if let Some(last) = hops.last_mut() {
        *last = parts.client.clone();
    }
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
    let swap = |t: u64| {
        Some(if t == i {
            j
        } else if t == j {
            i
        } else {
            t
        })
    };
    renumber_routes(tiers, swap);
    renumber_faults(doc, swap);
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
    // In a tree, a tier i without a client called nothing after it: the hop into it
    // must not close up onto tier i + 1 (which may have its own caller).
    if is_tree(tiers) && i > 0 && hops[i].is_null() {
        hops[i - 1] = Value::Null;
    }
    tiers.remove(i);
    // Hop k is the call from tier k to tier k + 1: removing tier i removes the hop into
    // it, which is the hop out of it except for the last tier (which had none).
    hops.remove(i.min(hops.len() - 2));
    let i = i as u64;
    let close_up = |t: u64| match t.cmp(&i) {
        core::cmp::Ordering::Less => Some(t),
        core::cmp::Ordering::Equal => None,
        core::cmp::Ordering::Greater => Some(t - 1),
    };
    renumber_routes(tiers, close_up);
    set_hops(tiers, hops, parts);
    renumber_faults(doc, close_up);
    Ok(())
}

/// True when some tier calls tier `to` (through its client or a route).
fn is_called(tiers: &[Value], to: usize) -> bool {
    let by_client = to > 0 && tiers[to - 1].get("client").is_some_and(|c| !c.is_null());
    by_client
        || tiers
            .iter()
            .flat_map(routes_of)
            .any(|r| r.get("to").and_then(Value::as_u64) == Some(to as u64))
}

/// Adds a route to tier `k`: a tier that called the next one through its client now
/// calls it through a first route with that client (same meaning, weight of a new
/// route); the new route goes to the first later tier nobody calls, or to a new tier
/// appended for it.
pub fn add_route(doc: &mut Value, k: usize, parts: &NewParts) -> Result<(), ValidationError> {
    let tiers = tiers(doc)?;
    check_index("tiers", k, tiers.len())?;
    if let Some(client) = tiers[k].get("client").filter(|c| !c.is_null()).cloned() {
        let mut first = parts.route.clone();
        first["to"] = (k as u64 + 1).into();
        first["client"] = client;
        tiers[k]["client"] = Value::Null;
        tiers[k]["routes"] = Value::Array(vec![first]);
    }
    let to = match (k + 1..tiers.len()).find(|&t| !is_called(tiers, t)) {
        Some(t) => t,
        None => {
            let tier = new_tier(tiers, parts);
            tiers.push(tier);
            tiers.len() - 1
        }
    };
    let mut route = parts.route.clone();
    route["to"] = (to as u64).into();
    match tiers[k].get_mut("routes").and_then(Value::as_array_mut) {
        Some(routes) => routes.push(route),
        None => tiers[k]["routes"] = Value::Array(vec![route]),
    }
    Ok(())
}

/// Removes route `r` of tier `k` (the tier it called stays, for the editor to reuse or
/// remove; validation names it while nothing calls it).
pub fn remove_route(doc: &mut Value, k: usize, r: usize) -> Result<(), ValidationError> {
    let tiers = tiers(doc)?;
    check_index("tiers", k, tiers.len())?;
    let field = format!("tiers[{k}].routes");
    let routes = tiers[k]
        .get_mut("routes")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| ValidationError::new(&field, "", "a list of routes"))?;
    check_index(&field, r, routes.len())?;
    routes.remove(r);
    if routes.is_empty() {
        if let Value::Object(map) = &mut tiers[k] {
            map.remove("routes");
            map.remove("route_sharing");
        }
    }
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
        let d = defaults::defaults();
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

    /// The bundled shared-budget routes preset: gateway → fast (1) and slow (2) by route.
    fn routes_doc() -> Value {
        let b = bundled()
            .into_iter()
            .find(|b| b.id == "cluster-routes-shared-budget")
            .expect("bundled");
        let mut v: Value = serde_json::from_str(b.json).unwrap();
        // The page holds the scenario without the file's model tag.
        v.as_object_mut().unwrap().remove("model");
        v
    }

    /// `(tier, to)` of every route, in tier then route order.
    fn route_targets(v: &Value) -> Vec<(usize, u64)> {
        let tiers = v["tiers"].as_array().unwrap();
        tiers
            .iter()
            .enumerate()
            .flat_map(|(k, t)| {
                routes_of(t)
                    .iter()
                    .map(move |r| (k, r["to"].as_u64().unwrap()))
            })
            .collect()
    }

    #[test]
    fn a_route_added_to_a_chain_keeps_its_hop_as_the_first_route_and_calls_a_new_tier() {
        let mut v = doc();
        add_route(&mut v, 2, &parts()).unwrap();
        // The last tier had no client: its only route calls a new tier appended for it.
        assert_eq!(route_targets(&v), [(2, 3)]);
        assert_eq!(names(&v).len(), 4);
        valid(&v);
        // Tier 1 called tier 2 through its client: that call is now its first route,
        // with the same policy; tier 4 is new for the second route.
        add_route(&mut v, 1, &parts()).unwrap();
        assert_eq!(route_targets(&v), [(1, 2), (1, 4), (2, 3)]);
        assert!(v["tiers"][1]["client"].is_null());
        assert_eq!(v["tiers"][1]["routes"][0]["client"]["timeout_ms"], 111);
        assert_eq!(timeouts(&v)[0], Some(100), "other hops untouched");
        valid(&v);
        // A tier nobody calls is reused before a new one is made.
        remove_route(&mut v, 1, 1).unwrap();
        let e = serde_json::from_value::<Scenario>(v.clone())
            .unwrap()
            .validate()
            .unwrap_err();
        assert!(e.to_string().contains("tiers"), "{e}");
        add_route(&mut v, 1, &parts()).unwrap();
        assert_eq!(route_targets(&v), [(1, 2), (1, 4), (2, 3)]);
        assert_eq!(names(&v).len(), 5);
        valid(&v);
        // Removing a tier's last route leaves it without routes (nor route sharing).
        remove_route(&mut v, 2, 0).unwrap();
        assert!(v["tiers"][2].get("routes").is_none());
        assert_eq!(
            remove_route(&mut v, 2, 0).unwrap_err().field,
            "tiers[2].routes"
        );
        assert_eq!(
            remove_route(&mut v, 1, 2).unwrap_err().field,
            "tiers[1].routes"
        );
    }

    #[test]
    fn tier_edits_in_a_tree_renumber_routes_and_never_add_a_second_caller() {
        let mut v = routes_doc();
        valid(&v);
        assert_eq!(route_targets(&v), [(0, 1), (0, 2)]);
        // Swapping the two pools: the routes follow their pool.
        let fast = v["tiers"][0]["routes"][0]["weight"].clone();
        move_tier(&mut v, 1, 2, &parts()).unwrap();
        assert_eq!(route_targets(&v), [(0, 2), (0, 1)]);
        assert_eq!(v["tiers"][0]["routes"][0]["weight"], fast);
        assert!(v["tiers"][1]["client"].is_null(), "a leaf stays a leaf");
        valid(&v);
        // Appending: the old last tier calls the new one; the other leaf is left alone.
        add_tier(&mut v, &parts()).unwrap();
        assert!(v["tiers"][1]["client"].is_null());
        assert!(!v["tiers"][2]["client"].is_null());
        valid(&v);
        // Removing a pool removes its route and renumbers the later ones; the hop into
        // the removed leaf does not close up onto the next tier.
        let mut v = routes_doc();
        remove_tier(&mut v, 1, &parts()).unwrap();
        assert_eq!(route_targets(&v), [(0, 1)]);
        assert!(v["tiers"][0]["client"].is_null());
        valid(&v);
        let mut v = routes_doc();
        add_tier(&mut v, &parts()).unwrap();
        remove_tier(&mut v, 2, &parts()).unwrap();
        assert_eq!(route_targets(&v), [(0, 1)]);
        assert!(
            v["tiers"][1]["client"].is_null(),
            "tier 1 did not call tier 2"
        );
    }
}
