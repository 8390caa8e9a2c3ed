//! What a job costs, known before it runs: for one run, an ensemble or a sweep (either
//! model), the engine's work (simulated business requests × strategies for the classic
//! model, events for the cluster model), the peak heap in bytes, the size of the output
//! and a rough time.
//!
//! # How
//! - **Memory** is summed from what the code holds, type by type (`memory.rs`): a
//!   classic run's per-second arrays and latency histogram, a cluster run's instances,
//!   breaker windows and per-bucket accumulators (sized beside them, in
//!   `cluster/sim/footprint.rs`) and its result; an ensemble's per-seed samples (every
//!   figure with its name, the chart's curves) and the spreads built from them; a
//!   sweep's point scenarios, samples and per-point ensembles; and the output text. The
//!   peak is the largest of the phases: running (the samples so far and one run per
//!   thread), summarising (samples and summary), writing (summary and output).
//!   `crate/tests/estimate.rs` runs a spread of jobs under a counting allocator and
//!   checks every estimate is within 0.5×–2× of the measured peak.
//! - **Work**: a classic run is counted exactly (strategies without jitter run once per
//!   batch of seeds, as `classic::Runs` does); a cluster run's events come from running
//!   a short prefix (at most [`PREFIX_EVENTS`] events of the first [`PREFIX_MS`] ms),
//!   extrapolated over the run and capped by `max_events` (in a cluster sweep, for at
//!   most [`SHAPED_POINTS`] points, the others' taken from the nearest). A fault's retry storm can
//!   multiply the events after the prefix, up to that cap ([`Estimate::work_bound`]).
//! - **Output** is the size of the output format, from the same output built for one
//!   and two buckets, seeds or points (`output.rs`) and extrapolated.
//! - **Time** is the work at [`CLASSIC_REQUESTS_PER_S`] or [`CLUSTER_EVENTS_PER_S`]
//!   (measured on one core of the development machine; see `docs/performance.md`)
//!   plus [`SECONDS_PER_SAMPLE`] for each run's figures, spread over the threads. It is
//!   rough by nature and never checked by a test.

mod memory;
mod output;

use crate::scenario::AnyScenario;
use crate::sweep::Plan;
use serde::{Deserialize, Serialize};

/// The memory bound the CLI applies when `--max-memory` is not given: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;
/// Simulated business requests × strategies per second on one core (classic model),
/// the rate behind the time estimate: the 100× table's (a storm, every request retried;
/// a quiet hour runs several times faster, its requests counted in groups).
pub const CLASSIC_REQUESTS_PER_S: f64 = 500e6;
/// Events per second on one core (cluster model), the rate behind the time estimate:
/// between the idle machine's 11 M and the 3 M measured with every core shared.
pub const CLUSTER_EVENTS_PER_S: f64 = 5e6;
/// Seconds each run of an ensemble or sweep adds for its acceptance checks and for
/// reading its figures (the article's 1,000 seeds: 0.5 s on one core, most of it this).
pub const SECONDS_PER_SAMPLE: f64 = 400e-6;
/// Most events of the prefix run that measures a cluster scenario's event rate.
pub const PREFIX_EVENTS: u64 = 100_000;
/// Longest simulated time of that prefix, ms.
pub const PREFIX_MS: u64 = 10_000;
/// Most points of a cluster sweep whose runs' shapes are measured (each by a prefix
/// run, see [`PREFIX_EVENTS`]); the others take the shape of the nearest one measured.
pub const SHAPED_POINTS: usize = 4;
/// Estimated seconds beyond which the page says how long a job will take and asks
/// before starting it.
pub const ASK_ABOVE_S: f64 = 10.0;

/// The output a job writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The text report.
    #[default]
    Text,
    /// One JSON document (`--json`).
    Json,
    /// CSV (`--csv`).
    Csv,
    /// JSON Lines (`--jsonl`, and a shard's file).
    Jsonl,
}

/// What the engine's work is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Classic model: simulated business requests × strategies.
    Requests,
    /// Cluster model: events processed.
    Events,
}

impl Unit {
    /// Its name in the estimate's text.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Requests => "simulated requests × strategies",
            Unit::Events => "events",
        }
    }
}

/// A job's cost, estimated before it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Single runs (seeds × points).
    pub runs: u64,
    /// The engine's work in `unit`s.
    pub work: u64,
    /// What `work` counts.
    pub unit: Unit,
    /// The most work the job can do: `work` for the classic model, `max_events` × runs
    /// for the cluster model (a run that needs more stops with an error).
    pub work_bound: u64,
    /// Peak heap, bytes.
    pub peak_bytes: u64,
    /// Size of the output, bytes.
    pub output_bytes: u64,
    /// Rough wall time on `threads` threads, seconds.
    pub seconds: f64,
    /// Threads the time assumes.
    pub threads: u64,
}

impl Estimate {
    /// True when the job is long enough ([`ASK_ABOVE_S`]) to ask before it starts.
    pub fn asks(&self) -> bool {
        self.seconds > ASK_ABOVE_S
    }

