//! Ensembles: one scenario run over many seeds, every reported metric summarised as a
//! spread ([`stats::Spread`]) with its per-seed values, and the models' verdicts counted
//! ("PASS on 997 of 1000 seeds", "recovered in 12 of 40 seeds").
//!
//! # Seeds
//! An ensemble's seeds are an explicit list, or `N` seeds derived from the scenario's
//! seed `s` by one stable rule ([`derive_seeds`]): the first is `s` itself (so seed 1 of
//! an ensemble is the single run a link shows), and seed `i ≥ 2` is the `(i−1)`-th
//! `nextLong()` of `new java.util.Random(s)`. Any JDK reproduces the list.
//!
//! # Determinism
//! Seeds run independently (natively on every core through rayon; in the browser on a
//! pool of workers) and are gathered in seed order before anything is summarised, so
//! the result is byte-identical for any number of threads or workers.

mod names;
pub mod render;
pub mod stats;

use crate::classic::{self, checks::verdicts_with};
use crate::cluster;
use crate::progress::Progress;
use crate::rng::JavaRandom;
use crate::scenario::AnyScenario;
use crate::validate::ValidationError;
pub use names::metric_names;
use serde::{Deserialize, Serialize};
pub use stats::Spread;

/// Most seeds one ensemble may run.
pub const MAX_SEEDS: usize = 10_000;

/// The seeds of an `n`-seed ensemble of a scenario whose seed is `base` (see the module doc).
pub fn derive_seeds(base: i64, n: usize) -> Vec<i64> {
    let mut rng = JavaRandom::new(base);
    let mut out = Vec::with_capacity(n);
    if n > 0 {
        out.push(base);
    }
    while out.len() < n {
        out.push(rng.next_long());
    }
    out
}

/// Checks an ensemble's seed count (`field` names it in the message).
pub fn check_count(field: &str, n: usize) -> Result<(), ValidationError> {
    crate::validate::in_range(field, n, 1, MAX_SEEDS)
}

/// Everything one seed contributes: per group, per metric, its value (if the run has it),
/// and the verdicts of that run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The seed.
    #[serde(with = "crate::seed")]
    pub seed: i64,
    /// Per group (strategy, or the whole run and each tier), the metrics in order.
    pub groups: Vec<Vec<(String, Option<f64>)>>,
    /// Per verdict, whether it held on this seed (`None`: not applicable).
    pub verdicts: Vec<Option<bool>>,
    /// Per series of the model's chart, its value in every bucket (see [`curve_names`]):
    /// the classic strategies' attempts per second, the cluster tiers' attempts per
    /// second in each bucket. Empty for a sweep's points, whose charts are not drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curves: Vec<Vec<f64>>,
}

/// One series of the model's chart over the seeds: in every bucket (a second of the
/// classic chart, a bucket of the cluster tiers'), the p5, median and p95 of its value
/// among the seeds that reached that bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Band {
    /// The series: a strategy's or a tier's name.
    pub name: String,
    /// 5th percentile, per bucket.
    pub p5: Vec<f64>,
    /// Median, per bucket.
    pub median: Vec<f64>,
    /// 95th percentile, per bucket.
    pub p95: Vec<f64>,
}

/// One metric of one group over the ensemble.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSpread {
    /// Metric name, as in the single run's JSON (nested fields joined by dots).
    pub metric: String,
    /// Its spread over the seeds that have a value (`None` when none has).
    pub spread: Option<Spread>,
    /// Per seed, in seed order (`null` where the run has no value, e.g. no recovery time).
    pub values: Vec<Option<f64>>,
}

/// A strategy (classic) or the whole run or a tier (cluster).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Its path, by which metrics are named in sweeps: `strategies[2]`, `run`, `tiers[1]`.
    pub key: String,
    /// Its name (strategy or tier name, or "run").
    pub name: String,
    /// Every numeric metric the single run reports for it.
    pub metrics: Vec<MetricSpread>,
}

/// A verdict counted over the seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Count {
    /// What was judged.
    pub name: String,
    /// Seeds on which it held.
    pub pass: usize,
    /// Seeds on which it could be judged (0: not applicable to this scenario).
    pub of: usize,
    /// Per seed, in seed order.
    pub per_seed: Vec<Option<bool>>,
}

/// An ensemble's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ensemble {
    /// `"classic"` or `"cluster"`.
    pub model: String,
    /// The seeds, in order.
    #[serde(with = "seed_list")]
    pub seeds: Vec<i64>,
    /// The groups, in the single run's order.
    pub groups: Vec<Group>,
    /// The counted verdicts.
    pub verdicts: Vec<Count>,
    /// The chart's series as bands (none for a sweep's points).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bands: Vec<Band>,
}

