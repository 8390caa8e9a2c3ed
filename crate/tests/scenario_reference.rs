//! The scenario reference's tables (`docs/scenarios.md`) state the bounds the engine
//! enforces: every range in them is checked here against the named constant beside its
//! field, so a bound changed in the code fails here until the reference says so too.

use retrystorm::classic::scenario as classic;
use retrystorm::cluster::scenario as cluster;
use retrystorm::cost;

const REFERENCE: &str = include_str!("../../docs/scenarios.md");

/// A number as the reference writes it: thousands separated by commas (`1,000,000`).
fn n(v: f64) -> String {
    if v.fract() != 0.0 {
        return v.to_string();
    }
    let digits = (v as u64).to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `lo..=hi` as the reference writes it.
fn range(lo: impl Into<f64>, hi: impl Into<f64>) -> String {
    format!("{}..={}", n(lo.into()), n(hi.into()))
}

/// The reference's table row of `key` (its first cell starts with `` `key` ``).
fn row(key: &str) -> &'static str {
    let start = format!("| `{key}`");
    let mut rows = REFERENCE
        .lines()
        .filter(|l| l.starts_with(&start) && l[start.len()..].starts_with([' ', ',']));
    let found = rows
        .next()
        .unwrap_or_else(|| panic!("docs/scenarios.md has no row for `{key}`"));
    assert!(
        rows.next().is_none(),
        "docs/scenarios.md has two rows for `{key}`"
    );
    found
}

/// Checks that the row of `key` says `want`.
fn assert_row(key: &str, want: &str) {
    assert!(
        row(key).contains(want),
        "`{key}`: docs/scenarios.md says {:?}, the engine {want}",
        row(key)
    );
}

