//! The classic engine: one shared retry budget, one shared breaker, one-second buckets,
//! business requests run one after another (the rules are in `docs/model.md`, restated
//! here step by step because the order of the checks decides every printed number).

use super::scenario::{Jitter, Scenario, Strategy, MAX_RETRY};
use crate::cost::{Bill, CostResult};
use crate::rng::{JavaRandom, UnitDouble};
use crate::validate::ValidationError;
use serde::{Deserialize, Serialize};

/// What one strategy did over one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyResult {
    /// The strategy's name.
    pub name: String,
    /// Attempts that reached the upstream (counted in `per_sec`).
    pub attempts: u64,
    /// Business requests that got a result.
    pub delivered: u64,
    /// Business requests that did not (retries exhausted, deadline, budget, breaker).
    pub failed: u64,
    /// `attempts / business requests`.
    pub amplification: f64,
    /// `100 × delivered / business requests`.
    pub delivery_pct: f64,
    /// Most attempts charged to one second.
    pub peak: u32,
    /// Seconds with more attempts than capacity.
    pub overload_seconds: u32,
    /// Median delivered latency (wait + upstream latency), ms.
    pub p50_ms: u64,
    /// 99th percentile delivered latency, ms.
    pub p99_ms: u64,
    /// Times the breaker opened.
    pub breaker_trips: u32,
    /// Seconds at which it opened.
    pub trip_at: Vec<u32>,
    /// Requests the open breaker rejected in a second that was neither in the outage nor full.
    pub breaker_harmful: u64,
    /// Attempts charged to each second.
    pub per_sec: Vec<u32>,
    /// Attempts in the 3 seconds starting at the end of the outage (the article's recovery window).
    pub recovery_window_total: u64,
    /// The answered view of delivery: `100 × delivered` over the business requests the
    /// client did not give up on by itself (all but `ended_budget` and `ended_breaker`);
    /// 0 when it gave up on every one.
    #[serde(default)]
    pub answered_pct: f64,
    /// Business requests whose last attempt failed at the upstream (outage or overload)
    /// with no retry left.
    #[serde(default)]
    pub ended_upstream: u64,
    /// Business requests cut by the deadline.
    #[serde(default)]
    pub ended_deadline: u64,
    /// Business requests whose retry the empty budget abandoned.
    #[serde(default)]
    pub ended_budget: u64,
    /// Business requests the open breaker refused.
    #[serde(default)]
    pub ended_breaker: u64,
    /// What the attempts cost, when the strategy has a cost model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CostResult>,
}

/// The CLI's `--json` document and the wasm `run` result: the scenario run and its results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// The scenario as run, with `seed` set to the seed actually used.
    pub scenario: Scenario,
    /// One result per strategy, in the scenario's order.
    pub results: Vec<StrategyResult>,
}

/// Seconds summed by the recovery-window total.
pub const RECOVERY_WINDOW_S: u32 = 3;

/// Runs every strategy of `scenario` with `seed` (each strategy starts a fresh PRNG).
pub fn run(scenario: &Scenario, seed: i64) -> Result<Vec<StrategyResult>, ValidationError> {
    run_with(scenario, seed, &mut Runs::new())
}

/// [`run`] through `runs`, which answers a strategy it already ran with the same inputs.
pub fn run_with(
    scenario: &Scenario,
    seed: i64,
    runs: &mut Runs,
) -> Result<Vec<StrategyResult>, ValidationError> {
    scenario.validate()?;
    Ok(scenario
        .strategies
        .iter()
        .map(|st| runs.run(scenario, st, seed))
        .collect())
}

/// Runs `scenario` with `seed` and returns the CLI/wasm document.
pub fn simulate(scenario: &Scenario, seed: i64) -> Result<Output, ValidationError> {
    simulate_with(scenario, seed, &mut Runs::new())
}

/// [`simulate`] through `runs` (see [`run_with`]).
pub fn simulate_with(
    scenario: &Scenario,
    seed: i64,
    runs: &mut Runs,
) -> Result<Output, ValidationError> {
    let results = run_with(scenario, seed, runs)?;
    let mut scenario = scenario.clone();
    scenario.seed = seed;
    Ok(Output { scenario, results })
}

/// Runs one strategy of a validated scenario on any uniform-double source.
///
/// Callers must have validated `scenario` and `strategy`: the bounds are what make the
/// arithmetic below overflow-free.
pub fn run_strategy<R: UnitDouble>(
    scenario: &Scenario,
    strategy: &Strategy,
    rng: &mut R,
) -> StrategyResult {
    run_strategy_with(scenario, strategy, rng, &mut Scratch::default())
}