impl Ensemble {
    /// The group and the metric that a sweep's metric path names (`strategies[2].delivery_pct`:
    /// the group keyed `strategies[2]`, its metric `delivery_pct`); `None` when there is none.
    pub fn metric(&self, path: &str) -> Option<(&Group, &MetricSpread)> {
        // A group's key is a prefix of the path followed by a dot; metric names may hold
        // dots themselves (nested fields), so the path is split at the key, not at a dot.
        let g = self.groups.iter().find(|g| {
            path.strip_prefix(g.key.as_str())
                .is_some_and(|r| r.starts_with('.'))
        })?;
        let name = &path[g.key.len() + 1..];
        Some((g, g.metrics.iter().find(|m| m.metric == name)?))
    }
}

/// Names of the classic model's counted verdicts are the acceptance checks' names; the
/// cluster model's are these.
pub const CLUSTER_VERDICTS: [&str; 2] = ["recovered", "metastable"];

/// Runs one seed of `scenario` and extracts its sample, with the chart's curves.
pub fn sample(scenario: &AnyScenario, seed: i64) -> Result<Sample, ValidationError> {
    sample_with(scenario, seed, true)
}

/// Runs one seed of `scenario` and extracts its sample; with `curves`, also the
/// per-bucket series of the model's chart (what the bands are made of: kept out of a
/// sweep's samples, which would carry them for every point and seed to no use).
pub fn sample_with(
    scenario: &AnyScenario,
    seed: i64,
    curves: bool,
) -> Result<Sample, ValidationError> {
    sample_in(scenario, seed, curves, &mut classic::Runs::new())
}

/// [`sample_with`] with the classic model's strategy runs made through `runs`, which
/// answers a run it already made with the same inputs (the acceptance check's forced
/// S3 and S4 within a sample of the article's scenario; S1 and S2, which draw no random
/// number, from one seed to the next; a sweep's unchanged strategies from one point to
/// the next), as [`map_batched`] passes one `runs` to a batch of items.
pub(crate) fn sample_in(
    scenario: &AnyScenario,
    seed: i64,
    curves: bool,
    runs: &mut classic::Runs,
) -> Result<Sample, ValidationError> {
    match scenario {
        AnyScenario::Classic(sc) => {
            let out = classic::simulate_with(sc, seed, runs)?;
            let verdicts = verdicts_with(&out, runs)?
                .into_iter()
                .map(|v| v.pass)
                .collect();
            let groups = out
                .results
                .iter()
                .map(|r| numeric_leaves(r, CLASSIC_SKIP))
                .collect();
            let curves = if curves {
                out.results
                    .iter()
                    .map(|r| r.per_sec.iter().map(|&v| f64::from(v)).collect())
                    .collect()
            } else {
                Vec::new()
            };
            Ok(Sample {
                seed,
                groups,
                verdicts,
                curves,
            })
        }
        AnyScenario::Cluster(sc) => {
            let r = cluster::run(sc, seed)?;
            let s = &r.summary;
            let triggered = s.trigger_end_ms.is_some();
            let verdicts = vec![
                triggered.then_some(s.recovery_time_ms.is_some()),
                triggered.then_some(s.metastable),
            ];
            let mut groups = vec![numeric_leaves(&r.summary, &[])];
            groups.extend(r.tiers.iter().map(|t| numeric_leaves(t, CLUSTER_TIER_SKIP)));
            // Attempts per second of every tier in every bucket: the tier charts' bars.
            let per_s = 1000.0 / r.bucket_ms.max(1) as f64;
            let curves = if curves {
                (0..r.tiers.len())
                    .map(|k| {
                        r.buckets
                            .iter()
                            .map(|b| b.tiers.get(k).map_or(0.0, |t| t.attempts() as f64 * per_s))
                            .collect()
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Ok(Sample {
                seed,
                groups,
                verdicts,
                curves,
            })
        }
    }
}

/// Every numeric leaf of a result, depth first in the order the single run's JSON
/// writes its fields, nested names joined by dots; `null` leaves are kept as "no
/// value" (an optional figure the run lacks); booleans count as 0/1; strings, arrays
/// and the `skip`ped top-level fields are left out.
fn numeric_leaves<T: Serialize>(v: &T, skip: &[&str]) -> Vec<(String, Option<f64>)> {
    leaves::collect(v, skip)
}

mod leaves;

/// The top-level fields of a classic strategy's result that are no metric (its name,
/// its lists).
const CLASSIC_SKIP: &[&str] = &["name", "per_sec", "trip_at"];
/// The top-level fields of a cluster tier's totals that are no metric.
const CLUSTER_TIER_SKIP: &[&str] = &["name"];

/// The groups of a scenario as (key, name), in the order of [`Sample::groups`].
pub fn group_names(scenario: &AnyScenario) -> Vec<(String, String)> {
    match scenario {
        AnyScenario::Classic(sc) => sc
            .strategies
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("strategies[{i}]"), s.name.clone()))
            .collect(),
        AnyScenario::Cluster(sc) => std::iter::once(("run".to_string(), "run".to_string()))
            .chain(
                sc.tiers
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (format!("tiers[{i}]"), t.name.clone())),
            )
            .collect(),
    }
}

