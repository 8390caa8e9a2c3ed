//! Every number the article prints (its tables, copied into the constants below), asserted
//! from the engine's output and from the printed reports. The rules that produce them:
//! `docs/model.md`.

use retrystorm::classic::{self, cells, checks, report, Scenario, StrategyResult};
use retrystorm::scenario;

fn article(seed: i64) -> Vec<StrategyResult> {
    classic::run(&Scenario::article(), seed).unwrap()
}

fn bundled(id: &str) -> Scenario {
    let b = scenario::bundled()
        .into_iter()
        .find(|b| b.id == id)
        .unwrap();
    Scenario::from_json(b.json).unwrap()
}

/// One golden row: (amp, delivery, peak, overload s, p50, p99, trips, trip_at, harmful).
type Row = (
    &'static str,
    &'static str,
    u32,
    u32,
    u64,
    u64,
    u32,
    &'static [u32],
    u64,
);

const SECTION_1: [Row; 6] = [
    ("1.30x", "90.0%", 800, 6, 200, 200, 0, &[], 0),
    ("2.34x", "100.0%", 960, 34, 700, 7700, 0, &[], 0),
    ("2.48x", "99.1%", 1057, 32, 205, 9146, 0, &[], 0),
    ("1.03x", "90.8%", 273, 4, 200, 366, 0, &[], 0),
    ("1.03x", "90.6%", 269, 3, 200, 200, 0, &[], 0),
    ("0.94x", "90.0%", 205, 0, 200, 200, 1, &[21], 0),
];

fn assert_row(r: &StrategyResult, row: &Row) {
    let (amp, deliv, peak, over, p50, p99, trips, trip_at, harmful) = *row;
    assert_eq!(cells::amplification(r), amp, "{} amplification", r.name);
    assert_eq!(cells::delivery(r), deliv, "{} delivery", r.name);
    assert_eq!(r.peak, peak, "{} peak", r.name);
    assert_eq!(r.overload_seconds, over, "{} overload", r.name);
    assert_eq!(r.p50_ms, p50, "{} p50", r.name);
    assert_eq!(r.p99_ms, p99, "{} p99", r.name);
    assert_eq!(r.breaker_trips, trips, "{} trips", r.name);
    assert_eq!(r.trip_at, trip_at, "{} trip_at", r.name);
    assert_eq!(r.breaker_harmful, harmful, "{} harmful", r.name);
}

#[test]
fn section_1_six_strategies() {
    let rs = article(4242);
    for (r, row) in rs.iter().zip(SECTION_1.iter()) {
        assert_row(r, row);
    }
    assert_eq!(
        rs.iter().map(|r| r.attempts).take(4).collect::<Vec<_>>(),
        [15600, 28080, 29717, 12321]
    );
    // Unrounded delivery of S4 and S5: 90.84% and 90.57%.
    assert_eq!(format!("{:.2}", rs[3].delivery_pct), "90.84");
    assert_eq!(format!("{:.2}", rs[4].delivery_pct), "90.57");
    for r in &rs {
        assert_eq!(r.delivered + r.failed, 12000);
    }
}

#[test]
fn section_1_printed_table() {
    let out = classic::simulate(&Scenario::article(), 4242).unwrap();
    let text = report::run_text(&out, None);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "上游第 20~26 秒整体不可用，容量 240 req/s，200 客户端 × 60 秒，seed=4242"
    );
    // The article's rows, with its column widths (CJK counted as two columns).
    let expected = [
        "S1 固定重试3次          1.30x     90.0%    800      6       200         200       0/[]/0",
        "S2 指数退避无抖动       2.34x     100.0%   960      34      700         7700      0/[]/0",
        "S3 指数退避全抖动       2.48x     99.1%    1057     32      205         9146      0/[]/0",
        "S4 全抖动+重试预算20%   1.03x     90.8%    273      4       200         366       0/[]/0",
        "S5 预算+deadline        1.03x     90.6%    269      3       200         200       0/[]/0",
        "S6 预算+熔断            0.94x     90.0%    205      0       200         200       1/[21]/0",
    ];
    assert_eq!(&lines[4..10], &expected);
    assert!(text.contains("业务请求总数 12000"));
}

