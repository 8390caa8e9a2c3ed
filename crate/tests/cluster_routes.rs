//! Several upstreams in the cluster model: a tier calling several pools by weight, each
//! route with its own client policy, budgets per route or shared; the cost of a route.

use proptest::prelude::*;
use retrystorm::cluster::{self, present, RunResult, Scenario};
use retrystorm::rng::JavaRandom;
use retrystorm::scenario;
use serde_json::{json, Value};

fn scenario(v: Value) -> Scenario {
    let s: Scenario = serde_json::from_value(v).expect("valid JSON");
    s.validate().expect("valid scenario");
    s
}

fn leaf(name: &str) -> Value {
    json!({"name": name, "instances": 2, "concurrency": 1000, "queue_capacity": 1000,
           "service": {"kind": "constant", "ms": 10}})
}

fn route(to: u32, weight: f64) -> Value {
    json!({"to": to, "weight": weight, "client": {"timeout_ms": 1000}})
}

/// A gateway (tier 0) routing to leaves 1..=n by `weights`.
fn fan_out(weights: &[f64], rate: f64, duration_ms: u64) -> Value {
    let routes: Vec<Value> = weights
        .iter()
        .enumerate()
        .map(|(k, &w)| route(k as u32 + 1, w))
        .collect();
    let mut tiers = vec![
        json!({"name": "gateway", "instances": 2, "concurrency": 10000,
        "queue_capacity": 0, "service": {"kind": "constant", "ms": 1}, "routes": routes}),
    ];
    tiers.extend((1..=weights.len()).map(|k| leaf(&format!("pool{k}"))));
    json!({"name": "fan-out", "seed": 7, "duration_ms": duration_ms,
           "load": {"arrivals": "poisson", "rate_per_s": rate}, "tiers": tiers})
}

#[test]
fn routing_weights_within_sampling_error() {
    let weights = [0.8, 0.15, 0.05];
    let s = scenario(fan_out(&[8.0, 1.5, 0.5], 2000.0, 20_000));
    let r = cluster::run(&s, s.seed).unwrap();
    let total: u64 = r.routes.iter().map(|x| x.totals.first_attempts).sum();
    // Every call took exactly one route: the requests not pending at the gateway (and
    // some that are, waiting for their call's answer) made one call each.
    let requests = r.summary.requests;
    assert!(total <= requests && total + r.tiers[0].pending_at_end >= requests);
    assert!(total > 35_000, "{total}");
    for (x, p) in r.routes.iter().zip(weights) {
        // The declared share is the weight over the weights' sum.
        assert!((x.share - p).abs() < 1e-12, "{}", x.share);
        // Binomial: within 4 standard deviations of n·p.
        let sd = (total as f64 * p * (1.0 - p)).sqrt();
        let dev = (x.totals.first_attempts as f64 - total as f64 * p).abs();
        assert!(
            dev < 4.0 * sd,
            "{}: {} calls of {total}, p = {p}",
            x.name,
            x.totals.first_attempts
        );
    }
}

#[test]
fn a_chain_has_one_route_per_calling_tier() {
    let b = scenario::bundled()
        .into_iter()
        .find(|b| b.id == "cluster-call-chain")
        .unwrap();
    let s: Scenario = match scenario::parse(b.json).unwrap() {
        scenario::AnyScenario::Cluster(s) => s,
        _ => unreachable!(),
    };
    let r = cluster::run(&s, s.seed).unwrap();
    assert_eq!(r.routes.len(), s.tiers.len() - 1);
    for (k, x) in r.routes.iter().enumerate() {
        assert_eq!((x.from, x.to, x.share), (k as u32, k as u32 + 1, 1.0));
        // The chain's 3 attempts per call at every hop: retries happen on every route.
        assert!(x.totals.retries > 0, "{}", x.name);
        let amp = x.totals.attempts() as f64 / x.totals.first_attempts as f64;
        assert!((x.retry_amplification - amp).abs() < 1e-12);
    }
    // Without routes the text report has no route table; with them it has one.
    assert!(!cluster::report::text(&s, &r).contains("route "));
    let s = scenario(fan_out(&[1.0, 1.0], 100.0, 2000));
    let r = cluster::run(&s, s.seed).unwrap();
    assert!(cluster::report::text(&s, &r).contains("gateway → pool2"));
}