/// The names of a scenario's chart series, in the order of [`Sample::curves`]: the
/// classic strategies, the cluster tiers.
pub fn curve_names(scenario: &AnyScenario) -> Vec<String> {
    match scenario {
        AnyScenario::Classic(sc) => sc.strategies.iter().map(|s| s.name.clone()).collect(),
        AnyScenario::Cluster(sc) => sc.tiers.iter().map(|t| t.name.clone()).collect(),
    }
}

/// The bands of the samples' curves (none when the samples have no curves): per
/// series and bucket, the [`stats::band_of`] of the values of the seeds that reached
/// that bucket.
fn bands(scenario: &AnyScenario, samples: &[Sample]) -> Vec<Band> {
    if samples.iter().all(|s| s.curves.is_empty()) {
        return Vec::new();
    }
    let mut column = Vec::with_capacity(samples.len());
    curve_names(scenario)
        .into_iter()
        .enumerate()
        .map(|(c, name)| {
            let len = samples
                .iter()
                .filter_map(|s| s.curves.get(c).map(Vec::len))
                .max()
                .unwrap_or(0);
            let mut band = Band {
                name,
                p5: Vec::with_capacity(len),
                median: Vec::with_capacity(len),
                p95: Vec::with_capacity(len),
            };
            for x in 0..len {
                column.clear();
                column.extend(samples.iter().filter_map(|s| s.curves.get(c)?.get(x)));
                // Every bucket below `len` is some seed's, so the column is never empty.
                let [lo, mid, hi] = stats::band_of(&mut column).unwrap_or([f64::NAN; 3]);
                band.p5.push(lo);
                band.median.push(mid);
                band.p95.push(hi);
            }
            band
        })
        .collect()
}

/// The verdict names of a scenario, in the order of [`Sample::verdicts`].
pub fn verdict_names(scenario: &AnyScenario) -> Vec<String> {
    match scenario {
        AnyScenario::Classic(_) => classic::checks::verdict_names(crate::lang::Lang::Zh)
            .iter()
            .map(|s| s.to_string())
            .collect(),
        AnyScenario::Cluster(_) => CLUSTER_VERDICTS.iter().map(|s| s.to_string()).collect(),
    }
}

/// Gathers the samples of an ensemble (in seed order) into its result.
pub fn summarise(scenario: &AnyScenario, samples: &[Sample]) -> Ensemble {
    let names = group_names(scenario);
    let groups = names
        .into_iter()
        .enumerate()
        .map(|(g, (key, name))| {
            let metric_names: Vec<String> = samples
                .first()
                .and_then(|s| s.groups.get(g))
                .map(|m| m.iter().map(|(n, _)| n.clone()).collect())
                .unwrap_or_default();
            let metrics = metric_names
                .into_iter()
                .enumerate()
                .map(|(k, metric)| {
                    let values: Vec<Option<f64>> = samples
                        .iter()
                        .map(|s| s.groups.get(g).and_then(|m| m.get(k)).and_then(|x| x.1))
                        .collect();
                    let present: Vec<f64> = values.iter().flatten().copied().collect();
                    MetricSpread {
                        metric,
                        spread: Spread::of(&present),
                        values,
                    }
                })
                .collect();
            Group { key, name, metrics }
        })
        .collect();
    let verdicts = verdict_names(scenario)
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let per_seed: Vec<Option<bool>> = samples
                .iter()
                .map(|s| s.verdicts.get(i).copied().flatten())
                .collect();
            Count {
                name,
                pass: per_seed.iter().filter(|v| **v == Some(true)).count(),
                of: per_seed.iter().filter(|v| v.is_some()).count(),
                per_seed,
            }
        })
        .collect();
    Ensemble {
        model: scenario.model().to_string(),
        seeds: samples.iter().map(|s| s.seed).collect(),
        groups,
        verdicts,
        bands: bands(scenario, samples),
    }
}

