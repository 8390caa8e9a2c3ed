//! The article's open limits (its section 7) in the classic model, on cases small
//! enough to follow by hand: the attribution convention, the endings and the answered
//! view of delivery, and what retries cost under each billing rule.

use retrystorm::classic::{self, cells, report, Attribution, Jitter, Outage, Scenario, Strategy};
use retrystorm::cost::{Billed, Cost};
use retrystorm::scenario;
use serde_json::{json, Value};

/// A strategy without budget or breaker: `max_retry` retries `base_ms << k` apart.
fn plain(max_retry: u32, base_ms: u64) -> Strategy {
    Strategy {
        name: format!("r{max_retry} b{base_ms}"),
        max_retry,
        base_ms,
        jitter: Jitter::None,
        budget_pct: 100,
        deadline_ms: 3_600_000,
        breaker: false,
        breaker_trip_failures: None,
        breaker_open_s: None,
        cost: None,
    }
}

fn small(clients: u32, duration_s: u32, capacity: u32, outage: (u32, u32)) -> Scenario {
    Scenario {
        clients,
        duration_s,
        capacity,
        outage: Outage {
            from_s: outage.0,
            to_s: outage.1,
        },
        upstream_latency_ms: 0,
        breaker_trip_failures: 400,
        breaker_open_s: 5,
        seed: 1,
        strategies: vec![plain(3, 300)],
        attribution: Attribution::Ceil,
    }
}

fn per_sec(sc: &Scenario, a: Attribution) -> Vec<u32> {
    let mut sc = sc.clone();
    sc.attribution = a;
    classic::run(&sc, sc.seed).unwrap()[0].per_sec.clone()
}

#[test]
fn attribution_variants_by_hand() {
    // One client, 5 s, second 0 down. The request of second 0 fails there and retries
    // after 300, 900 (300 + 600) and 2100 ms of accumulated wait; every other request
    // is served at once in its own second.
    let sc = small(1, 5, 10, (0, 1));
    // ceil: 300 ms → second 1 (served).
    assert_eq!(per_sec(&sc, Attribution::Ceil), [1, 2, 1, 1, 1]);
    // floor: 300 → 0, 900 → 0 (both fail in the outage), 2100 → 2 (served).
    assert_eq!(per_sec(&sc, Attribution::Floor), [3, 1, 2, 1, 1]);
    // round: 300 → 0 (fails), 900 → 1 (served).
    assert_eq!(per_sec(&sc, Attribution::Round), [2, 2, 1, 1, 1]);

    // Rounding halves up: a wait of 1499 ms goes to second 1, 1500 ms to second 2.
    let mut sc = small(1, 5, 10, (0, 1));
    sc.strategies = vec![plain(1, 1499), plain(1, 1500)];
    sc.attribution = Attribution::Round;
    let rs = classic::run(&sc, 1).unwrap();
    assert_eq!(rs[0].per_sec, [1, 2, 1, 1, 1]);
    assert_eq!(rs[1].per_sec, [1, 1, 2, 1, 1]);
    // ceil puts both in second 2; floor both in second 1.
    for (a, want) in [
        (Attribution::Ceil, [1, 1, 2, 1, 1]),
        (Attribution::Floor, [1, 2, 1, 1, 1]),
    ] {
        sc.attribution = a;
        for r in classic::run(&sc, 1).unwrap() {
            assert_eq!(r.per_sec, want, "{a:?} {}", r.name);
        }
    }

    // Every convention clamps to the last second: two seconds, both down, retries
    // 5 s later all land in second 1.
    let mut sc = small(1, 2, 10, (0, 2));
    sc.strategies = vec![plain(1, 5000)];
    for a in Attribution::ALL {
        assert_eq!(per_sec(&sc, a), [1, 3], "{a:?}");
    }
}

#[test]
fn attribution_moves_the_article_figures_but_not_s1() {
    let mut sc = Scenario::article();
    let ceil = classic::run(&sc, 4242).unwrap();
    sc.attribution = Attribution::Floor;
    let floor = classic::run(&sc, 4242).unwrap();
    // S1 retries at once (base 0): its wait is always 0 and no convention moves it.
    assert_eq!(ceil[0], floor[0]);
    assert_eq!((floor[0].peak, floor[0].overload_seconds), (800, 6));
    // S2 (no jitter) charges every retry one second earlier under floor.
    assert_eq!(cells::amplification(&ceil[1]), "2.34x");
    assert_eq!(cells::amplification(&floor[1]), "2.58x");
    assert_eq!(
        (ceil[1].overload_seconds, floor[1].overload_seconds),
        (34, 35)
    );
}