/// Strategy runs kept by their inputs, so a run whose inputs equal an earlier one's is
/// not simulated again: a sweep point's strategies that the swept field leaves as they
/// were at the point before, or the acceptance check's budget-forced S3 and S4 when
/// S3 already has budget 100 and S4 differs from it only in its budget and name.
///
/// A strategy's result is a pure function of the scenario's shared fields (all but
/// `seed` and `strategies`), the strategy but its name (only copied into the result)
/// and the seed, so a kept result, renamed, is exactly what running again would give.
/// A strategy without jitter draws no random number (the PRNG
/// is read only for a jittered backoff), so its result does not depend on the seed
/// either: an ensemble runs S1 and S2 of the article once, not once per seed. At most
/// [`Runs::KEEP`] results are kept, the least recently used dropped first, so a sweep
/// whose every point differs holds a few results, not all.
#[derive(Default)]
pub struct Runs {
    /// (shared fields, strategy, seed if it matters) and its result, least recently
    /// used first.
    kept: Vec<(Shared, Strategy, Option<i64>, StrategyResult)>,
    scratch: Scratch,
}

impl Runs {
    /// Results kept at most: room for every strategy of a scenario twice over (a sweep
    /// point's and the budget-forced ones), so a strategy a sweep does not change is
    /// still kept when the next point asks for it.
    pub const KEEP: usize = 2 * super::scenario::MAX_STRATEGIES + 2;

    /// No results kept yet.
    pub fn new() -> Runs {
        Runs::default()
    }

    /// `strategy` of the validated `scenario` run with `seed` (a fresh PRNG), or the kept
    /// result of a run with the same inputs.
    pub fn run(&mut self, scenario: &Scenario, strategy: &Strategy, seed: i64) -> StrategyResult {
        let shared = Shared::of(scenario);
        let key = (strategy.jitter == Jitter::Full).then_some(seed);
        let found = self
            .kept
            .iter()
            .position(|(sh, st, s, _)| *s == key && same_run(st, strategy) && *sh == shared);
        let entry = match found {
            Some(i) => self.kept.remove(i),
            None => {
                let result = run_strategy_with(
                    scenario,
                    strategy,
                    &mut JavaRandom::new(seed),
                    &mut self.scratch,
                );
                if self.kept.len() == Self::KEEP {
                    self.kept.remove(0);
                }
                (shared, strategy.clone(), key, result)
            }
        };
        let result = StrategyResult {
            name: strategy.name.clone(),
            ..entry.3.clone()
        };
        self.kept.push(entry);
        result
    }
}

/// True when two strategies run alike: equal in every field but the name, which the
/// engine only copies into the result.
fn same_run(a: &Strategy, b: &Strategy) -> bool {
    // Every field named, so a field added to `Strategy` does not compile here until it
    // is compared (or said not to change a run, as the name is).
    let Strategy {
        name: _,
        max_retry,
        base_ms,
        jitter,
        budget_pct,
        deadline_ms,
        breaker,
        breaker_trip_failures,
        breaker_open_s,
        cost,
    } = a;
    (max_retry, base_ms, jitter, budget_pct, deadline_ms)
        == (
            &b.max_retry,
            &b.base_ms,
            &b.jitter,
            &b.budget_pct,
            &b.deadline_ms,
        )
        && (breaker, breaker_trip_failures, breaker_open_s, cost)
            == (
                &b.breaker,
                &b.breaker_trip_failures,
                &b.breaker_open_s,
                &b.cost,
            )
}

/// The fields of a scenario that a strategy's run reads besides the strategy and the
/// seed. Built by destructuring every field, so a field added to [`Scenario`] does not
/// compile here until it is either compared or said to be irrelevant.
#[derive(Clone, PartialEq)]
struct Shared {
    clients: u32,
    duration_s: u32,
    capacity: u32,
    outage: super::scenario::Outage,
    upstream_latency_ms: u32,
    breaker_trip_failures: u32,
    breaker_open_s: u32,
    attribution: super::scenario::Attribution,
}

impl Shared {
    fn of(sc: &Scenario) -> Shared {
        let Scenario {
            clients,
            duration_s,
            capacity,
            outage,
            upstream_latency_ms,
            breaker_trip_failures,
            breaker_open_s,
            // The seed is compared on its own: each run is given one.
            seed: _,
            // The strategy run is compared on its own; the others do not touch it.
            strategies: _,
            attribution,
        } = sc;
        Shared {
            clients: *clients,
            duration_s: *duration_s,
            capacity: *capacity,
            outage: *outage,
            upstream_latency_ms: *upstream_latency_ms,
            breaker_trip_failures: *breaker_trip_failures,
            breaker_open_s: *breaker_open_s,
            attribution: *attribution,
        }
    }
}