/// A random tree: tier j > 0 is called by a random earlier tier, through a route or,
/// when it is the next tier and the only callee, through a plain `client`.
fn random_tree(seed: u64) -> Value {
    let mut g = JavaRandom::new(seed as i64);
    let mut int = |lo: i32, hi: i32| lo + g.next_int_bounded(hi - lo + 1).unwrap_or(0);
    let n = int(2, 5) as usize;
    let parent: Vec<usize> = (0..n)
        .map(|j| {
            if j == 0 {
                0
            } else {
                int(0, j as i32 - 1) as usize
            }
        })
        .collect();
    let mut tiers = vec![];
    for i in 0..n {
        let callees: Vec<usize> = (1..n).filter(|&j| parent[j] == i).collect();
        let mut t = json!({"name": format!("t{i}"), "instances": int(1, 3),
            "concurrency": int(1, 30), "queue_capacity": int(0, 30),
            "service": {"kind": "exponential", "mean_ms": int(1, 15)},
            "error_rate": int(0, 20) as f64 / 100.0});
        let scope = if int(0, 1) == 0 {
            "shared"
        } else {
            "per_instance"
        };
        let budget = json!({"kind": "token_bucket", "percent": 20, "max_tokens": int(1, 10), "scope": scope});
        let breaker = if int(0, 2) == 0 {
            json!({"kind": "consecutive", "failures": int(1, 5), "open_ms": 200, "scope": scope})
        } else {
            json!({"kind": "none"})
        };
        let client = json!({"timeout_ms": int(20, 200), "max_attempts": int(1, 4),
            "backoff": {"kind": "constant", "ms": int(0, 30)}, "budget": budget, "breaker": breaker,
            "bulkhead": if int(0, 3) == 0 { json!({"max_concurrent": int(1, 10), "max_queue": int(0, 5), "max_wait_ms": 50}) } else { Value::Null }});
        if callees == [i + 1] && int(0, 1) == 0 {
            t["client"] = client;
        } else if !callees.is_empty() {
            let routes: Vec<Value> = callees
                .iter()
                .map(|&j| json!({"to": j, "weight": int(1, 10), "client": client.clone()}))
                .collect();
            t["routes"] = json!(routes);
            t["route_sharing"] = json!({"budget": int(0, 1) == 1, "breaker": int(0, 1) == 1});
        }
        tiers.push(t);
    }
    let faults: Vec<Value> = (0..int(0, 2))
        .map(|_| {
            let effect = if int(0, 1) == 0 { json!({"kind": "outage"}) } else { json!({"kind": "hang"}) };
            json!({"tier": int(0, n as i32 - 1), "start_ms": int(0, 1500), "duration_ms": int(50, 800), "effect": effect})
        })
        .collect();
    json!({"name": "tree", "seed": seed as i64, "duration_ms": 8000, "bucket_ms": 500,
        "load": {"arrivals": "poisson", "rate_per_s": 0,
                 "schedule": [{"start_ms": 0, "end_ms": 2000, "rate_per_s": int(50, 400)}]},
        "tiers": tiers, "faults": faults})
}

