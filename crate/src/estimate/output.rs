//! The size of a job's output, from the same output written for a result of the job's
//! shape with one and two buckets, seeds or points (every count a typical width), and
//! extrapolated: each format grows by a fixed text per bucket, seed or point. Each
//! function answers (the heap held while writing, beyond the result; the bytes written).

use super::memory::{curve_lengths, dummy_strategy_result, leaf_names};
use super::Format;
use crate::classic;
use crate::cluster::{self, Bucket, RouteSummary, RunResult, Summary, TierBucket, TierSummary};
use crate::ensemble::{self, Sample};
use crate::scenario::AnyScenario;
use crate::sweep::{self, Plan};
use crate::validate::json_value;
use serde_json::Value;

/// A figure's value in the dummy results: as wide as a typical one (a count with a
/// fraction, or a percentage written to many digits).
const TYPICAL: f64 = 1234.56789;
/// Characters a cluster bucket's count has beyond the dummy's `0`, on average.
const EXTRA_DIGITS: u64 = 2;

/// The heap a `String` written by appending needs for `len` bytes: it doubles as it
/// grows, and while it moves to its last block (between one and two times `len`) the
/// old block (half of that) is still held, so about twice `len` at its peak.
fn buffer(len: u64) -> u64 {
    2 * len
}

/// The length of `v` written as `run --json` writes it (serde_json's pretty layout and a
/// line end). Written from its JSON value, whose keys are sorted, which changes no
/// length; why: serde_json's pretty writer of a result type is a second copy of that
/// type's serializer in the page's wasm, which writes only the compact form.
fn pretty_len<T: serde::Serialize>(v: &T) -> u64 {
    serde_json::to_string_pretty(&json_value(v)).map_or(0, |s| s.len() as u64 + 1)
}

/// `f(n)` for a text that grows linearly with `n`, from `f(1)` and `f(2)`.
fn linear(n: u64, f: impl Fn(usize) -> u64) -> u64 {
    let one = f(1);
    let two = f(2);
    one + n.saturating_sub(1) * two.saturating_sub(one)
}

/// One run of `sc`.
pub(super) fn run(sc: &AnyScenario, format: Format) -> (u64, u64) {
    match (sc, format) {
        (AnyScenario::Classic(c), Format::Json) => {
            let len = linear(c.duration_s as u64, |d| {
                let out = classic_output(c, d);
                pretty_len(&out)
            });
            (buffer(len), len)
        }
        (AnyScenario::Classic(c), _) => {
            // The article's report, the endings and the verdict: a few lines per strategy.
            let len = 600 + 300 * c.strategies.len() as u64;
            (buffer(len), len)
        }
        (AnyScenario::Cluster(c), Format::Json) => {
            let n_b = c.duration_ms.div_ceil(c.bucket_ms.max(1));
            let doc = |n: usize| {
                let r = dummy_result(c, n);
                serde_json::json!({ "scenario": AnyScenario::Cluster(c.clone()).to_value(), "result": json_value(&r) })
            };
            let len = linear(n_b, |n| pretty_len(&doc(n)));
            let leaves = linear(n_b, |n| numbers(&doc(n)));
            let len = len + leaves * EXTRA_DIGITS;
            // `run --json` builds the whole document as a `serde_json::Value` first.
            let value = linear(n_b, |n| value_bytes(&doc(n)));
            (value + buffer(len), len)
        }
        (AnyScenario::Cluster(c), _) => {
            let n_b = c.duration_ms.div_ceil(c.bucket_ms.max(1)) as usize;
            let r = dummy_result(c, n_b.min(80));
            let len = cluster::report::text(c, &r).len() as u64;
            (buffer(len), len)
        }
    }
}

/// The classic `run --json` document over `dur` seconds, every second's attempts as
/// wide as the clients' count.
fn classic_output(c: &classic::Scenario, dur: usize) -> classic::Output {
    let results = c
        .strategies
        .iter()
        .map(|st| classic::StrategyResult {
            per_sec: vec![c.clients; dur],
            ..dummy_strategy_result(st, dur)
        })
        .collect();
    classic::Output {
        scenario: c.clone(),
        results,
    }
}