/// Buffers reused across strategies so a run allocates once, not per request.
#[derive(Default)]
struct Scratch {
    seconds: Vec<[u32; 2]>,
    latency_hist: Vec<u32>,
    /// Per second: (delivered, cut by the deadline), kept only when cost is tracked.
    ends: Vec<[u32; 2]>,
}

fn run_strategy_with<R: UnitDouble>(
    sc: &Scenario,
    st: &Strategy,
    rng: &mut R,
    scratch: &mut Scratch,
) -> StrategyResult {
    let dur = sc.duration_s as usize;
    let capacity = sc.capacity;
    let (out_from, out_to) = (sc.outage.from_s, sc.outage.to_s);
    let in_outage = |sec: u32| sec >= out_from && sec < out_to;
    let latency = sc.upstream_latency_ms as u64;

    // A delivered request waited at most min(deadline, sum of all backoffs), so the
    // latency histogram is dense over that range: percentiles by counting, no sort.
    let max_wait = (0..st.max_retry).fold(0u64, |acc, k| acc.saturating_add(st.base_ms << k));
    let hist_len = (st.deadline_ms.min(max_wait) + latency + 1) as usize;

    // Each second holds (attempts so far, most attempts it can serve): the limit is 0
    // in the outage and `capacity` elsewhere, so "served" is one comparison and the
    // hot loop touches one array.
    let seconds = &mut scratch.seconds;
    seconds.clear();
    seconds.extend((0..sc.duration_s).map(|sec| [0u32, if in_outage(sec) { 0 } else { capacity }]));
    let hist = &mut scratch.latency_hist;
    hist.clear();
    hist.resize(hist_len, 0);
    let ends = &mut scratch.ends;
    ends.clear();
    if st.cost.is_some() {
        ends.resize(dur, [0, 0]);
    }
    let (seconds, hist, ends) = (
        seconds.as_mut_slice(),
        hist.as_mut_slice(),
        ends.as_mut_slice(),
    );

    let mut chains = Chains {
        clients: sc.clients,
        duration_s: sc.duration_s,
        latency,
        trip_threshold: st.breaker_trip_failures.unwrap_or(sc.breaker_trip_failures) as u64,
        open_s: st.breaker_open_s.unwrap_or(sc.breaker_open_s) as i64,
        max_retry: st.max_retry,
        deadline_ms: st.deadline_ms,
        backoff: Backoff::new(st.base_ms),
        budget_max: sc.capacity as i64 * st.budget_pct as i64 / 100,
        round_up_ms: sc.attribution.round_up_ms(),
        seconds,
        hist,
        ends,
        counts: Counts::default(),
        trip_at: Vec::new(),
    };
    // One compiled loop per feature combination, so the hot path carries no test for a
    // feature the strategy does not use.
    let cost = st.cost.is_some();
    match (st.jitter == Jitter::Full, st.budget_pct < 100, st.breaker) {
        (false, false, false) => chains.run_with::<false, false, false, R>(rng, cost),
        (false, false, true) => chains.run_with::<false, false, true, R>(rng, cost),
        (false, true, false) => chains.run_with::<false, true, false, R>(rng, cost),
        (false, true, true) => chains.run_with::<false, true, true, R>(rng, cost),
        (true, false, false) => chains.run_with::<true, false, false, R>(rng, cost),
        (true, false, true) => chains.run_with::<true, false, true, R>(rng, cost),
        (true, true, false) => chains.run_with::<true, true, false, R>(rng, cost),
        (true, true, true) => chains.run_with::<true, true, true, R>(rng, cost),
    }
    let Chains {
        seconds,
        hist,
        ends,
        counts,
        trip_at,
        ..
    } = chains;
    let per_sec: Vec<u32> = seconds.iter().map(|s| s[0]).collect();
    let business_n = sc.business_requests();
    // The loop counts only the rare endings: every attempt is charged to one second and
    // every delivered request to one latency, and each business request ends exactly
    // once (delivered, or one of the four failures), so the three common counts follow
    // from the arrays. Three fewer registers in the hot loop: the browser's compiler
    // kept spilling them.
    let attempts: u64 = per_sec.iter().map(|&v| v as u64).sum();
    let delivered: u64 = hist.iter().map(|&v| v as u64).sum();
    let counts = Counts {
        attempts,
        delivered,
        ended_upstream: business_n
            - delivered
            - counts.ended_deadline
            - counts.ended_budget
            - counts.ended_breaker,
        ..counts
    };
    let business = business_n as f64;
    // Every attempt charged to a second ended there as delivered, cut by the deadline,
    // or failed at the upstream: a server error in the outage, an overload elsewhere.
    let cost = st.cost.as_ref().map(|c| {
        let bills: Vec<Bill> = (0..sc.duration_s)
            .zip(ends.iter())
            .map(|(sec, &[ok, cut])| {
                let upstream = (per_sec[sec as usize] - ok - cut) as u64;
                let (error, overload) = if in_outage(sec) {
                    (upstream, 0)
                } else {
                    (0, upstream)
                };
                c.bill(ok as u64, [error, overload, cut as u64])
            })
            .collect();
        CostResult::new(c, &bills, business_n, delivered)
    });
    let answerable = business_n - counts.ended_budget - counts.ended_breaker;
    let recovery_end = (out_to as usize + RECOVERY_WINDOW_S as usize).min(dur);
    let recovery_window_total = per_sec[(out_to as usize).min(dur)..recovery_end]
        .iter()
        .map(|&v| v as u64)
        .sum();
    StrategyResult {
        name: st.name.clone(),
        attempts,
        delivered,
        failed: counts.ended_upstream
            + counts.ended_deadline
            + counts.ended_budget
            + counts.ended_breaker,
        amplification: attempts as f64 / business,
        delivery_pct: 100.0 * delivered as f64 / business,
        peak: per_sec.iter().copied().max().unwrap_or(0),
        overload_seconds: per_sec.iter().filter(|&&v| v > capacity).count() as u32,
        p50_ms: percentile(hist, delivered, 50.0),
        p99_ms: percentile(hist, delivered, 99.0),
        breaker_trips: counts.trips,
        trip_at,
        breaker_harmful: counts.harmful,
        per_sec,
        recovery_window_total,
        answered_pct: if answerable == 0 {
            0.0
        } else {
            100.0 * delivered as f64 / answerable as f64
        },
        ended_upstream: counts.ended_upstream,
        ended_deadline: counts.ended_deadline,
        ended_budget: counts.ended_budget,
        ended_breaker: counts.ended_breaker,
        cost,
    }
}