/// Per-route conservation; `drained` when the load stopped early enough that nothing
/// is pending at the end.
fn check_routes(r: &RunResult, drained: bool) {
    let sm = &r.summary;
    assert_eq!(sm.successes + sm.failures + sm.pending_at_end, sm.requests);
    for x in &r.routes {
        // Every attempt sent on a route ended exactly once (or is still pending).
        assert_eq!(
            x.totals.attempts(),
            x.totals.successes + x.totals.failures() + x.pending_at_end,
            "{x:?}"
        );
        if drained {
            assert_eq!(x.pending_at_end, 0);
        }
        // A call succeeds at most once (a call whose first try the breaker or bulkhead
        // refused sends its first attempt as a retry).
        assert!(
            x.totals.successes
                <= x.totals.first_attempts + x.totals.breaker_rejected + x.totals.bulkhead_rejected
        );
    }
    // The calls a tier makes are what it served: every served request makes one call,
    // on exactly one of its routes.
    for (k, t) in r.tiers.iter().enumerate() {
        let out: u64 = r
            .routes
            .iter()
            .filter(|x| x.from == k as u32)
            .map(|x| x.totals.first_attempts)
            .sum();
        if r.routes.iter().any(|x| x.from == k as u32) {
            assert!(out <= t.totals.services_ended, "tier {k}: {out} calls");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30, ..ProptestConfig::default() })]

    #[test]
    fn every_route_conserves_its_attempts(seed in any::<u64>()) {
        let s = scenario(random_tree(seed));
        let r = cluster::run(&s, s.seed).unwrap();
        prop_assert_eq!(r.summary.pending_at_end, 0);
        check_routes(&r, true);
        let again = cluster::run(&s, s.seed).unwrap();
        prop_assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&again).unwrap());
    }
}

fn preset(id: &str) -> (Scenario, RunResult) {
    let b = scenario::bundled()
        .into_iter()
        .find(|b| b.id == id)
        .unwrap();
    assert!(!b.description.is_empty());
    let s = match scenario::parse(b.json).unwrap() {
        scenario::AnyScenario::Cluster(s) => s,
        _ => unreachable!(),
    };
    let r = cluster::run(&s, s.seed).unwrap();
    (s, r)
}

#[test]
fn a_shared_budget_lets_the_slow_pool_starve_the_fast_one() {
    let (_, shared) = preset("cluster-routes-shared-budget");
    let (_, own) = preset("cluster-routes-per-route-budget");
    check_routes(&shared, false);
    check_routes(&own, false);
    let fast = |r: &RunResult| r.routes[0].clone();
    let (a, b) = (fast(&shared), fast(&own));
    assert_eq!((a.name.as_str(), a.share), ("gateway → fast-pool", 0.8));
    // With its own budget the fast pool never has a retry refused...
    assert_eq!(b.totals.budget_rejected, 0);
    // ...with the shared one the slow pool's outage spends it, and the fast pool loses
    // its retries: many more of its calls fail.
    assert!(a.totals.budget_rejected > 100, "{a:?}");
    let failed = |x: &cluster::RouteSummary| x.totals.first_attempts - x.totals.successes;
    assert!(
        failed(&a) > 5 * failed(&b),
        "{} vs {}",
        failed(&a),
        failed(&b)
    );
    // The route table shows it.
    let t = present::route_table(&shared);
    let col = t.columns.iter().position(|c| c == "budget").unwrap();
    assert_eq!(t.rows[0][col], a.totals.budget_rejected.to_string());
}