#[test]
fn classic_table_matches_the_constants() {
    let u = |v: u32| f64::from(v);
    let cases = [
        ("clients", range(1, classic::MAX_CLIENTS)),
        ("duration_s", range(1, classic::MAX_DURATION_S)),
        (
            "duration_s",
            format!("≤ {}", n(classic::MAX_REQUESTS as f64)),
        ),
        ("capacity", range(0, classic::MAX_CAPACITY)),
        ("upstream_latency_ms", range(0, classic::MAX_LATENCY_MS)),
        (
            "breaker_trip_failures",
            range(0, classic::MAX_TRIP_FAILURES),
        ),
        ("breaker_open_s", range(0, classic::MAX_DURATION_S)),
        ("strategies", range(1, classic::MAX_STRATEGIES as u32)),
        (
            "strategies[i].name",
            format!("{} characters", range(1, classic::MAX_NAME_CHARS as u32)),
        ),
        (".max_retry", range(0, classic::MAX_RETRY)),
        (".base_ms", range(0, classic::MAX_BASE_MS as f64)),
        (".budget_pct", range(0, u(classic::MAX_BUDGET_PCT))),
        (".deadline_ms", range(0, classic::MAX_DEADLINE_MS as f64)),
        (".cost.input_tokens", range(0, cost::MAX_TOKENS as f64)),
        (".cost.input_price_per_1k", range(0, cost::MAX_PRICE_PER_1K)),
        (
            ".cost.billed",
            format!("{} of", range(0, cost::MAX_BILLED as u32)),
        ),
        (
            ".cost.billed",
            format!(
                "default `[{}]`",
                cost::Billed::defaults()
                    .iter()
                    .map(|b| serde_json::to_string(b).unwrap())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    ];
    for (key, want) in cases {
        assert_row(key, &want);
    }
}

#[test]
fn cluster_table_matches_the_constants() {
    use cluster::*;
    let t = MAX_TIME_MS as f64;
    let d = MAX_DURATION_MS as f64;
    let count = f64::from(MAX_COUNT);
    // (row, what the row must say), most of them "`member` lo..=hi".
    let f = |member: &str, lo: f64, hi: f64| format!("`{member}` {}", range(lo, hi));
    let chars = |lo: u32, hi: usize| format!("{} characters", range(lo, hi as u32));
    let aws = [
        DEFAULT_AWS_TOKENS,
        DEFAULT_AWS_RETRY_COST,
        DEFAULT_AWS_TIMEOUT_COST,
        DEFAULT_AWS_NO_RETRY_INCREMENT,
    ]
    .map(|v| v.to_string())
    .join(", ");
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("name", vec![chars(1, MAX_SCENARIO_NAME_CHARS)]),
        ("description", vec![chars(0, MAX_DESCRIPTION_CHARS)]),
        ("tiers[i].name", vec![chars(1, MAX_TIER_NAME_CHARS)]),
        ("duration_ms", vec![range(1, d)]),
        (
            "bucket_ms",
            vec![
                range(MIN_BUCKET_MS as f64, t),
                format!("default {}", n(DEFAULT_BUCKET_MS as f64)),
                format!("at most {} buckets", n(MAX_BUCKETS as f64)),
            ],
        ),
        (
            "max_events",
            vec![
                range(1, MAX_EVENTS_LIMIT as f64),
                format!("default {}", n(DEFAULT_MAX_EVENTS as f64)),
            ],
        ),
        ("load.rate_per_s", vec![range(0, MAX_RATE)]),
        (
            "load.schedule",
            vec![
                format!("{} segments", range(0, MAX_SEGMENTS as u32)),
                f("start_ms", 0.0, d),
                format!("rates {}", range(0, MAX_RATE)),
            ],
        ),
        ("load.closed_loop", vec![f("callers", 1.0, count)]),
        ("load.deadline_ms", vec![range(1, t)]),
        (
            "load.jitter_ms",
            vec![
                format!(
                    "0..=half the gap between arrivals at the load's highest rate ({} / rate ms",
                    n(MAX_JITTER_GAP_SHARE * 1000.0)
                ),
                "default 0; 0 with `poisson` arrivals".into(),
            ],
        ),
        (
            "tiers",
            vec![
                format!("{} tiers", range(1, MAX_TIERS as u32)),
                format!("at most {} instances", n(MAX_TOTAL_INSTANCES as f64)),
            ],
        ),
        (".instances", vec![range(1, MAX_INSTANCES)]),
        (".concurrency", vec![range(1, MAX_CONCURRENCY)]),
        (".queue_capacity", vec![range(0, count)]),
        (".queue_timeout_ms", vec![range(0, t)]),
        (".service", vec![f("p50_ms", MIN_P50_MS, t)]),
        (".client.timeout_ms", vec![range(1, t)]),
        (
            ".client.max_attempts",
            vec![
                range(1, MAX_ATTEMPTS),
                format!("default {DEFAULT_MAX_ATTEMPTS}"),
            ],
        ),
        (
            ".client.backoff",
            vec![
                "`exponential_distributed` (`mean_ms`)".into(),
                format!("{} entries", range(1, MAX_DELAYS as u32)),
                f("multiplier", 1.0, MAX_MULTIPLIER),
                format!("every delay {}", range(0, t)),
            ],
        ),
        ("resilience4j", vec![f("wait_duration_ms", 1.0, t)]),
        ("grpc", vec![f("initial_backoff_ms", 0.001, t)]),
        ("envoy", vec![f("base_interval_ms", 1.0, t)]),
        (
            "spring_cloud_gateway",
            vec![
                f("first_backoff_ms", 1.0, t),
                f("backoff_factor", 1.0, MAX_MULTIPLIER),
            ],
        ),
        (
            ".client.budget",
            vec![
                f("percent", 0.0, MAX_BUDGET_PERCENT),
                f("max_tokens", 1.0, f64::from(MAX_TOKENS)),
                f("max_tokens", 1.0, f64::from(MAX_GRPC_TOKENS)),
                format!("`token_ratio` {}..=", n(MIN_GRPC_TOKEN_RATIO)),
                f("ttl_ms", MIN_TTL_MS as f64, MAX_TTL_MS as f64),
                f("min_retries_per_sec", 0.0, count),
                f("percent_can_retry", 0.0, MAX_BUDGET_PERCENT),
                f("ratio_percent", 0.0, MAX_BUDGET_PERCENT),
                format!("0 or {}", range(MIN_RATIO_WINDOW_MS as f64, t)),
                f("min_requests", 0.0, f64::from(MAX_MIN_REQUESTS)),
                f("initial_tokens", 1.0, f64::from(MAX_TOKENS)),
                format!("defaults {aws}"),
                f("budget_percent", 0.0, 100.0),
                format!(
                    "{}, defaults {}, {}",
                    f("min_retry_concurrency", 0.0, count),
                    n(DEFAULT_ENVOY_BUDGET_PERCENT),
                    DEFAULT_ENVOY_MIN_RETRY_CONCURRENCY
                ),
                format!(
                    "{}, default {}",
                    f("max_retries", 0.0, count),
                    DEFAULT_ENVOY_MAX_RETRIES
                ),
                format!(
                    "`success_bucket` (`percent` 0..=100, {})",
                    f("max_tokens", 1.0, f64::from(MAX_TOKENS))
                ),
            ],
        ),
        (
            ".client.breaker",
            vec![
                f("failures", 1.0, count),
                f("half_open_calls", 1.0, f64::from(MAX_HALF_OPEN_CALLS)),
                f("window_size", 1.0, f64::from(MAX_COUNT_WINDOW)),
                format!("or {} s", range(1, MAX_TIME_WINDOW_S)),
                format!("at most {} cells", n(MAX_WINDOW_CELLS as f64)),
                f("k", 1.0, MAX_SRE_K),
                f("window_ms", MIN_SRE_WINDOW_MS as f64, t),
                f("failure_ratio", 0.0, 1.0),
                f("minimum_throughput", f64::from(MIN_POLLY_THROUGHPUT), count),
                format!(
                    "`sampling_duration_ms`, `break_duration_ms` {}",
                    range(MIN_POLLY_DURATION_MS as f64, MAX_POLLY_DURATION_MS as f64)
                ),
                format!(
                    "defaults {}, {}, {}, {}",
                    n(DEFAULT_POLLY_FAILURE_RATIO),
                    DEFAULT_POLLY_MINIMUM_THROUGHPUT,
                    n(DEFAULT_POLLY_SAMPLING_MS as f64),
                    n(DEFAULT_POLLY_BREAK_MS as f64)
                ),
                f("failure_percent", 0.0, MAX_RETRY_FAILURE_PERCENT),
                format!(
                    "`window_ms` 0 or {}), `sre",
                    range(MIN_RATIO_WINDOW_MS as f64, t)
                ),
            ],
        ),
        (
            ".routes",
            vec![format!("{} routes", range(0, MAX_ROUTES as u32))],
        ),
        (
            ".routes[k].to",
            vec![range(MIN_ROUTE_WEIGHT, MAX_ROUTE_WEIGHT)],
        ),
        (
            ".client.bulkhead",
            vec![f("max_concurrent", 1.0, count), f("max_queue", 0.0, count)],
        ),
        (
            ".client.network",
            vec![
                f("ms", 0.0, t),
                f("mean_ms", 0.0, t),
                f("p50_ms", MIN_P50_MS, t),
            ],
        ),
        (
            "faults",
            vec![
                format!("{} faults", range(0, MAX_FAULTS as u32)),
                f("duration_ms", 0.0, d),
            ],
        ),
        (
            "faults[i].effect",
            vec![
                f("factor", MIN_BROWNOUT_FACTOR, 1.0),
                format!("`latency` ({})", f("added_ms", 0.0, t)),
                format!("`latency_admitted` ({})", f("added_ms", 0.0, t)),
            ],
        ),
        (
            "steady",
            vec![
                f("late_ms", 0.0, t),
                f("amplification_tolerance", 0.0, MAX_AMPLIFICATION_TOLERANCE),
                f("z_score", 0.0, MAX_Z_SCORE),
                "`drain` true or false, default false".into(),
            ],
        ),
    ];
    for (key, wants) in cases {
        for want in wants {
            assert_row(key, &want);
        }
    }
}

#[test]
fn job_bounds_match_the_constants() {
    use retrystorm::{ensemble, estimate, sweep};
    let cases = [
        (
            "--max-memory",
            format!(
                "{} by default",
                estimate::format_bytes(estimate::DEFAULT_MAX_MEMORY)
            ),
        ),
        ("ensemble seeds", range(1, ensemble::MAX_SEEDS as u32)),
        (
            "sweep points",
            format!("at most {}", n(sweep::MAX_POINTS as f64)),
        ),
        (
            "sweep runs",
            format!("at most {}", n(sweep::MAX_RUNS as f64)),
        ),
        (
            "classic sweep work",
            format!("at most {}", n(sweep::MAX_CLASSIC_WORK as f64)),
        ),
        (
            "classic run",
            format!("at most {}", n(classic::MAX_REQUESTS as f64)),
        ),
        (
            "cluster events",
            format!("at most {}", n(cluster::MAX_EVENTS_LIMIT as f64)),
        ),
        (
            "cluster requests in flight",
            format!("at most {}", n(retrystorm::cluster::MAX_LIVE_JOBS as f64)),
        ),
    ];
    for (key, want) in cases {
        assert_row(key, &want);
    }
}

#[test]
fn every_fault_effect_kind_is_in_the_reference() {
    for e in cluster::FaultEffect::kinds() {
        let v = serde_json::to_value(&e).expect("serializes");
        let kind = v["kind"].as_str().expect("a kind");
        assert_row("faults[i].effect", &format!("`{kind}`"));
    }
}

#[test]
fn the_drain_bound_matches_the_constant() {
    let limit = n(retrystorm::cluster::DRAIN_LIMIT_MS as f64);
    assert!(
        REFERENCE.contains(&format!("It stops at the latest {limit} ms")),
        "docs/scenarios.md states the drain's bound, {limit} ms"
    );
}