const HERD: [(u32, [u32; 4]); 11] = [
    (19, [200, 200, 200, 200]),
    (20, [800, 200, 201, 200]),
    (21, [800, 400, 585, 219]),
    (22, [800, 600, 758, 229]),
    (23, [800, 600, 855, 235]),
    (24, [800, 800, 937, 246]),
    (25, [800, 800, 1010, 255]),
    (26, [200, 800, 1005, 273]),
    (27, [200, 800, 1057, 243]),
    (28, [200, 960, 1005, 212]),
    (29, [200, 960, 983, 203]),
];

#[test]
fn section_2_recovery_window() {
    let rs = article(4242);
    for (sec, row) in HERD {
        for (i, v) in row.iter().enumerate() {
            assert_eq!(rs[i].per_sec[sec as usize], *v, "S{} second {sec}", i + 1);
        }
    }
    let totals: Vec<u64> = rs.iter().take(4).map(|r| r.recovery_window_total).collect();
    assert_eq!(totals, [600, 2560, 3067, 728]);

    let text = report::herd_text(&classic::simulate(&Scenario::article(), 4242).unwrap());
    for (sec, row) in HERD {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&sec.to_string()))
            .unwrap();
        let nums: Vec<u32> = line
            .split_whitespace()
            .skip(1)
            .take(4)
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(nums, row, "printed second {sec}");
    }
    assert!(text.contains("S1 600、S2 2560、S3 3067、S4 728"));
    assert!(text.contains("S1 15600、S2 28080、S3 29717、S4 12321"));
}

#[test]
fn section_3_budget_forced_to_100() {
    let forced = classic::run(&Scenario::article().with_budget(100), 4242).unwrap();
    let s3 = StrategyResult {
        name: String::new(),
        ..forced[2].clone()
    };
    let s4 = StrategyResult {
        name: String::new(),
        ..forced[3].clone()
    };
    assert_eq!(s3, s4, "S4 equals S3 in every figure");
    assert_row(&forced[3], &SECTION_1[2]);
    let s5 = &forced[4];
    assert_eq!(
        (
            cells::amplification(s5).as_str(),
            cells::delivery(s5).as_str()
        ),
        ("2.27x", "87.4%")
    );
    assert_eq!((s5.overload_seconds, s5.p99_ms), (29, 3041));
    // The bundled preset is the same scenario.
    assert_eq!(bundled("budget-100"), Scenario::article().with_budget(100));
}

#[test]
fn section_4_six_seeds() {
    let table = [
        (
            4242,
            [
                "2.34x / 34s / 100.0%",
                "2.48x / 32s / 99.1%",
                "1.03x / 4s / 90.8%",
            ],
            "0.14",
        ),
        (
            1,
            [
                "2.34x / 34s / 100.0%",
                "2.50x / 32s / 99.3%",
                "1.03x / 4s / 90.9%",
            ],
            "0.16",
        ),
        (
            7,
            [
                "2.34x / 34s / 100.0%",
                "2.52x / 33s / 99.3%",
                "1.03x / 3s / 90.9%",
            ],
            "0.18",
        ),
        (
            99,
            [
                "2.34x / 34s / 100.0%",
                "2.53x / 33s / 99.4%",
                "1.03x / 4s / 90.9%",
            ],
            "0.19",
        ),
        (
            2026,
            [
                "2.34x / 34s / 100.0%",
                "2.51x / 32s / 99.3%",
                "1.03x / 5s / 90.9%",
            ],
            "0.17",
        ),
        (
            313131,
            [
                "2.34x / 34s / 100.0%",
                "2.52x / 33s / 99.4%",
                "1.03x / 4s / 90.8%",
            ],
            "0.18",
        ),
    ];
    let text = report::multi_seed_text(&Scenario::article(), &report::ARTICLE_SEEDS).unwrap();
    for (seed, cells, diff) in table {
        let rs = article(seed);
        for (i, cell) in cells.iter().enumerate() {
            let r = &rs[i + 1];
            let got = format!(
                "{} / {}s / {}",
                cells::amplification(r),
                r.overload_seconds,
                cells::delivery(r)
            );
            assert_eq!(&got, cell, "seed {seed} S{}", i + 2);
        }
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{seed} ")))
            .unwrap();
        for cell in cells {
            assert!(line.contains(cell), "printed seed {seed}: {line}");
        }
        assert!(
            line.trim_end().ends_with(diff),
            "printed diff for seed {seed}: {line}"
        );
    }
    assert!(text.contains("2.48x ~ 2.53x，均值 2.508x，极差 0.052"));
}