/// Runs `scenario` over `seeds` on `threads` threads (`None`: every core; ignored on
/// wasm32, which runs them one after another) and summarises them.
pub fn run(
    scenario: &AnyScenario,
    seeds: &[i64],
    threads: Option<usize>,
) -> Result<Ensemble, ValidationError> {
    run_watched(scenario, seeds, threads, &Progress::new())
}

/// [`run`], counting each seed done in `progress` and stopping early when it is asked
/// to ([`Progress::stop`]): the result is then the ensemble of the seeds finished, the
/// first of `seeds` in order (its `seeds` are fewer than asked for), exactly what
/// [`run`] gives for those seeds.
pub fn run_watched(
    scenario: &AnyScenario,
    seeds: &[i64],
    threads: Option<usize>,
    progress: &Progress,
) -> Result<Ensemble, ValidationError> {
    check_count("seeds", seeds.len())?;
    let batches: Vec<&[i64]> = seeds.chunks(batch_len(seeds.len())).collect();
    let samples = map_watched(&batches, threads, progress, |&s, runs| {
        sample_in(scenario, s, true, runs)
    })?;
    Ok(summarise(scenario, &samples))
}

/// [`run_watched`] without holding the ensemble: each seed's sample is handed to `sink`
/// in seed order as soon as it and every earlier seed are done (batches that finish
/// ahead of an earlier one wait for it, and only they), then dropped. What `sink` is
/// handed, in order, is exactly the samples [`run_watched`] summarises, a stop
/// included (the seeds finished, the first of `seeds`). Returns how many it was handed.
pub fn stream_watched(
    scenario: &AnyScenario,
    seeds: &[i64],
    threads: Option<usize>,
    progress: &Progress,
    sink: impl FnMut(Sample) + Send,
) -> Result<usize, ValidationError> {
    check_count("seeds", seeds.len())?;
    let batches: Vec<(usize, &[i64])> = seeds.chunks(batch_len(seeds.len())).enumerate().collect();
    let order = std::sync::Mutex::new(InOrder {
        next: 0,
        waiting: std::collections::BTreeMap::new(),
        closed: false,
        handed: 0,
        sink,
    });
    map_parallel(&batches, threads, |&(k, batch)| {
        let mut runs = classic::Runs::new();
        let mut out = Vec::with_capacity(batch.len());
        for s in batch {
            if progress.stopped() {
                break;
            }
            out.push(sample_in(scenario, *s, true, &mut runs)?);
            progress.tick();
        }
        let whole = out.len() == batch.len();
        // A poisoned lock means another batch panicked; the panic is the news.
        if let Ok(mut o) = order.lock() {
            o.arrive(k, out, whole);
        }
        Ok(())
    })?;
    Ok(order.into_inner().map_or(0, |o| o.handed))
}

/// Batches' samples put back in batch order for a sink: those that finish ahead of an
/// earlier batch wait for it; after a batch cut short by a stop, nothing more is handed
/// on (as [`map_watched`] keeps only the finished items from the first).
struct InOrder<S> {
    next: usize,
    waiting: std::collections::BTreeMap<usize, (Vec<Sample>, bool)>,
    closed: bool,
    handed: usize,
    sink: S,
}

impl<S: FnMut(Sample)> InOrder<S> {
    fn arrive(&mut self, k: usize, samples: Vec<Sample>, whole: bool) {
        if self.closed {
            return;
        }
        self.waiting.insert(k, (samples, whole));
        while let Some((samples, whole)) = self.waiting.remove(&self.next) {
            self.next += 1;
            self.handed += samples.len();
            samples.into_iter().for_each(&mut self.sink);
            if !whole {
                self.closed = true;
                self.waiting.clear();
                return;
            }
        }
    }
}

/// How many of `n` items make a batch of [`map_batched`]: about 64 batches in all,
/// several for each core of a large machine, so the threads end together.
pub(crate) fn batch_len(n: usize) -> usize {
    n.div_ceil(64).max(1)
}

/// `f` over the items of `batches`, in their order (natively on `threads` threads, on
/// wasm32 one after another), with one [`classic::Runs`] for each batch, so a classic
/// strategy run with the same inputs for two items of a batch is run once.
pub fn map_batched<T, R, F>(
    batches: &[&[T]],
    threads: Option<usize>,
    f: F,
) -> Result<Vec<R>, ValidationError>
where
    T: Sync,
    R: Send,
    F: Fn(&T, &mut classic::Runs) -> Result<R, ValidationError> + Sync + Send,
{
    map_watched(batches, threads, &Progress::new(), f)
}

