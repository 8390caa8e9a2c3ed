//! Running a planned sweep: its items (point × seed) run in batches, in shards, and
//! summarised into points with their constraints, Pareto front and best point.

use super::{choose, Plan};
use crate::classic;
use crate::ensemble::{self, Ensemble, Sample};
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
        let samples =
            ensemble::map_batched(&batches, threads, |&i, runs| self.run_item_in(i, runs))?;
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
        let samples: Vec<Sample> = self
            .run_shard(0, 1, threads)?
            .into_iter()
            .map(|x| x.1)
            .collect();
        Ok(self.summarise(&samples))
    }
}