/// What one strategy's chains counted.
#[derive(Clone, Copy, Default)]
struct Counts {
    attempts: u64,
    delivered: u64,
    /// Failed business requests by how they ended (they sum to `failed`).
    ended_upstream: u64,
    ended_deadline: u64,
    ended_budget: u64,
    ended_breaker: u64,
    trips: u32,
    harmful: u64,
}

/// One strategy's run: its settings, the per-second and latency arrays it fills, and
/// its counts.
struct Chains<'a> {
    clients: u32,
    duration_s: u32,
    latency: u64,
    trip_threshold: u64,
    open_s: i64,
    max_retry: u32,
    deadline_ms: u64,
    backoff: Backoff,
    budget_max: i64,
    /// Added to the wait before dividing by 1000: the attribution convention.
    round_up_ms: u64,
    seconds: &'a mut [[u32; 2]],
    hist: &'a mut [u32],
    /// Per second (delivered, cut by the deadline); empty unless cost is tracked.
    ends: &'a mut [[u32; 2]],
    counts: Counts,
    /// The seconds in which the breaker tripped.
    trip_at: Vec<u32>,
}

impl Chains<'_> {
    /// [`Chains::run`] with cost tracking compiled in only when `cost` is set.
    fn run_with<const JITTER: bool, const BUDGET: bool, const BREAKER: bool, R: UnitDouble>(
        &mut self,
        rng: &mut R,
        cost: bool,
    ) {
        if cost {
            self.run::<JITTER, BUDGET, BREAKER, true, R>(rng)
        } else {
            self.run::<JITTER, BUDGET, BREAKER, false, R>(rng)
        }
    }

    /// Runs every business request's retry chain, in order. `JITTER`, `BUDGET` and
    /// `BREAKER` say which of those features the strategy uses; `COST` whether each
    /// second's deliveries and deadline cuts are kept for the bill.
    fn run<
        const JITTER: bool,
        const BUDGET: bool,
        const BREAKER: bool,
        const COST: bool,
        R: UnitDouble,
    >(
        &mut self,
        rng: &mut R,
    ) {
        let mut live = Live {
            tokens: self.budget_max,
            open_until: -1,
            consec_fail: 0,
            counts: Counts::default(),
        };
        // One call per arrival second, not one loop over the whole run: wasm engines have
        // no on-stack replacement, so a function's optimised code serves its next call
        // only; a single call per strategy could run a large table in the browser's
        // baseline-compiled code (about 2.5 times slower in node).
        for arr in 0..self.duration_s {
            // Passed in rather than computed in `second`, where the size-optimised wasm
            // build recomputed it on every retry (seen in V8's code for that loop).
            let landing = self.landing(arr);
            live = self.second::<JITTER, BUDGET, BREAKER, COST, R>(rng, arr, landing, live);
        }
        self.counts = live.counts;
    }

    /// The retry chains of the business requests arriving in second `arr`, from the
    /// state `live` the earlier seconds left; answers the state after them.
    ///
    /// The classic engine's hot loop, one function of about 180 lines on purpose: the
    /// run's state is unpacked into locals so the compiled loop keeps it in registers,
    /// and the chain walk split into calls would pass it through memory on every attempt
    /// (the timings are in `docs/performance.md`).
    #[inline(never)]
    fn second<
        const JITTER: bool,
        const BUDGET: bool,
        const BREAKER: bool,
        const COST: bool,
        R: UnitDouble,
    >(
        &mut self,
        rng: &mut R,
        arr: u32,
        landing: Landing,
        live: Live,
    ) -> Live {
        if !JITTER && !BUDGET && !BREAKER {
            // Without jitter, budget or breaker every request of this second walks the
            // same attempts, and only the seconds' loads tell them apart.
            let mut live = live;
            live.counts.ended_deadline += self.alike::<COST>(arr, landing, self.clients);
            return live;
        }
        let (latency, deadline_ms, max_retry) = (self.latency, self.deadline_ms, self.max_retry);
        let backoff = &self.backoff;
        let (seconds, hist, ends) = (&mut *self.seconds, &mut *self.hist, &mut *self.ends);
        let budget_max = self.budget_max;
        // The state in locals, so the loop keeps it in registers.
        let Live {
            mut tokens,
            mut open_until,
            mut consec_fail,
            counts:
                Counts {
                    attempts,
                    delivered,
                    ended_upstream,
                    mut ended_deadline,
                    mut ended_budget,
                    mut ended_breaker,
                    mut trips,
                    mut harmful,
                },
        } = live;
        let mut left = self.clients;
        while left > 0 {
            // Three ways a run of requests ends alike, each taken in one step with the
            // same loads, counts and PRNG sequence as running them one by one.
            let [load, limit] = seconds[arr as usize];
            // 1. An empty budget and a full `arr`: each remaining request's first attempt
            // is charged to `arr` and fails there, its backoff is drawn, and the empty
            // budget abandons the retry (the budget refills only after the second).
            // Without a breaker, whose streak those failures would move, nothing else
            // changes.
            if BUDGET && !BREAKER && tokens <= 0 && load >= limit {
                seconds[arr as usize][0] += left;
                if JITTER {
                    rng.skip(left as u64);
                }
                ended_budget += left as u64;
                break;
            }
            // 2. An open breaker at `arr` refuses every remaining request of this second
            // at its first attempt, and a refusal changes nothing another request reads
            // (no attempt is charged, the streak and the breaker stay as they are).
            if BREAKER && (arr as i64) < open_until {
                if load < limit {
                    harmful += left as u64;
                }
                ended_breaker += left as u64;
                break;
            }
            // 3. Requests whose first attempt succeeds: while `arr` has room (and its
            // breaker is closed, see 2), the next request's first attempt is charged to
            // `arr` and served there (no budget is spent on a first attempt, and a wait
            // of 0 is within any deadline), it draws no random number, and it changes
            // nothing the request after it reads but the load of `arr`. So the next
            // `room` requests all end that way. Once `arr` is full (or in the outage,
            // where it has no room) requests run one by one below (and an empty budget
            // takes the rest at the next turn, see 1).
            if load < limit {
                let served = left.min(limit - load);
                seconds[arr as usize][0] += served;
                hist[latency as usize] += served;
                if COST {
                    ends[arr as usize][0] += served;
                }
                if BREAKER {
                    consec_fail = 0;
                }
                left -= served;
                if left == 0 {
                    break;
                }
            }
            left -= 1;
            // One business request runs its whole retry chain before the next starts.
            let mut attempt = 0u32;
            let mut wait_ms = 0u64;
            let mut sec = arr;
            loop {
                // 1. An open breaker fails fast without touching the upstream.
                if BREAKER && (sec as i64) < open_until {
                    // Harmful: neither in the outage nor full, so it could have been served.
                    let [load, limit] = seconds[sec as usize];
                    if load < limit {
                        harmful += 1;
                    }
                    ended_breaker += 1;
                    break;
                }
                // 2. Only retries spend budget; an empty bucket gives up rather than queue.
                if BUDGET && attempt > 0 {
                    if tokens <= 0 {
                        ended_budget += 1;
                        break;
                    }
                    tokens -= 1;
                }
                // 3. max_retry 3 means four attempts.
                // The previous attempt failed at the upstream and was the last allowed.
                if attempt > max_retry {
                    break;
                }
                // 4. The attempt is charged to its second before anything can fail it
                //    (`sec` is already clamped to the last second where it is computed).
                let second = &mut seconds[sec as usize];
                second[0] += 1;
                let [load, limit] = *second;
                // 5. The deadline is checked after the attempt was counted, as the article does.
                if wait_ms > deadline_ms {
                    ended_deadline += 1;
                    if COST {
                        ends[sec as usize][1] += 1;
                    }
                    break;
                }
                // 6. Success: outside the outage and within capacity, this attempt included.
                if load <= limit {
                    if COST {
                        ends[sec as usize][0] += 1;
                    }
                    hist[(wait_ms + latency) as usize] += 1;
                    // Only the breaker reads the streak: without one it stays 0.
                    if BREAKER {
                        consec_fail = 0;
                    }
                    break;
                }
                // 7. Failures are consecutive across all clients: one shared breaker.
                if BREAKER {
                    consec_fail += 1;
                }
                if BREAKER && consec_fail > self.trip_threshold && sec as i64 >= open_until {
                    trips += 1;
                    self.trip_at.push(sec);
                    open_until = sec as i64 + self.open_s;
                }
                // 8. Backoff; the PRNG is drawn only for full jitter.
                let delay = backoff.delay::<JITTER, _>(rng, attempt);
                wait_ms += delay;
                attempt += 1;
                sec = landing.second(wait_ms);
            }
        }
        // The budget refills once per second, after all of that second's clients.
        if BUDGET {
            tokens = budget_max.min(tokens + budget_max);
        }
        let counts = Counts {
            attempts,
            delivered,
            ended_upstream,
            ended_deadline,
            ended_budget,
            ended_breaker,
            trips,
            harmful,
        };
        Live {
            tokens,
            open_until,
            consec_fail,
            counts,
        }
    }
}