/// [`map_batched`], counting each item done in `progress` and starting none once it is
/// asked to stop: the results are then those of the longest run of items finished from
/// the first. Batches start in their order ([`map_parallel`]), so that run is all the
/// finished items but those of the batches under way when the stop came.
pub(crate) fn map_watched<T, R, F>(
    batches: &[&[T]],
    threads: Option<usize>,
    progress: &Progress,
    f: F,
) -> Result<Vec<R>, ValidationError>
where
    T: Sync,
    R: Send,
    F: Fn(&T, &mut classic::Runs) -> Result<R, ValidationError> + Sync + Send,
{
    let done = map_parallel(batches, threads, |batch| {
        let mut runs = classic::Runs::new();
        let mut out = Vec::with_capacity(batch.len());
        for x in batch.iter() {
            if progress.stopped() {
                break;
            }
            out.push(f(x, &mut runs)?);
            progress.tick();
        }
        Ok(out)
    })?;
    let mut all = Vec::with_capacity(done.iter().map(Vec::len).sum());
    for (batch, results) in batches.iter().zip(done) {
        let whole = results.len() == batch.len();
        all.extend(results);
        if !whole {
            break;
        }
    }
    Ok(all)
}

/// `f` over `items`, in their order: natively on `threads` threads (`None`: every
/// core); on wasm32 one after another.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn map_parallel<T, R, F>(
    items: &[T],
    threads: Option<usize>,
    f: F,
) -> Result<Vec<R>, ValidationError>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> Result<R, ValidationError> + Sync + Send,
{
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    // Each task takes the next item not yet taken rather than its own: rayon splits a
    // range between threads (one starts at the first item, another half way), and
    // items taken in order are what lets a stopped job keep a prefix ([`map_watched`]).
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = (0..items.len())
            .into_par_iter()
            .map(|_| {
                let i = next.fetch_add(1, Ordering::Relaxed);
                f(&items[i]).map(|r| (i, r))
            })
            .collect::<Result<Vec<(usize, R)>, _>>()?;
        done.sort_unstable_by_key(|x| x.0);
        Ok(done.into_iter().map(|x| x.1).collect())
    };
    match threads {
        None => work(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| {
                ValidationError::new("threads", n, format!("a usable thread count ({e})"))
            })?
            .install(work),
    }
}

/// `f` over `items`, in their order: natively on `threads` threads (`None`: every
/// core); on wasm32 one after another.
#[cfg(target_arch = "wasm32")]
pub(crate) fn map_parallel<T, R, F>(
    items: &[T],
    _threads: Option<usize>,
    f: F,
) -> Result<Vec<R>, ValidationError>
where
    F: Fn(&T) -> Result<R, ValidationError>,
{
    items.iter().map(f).collect()
}

/// Seeds in JSON the way single-run seeds are written (a string above 2^53).
pub(crate) mod seed_list {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct One(#[serde(with = "crate::seed")] i64);

    pub fn serialize<S: Serializer>(seeds: &[i64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(seeds.iter().map(|&x| One(x)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
        Ok(Vec::<One>::deserialize(d)?
            .into_iter()
            .map(|o| o.0)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_are_flattened_in_field_order() {
        #[derive(Serialize)]
        struct Inner {
            c: f64,
            d: Option<u32>,
        }
        #[derive(Serialize)]
        struct Outer {
            name: &'static str,
            z: u32,
            b: Inner,
            e: bool,
            f: Vec<u32>,
        }
        let v = Outer {
            name: "x",
            z: 1,
            b: Inner { c: 2.5, d: None },
            e: true,
            f: vec![1],
        };
        // Field order is kept, not sorted: "z" before "b".
        assert_eq!(
            numeric_leaves(&v, &["name"]),
            vec![
                ("z".to_string(), Some(1.0)),
                ("b.c".to_string(), Some(2.5)),
                ("b.d".to_string(), None),
                ("e".to_string(), Some(1.0)),
            ]
        );
    }

    #[test]
    fn derived_seeds_start_with_the_base() {
        assert_eq!(derive_seeds(4242, 0), Vec::<i64>::new());
        assert_eq!(derive_seeds(4242, 1), vec![4242]);
        let s = derive_seeds(4242, 5);
        assert_eq!(s[0], 4242);
        // A prefix of a longer list: N seeds are the first N of any larger N.
        assert_eq!(&derive_seeds(4242, 50)[..5], &s[..]);
    }
}
