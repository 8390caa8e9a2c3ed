//! The README's scenario tables state the bounds the engine enforces: every range in
//! them is checked here against the named constant beside its field.

use retrystorm::classic::scenario as classic;
use retrystorm::cluster::scenario as cluster;

const README: &str = include_str!("../../README.md");

/// A number as the README writes it: thousands separated by commas (`1,000,000`).
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

/// `lo..=hi` as the README writes it.
fn range(lo: impl Into<f64>, hi: impl Into<f64>) -> String {
    format!("{}..={}", n(lo.into()), n(hi.into()))
}

/// The README's table row of `key` (its first cell starts with `` `key` ``).
fn row(key: &str) -> &'static str {
    let start = format!("| `{key}`");
    let mut rows = README
        .lines()
        .filter(|l| l.starts_with(&start) && l[start.len()..].starts_with([' ', ',']));
    let found = rows
        .next()
        .unwrap_or_else(|| panic!("README has no row for `{key}`"));
    assert!(rows.next().is_none(), "README has two rows for `{key}`");
    found
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
    ];
    for (key, want) in cases {
        assert!(
            row(key).contains(&want),
            "`{key}`: README says {:?}, the engine {want}",
            row(key)
        );
    }
}

#[test]
fn cluster_table_matches_the_constants() {
    use cluster::*;
    let t = MAX_TIME_MS as f64;
    let d = MAX_DURATION_MS as f64;
    let count = f64::from(MAX_COUNT);
    let cases: Vec<(&str, String)> = vec![
        (
            "name",
            format!("{} characters", range(1, MAX_SCENARIO_NAME_CHARS as u32)),
        ),
        (
            "description",
            format!("{} characters", range(0, MAX_DESCRIPTION_CHARS as u32)),
        ),
        ("duration_ms", range(1, d)),
        ("bucket_ms", range(MIN_BUCKET_MS as f64, t)),
        (
            "bucket_ms",
            format!("default {}", n(DEFAULT_BUCKET_MS as f64)),
        ),
        (
            "bucket_ms",
            format!("at most {} buckets", n(MAX_BUCKETS as f64)),
        ),
        ("max_events", range(1, MAX_EVENTS_LIMIT as f64)),
        (
            "max_events",
            format!("default {}", n(DEFAULT_MAX_EVENTS as f64)),
        ),
        ("load.rate_per_s", range(0, MAX_RATE)),
        (
            "load.schedule",
            format!("{} segments", range(0, MAX_SEGMENTS as u32)),
        ),
        ("load.schedule", format!("`start_ms` {}", range(0, d))),
        ("load.schedule", format!("rates {}", range(0, MAX_RATE))),
        ("load.closed_loop", format!("`callers` {}", range(1, count))),
        ("load.deadline_ms", range(1, t)),
        ("tiers", format!("{} tiers", range(1, MAX_TIERS as u32))),
        (
            "tiers",
            format!("at most {} instances", n(MAX_TOTAL_INSTANCES as f64)),
        ),
        (
            "tiers[i].name",
            format!("{} characters", range(1, MAX_TIER_NAME_CHARS as u32)),
        ),
        (".instances", range(1, MAX_INSTANCES)),
        (".concurrency", range(1, MAX_CONCURRENCY)),
        (".queue_capacity", range(0, count)),
        (".queue_timeout_ms", range(0, t)),
        (".service", format!("`p50_ms` {}", range(MIN_P50_MS, t))),
        (".client.timeout_ms", range(1, t)),
        (".client.max_attempts", range(1, MAX_ATTEMPTS)),
        (
            ".client.max_attempts",
            format!("default {}", DEFAULT_MAX_ATTEMPTS),
        ),
        (
            ".client.backoff",
            format!("{} entries", range(1, MAX_DELAYS as u32)),
        ),
        (
            ".client.backoff",
            format!("`multiplier` {}", range(1, MAX_MULTIPLIER)),
        ),
        (".client.backoff", format!("every delay {}", range(0, t))),
        (
            ".client.budget",
            format!(
                "`capacity_percent` (`percent` {})",
                range(0, MAX_BUDGET_PERCENT)
            ),
        ),
        (
            ".client.budget",
            format!("`max_tokens` {})", range(1, MAX_TOKENS)),
        ),
        (
            ".client.budget",
            format!(
                "`grpc_throttle` (`max_tokens` {}",
                range(1, MAX_GRPC_TOKENS)
            ),
        ),
        (
            ".client.budget",
            format!("`token_ratio` {}..=`max_tokens`", n(MIN_GRPC_TOKEN_RATIO)),
        ),
        (
            ".client.budget",
            format!("`ttl_ms` {}", range(MIN_TTL_MS as f64, MAX_TTL_MS as f64)),
        ),
        (
            ".client.budget",
            format!("`min_retries_per_sec` {}", range(0, count)),
        ),
        (
            ".client.budget",
            format!("`percent_can_retry` {}", range(0, MAX_BUDGET_PERCENT)),
        ),
        (
            ".client.budget",
            format!("`ratio_percent` {}", range(0, MAX_BUDGET_PERCENT)),
        ),
        (
            ".client.budget",
            format!("`window_ms` 0 or {}", range(MIN_RATIO_WINDOW_MS as f64, t)),
        ),
        (
            ".client.budget",
            format!("`min_requests` {}", range(0, MAX_MIN_REQUESTS)),
        ),
        (
            ".client.budget",
            format!("`initial_tokens` {}", range(1, MAX_TOKENS)),
        ),
        (
            ".client.budget",
            format!(
                "defaults {}, {}, {}, {}",
                DEFAULT_AWS_TOKENS,
                DEFAULT_AWS_RETRY_COST,
                DEFAULT_AWS_TIMEOUT_COST,
                DEFAULT_AWS_NO_RETRY_INCREMENT
            ),
        ),
        (".client.breaker", format!("`failures` {}", range(1, count))),
        (
            ".client.breaker",
            format!("`half_open_calls` {}", range(1, MAX_HALF_OPEN_CALLS)),
        ),
        (
            ".client.breaker",
            format!("`window_size` {} calls", range(1, MAX_COUNT_WINDOW)),
        ),
        (
            ".client.breaker",
            format!("or {} s", range(1, MAX_TIME_WINDOW_S)),
        ),
        (
            ".client.breaker",
            format!("at most {} cells", n(MAX_WINDOW_CELLS as f64)),
        ),
        (".client.breaker", format!("`k` {}", range(1, MAX_SRE_K))),
        (
            ".client.breaker",
            format!("`window_ms` {}", range(MIN_SRE_WINDOW_MS as f64, t)),
        ),
        (
            ".client.bulkhead",
            format!("`max_concurrent` {}", range(1, count)),
        ),
        (
            ".client.bulkhead",
            format!("`max_queue` {}", range(0, count)),
        ),
        ("faults", format!("{} faults", range(0, MAX_FAULTS as u32))),
        ("faults", format!("`duration_ms` {}", range(0, d))),
        (
            "faults[i].effect",
            format!("`factor` {}", range(MIN_BROWNOUT_FACTOR, 1)),
        ),
        ("faults[i].effect", format!("`added_ms` {}", range(0, t))),
        ("steady", format!("`hold_ms` {}", range(0, t))),
        (
            "steady",
            format!(
                "`amplification_tolerance` {}",
                range(0, MAX_AMPLIFICATION_TOLERANCE)
            ),
        ),
    ];
    for (key, want) in cases {
        assert!(
            row(key).contains(&want),
            "`{key}`: README says {:?}, the engine {want}",
            row(key)
        );
    }
}