#[test]
fn section_4_acceptance_checks_pass() {
    let verdicts = checks::verdicts(&Scenario::article(), 4242).unwrap();
    assert_eq!(verdicts.len(), 4);
    assert!(
        verdicts.iter().all(|v| v.pass == Some(true)),
        "{verdicts:?}"
    );
    assert_eq!(verdicts[0].detail, "4 vs 34");
    assert_eq!(verdicts[1].detail, "1.30x vs 2.34x / 2.48x");
    assert_eq!(verdicts[2].detail, "728 vs 2560 / 3067");
    assert_eq!(verdicts[3].detail, "amplification difference 0.000");
    let text = report::multi_seed_text(&Scenario::article(), &report::ARTICLE_SEEDS).unwrap();
    assert_eq!(text.matches("[PASS]").count(), 4);
    // The article's (Chinese) report words the difference in Chinese, like its "差值 0.000".
    assert!(text.contains("：放大倍数差值 0.000\n"), "{text}");
    let zh = checks::verdicts_in(&Scenario::article(), 4242, retrystorm::lang::Lang::Zh).unwrap();
    assert_eq!(zh[3].detail, "放大倍数差值 0.000");
    assert_eq!(zh[0].detail, verdicts[0].detail);
}

#[test]
fn acceptance_checks_can_fail() {
    // Swap S2 and S4: the budgeted strategy no longer sits in S4's place.
    let mut sc = Scenario::article();
    sc.strategies.swap(1, 3);
    let verdicts = checks::verdicts(&sc, 4242).unwrap();
    assert_eq!(verdicts[0].pass, Some(false));
    assert_eq!(verdicts[2].pass, Some(false));
    sc.strategies.truncate(3);
    assert!(checks::verdicts(&sc, 4242)
        .unwrap()
        .iter()
        .all(|v| v.pass.is_none()));
}

/// One breaker group: (amp, delivery, overload s, peak, trip_at, harmful).
type Group = (&'static str, &'static str, u32, u32, &'static [u32], u64);

#[test]
fn section_5_breaker_groups() {
    let groups: [Group; 7] = [
        ("1.03x", "90.6%", 3, 269, &[], 0),
        ("0.94x", "90.0%", 0, 205, &[21], 0),
        ("0.94x", "90.0%", 0, 217, &[21], 0),
        ("1.03x", "90.8%", 4, 273, &[], 0),
        ("2.48x", "99.1%", 32, 1057, &[], 0),
        ("1.03x", "90.6%", 3, 269, &[], 0),
        ("0.84x", "83.3%", 0, 201, &[20, 25], 801),
    ];
    let sc = bundled("breaker-groups");
    let out = classic::simulate(&sc, 4242).unwrap();
    assert_eq!(out.results.len(), 7);
    let text = report::breaker_text(&out);
    for (r, (amp, deliv, over, peak, trip_at, harmful)) in out.results.iter().zip(groups) {
        assert_eq!(cells::amplification(r), amp, "{}", r.name);
        assert_eq!(cells::delivery(r), deliv, "{}", r.name);
        assert_eq!(
            (
                r.overload_seconds,
                r.peak,
                r.trip_at.as_slice(),
                r.breaker_harmful
            ),
            (over, peak, trip_at, harmful),
            "{}",
            r.name
        );
        let line = text.lines().find(|l| l.starts_with(&r.name)).unwrap();
        let cells: Vec<&str> = line[r.name.len()..].split_whitespace().collect();
        assert_eq!(
            cells[3..7],
            [amp, deliv, &over.to_string(), &peak.to_string()],
            "{line}"
        );
        assert!(line.trim_end().ends_with(&harmful.to_string()));
    }
}

#[test]
fn the_article_scenario_file_is_the_default() {
    assert_eq!(bundled("article"), Scenario::article());
}