#[test]
fn endings_by_hand() {
    // Capacity 0: every attempt fails (overload), one retry each.
    let mut sc = small(1, 3, 0, (0, 0));
    let mut budget = plain(1, 0);
    budget.budget_pct = 50; // 50% of capacity 0: no retry token ever
    let mut breaker = plain(1, 0);
    breaker.breaker = true;
    let mut deadline = plain(2, 1);
    deadline.deadline_ms = 0;
    sc.breaker_trip_failures = 0; // the first failure opens the breaker
    sc.breaker_open_s = 10;
    sc.strategies = vec![plain(1, 0), budget, breaker, deadline];
    let rs = classic::run(&sc, 1).unwrap();
    let endings = |i: usize| {
        let r = &rs[i];
        (
            r.attempts,
            [
                r.delivered,
                r.ended_upstream,
                r.ended_deadline,
                r.ended_budget,
                r.ended_breaker,
            ],
        )
    };
    // Two attempts each, then no retry left: failed at the upstream.
    assert_eq!(endings(0), (6, [0, 3, 0, 0, 0]));
    // The first attempt each, then the empty budget abandons the retry.
    assert_eq!(endings(1), (3, [0, 0, 0, 3, 0]));
    // The first failure trips the breaker; it refuses that retry and both later requests.
    assert_eq!(endings(2), (1, [0, 0, 0, 0, 3]));
    // The retry after 1 ms is counted, then cut by the 0 ms deadline.
    assert_eq!(endings(3), (6, [0, 0, 3, 0, 0]));
    // Nothing was answered; requests given up on by the client are left out of the
    // answered view, and with none left it is 0.
    assert_eq!(rs[0].answered_pct, 0.0);
    assert_eq!(rs[1].answered_pct, 0.0);
}

#[test]
fn answered_view_of_the_article() {
    let rs = classic::run(&Scenario::article(), 4242).unwrap();
    for r in &rs {
        assert_eq!(
            r.delivered + r.ended_upstream + r.ended_deadline + r.ended_budget + r.ended_breaker,
            12_000,
            "{}",
            r.name
        );
    }
    // S1–S3 never give up by themselves: both views agree.
    for r in &rs[..3] {
        assert_eq!((r.ended_budget, r.ended_breaker), (0, 0));
        assert_eq!(r.answered_pct, r.delivery_pct);
    }
    // S4's 90.8% is self-restraint: 10901 delivered of 10904 not abandoned by its budget.
    let s4 = &rs[3];
    assert_eq!(cells::delivery(s4), "90.8%");
    assert_eq!(
        (s4.delivered, s4.ended_budget, s4.ended_upstream),
        (10901, 1096, 3)
    );
    assert_eq!(cells::answered(s4), "100.0%");
    // S6 alone has its breaker refuse requests.
    assert!(rs[5].ended_breaker > 0 && rs[..5].iter().all(|r| r.ended_breaker == 0));
}

fn priced(billed: Vec<Billed>) -> Cost {
    // 100 input tokens at 1.0 per 1,000 (0.1 an attempt), 10 output tokens at 2.0 per
    // 1,000 (0.02 an answer): one answered call costs 0.12.
    Cost {
        input_tokens: 100,
        output_tokens: 10,
        input_price_per_1k: 1.0,
        output_price_per_1k: 2.0,
        billed,
    }
}

fn assert_close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() < 1e-12, "{what}: {got} vs {want}");
}

