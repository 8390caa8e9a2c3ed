//! The A/B comparison judges each difference by the figure's direction: more delivery is
//! better, more overload is worse, whatever the sign of the difference.

use retrystorm::cluster::present::{self, Better, Change};
use retrystorm::cluster::{self, RunResult};
use retrystorm::lang::Lang;
use retrystorm::scenario::{self, AnyScenario, Model};

fn run(text: &str) -> RunResult {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let AnyScenario::Cluster(sc) = scenario::read(Some(Model::Cluster), &value).unwrap() else {
        panic!("a cluster scenario");
    };
    cluster::run(&sc, sc.seed).unwrap()
}

/// The change of the row labelled `label` in the comparison of `a` and `b`.
fn change(a: &RunResult, b: &RunResult, label: &str) -> (Change, String) {
    let (table, changes) = present::compare_judged(a, b, Lang::En);
    assert_eq!(table.rows.len(), changes.len(), "one change per row");
    let i = table
        .rows
        .iter()
        .position(|r| r[0] == label)
        .unwrap_or_else(|| panic!("{label:?} in {:?}", table.rows));
    (changes[i], table.rows[i][3].clone())
}

#[test]
fn a_difference_is_better_or_worse_by_the_figures_direction_not_by_its_sign() {
    let naive = run(include_str!(
        "../../scenarios/cluster-gc-stampede-naive.json"
    ));
    let fixed = run(include_str!(
        "../../scenarios/cluster-gc-stampede-fixed.json"
    ));
    // A is the naive client, B the fixed one: B delivers more (a "+" that is better)
    // and stays overloaded less (a "−" that is also better).
    let (ratio, delta) = change(&naive, &fixed, "success ratio");
    assert!(delta.starts_with('+'), "{delta}");
    assert_eq!(ratio, Change::Better);
    let (overload, delta) = change(&naive, &fixed, "overload duration");
    assert!(delta.starts_with('−'), "{delta}");
    assert_eq!(overload, Change::Better);
    // The other way round, both are worse.
    assert_eq!(change(&fixed, &naive, "success ratio").0, Change::Worse);
    assert_eq!(change(&fixed, &naive, "overload duration").0, Change::Worse);
    // The load offered is not judged; a run against itself is the same everywhere
    // it is judged.
    assert_eq!(change(&naive, &fixed, "requests").0, Change::Unjudged);
    let (_, same) = present::compare_judged(&naive, &naive, Lang::En);
    assert!(same
        .iter()
        .all(|c| matches!(c, Change::Same | Change::Unjudged)));
    assert!(same.contains(&Change::Same));
}

#[test]
fn judging_follows_the_direction() {
    assert_eq!(present::judge(Better::Higher, 1.0, 2.0), Change::Better);
    assert_eq!(present::judge(Better::Higher, 2.0, 1.0), Change::Worse);
    assert_eq!(present::judge(Better::Lower, 1.0, 2.0), Change::Worse);
    assert_eq!(present::judge(Better::Lower, 2.0, 1.0), Change::Better);
    assert_eq!(present::judge(Better::Lower, 2.0, 2.0), Change::Same);
    assert_eq!(present::judge(Better::Neither, 1.0, 2.0), Change::Unjudged);
}