impl Chains<'_> {
    /// The `n` requests arriving in second `arr` of a strategy without jitter, budget or
    /// breaker, all at once; answers how many the deadline cut (the other endings follow
    /// from the arrays, see `run_strategy_with`).
    ///
    /// Such a request's attempts, their waits and their seconds are the same for every
    /// request of `arr` (no random number, no shared state but the loads), and a
    /// second's load only grows, so a second that failed one request fails every later
    /// one. Run one by one, the first `room` requests to reach attempt `k` are served at
    /// its second and the rest move on, each having charged one attempt there: so step
    /// `k` charges everyone still going, serves `min(going, room)`, and passes the rest
    /// to step `k + 1`. When two steps share a second, the later finds it full (someone
    /// failed there) or nobody left. The literal-transcription proptest (invariants.rs)
    /// checks this against the request-by-request loop.
    fn alike<const COST: bool>(&mut self, arr: u32, landing: Landing, n: u32) -> u64 {
        let mut going = n;
        let mut wait_ms = 0u64;
        let mut sec = arr;
        for attempt in 0..=self.max_retry {
            // The order of one request's checks: charged, then the deadline, then served.
            let second = &mut self.seconds[sec as usize];
            let room = second[1].saturating_sub(second[0]);
            second[0] += going;
            if wait_ms > self.deadline_ms {
                if COST {
                    self.ends[sec as usize][1] += going;
                }
                return going as u64;
            }
            let served = going.min(room);
            if served > 0 {
                self.hist[(wait_ms + self.latency) as usize] += served;
                if COST {
                    self.ends[sec as usize][0] += served;
                }
                going -= served;
                if going == 0 {
                    return 0;
                }
            }
            wait_ms += self.backoff.base_ms << attempt;
            sec = landing.second(wait_ms);
        }
        // The rest failed their last attempt at the upstream.
        0
    }

    /// Where the waits of the requests arriving in second `arr` land.
    fn landing(&self, arr: u32) -> Landing {
        // arr × 1000 + 999 + duration_s × 1000 ≤ 2 × 3.6 M: the sum in `second` fits a u32.
        Landing {
            start_ms: arr * 1000 + self.round_up_ms as u32,
            horizon_ms: self.duration_s as u64 * 1000,
            last: self.duration_s - 1,
        }
    }
}