#[test]
fn cost_by_hand_for_each_billing_rule() {
    // Two clients, two seconds, capacity 1, second 0 down, one retry 1 s later.
    // Second 0: both first attempts fail (server errors). Second 1: client 0's retry is
    // served (load 1), client 1's fails (overload, load 2); both requests of second 1
    // fail there twice (loads 3–6, overload). 8 attempts: 1 served, 2 errors, 5 overloads.
    let mut sc = small(2, 2, 1, (0, 1));
    let rules = [
        (vec![], 0, [0.0, 0.12]),
        (vec![Billed::Error], 2, [0.2, 0.12]),
        (vec![Billed::Overload], 5, [0.0, 0.62]),
        (vec![Billed::Timeout], 0, [0.0, 0.12]),
        (Billed::defaults(), 2, [0.2, 0.12]),
        (
            vec![Billed::Error, Billed::Overload, Billed::Timeout],
            7,
            [0.2, 0.62],
        ),
    ];
    sc.strategies = rules
        .iter()
        .map(|(billed, _, _)| Strategy {
            cost: Some(priced(billed.clone())),
            ..plain(1, 1000)
        })
        .collect();
    let rs = classic::run(&sc, 1).unwrap();
    for (r, (billed, n, per_sec)) in rs.iter().zip(&rules) {
        assert_eq!(
            (r.attempts, r.delivered, r.per_sec.clone()),
            (8, 1, vec![2, 6])
        );
        let c = r.cost.as_ref().unwrap();
        let what = format!("{billed:?}");
        assert_eq!(c.billed_failures, *n, "{what}");
        assert_eq!(c.input_tokens, (1 + n) * 100, "{what}");
        assert_eq!(c.output_tokens, 10, "{what}");
        let total = per_sec[0] + per_sec[1];
        assert_close(c.total, total, &what);
        assert_close(c.per_sec[0], per_sec[0], &what);
        assert_close(c.per_sec[1], per_sec[1], &what);
        assert_close(c.per_delivered.unwrap(), total, &what);
        // Four business requests answered once would cost 0.48.
        assert_close(c.amplification.unwrap(), total / 0.48, &what);
    }
    // Request amplification is 2.00x; by the default rule the cost is 0.32 / 0.48.
    assert_eq!(cells::amplification(&rs[0]), "2.00x");
    assert_close(
        rs[4].cost.as_ref().unwrap().amplification.unwrap(),
        2.0 / 3.0,
        "default",
    );

    // A deadline of 999 ms cuts every retry after it was sent: billed as a timeout.
    // Second 0: 2 errors; second 1: 2 overloads (loads 3, 5) and 4 deadline cuts.
    for st in &mut sc.strategies {
        st.deadline_ms = 999;
    }
    let rs = classic::run(&sc, 1).unwrap();
    let want_billed = [0, 2, 2, 4, 6, 8];
    for (r, n) in rs.iter().zip(want_billed) {
        assert_eq!((r.delivered, r.ended_deadline), (0, 4));
        let c = r.cost.as_ref().unwrap();
        assert_eq!(c.billed_failures, n);
        assert_close(c.total, n as f64 * 0.1, "deadline");
        assert_eq!(c.per_delivered, None, "nothing delivered");
    }
}

#[test]
fn cost_columns_only_with_a_cost_model() {
    let out = classic::simulate(&Scenario::article(), 4242).unwrap();
    let t = report::table(&out);
    assert!(!t.columns.iter().any(|c| c.starts_with("cost")));
    // The article's columns first and unchanged, then the endings.
    assert_eq!(t.columns[..3], ["strategy", "amplification", "delivery"]);
    assert_eq!(t.columns[8], "recovery window");
    assert_eq!(t.columns[9..11], ["answered", "delivered"]);
    assert!(!report::csv_per_sec(&out)
        .lines()
        .next()
        .unwrap()
        .contains("cost"));

    let preset = bundled("model-gateway-cost");
    let out = classic::simulate(&preset, preset.seed).unwrap();
    let t = report::table(&out);
    let col = |name: &str| t.columns.iter().position(|c| c == name).unwrap();
    let (amp, cost_amp) = (col("amplification"), col("cost amplification"));
    // The preset's point: G2 sends far more calls than G1 but costs about the same.
    let g1 = &t.rows[0];
    let g2 = &t.rows[1];
    assert_eq!(
        (g1[amp].as_str(), g1[cost_amp].as_str()),
        ("1.20x", "1.15x")
    );
    assert_eq!(
        (g2[amp].as_str(), g2[cost_amp].as_str()),
        ("1.83x", "1.16x")
    );
    assert_eq!(t.rows[3][col("cost")], "269.82");
    // The CSV of the table has the same cells; the per-second CSV a cost column each.
    let csv = report::csv_table(&out);
    assert!(csv.lines().next().unwrap().ends_with("cost amplification"));
    assert_eq!(csv.lines().count(), 1 + out.results.len());
    let head = report::csv_per_sec(&out);
    let head = head.lines().next().unwrap();
    assert!(
        head.ends_with(",\"cost G4 as G2, 503s not billed\""),
        "{head}"
    );
    assert_eq!(head.matches("cost ").count(), 4);
    let md = report::markdown_table(&out);
    assert!(md.contains("| cost amplification |"));
}