    /// The estimate in words, one figure a line (what `--estimate` prints).
    pub fn text(&self) -> String {
        let rate = match self.unit {
            Unit::Requests => format!("{} requests/s", count(CLASSIC_REQUESTS_PER_S as u64)),
            Unit::Events => format!("{} events/s", count(CLUSTER_EVENTS_PER_S as u64)),
        };
        let bound = if self.work_bound > self.work {
            format!(" (at most {})", count(self.work_bound))
        } else {
            String::new()
        };
        format!(
            "runs: {}\nwork: {} {}{bound}\npeak memory: {}\noutput: {}\ntime: about {} on {} thread{} (at {rate} a core)\n",
            count(self.runs),
            count(self.work),
            self.unit.name(),
            format_bytes(self.peak_bytes),
            format_bytes(self.output_bytes),
            format_seconds(self.seconds),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
        )
    }
}

/// The threads a job uses: `threads`, or every core (one on wasm32, where the page
/// spreads work over its workers instead).
fn threads_of(threads: Option<usize>) -> u64 {
    threads
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
        .max(1) as u64
}

/// One run of `scenario` (its own seed), writing `format`.
pub fn run(scenario: &AnyScenario, format: Format) -> Estimate {
    let shape = memory::RunShape::of(scenario);
    let (out_held, output_bytes) = output::run(scenario, format);
    let writing = shape.result_bytes + out_held;
    Estimate {
        runs: 1,
        work: shape.work_first,
        unit: shape.unit,
        work_bound: shape.bound.max(shape.work_first),
        peak_bytes: shape.run_bytes.max(writing),
        output_bytes,
        seconds: shape.work_first as f64 / shape.rate(),
        threads: 1,
    }
}

/// An ensemble of `seeds` seeds of `scenario` on `threads` threads, writing `format`.
pub fn ensemble(
    scenario: &AnyScenario,
    seeds: usize,
    threads: Option<usize>,
    format: Format,
) -> Estimate {
    let shape = memory::RunShape::of(scenario);
    let threads = threads_of(threads);
    let n = seeds as u64;
    let batches = n.div_ceil(crate::ensemble::batch_len(seeds) as u64);
    let work = shape.work_seeded * n + shape.work_fixed * batches;
    let sample = memory::sample_bytes(scenario, true);
    let summary = memory::ensemble_bytes(scenario, seeds, true);
    let busy = threads.min(batches.max(1));
    let running = busy * shape.thread_bytes(crate::ensemble::batch_len(seeds)) + n * sample;
    let summarising = n * sample + summary + 2 * 8 * n;
    let (out_held, output_bytes) = output::ensemble(scenario, seeds, format);
    let writing = summary + out_held;
    let peak_bytes = if format == Format::Csv {
        // Streamed (`ensemble --csv`, [`crate::ensemble::stream_watched`]): only the
        // batches under way and one finished ahead of an earlier one are held, each
        // seed's rows written (through an 8 KiB buffer) and dropped.
        let batch = crate::ensemble::batch_len(seeds) as u64;
        busy * shape.thread_bytes(batch as usize)
            + (busy + 1) * batch * sample
            + out_held / n.max(1)
            + 8192
    } else {
        running.max(summarising).max(writing)
    };
    Estimate {
        runs: n,
        work,
        unit: shape.unit,
        work_bound: (shape.bound * n).max(work),
        peak_bytes,
        output_bytes,
        seconds: (work as f64 / shape.rate() + n as f64 * SECONDS_PER_SAMPLE) / busy as f64,
        threads,
    }
}

/// A planned sweep on `threads` threads, writing `format`.
pub fn sweep(plan: &Plan, threads: Option<usize>, format: Format) -> Estimate {
    let c = Items::of(plan, 0, 1, threads);
    let summary = memory::sweep_result_bytes(plan);
    let (out_held, output_bytes) = output::sweep(plan, format);
    let running = c.plan + c.threads_bytes + c.samples;
    let summarising = c.plan + c.samples + summary;
    let writing = c.plan + summary + out_held;
    c.estimate(running.max(summarising).max(writing), output_bytes)
}

/// Shard `k` of `n` of a planned sweep on `threads` threads (JSON Lines of its samples).
pub fn shard(plan: &Plan, k: usize, n: usize, threads: Option<usize>) -> Estimate {
    let c = Items::of(plan, k, n, threads);
    let (out_held, output_bytes) = output::shard(plan, c.runs);
    // The lines are written once every sample of the shard is in.
    let running = c.plan + c.threads_bytes + c.samples;
    let writing = c.plan + c.samples + out_held;
    c.estimate(running.max(writing), output_bytes)
}

/// The runs of shard `k` of `n` of a plan: their work and what they hold.
struct Items {
    runs: u64,
    work: u64,
    bound: u64,
    unit: Unit,
    rate: f64,
    threads: u64,
    busy: u64,
    /// The plan's own heap (every point's scenario).
    plan: u64,
    /// One run per busy thread.
    threads_bytes: u64,
    /// Every sample of the shard, as gathered.
    samples: u64,
}

