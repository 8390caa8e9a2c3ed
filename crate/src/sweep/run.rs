//! Running a planned sweep: its items (point × seed) run in batches, in shards, and
//! summarised into points with their constraints, Pareto front and best point.

use super::{choose, Plan};
use crate::classic;
use crate::ensemble::{self, Ensemble, Sample};
use crate::progress::Progress;
use crate::validate::ValidationError;
use serde::{Deserialize, Serialize};

/// One point of a sweep's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Its index.
    pub index: usize,
    /// Its parameter values, in the order of the definition.
    pub params: Vec<f64>,
    /// Its ensemble.
    pub ensemble: Ensemble,
    /// Meets every constraint (true without constraints).
    pub feasible: bool,
    /// On the Pareto front of the feasible points.
    pub pareto: bool,
}

/// A sweep's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    /// The parameter paths.
    pub paths: Vec<String>,
    /// The points, in order.
    pub points: Vec<Point>,
    /// The best feasible point by the objective.
    pub best: Option<usize>,
}

impl Plan {
    /// Items (point, seed index) in order.
    pub fn items(&self) -> usize {
        self.points.len() * self.seeds.len()
    }

    /// Runs item `i` (point `i / seeds`, seed `i % seeds`).
    pub fn run_item(&self, i: usize) -> Result<Sample, ValidationError> {
        self.run_item_in(i, &mut classic::Runs::new())
    }

    /// [`Plan::run_item`] with the classic strategies run through `runs`.
    fn run_item_in(&self, i: usize, runs: &mut classic::Runs) -> Result<Sample, ValidationError> {
        let (p, s) = (i / self.seeds.len(), i % self.seeds.len());
        // A plan without parameters is one scenario's ensemble: the page draws its bands.
        let curves = self.sweep.params.is_empty();
        ensemble::sample_in(&self.points[p].1, self.seeds[s], curves, runs)
    }

    /// Runs the items of shard `k` of `n` (all of them for `0/1`), in item order, on
    /// `threads` threads (`None`: every core).
    ///
    /// The items run seed by seed, each seed's points in order, in batches that each
    /// run through one [`classic::Runs`] ([`ensemble::map_batched`]): a strategy the
    /// swept field leaves unchanged from one point to the next is then run once per
    /// seed, not once per point (S1–S5 of a sweep of S6's threshold). Every sample is
    /// the one [`Plan::run_item`] gives.
    pub fn run_shard(
        &self,
        k: usize,
        n: usize,
        threads: Option<usize>,
    ) -> Result<Vec<(usize, Sample)>, ValidationError> {
        self.run_shard_watched(k, n, threads, &Progress::new())
    }

    /// [`Plan::run_shard`], counting each item done in `progress` and stopping early
    /// when it is asked to: the items are then those finished in the order they run
    /// (seed by seed, each seed's points in order) from the first, fewer than the shard's.
    pub fn run_shard_watched(
        &self,
        k: usize,
        n: usize,
        threads: Option<usize>,
        progress: &Progress,
    ) -> Result<Vec<(usize, Sample)>, ValidationError> {
        let seeds = self.seeds.len();
        let mut order: Vec<usize> = (0..self.items()).filter(|i| i % n == k).collect();
        // Seed by seed, each seed's points in order; a batch ends between two seeds
        // once it is full (a seed's first point runs every strategy, its next points
        // only what the sweep changes), or inside a seed's points longer than a batch.
        order.sort_unstable_by_key(|&i| (i % seeds, i));
        let len = ensemble::batch_len(order.len());
        let mut batches: Vec<&[usize]> = Vec::new();
        let mut rest = order.as_slice();
        while !rest.is_empty() {
            let full = len.min(rest.len());
            // The last start of a seed within reach, if any: a cut there splits no seed.
            let end = (1..=full)
                .rev()
                .find(|&j| j == rest.len() || rest[j] % seeds != rest[j - 1] % seeds)
                .unwrap_or(full);
            let (batch, after) = rest.split_at(end);
            batches.push(batch);
            rest = after;
        }
        let samples = ensemble::map_watched(&batches, threads, progress, |&i, runs| {
            self.run_item_in(i, runs)
        })?;
        let order = batches.iter().flat_map(|b| b.iter().copied());
        let mut items: Vec<(usize, Sample)> = order.zip(samples).collect();
        items.sort_unstable_by_key(|x| x.0);
        Ok(items)
    }