/// The second a retry of a request arriving in a given second is charged to.
#[derive(Clone, Copy)]
struct Landing {
    /// The arrival second in milliseconds plus the attribution's rounding (ceil adds
    /// 999, floor 0, round 500).
    start_ms: u32,
    /// The run's length in milliseconds.
    horizon_ms: u64,
    /// The last second, where every later wait lands.
    last: u32,
}

impl Landing {
    /// The second of a retry after `wait_ms` (≤ 2^50 by the bounds): the wait in whole
    /// seconds by the attribution convention, clamped to the last second.
    #[inline(always)]
    fn second(self, wait_ms: u64) -> u32 {
        // A wait of `duration_s` seconds or more lands on the last second from any
        // arrival, so it is clamped to that first and the sum fits a u32: a 32-bit
        // division by a constant is a multiply in wasm, where a 64-bit one is a real
        // division, this loop's slowest step there. Clamping the wait rather than
        // arrival + wait + rounding gives the same second: either way the sum reaches
        // the run's end exactly when the unclamped one does.
        ((self.start_ms + wait_ms.min(self.horizon_ms) as u32) / 1000).min(self.last)
    }
}

/// What the retry chains carry from one arrival second to the next.
#[derive(Clone, Copy)]
struct Live {
    /// Retry budget tokens left.
    tokens: i64,
    /// The breaker is open before this second (-1: never opened).
    open_until: i64,
    /// Consecutive failures across all clients (one shared breaker).
    consec_fail: u64,
    /// What the chains counted so far.
    counts: Counts,
}