/// A cluster result of `sc`'s shape with `n_b` buckets, every count 0.
fn dummy_result(sc: &cluster::Scenario, n_b: usize) -> RunResult {
    let n_t = sc.tiers.len();
    let per_route = sc.tiers.iter().any(|t| t.routes.len() > 1);
    let routes: Vec<RouteSummary> = sc
        .tiers
        .iter()
        .enumerate()
        .flat_map(|(k, t)| {
            let clients: Vec<(usize, &cluster::Client)> = match &t.client {
                Some(c) => vec![(k + 1, c)],
                None => t
                    .routes
                    .iter()
                    .map(|r| (r.to as usize, &r.client))
                    .collect(),
            };
            clients.into_iter().map(move |(to, c)| RouteSummary {
                name: format!("{} → {}", t.name, sc.tiers.get(to).map_or("", |x| &x.name)),
                from: k as u32,
                to: to as u32,
                share: 1.0,
                totals: TierBucket::default(),
                pending_at_end: 0,
                retry_amplification: TYPICAL,
                cost: c.cost.as_ref().map(|cost| crate::cost::CostResult {
                    per_sec: vec![TYPICAL; n_b],
                    ..crate::cost::CostResult::new(cost, &[], 0, 0)
                }),
            })
        })
        .collect();
    let n_routes = routes.len();
    RunResult {
        scenario: sc.name.clone(),
        seed: sc.seed,
        duration_ms: sc.duration_ms,
        bucket_ms: sc.bucket_ms,
        events: 0,
        tiers: sc
            .tiers
            .iter()
            .map(|t| TierSummary {
                name: t.name.clone(),
                ..TierSummary::default()
            })
            .collect(),
        buckets: (0..n_b)
            .map(|b| Bucket {
                start_ms: b as u64 * sc.bucket_ms,
                tiers: vec![TierBucket::default(); n_t],
                latency_ms: Default::default(),
                success_latency: Default::default(),
                failure_latency: Default::default(),
                cohort: cluster::metrics::Cohort {
                    attempts: vec![0; n_t],
                    ..Default::default()
                },
                route_breakers: if per_route {
                    vec![[0; 3]; n_routes]
                } else {
                    Vec::new()
                },
            })
            .collect(),
        summary: Summary::default(),
        routes,
    }
}

/// Numbers in a JSON document.
fn numbers(v: &Value) -> u64 {
    match v {
        Value::Number(_) => 1,
        Value::Array(a) => a.iter().map(numbers).sum(),
        Value::Object(m) => m.values().map(numbers).sum(),
        _ => 0,
    }
}

/// Heap of a `serde_json::Value`: an object is a B-tree of nodes of up to 11 entries
/// (632 bytes a leaf node, 728 an inner one) filled about two thirds on average, with
/// its keys' text; an array is 32 bytes a value.
fn value_bytes(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.len() as u64,
        Value::Array(a) => 32 * a.len() as u64 + a.iter().map(value_bytes).sum::<u64>(),
        Value::Object(m) => {
            let k = m.len() as u64;
            let nodes = match k {
                0 => 0,
                1..=11 => 632,
                _ => {
                    let leaves = (k * 3).div_ceil(22);
                    632 * leaves + 728 * leaves.div_ceil(8)
                }
            };
            nodes
                + m.iter()
                    .map(|(key, x)| key.len() as u64 + value_bytes(x))
                    .sum::<u64>()
        }
        _ => 0,
    }
}

/// A sample of `sc`'s shape, every figure [`TYPICAL`], with curves `len` buckets long
/// when `curves`.
fn dummy_sample(sc: &AnyScenario, seed: i64, curves: Option<usize>) -> Sample {
    let groups = leaf_names(sc)
        .into_iter()
        .map(|g| g.into_iter().map(|n| (n, Some(TYPICAL))).collect())
        .collect();
    Sample {
        seed,
        groups,
        verdicts: vec![Some(true); ensemble::verdict_names(sc).len()],
        curves: curves.map_or_else(Vec::new, |len| {
            curve_lengths(sc)
                .iter()
                .map(|_| vec![TYPICAL; len])
                .collect()
        }),
    }
}

/// A seed as wide as a derived one (19 digits and a sign).
const WIDE_SEED: i64 = -4_962_768_465_676_381_896;