    /// Summarises an ordered list of samples (one per item, from the first): every
    /// point whose seeds are all in, so a page can show the points as they complete;
    /// the constraints, front and best are those of these points.
    pub fn summarise(&self, samples: &[Sample]) -> SweepResult {
        let s = self.seeds.len();
        let complete = samples.len() / s.max(1);
        let mut points: Vec<Point> = self
            .points
            .iter()
            .take(complete)
            .enumerate()
            .map(|(i, (params, sc))| {
                let ensemble = ensemble::summarise(sc, &samples[i * s..(i + 1) * s]);
                let feasible = choose::feasible(&ensemble, &self.sweep.constraints);
                Point {
                    index: i,
                    params: params.clone(),
                    ensemble,
                    feasible,
                    pareto: false,
                }
            })
            .collect();
        if let Some([a, b]) = &self.sweep.pareto {
            let pts: Vec<(usize, f64, f64)> = points
                .iter()
                .filter(|p| p.feasible)
                .filter_map(|p| {
                    Some((
                        p.index,
                        choose::value(&p.ensemble, &a.of)?,
                        choose::value(&p.ensemble, &b.of)?,
                    ))
                })
                .collect();
            for i in choose::pareto(&pts, a.goal, b.goal) {
                points[i].pareto = true;
            }
        }
        let best = self.sweep.objective.as_ref().and_then(|o| {
            let c: Vec<(usize, f64)> = points
                .iter()
                .filter(|p| p.feasible)
                .filter_map(|p| Some((p.index, choose::value(&p.ensemble, &o.of)?)))
                .collect();
            choose::best(&c, o.goal)
        });
        SweepResult {
            paths: self.sweep.params.iter().map(|p| p.path.clone()).collect(),
            points,
            best,
        }
    }

    /// Runs the whole sweep.
    pub fn run(&self, threads: Option<usize>) -> Result<SweepResult, ValidationError> {
        Ok(self.run_watched(threads, &Progress::new())?.1)
    }

    /// Runs the whole sweep, counting each item (point × seed) done in `progress` and
    /// stopping early when it is asked to. Returns the plan of what was finished with its
    /// result: `self` for a whole run; after a stop, as the items run seed by seed, every
    /// point over the seeds finished for all of them (the plan's first seeds), or with one
    /// seed per point the points finished. Either is what [`Plan::run`] gives for that plan.
    pub fn run_watched(
        &self,
        threads: Option<usize>,
        progress: &Progress,
    ) -> Result<(Plan, SweepResult), ValidationError> {
        let items = self.run_shard_watched(0, 1, threads, progress)?;
        let (points, seeds) = (self.points.len(), self.seeds.len());
        let finished = if items.len() == self.items() || seeds == 1 {
            self.clone()
        } else {
            // Seeds 0..k of every point are in, and seed k of some points.
            let k = items.len() / points.max(1);
            let mut plan = self.clone();
            plan.seeds.truncate(k);
            plan
        };
        let kept = finished.seeds.len();
        // Item `p × seeds + s` of this plan is item `p × kept + s` of the finished one:
        // in item order, the kept seeds' items are already in the finished plan's order.
        let samples: Vec<Sample> = items
            .into_iter()
            .filter(|(i, _)| i % seeds < kept)
            .map(|x| x.1)
            .collect();
        let result = finished.summarise(&samples);
        Ok((finished, result))
    }
}