/// The article's percentile over a histogram of `n` values: the value at rank
/// `ceil(p / 100 × n) − 1` (computed in doubles, as Java does), clamped; 0 when empty.
fn percentile(hist: &[u32], n: u64, p: f64) -> u64 {
    if n == 0 {
        return 0;
    }
    let rank = ((p / 100.0 * n as f64).ceil() as i64 - 1).clamp(0, n as i64 - 1) as u64;
    // Whole blocks first, summed without a test per value (the compiler vectorises the
    // sum); then value by value inside the block that reaches the rank. A p99 can sit
    // 15,000 values in, and this scan ran once per percentile per strategy run.
    const BLOCK: usize = 64;
    let mut seen = 0u64;
    for (b, block) in hist.chunks(BLOCK).enumerate() {
        // A block's counts sum to at most `n` ≤ MAX_REQUESTS: no u32 overflow.
        let sum: u32 = block.iter().sum();
        if seen + sum as u64 <= rank {
            seen += sum as u64;
            continue;
        }
        for (i, &count) in block.iter().enumerate() {
            seen += count as u64;
            if seen > rank {
                return (b * BLOCK + i) as u64;
            }
        }
    }
    0
}

/// The wait before the retry that follows failed attempt `attempt` (0 = the first
/// attempt): `base_ms << attempt`, and with full jitter `floor(nextDouble() × backoff)`,
/// the article's draw. The page's delay preview calls this and the engine's loop
/// [`Backoff::delay`]: the same two steps (`unit_scale`, `jittered_ms`), so the preview
/// shows the engine's own delays.
pub fn backoff_ms<const JITTER: bool, R: UnitDouble>(
    rng: &mut R,
    base_ms: u64,
    attempt: u32,
) -> u64 {
    let backoff = base_ms << attempt;
    if JITTER {
        jittered_ms(rng, unit_scale(backoff))
    } else {
        backoff
    }
}

/// `backoff × 2^-53`, what [`UnitDouble::next_unit_times_scaled`] takes: exact, through
/// i64 (exact below 2^53; validated backoffs stay below 2^50) and a power of two.
fn unit_scale(backoff: u64) -> f64 {
    backoff as i64 as f64 / (1u64 << 53) as f64
}

/// `floor(nextDouble() × backoff)` given `unit_scale(backoff)`.
#[inline(always)]
fn jittered_ms<R: UnitDouble>(rng: &mut R, unit_scale: f64) -> u64 {
    // The draw is in [0, backoff) with backoff < 2^50: exact through i64, which x86-64
    // converts in one instruction (unsigned takes about six).
    rng.next_unit_times_scaled(unit_scale) as i64 as u64
}

/// A strategy's backoffs, each already scaled for the jitter draw (see
/// [`UnitDouble::next_unit_times_scaled`]): a table look-up in the loop instead of a
/// shift, a conversion and a multiplication per retry.
#[derive(Clone)]
pub struct Backoff {
    base_ms: u64,
    /// `unit_scale(base_ms << k)` for every retry `k` a strategy can have (and one more
    /// slot, so an index masked to 5 bits needs no bounds check).
    unit_scales: [f64; 32],
}