#[test]
fn route_cost_by_hand() {
    // Arrivals every 100 ms (100..=1900), the pool down before 500 ms, one retry 600 ms
    // later. Attempts at 101..401 ms fail (4 errors) and their retries succeed; 19 calls,
    // 19 successes: 8 end in the first second, 11 in the second.
    let mut v = fan_out(&[1.0], 10.0, 2000);
    v["load"]["arrivals"] = json!("constant");
    v["tiers"][0]["routes"][0]["client"] = json!({"timeout_ms": 1000, "max_attempts": 2,
        "backoff": {"kind": "constant", "ms": 600},
        "cost": {"input_tokens": 100, "output_tokens": 10,
                 "input_price_per_1k": 1.0, "output_price_per_1k": 2.0}});
    v["faults"] =
        json!([{"tier": 1, "start_ms": 0, "duration_ms": 500, "effect": {"kind": "outage"}}]);
    let s = scenario(v.clone());
    let r = cluster::run(&s, s.seed).unwrap();
    let x = &r.routes[0];
    let t = &x.totals;
    assert_eq!(
        (t.first_attempts, t.retries, t.successes, t.errors),
        (19, 4, 19, 4)
    );
    let c = x.cost.as_ref().unwrap();
    assert_eq!(
        (c.input_tokens, c.output_tokens, c.billed_failures),
        (2300, 190, 4)
    );
    let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    // An answered call costs 0.12, a billed error 0.1.
    close(c.per_sec[0], 8.0 * 0.12 + 4.0 * 0.1);
    close(c.per_sec[1], 11.0 * 0.12);
    close(c.total, 2.68);
    close(c.per_delivered.unwrap(), 2.68 / 19.0);
    close(c.amplification.unwrap(), 2.68 / (19.0 * 0.12));
    // Errors not billed: the retries cost nothing more than the answers.
    v["tiers"][0]["routes"][0]["client"]["cost"]["billed"] = json!(["overload"]);
    let s = scenario(v);
    let r = cluster::run(&s, s.seed).unwrap();
    let c = r.routes[0].cost.as_ref().unwrap();
    close(c.total, 19.0 * 0.12);
    close(c.amplification.unwrap(), 1.0);
    // The route table gains the cost columns, the bucket CSV a cost column.
    let t = present::route_table(&r);
    assert_eq!(t.columns.last().unwrap(), "cost amplification");
    assert_eq!(t.rows[0].last().unwrap(), "1.00x");
    let csv = cluster::report::csv_buckets(&r);
    assert!(csv.lines().next().unwrap().ends_with(",cost"));
}

/// The first problem of the fan-out scenario after `edit`.
fn problem(edit: impl Fn(&mut Value)) -> String {
    let mut v = fan_out(&[1.0, 1.0], 100.0, 1000);
    edit(&mut v);
    match scenario::from_value({
        let mut v = v;
        v["model"] = json!("cluster");
        v
    }) {
        Ok(_) => "ok".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_routes_are_named() {
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|v| v["tiers"][0]["routes"][1]["to"] = json!(0)),
            "tiers[0].routes[1].to = 0 is out of range: allowed 1..=2 (a later tier)",
        ),
        (
            Box::new(|v| v["tiers"][0]["routes"][1]["to"] = json!(9)),
            "tiers[0].routes[1].to = 9 is out of range: allowed 1..=2 (a later tier)",
        ),
        (
            Box::new(|v| v["tiers"][0]["routes"][0]["weight"] = json!(0)),
            "tiers[0].routes[0].weight = 0 is out of range: allowed 0.001..=1000",
        ),
        (
            Box::new(|v| v["tiers"][0]["routes"][0]["weight"] = json!("most")),
            "tiers[0].routes[0].weight = \"most\" is not allowed: expected a number in 0.001..=1000",
        ),
        (
            Box::new(|v| v["tiers"][0]["client"] = json!({"timeout_ms": 100})),
            "tiers[0].routes = 2 routes is out of range: allowed absent when `client` is set",
        ),
        (
            // Two routes of one tier may call one pool, but two tiers may not.
            Box::new(|v| {
                v["tiers"][1]["routes"] = json!([{"to": 2, "weight": 1, "client": {"timeout_ms": 100}}])
            }),
            "tiers[2] = called by 2 tiers is out of range: allowed called by exactly one tier",
        ),
        (
            Box::new(|v| v["tiers"][0]["routes"][1]["to"] = json!(1)),
            "tiers[2] = called by 0 tiers is out of range: allowed called by exactly one tier",
        ),
        (
            Box::new(|v| v["tiers"][0]["routes"][0]["client"]["timeout_ms"] = json!(0)),
            "tiers[0].routes[0].client.timeout_ms = 0 is out of range",
        ),
        (
            Box::new(|v| v["tiers"][0]["routes"][0]["pool"] = json!("x")),
            "unknown field `tiers[0].routes[0].pool`, expected one of `to`, `weight`, `client`",
        ),
        (
            Box::new(|v| {
                v["tiers"][0]["route_sharing"] = json!({"budget": true});
                v["tiers"][0]["routes"][1]["client"]["budget"] =
                    json!({"kind": "token_bucket", "percent": 10, "max_tokens": 5});
            }),
            "tiers[0].routes[1].client.budget = a different budget is out of range: allowed the budget of routes[0]",
        ),
        (
            Box::new(|v| v["tiers"][0]["route_sharing"] = json!({"budgets": true})),
            "unknown field `tiers[0].route_sharing.budgets`, expected `budget` or `breaker`",
        ),
        (
            Box::new(|v| {
                v["tiers"][0]["routes"][0]["client"]["cost"] = json!({"input_tokens": 1,
                    "output_tokens": 1, "input_price_per_1k": 2000, "output_price_per_1k": 1})
            }),
            "tiers[0].routes[0].client.cost.input_price_per_1k = 2000 is out of range: allowed 0..=1000",
        ),
    ];
    for (edit, want) in cases {
        let msg = problem(edit);
        assert!(msg.starts_with(want), "{msg}\n  wanted: {want}");
    }
    assert_eq!(problem(|_| {}), "ok");
}