/// An ensemble of `seeds` seeds of `sc`.
pub(super) fn ensemble(sc: &AnyScenario, seeds: usize, format: Format) -> (u64, u64) {
    let lens = curve_lengths(sc);
    let len = lens.first().copied().unwrap_or(0) as u64;
    let write = |n: usize, l: usize| {
        let samples: Vec<Sample> = (0..n)
            .map(|i| dummy_sample(sc, WIDE_SEED + i as i64, Some(l)))
            .collect();
        let e = ensemble::summarise(sc, &samples);
        let text = match format {
            Format::Json | Format::Jsonl => return pretty_len(&e),
            Format::Csv => ensemble::render::csv(&e),
            Format::Text => ensemble::render::text(&"x".repeat(60), &e),
        };
        text.len() as u64
    };
    let one = write(1, 1);
    let per_seed = write(2, 1).saturating_sub(one);
    let per_bucket = write(1, 2).saturating_sub(one);
    let total =
        one + (seeds as u64).saturating_sub(1) * per_seed + len.saturating_sub(1) * per_bucket;
    (buffer(total), total)
}

/// The plan cut to its first `points` points and one seed, for writing dummy results.
fn small_plan(plan: &Plan, points: usize) -> Plan {
    Plan {
        sweep: plan.sweep.clone(),
        base: plan.base.clone(),
        values: plan.values.clone(),
        seeds: plan.seeds.iter().take(1).copied().collect(),
        points: plan.points.iter().take(points).cloned().collect(),
    }
}

/// A whole sweep's output.
pub(super) fn sweep(plan: &Plan, format: Format) -> (u64, u64) {
    let curves = plan.sweep.params.is_empty();
    let len = curve_lengths(&plan.base).first().copied().unwrap_or(0);
    let write = |points: usize| {
        let p = small_plan(plan, points);
        let samples: Vec<Sample> = p
            .points
            .iter()
            .map(|(_, sc)| dummy_sample(sc, WIDE_SEED, curves.then_some(len)))
            .collect();
        let r = p.summarise(&samples);
        let text = match format {
            Format::Jsonl | Format::Json => sweep::render::jsonl(&r),
            Format::Csv => sweep::render::csv(&r),
            Format::Text => sweep::render::text(&p, &r),
        };
        text.len() as u64
    };
    let n = plan.points.len() as u64;
    let total = if n <= 1 { write(1) } else { linear(n, write) };
    (buffer(total), total)
}

/// A shard's JSON Lines of `runs` samples.
pub(super) fn shard(plan: &Plan, runs: u64) -> (u64, u64) {
    let curves = plan.sweep.params.is_empty();
    let len = curve_lengths(&plan.base).first().copied().unwrap_or(0);
    let header = sweep::ShardHeader {
        scenario: plan.base.to_value(),
        sweep: plan.sweep.clone(),
        shard: 0,
        of: 1,
    };
    let head = serde_json::to_string(&header).map_or(0, |s| s.len() as u64 + 1);
    let sc = plan.points.first().map_or(&plan.base, |p| &p.1);
    let line = sweep::ShardLine {
        item: 12_345,
        sample: dummy_sample(sc, WIDE_SEED, curves.then_some(len)),
    };
    let per = serde_json::to_string(&line).map_or(0, |s| s.len() as u64 + 1);
    let total = head + runs * per;
    (buffer(total), total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_json's own pretty text of `v`, written directly by `v`'s serializer.
    fn direct<T: serde::Serialize>(v: &T) -> u64 {
        serde_json::to_string_pretty(v).map_or(0, |s| s.len() as u64 + 1)
    }

    #[test]
    fn pretty_length_through_the_value_is_the_direct_one() {
        for b in crate::scenario::bundled() {
            let sc = crate::scenario::parse(b.json).unwrap();
            match &sc {
                AnyScenario::Classic(c) => {
                    for d in [1, 2, 7] {
                        let out = classic_output(c, d);
                        assert_eq!(pretty_len(&out), direct(&out), "{}", b.id);
                    }
                }
                AnyScenario::Cluster(c) => {
                    for n in [1, 2, 5] {
                        let r = dummy_result(c, n);
                        let old = serde_json::json!({ "scenario": sc.to_value(), "result": r });
                        let new = serde_json::json!({ "scenario": sc.to_value(), "result": json_value(&r) });
                        assert_eq!(old, new, "{}", b.id);
                        assert_eq!(pretty_len(&new), direct(&old), "{}", b.id);
                    }
                }
            }
            for n in [1, 3] {
                let samples: Vec<Sample> = (0..n)
                    .map(|i| dummy_sample(&sc, WIDE_SEED + i, Some(2)))
                    .collect();
                let e = ensemble::summarise(&sc, &samples);
                assert_eq!(pretty_len(&e), direct(&e), "{}", b.id);
            }
        }
    }
}