fn bundled(id: &str) -> Scenario {
    let b = scenario::bundled()
        .into_iter()
        .find(|b| b.id == id)
        .unwrap();
    assert!(!b.description.is_empty());
    Scenario::from_json(b.json).unwrap()
}

#[test]
fn defaults_keep_old_documents_and_links() {
    // Written scenarios leave the defaults out, so the article's file is unchanged.
    let v = serde_json::to_value(Scenario::article()).unwrap();
    assert!(v.get("attribution").is_none());
    assert!(v["strategies"][0].get("cost").is_none());
    let s = Scenario::from_json(include_str!("../../scenarios/article.json")).unwrap();
    assert_eq!(s.attribution, Attribution::Ceil);
    // A cost without `billed` bills server errors and timeouts.
    let mut v = v;
    v["strategies"][0]["cost"] = json!({"input_tokens": 1, "output_tokens": 1,
        "input_price_per_1k": 1, "output_price_per_1k": 1});
    let s = Scenario::from_json(&v.to_string()).unwrap();
    assert_eq!(
        s.strategies[0].cost.as_ref().unwrap().billed,
        [Billed::Error, Billed::Timeout]
    );
    // Results without cost leave the field out.
    let out = serde_json::to_value(classic::simulate(&Scenario::article(), 4242).unwrap()).unwrap();
    assert!(out["results"][0].get("cost").is_none());
    assert_eq!(out["results"][3]["ended_budget"], 1096);
}

/// The message for the article with `edit` applied.
fn error_after(edit: impl Fn(&mut Value)) -> (String, String) {
    let mut v = serde_json::to_value(Scenario::article()).unwrap();
    v["strategies"][1]["cost"] = json!({"input_tokens": 6000, "output_tokens": 300,
        "input_price_per_1k": 0.003, "output_price_per_1k": 0.015});
    edit(&mut v);
    let e = scenario::from_value(v).unwrap_err();
    (e.field.clone(), e.to_string())
}

#[test]
fn bad_input_for_every_new_field_is_named() {
    fn cost(k: &'static str, x: Value) -> impl Fn(&mut Value) {
        move |v: &mut Value| v["strategies"][1]["cost"][k] = x.clone()
    }
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|v| v["attribution"] = json!("ceiling")),
            "attribution = \"ceiling\" is not allowed: expected one of `ceil`, `floor`, `round`",
        ),
        (
            Box::new(|v| v["attribution"] = json!(1)),
            "attribution = 1 is not allowed",
        ),
        (
            Box::new(cost("input_tokens", json!(10_000_001))),
            "strategies[1].cost.input_tokens = 10000001 is out of range: allowed 0..=10000000",
        ),
        (
            Box::new(cost("output_tokens", json!(-5))),
            "strategies[1].cost.output_tokens = -5 is not allowed: expected a whole number ≥ 0 in 0..=10000000",
        ),
        (
            Box::new(cost("input_price_per_1k", json!(-0.5))),
            "strategies[1].cost.input_price_per_1k = -0.5 is out of range: allowed 0..=1000",
        ),
        (
            Box::new(cost("output_price_per_1k", json!("cheap"))),
            "strategies[1].cost.output_price_per_1k = \"cheap\" is not allowed: expected a number in 0..=1000",
        ),
        (
            Box::new(cost("billed", json!(["breaker_rejected"]))),
            "strategies[1].cost.billed[0] = \"breaker_rejected\" is not allowed: expected one of `error`, `overload`, `timeout`",
        ),
        (
            Box::new(cost("billed", json!(["error", "error", "timeout", "overload"]))),
            "strategies[1].cost.billed = 4 entries is out of range: allowed 0..=3 entries",
        ),
        (
            Box::new(cost("currency", json!("EUR"))),
            "unknown field `strategies[1].cost.currency`, expected one of `input_tokens`",
        ),
        (
            Box::new(|v| {
                v["strategies"][1]["cost"]
                    .as_object_mut()
                    .unwrap()
                    .remove("input_tokens");
            }),
            "strategies[1].cost.input_tokens is missing",
        ),
    ];
    for (edit, want) in cases {
        let (_, msg) = error_after(edit);
        assert!(msg.starts_with(want), "{msg}\n  wanted: {want}");
    }
}