impl Items {
    fn of(plan: &Plan, k: usize, n: usize, threads: Option<usize>) -> Items {
        let threads = threads_of(threads);
        let n = n.max(1);
        let all = plan.items();
        let runs = (all / n + usize::from(k < all % n)) as u64;
        let curves = plan.sweep.params.is_empty();
        let batch = crate::ensemble::batch_len(runs as usize);
        let batches = runs.div_ceil(batch as u64).max(1);
        let share = runs as f64 / all.max(1) as f64 * plan.seeds.len() as f64;
        let (mut work, mut bound, mut thread, mut sample) = (0u64, 0u64, 0u64, 0u64);
        let (mut rate, mut unit) = (CLUSTER_EVENTS_PER_S, Unit::Events);
        // A cluster point's shape runs a prefix of it (tens of milliseconds in the page,
        // on its main thread): at most SHAPED_POINTS points spread over the grid are
        // shaped, each standing for the points nearest it. A classic shape is counted
        // exactly and cheaply, so every classic point has its own.
        let np = plan.points.len();
        let shaped = |i: usize| match &plan.points[i].1 {
            AnyScenario::Cluster(_) if np > SHAPED_POINTS => {
                let step = (np - 1) as f64 / (SHAPED_POINTS - 1) as f64;
                ((i as f64 / step).round() * step).round() as usize
            }
            _ => i,
        };
        let mut shapes: Vec<(usize, memory::RunShape, u64)> = Vec::new();
        for i in 0..np {
            let at = shaped(i);
            if shapes.last().is_none_or(|s| s.0 != at) {
                let sc = &plan.points[at].1;
                shapes.push((
                    at,
                    memory::RunShape::of(sc),
                    memory::sample_bytes(sc, curves),
                ));
            }
            let (_, shape, sample_b) = shapes.last().expect("shaped above");
            // A strategy without jitter runs once per batch; a sweep runs seed by seed,
            // so one the swept field leaves unchanged runs about once per batch too.
            work += (shape.work_seeded as f64 * share) as u64;
            if i == 0 {
                work += shape.work_fixed * batches;
            }
            bound += (shape.bound as f64 * share) as u64;
            thread = thread.max(shape.thread_bytes(batch));
            sample = sample.max(*sample_b);
            (rate, unit) = (shape.rate(), shape.unit);
        }
        let busy = threads.min(batches);
        Items {
            runs,
            work,
            bound: bound.max(work),
            unit,
            rate,
            threads,
            busy,
            plan: memory::plan_bytes(plan),
            threads_bytes: busy * thread,
            // The samples, and the (item, sample) pairs they are sorted in.
            samples: runs * (sample + memory::ITEM_BYTES),
        }
    }

    fn estimate(&self, peak_bytes: u64, output_bytes: u64) -> Estimate {
        Estimate {
            runs: self.runs,
            work: self.work,
            unit: self.unit,
            work_bound: self.bound,
            peak_bytes,
            output_bytes,
            seconds: (self.work as f64 / self.rate + self.runs as f64 * SECONDS_PER_SAMPLE)
                / self.busy as f64,
            threads: self.threads,
        }
    }
}

/// A count with thousands separated by commas.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in binary units: `812 B`, `3.4 MiB`, `1.0 GiB`.
pub fn format_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Seconds as `0.02 s`, `3.1 s`, `4 min 10 s`.
pub fn format_seconds(s: f64) -> String {
    if s < 0.1 {
        format!("{s:.2} s")
    } else if s < 60.0 {
        format!("{s:.1} s")
    } else {
        let m = (s / 60.0).floor();
        format!("{m} min {:.0} s", s - 60.0 * m)
    }
}

/// A size as `--max-memory` takes it: bytes, or a number with `KB`, `MB`, `GB`, `TB`
/// (powers of 1000) or `KiB`, `MiB`, `GiB`, `TiB` (powers of 1024); `None` when it is
/// not one or is zero.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num.parse().ok()?;
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" | "k" => 1e3,
        "mb" | "m" => 1e6,
        "gb" | "g" => 1e9,
        "tb" | "t" => 1e12,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    let bytes = value * scale;
    (1.0..1.8e19).contains(&bytes).then_some(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_decimal_and_binary_units() {
        assert_eq!(parse_size("4GB"), Some(4_000_000_000));
        assert_eq!(parse_size("1GiB"), Some(1 << 30));
        assert_eq!(parse_size("1.5 MB"), Some(1_500_000));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("2kib"), Some(2048));
        for bad in ["", "0", "GB", "4 GB B", "-1MB", "1e3", "nan"] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn figures_read_as_people_write_them() {
        assert_eq!(format_bytes(1000), "1000 B");
        assert_eq!(format_bytes(DEFAULT_MAX_MEMORY), "1.0 GiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 + 512 * 1024), "3.5 MiB");
        assert_eq!(count(36_092_160_000), "36,092,160,000");
        assert_eq!(format_seconds(0.012), "0.01 s");
        assert_eq!(format_seconds(250.0), "4 min 10 s");
    }
}