/// The per-pool preset with a consecutive-failure breaker of its own on each route.
fn routes_with_breakers() -> Scenario {
    let mut v: Value = serde_json::from_str(include_str!(
        "../../scenarios/cluster-routes-per-route-budget.json"
    ))
    .unwrap();
    v.as_object_mut().unwrap().remove("model");
    for r in v["tiers"][0]["routes"].as_array_mut().unwrap() {
        r["client"]["breaker"] = json!({"kind": "consecutive", "failures": 5, "open_ms": 2000});
    }
    scenario(v)
}

#[test]
fn route_breakers_are_gauged_per_route_and_sum_to_the_tier() {
    let s = routes_with_breakers();
    let r = cluster::run(&s, s.seed).unwrap();
    assert_eq!(r.routes.len(), 2);
    let inst = s.tiers[0].instances;
    let (mut slow_open, mut fast_open) = (0u32, 0u32);
    for b in &r.buckets {
        assert_eq!(b.route_breakers.len(), r.routes.len());
        // Each route's gauge covers every gateway instance; the tier's is their sum, as
        // the two routes' breakers are distinct.
        for g in &b.route_breakers {
            assert_eq!(g.iter().sum::<u32>(), inst);
        }
        let t = &b.tiers[0];
        let sum = |i: usize| b.route_breakers.iter().map(|g| g[i]).sum::<u32>();
        assert_eq!(
            [t.breakers_open, t.breakers_half_open, t.breakers_closed],
            [sum(0), sum(1), sum(2)]
        );
        let during = (20_000..35_000).contains(&b.start_ms);
        if during {
            slow_open += b.route_breakers[1][0] + b.route_breakers[1][1];
            fast_open += b.route_breakers[0][0];
        }
    }
    // The slow pool's outage trips the slow route's breakers, not the fast route's.
    assert!(slow_open > 0, "the slow route's breakers never opened");
    assert!(fast_open < slow_open, "fast {fast_open}, slow {slow_open}");
    // A scenario without routes of their own breakers gauges no route: its JSON is as before.
    let chain = scenario::bundled()
        .into_iter()
        .find(|b| b.id == "cluster-gc-stampede-naive")
        .unwrap();
    let chain = match scenario::parse(chain.json).unwrap() {
        scenario::AnyScenario::Cluster(c) => c,
        _ => unreachable!(),
    };
    let mut short = chain.clone();
    short.duration_ms = 5_000;
    let rc = cluster::run(&short, short.seed).unwrap();
    assert!(rc.buckets.iter().all(|b| b.route_breakers.is_empty()));
    assert!(!serde_json::to_string(&rc)
        .unwrap()
        .contains("route_breakers"));
}

