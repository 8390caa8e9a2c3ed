//! The shipped cluster scenarios: each loads, validates, and shows what its description says.

use retrystorm::cluster::{self, report, RunResult, Scenario};

fn load(text: &str) -> Scenario {
    let head: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .take(18)
        .collect();
    assert!(
        head.starts_with("{\"model\":\"cluster\""),
        "model is the first key: {head}"
    );
    let mut v: serde_json::Value = serde_json::from_str(text).expect("scenario JSON");
    let obj = v.as_object_mut().expect("an object");
    assert_eq!(
        obj.remove("model"),
        Some(serde_json::Value::from("cluster"))
    );
    serde_json::from_value(v).expect("a cluster scenario")
}

fn run(text: &str) -> (Scenario, RunResult) {
    let s = load(text);
    let r = cluster::run(&s, s.seed).expect("runs");
    (s, r)
}

const NAIVE: &str = include_str!("../../scenarios/cluster-gc-stampede-naive.json");
const FIXED: &str = include_str!("../../scenarios/cluster-gc-stampede-fixed.json");

const RATIO_FIXED: &str = include_str!("../../scenarios/cluster-ratio-budget-fixed-retry.json");
const RATIO_JITTER: &str = include_str!("../../scenarios/cluster-ratio-budget-jitter.json");
const CHAIN: &str = include_str!("../../scenarios/cluster-call-chain.json");
const META: &str = include_str!("../../scenarios/cluster-metastable.json");
const META_BUDGET: &str = include_str!("../../scenarios/cluster-metastable-budget.json");
const ALL: [&str; 7] = [NAIVE, FIXED, RATIO_FIXED, RATIO_JITTER, CHAIN, META, META_BUDGET];

#[test]
#[ignore]
fn print_reports() {
    let only = std::env::var("ONLY").ok();
    for t in ALL {
        if only.as_ref().is_some_and(|o| !t.contains(o.as_str())) {
            continue;
        }
        let (s, r) = run(t);
        println!("{}", report::text(&s, &r));
    }
}