impl Backoff {
    /// The backoffs of `base_ms` (validated: `base_ms << MAX_RETRY` stays below 2^50).
    pub fn new(base_ms: u64) -> Backoff {
        let mut unit_scales = [0.0; 32];
        for (k, u) in unit_scales
            .iter_mut()
            .enumerate()
            .take(MAX_RETRY as usize + 1)
        {
            *u = unit_scale(base_ms << k);
        }
        Backoff {
            base_ms,
            unit_scales,
        }
    }

    /// The wait after failed attempt `attempt` (≤ [`MAX_RETRY`]): see [`backoff_ms`].
    #[inline(always)]
    pub fn delay<const JITTER: bool, R: UnitDouble>(&self, rng: &mut R, attempt: u32) -> u64 {
        debug_assert!(attempt <= MAX_RETRY);
        if JITTER {
            jittered_ms(rng, self.unit_scales[attempt as usize & 31])
        } else {
            self.base_ms << attempt
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_runs_equal_fresh_runs() {
        let article = Scenario::article();
        let mut wider = article.clone();
        wider.capacity += 1;
        let mut renamed = article.strategies[2].clone();
        renamed.name.push('x');
        let mut runs = Runs::new();
        // Each request is answered from a fresh engine and through `runs`: repeated inputs
        // (kept), a jittered strategy on another seed, one without jitter on another seed
        // (kept across seeds), a changed shared field, a changed name, and more distinct
        // inputs than are kept, so the oldest are dropped and asked for again.
        let mut asks: Vec<(&Scenario, Strategy, i64)> = Vec::new();
        for seed in [4242, 7, 4242] {
            for st in &article.strategies {
                asks.push((&article, st.clone(), seed));
            }
            asks.push((&wider, article.strategies[2].clone(), seed));
            asks.push((&article, renamed.clone(), seed));
        }
        asks.extend(
            (0..2 * Runs::KEEP as i64).map(|s| (&article, article.strategies[3].clone(), s)),
        );
        asks.extend((0..3).map(|s| (&article, article.strategies[3].clone(), s)));
        for (sc, st, seed) in asks {
            let fresh = run_strategy(sc, &st, &mut JavaRandom::new(seed));
            assert_eq!(runs.run(sc, &st, seed), fresh, "{} seed {seed}", st.name);
        }
        // What makes a kept run right for another name: the name changes nothing else.
        for seed in [4242, 7] {
            for st in &article.strategies {
                let mut other = st.clone();
                other.name = "renamed".into();
                let named = run_strategy(&article, &other, &mut JavaRandom::new(seed));
                let fresh = run_strategy(&article, st, &mut JavaRandom::new(seed));
                assert_eq!(
                    StrategyResult {
                        name: st.name.clone(),
                        ..named
                    },
                    fresh
                );
            }
        }
        // What makes keeping S1 and S2 across seeds right, and S3 not: no jitter, no draw.
        let on = |i: usize, seed| {
            run_strategy(&article, &article.strategies[i], &mut JavaRandom::new(seed))
        };
        assert_eq!(on(1, 1), on(1, 2));
        assert_ne!(on(2, 1), on(2, 2));
    }

    #[test]
    fn percentile_matches_sorted_list_rule() {
        // Values 1..=10: p50 is the 5th (index 4), p99 the 10th.
        let mut hist = vec![1u32; 11];
        hist[0] = 0;
        assert_eq!(percentile(&hist, 10, 50.0), 5);
        assert_eq!(percentile(&hist, 10, 99.0), 10);
        assert_eq!(percentile(&hist, 0, 50.0), 0);
    }

    #[test]
    fn percentile_equals_the_sorted_list_across_blocks() {
        // Counts spread over several 64-value blocks, ranks landing on block edges and
        // inside blocks: against the value at the rank of the sorted list itself.
        let hist: Vec<u32> = (0..300u32).map(|v| (v * 7 + 3) % 5 * (v % 3)).collect();
        let mut sorted = Vec::new();
        for (v, &c) in hist.iter().enumerate() {
            sorted.extend(std::iter::repeat_n(v as u64, c as usize));
        }
        let n = sorted.len() as u64;
        for p in [0.1, 1.0, 25.0, 50.0, 63.9, 90.0, 99.0, 100.0] {
            let rank = ((p / 100.0 * n as f64).ceil() as usize).max(1) - 1;
            assert_eq!(percentile(&hist, n, p), sorted[rank], "p{p}");
        }
    }
}