/// A gateway whose routes all call one pool (`clients`: each route's client, weight 1).
fn populations(clients: &[Value], rate: f64, duration_ms: u64) -> Value {
    let routes: Vec<Value> = clients
        .iter()
        .map(|c| json!({"to": 1, "weight": 1, "client": c}))
        .collect();
    let mut v = fan_out(&[1.0], rate, duration_ms);
    v["tiers"][0]["routes"] = json!(routes);
    v["load"]["arrivals"] = json!("constant");
    v
}

#[test]
fn two_routes_to_one_callee_count_apart() {
    // A pool that fails every attempt: route 1 never retries, route 2 makes up to 3
    // attempts with no wait. Arrivals every 10 ms for 1 s (0..=990): 100 calls, each on
    // one route, so route 1 sends its calls once and route 2 three times each.
    let mut v = populations(
        &[
            json!({"timeout_ms": 1000}),
            json!({"timeout_ms": 1000, "max_attempts": 3}),
        ],
        0.0,
        2000,
    );
    v["load"]["schedule"] = json!([{"start_ms": 0, "end_ms": 1000, "rate_per_s": 100}]);
    v["tiers"][1]["error_rate"] = json!(1.0);
    let s = scenario(v);
    let r = cluster::run(&s, s.seed).unwrap();
    let (a, b) = (&r.routes[0], &r.routes[1]);
    assert_eq!(
        (a.name.as_str(), b.name.as_str()),
        ("gateway → pool1 #1", "gateway → pool1 #2")
    );
    assert_eq!((a.to, b.to, a.share, b.share), (1, 1, 0.5, 0.5));
    let (ca, cb) = (a.totals.first_attempts, b.totals.first_attempts);
    assert_eq!(ca + cb, 100);
    assert!(ca > 20 && cb > 20, "{ca} and {cb} calls");
    assert_eq!((a.totals.retries, a.totals.errors), (0, ca));
    assert_eq!((b.totals.retries, b.totals.errors), (2 * cb, 3 * cb));
    assert_eq!(a.totals.successes + b.totals.successes, 0);
    assert_eq!((a.retry_amplification, b.retry_amplification), (1.0, 3.0));
    // The pool's arrivals are the two routes' attempts.
    let pool = &r.tiers[1].totals;
    assert_eq!(pool.attempts(), ca + 3 * cb);
    assert_eq!(pool.errors, a.totals.errors + b.totals.errors);
    assert_eq!(r.summary.failures, 100);
    // The route table and the text report tell the two routes apart.
    let t = present::route_table(&r);
    assert_eq!(t.rows[0][0], "gateway → pool1 #1");
    assert_eq!(t.rows[1][2], cb.to_string());
    assert!(cluster::report::text(&s, &r).contains("gateway → pool1 #2"));
    // With a cost model on both, each route bills its own errors (0.1 each) and the
    // bucket CSV's pool rows carry both routes' cost.
    let mut v = serde_json::to_value(&s).unwrap();
    for k in 0..2 {
        v["tiers"][0]["routes"][k]["client"]["cost"] = json!({"input_tokens": 100,
            "output_tokens": 10, "input_price_per_1k": 1.0, "output_price_per_1k": 2.0});
    }
    let s = scenario(v);
    let r = cluster::run(&s, s.seed).unwrap();
    let total = |k: usize| r.routes[k].cost.as_ref().unwrap().total;
    let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    close(total(0), 0.1 * ca as f64);
    close(total(1), 0.3 * cb as f64);
    let csv = cluster::report::csv_buckets(&r);
    let pool: f64 = csv
        .lines()
        .filter(|l| l.split(',').nth(1) == Some("pool1"))
        .map(|l| l.rsplit(',').next().unwrap().parse::<f64>().unwrap())
        .sum();
    close(pool, total(0) + total(1));
}

