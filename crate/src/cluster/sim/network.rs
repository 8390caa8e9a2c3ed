//! The network legs of a hop (a client's `network`): an attempt's way to its callee and
//! its answer's way back, each a draw from the run's random stream and an event.
//!
//! The request leg is drawn when the attempt is sent (after its callee instance is
//! picked and its timer set), the response leg when the callee answers, whatever the
//! answer (a success, a failure, a refusal by a full or timed-out queue). A refusal at
//! the caller (its breaker, bulkhead or budget) never leaves it and costs no network time.
//! The attempt's timer runs from the send, so it spans both legs: an answer that arrives
//! after it fired (or in the same microsecond: the timer was scheduled first) is dropped
//! at the caller, and the callee's work counts as `wasted` (when the timer fires) as an
//! orphaned attempt's does.

use super::*;

impl Simulation {
    /// One draw of a leg's delay, µs (one copy of the samplers for both legs).
    #[inline(never)]
    fn leg(&mut self, leg: Sampler) -> u64 {
        leg.draw(&mut self.rng, &mut self.normal)
    }

    /// Sends job `child` (just allocated, held by no instance) over the request leg `leg`.
    #[inline(never)]
    pub(super) fn send_over(&mut self, child: u32, leg: Sampler, now: u64) {
        let d = self.leg(leg);
        let cj = &mut self.jobs[child as usize];
        cj.st = St::Travelling;
        let gen = cj.gen;
        self.q.push(now.saturating_add(d), Kind::Reach, child, gen);
    }

    /// Job `j` (generation `gen`) reaches its instance: held from now, it arrives as
    /// any request does (its caller may have given up meanwhile: it is served all the same).
    #[inline(never)]
    pub(super) fn reach(&mut self, j: u32, gen: u32, now: u64) {
        if self.valid(j, gen, St::Travelling) {
            self.hold(j, now);
            self.arrive(j, now);
        }
    }

    /// The callee of job `p`'s outstanding attempt answered `outcome` at `now`: the caller
    /// learns it now, or after the response leg of its route's network (drawn now).
    #[inline(always)]
    pub(super) fn answer(&mut self, p: u32, outcome: Outcome, now: u64) {
        let r = self.jobs[p as usize].route as usize;
        match self.routes[r].network {
            None => self.attempt_result(p, outcome, now),
            Some([_, back]) => self.answer_over(p, outcome, back, now),
        }
    }

    /// The answer `outcome` to job `p` leaves over the response leg `back`.
    #[inline(never)]
    fn answer_over(&mut self, p: u32, outcome: Outcome, back: Sampler, now: u64) {
        let d = self.leg(back);
        let jm = &mut self.jobs[p as usize];
        // The callee is gone: a timeout from now on has nobody to orphan.
        jm.child = NONE;
        jm.reply = outcome;
        let gen = jm.gen;
        self.q.push(now.saturating_add(d), Kind::Reply, p, gen);
    }

    /// Job `p`'s attempt timed out while its answer was on the network (a calling job has
    /// no child only then): the answer will be dropped when it arrives, so the callee's
    /// work was wasted, as an orphaned callee's is.
    #[cold]
    pub(super) fn answer_dropped(&mut self, p: u32, now: u64) {
        let callee = self.route(self.jobs[p as usize].route as usize).to;
        self.bucket(callee, now).wasted += 1;
    }

    /// The answer to job `p`'s attempt of generation `gen` arrives: unless the attempt
    /// has ended meanwhile (its timer fired, a newer generation), its outcome is the
    /// attempt's.
    #[inline(never)]
    pub(super) fn reply(&mut self, p: u32, gen: u32, now: u64) {
        if self.valid(p, gen, St::Calling) {
            let outcome = self.jobs[p as usize].reply;
            self.attempt_result(p, outcome, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Clients calling a server that refuses most attempts (one slot, no queue), retried
    /// at once, over legs of `there_ms` (constant) and `back` (a distribution).
    fn refusing(there_ms: f64, back: serde_json::Value) -> Scenario {
        let v = serde_json::json!({
            "name": "network", "seed": 1, "duration_ms": 2000,
            "load": {"arrivals": "poisson", "rate_per_s": 400},
            "tiers": [
                {"name": "clients", "instances": 2, "concurrency": 1000, "queue_capacity": 0,
                 "service": {"kind": "constant", "ms": 0},
                 "client": {"timeout_ms": 50, "max_attempts": 5, "retry_on": ["overload"],
                            "network": {"request": {"kind": "constant", "ms": there_ms},
                                        "response": back}}},
                {"name": "server", "instances": 1, "concurrency": 1, "queue_capacity": 0,
                 "service": {"kind": "exponential", "mean_ms": 2}}
            ]
        });
        serde_json::from_value(v).expect("a scenario")
    }

    #[test]
    fn every_attempt_reaches_its_callee_exactly_one_request_leg_after_it_was_sent() {
        // Watched event by event: a job seen travelling for the first time was sent by
        // the event just run; it reaches its callee when it stops travelling. With a
        // request leg of d, no attempt (a refused one's retry included) arrives sooner.
        for (seed, d_ms, back) in [
            (1, 3.0, serde_json::json!({"kind": "constant", "ms": 0})),
            (
                2,
                0.5,
                serde_json::json!({"kind": "exponential", "mean_ms": 1}),
            ),
            (
                3,
                7.0,
                serde_json::json!({"kind": "lognormal", "p50_ms": 1, "p99_ms": 9}),
            ),
        ] {
            let d = us_of_ms(d_ms);
            let mut sim = Simulation::new(&refusing(d_ms, back), seed).expect("valid");
            let mut sent: HashMap<u32, (u64, bool)> = HashMap::new();
            let (mut reached, mut retries) = (0, 0);
            while !sim.advance(1).expect("runs") {
                let now = sim.now_us();
                for job in &sim.jobs {
                    if job.st == St::Travelling && !sent.contains_key(&job.uid) {
                        let retry = sim.jobs[job.parent as usize].calls > 1;
                        sent.insert(job.uid, (now, retry));
                    }
                }
                sent.retain(|uid, &mut (at, retry)| {
                    let travelling = sim
                        .jobs
                        .iter()
                        .any(|j| j.uid == *uid && j.st == St::Travelling);
                    if !travelling {
                        assert_eq!(now - at, d, "seed {seed}: sent at {at}, reached at {now}");
                        reached += 1;
                        retries += usize::from(retry);
                    }
                    travelling
                });
            }
            assert!(reached > 500 && retries > 100, "{reached} {retries}");
            let server = &sim.finish().tiers[1].totals;
            assert!(server.overloads > 100, "{server:?}");
        }
    }
}