#[test]
fn a_timeout_drawn_from_a_list() {
    // Three populations of one caller with timeouts of 100, 200 and 400 ms on a pool
    // that takes 300 ms: the first two time out on every call, the third never does,
    // and the pool finishes the abandoned work after its callers gave up.
    let clients: Vec<Value> = [100, 200, 400]
        .iter()
        .map(|t| json!({"timeout_ms": t}))
        .collect();
    // Arrivals every 50 ms for 2 s (0..=1950: 40 calls), all answered within the 3 s.
    let mut v = populations(&clients, 0.0, 3000);
    v["load"]["schedule"] = json!([{"start_ms": 0, "end_ms": 2000, "rate_per_s": 20}]);
    v["tiers"][1]["service"] = json!({"kind": "constant", "ms": 300});
    let s = scenario(v);
    let r = cluster::run(&s, s.seed).unwrap();
    check_routes(&r, true);
    let calls: Vec<u64> = r.routes.iter().map(|x| x.totals.first_attempts).collect();
    assert_eq!(calls.iter().sum::<u64>(), 40);
    assert!(calls.iter().all(|&c| c > 5), "{calls:?}");
    for x in &r.routes[..2] {
        assert_eq!(
            (x.totals.timeouts, x.totals.successes),
            (x.totals.first_attempts, 0)
        );
    }
    let x = &r.routes[2];
    assert_eq!(
        (x.totals.timeouts, x.totals.successes),
        (0, x.totals.first_attempts)
    );
    assert_eq!(r.summary.successes, calls[2]);
    assert_eq!(r.tiers[1].totals.wasted, calls[0] + calls[1]);
}

/// [`random_tree`] with a second route to each callee of a tier with routes, with a
/// client of its own (another timeout and number of attempts), in random places.
fn tree_with_populations(seed: u64) -> Value {
    let mut v = random_tree(seed);
    let mut g = JavaRandom::new(seed as i64 ^ 0x5eed);
    for t in v["tiers"].as_array_mut().unwrap() {
        let Some(routes) = t.get_mut("routes").and_then(Value::as_array_mut) else {
            continue;
        };
        let mut more = Vec::new();
        for r in routes.iter() {
            let mut twin = r.clone();
            twin["client"]["timeout_ms"] = json!(20 + g.next_int_bounded(200).unwrap());
            twin["client"]["max_attempts"] = json!(1 + g.next_int_bounded(4).unwrap());
            more.push(twin);
        }
        for twin in more {
            let at = g.next_int_bounded(routes.len() as i32 + 1).unwrap() as usize;
            routes.insert(at, twin);
        }
        routes.truncate(8);
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30, ..ProptestConfig::default() })]

    #[test]
    fn routes_to_one_callee_sum_to_its_arrivals(seed in any::<u64>()) {
        let s = scenario(tree_with_populations(seed));
        let r = cluster::run(&s, s.seed).unwrap();
        check_routes(&r, true);
        for (j, t) in r.tiers.iter().enumerate().skip(1) {
            let into: Vec<&cluster::RouteSummary> =
                r.routes.iter().filter(|x| x.to as usize == j).collect();
            let sum = |f: fn(&cluster::RouteSummary) -> u64| into.iter().map(|x| f(x)).sum::<u64>();
            let c = &t.totals;
            prop_assert_eq!(sum(|x| x.totals.first_attempts), c.first_attempts, "tier {}", j);
            prop_assert_eq!(sum(|x| x.totals.retries), c.retries);
            prop_assert_eq!(sum(|x| x.totals.successes), c.successes);
            prop_assert_eq!(sum(|x| x.totals.timeouts), c.timeouts);
            prop_assert_eq!(sum(|x| x.totals.overloads), c.overloads);
            prop_assert_eq!(sum(|x| x.totals.errors), c.errors);
            prop_assert_eq!(sum(|x| x.totals.breaker_rejected), c.breaker_rejected);
            prop_assert_eq!(sum(|x| x.totals.budget_rejected), c.budget_rejected);
            prop_assert_eq!(sum(|x| x.totals.bulkhead_rejected), c.bulkhead_rejected);
            prop_assert_eq!(sum(|x| x.pending_at_end), t.pending_at_end);
        }
        // Route names are unique.
        let mut names: Vec<&str> = r.routes.iter().map(|x| x.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        prop_assert_eq!(names.len(), r.routes.len());
    }
}
