//! The client side of a hop: sending attempts through the bulkhead and breaker,
//! the outcome of an attempt, and the retry decision (budget, backoff, deadline).

use super::*;

impl Simulation {
    /// Route `r` (an index into all tiers' routes).
    #[inline]
    pub(super) fn route(&self, r: usize) -> &RouteRt {
        &self.routes[r]
    }

    /// What the hot path needs of route `r` for caller instance `i`, read with one lookup.
    #[inline(always)]
    pub(super) fn hop(&self, r: usize, i: u32) -> Hop {
        let route = &self.routes[r];
        Hop {
            to: route.to,
            breaker: route.breaker_base + if route.breaker_shared { 0 } else { i as usize },
            budget: route.budget_base + if route.budget_shared { 0 } else { i as usize },
            timeout_us: route.timeout_us,
            max_attempts: route.max_attempts,
            retry_mask: route.retry_mask,
            propagate: route.propagate,
            idempotent_only: route.idempotent_only,
            no_retry_open: route.no_retry_open,
            counts_calls: route.counts_calls,
        }
    }

    /// Counts an attempt or a refusal of route `r` (calling `callee`) now with `f`: in
    /// the callee's counters, and in the route's own when another route of its tier
    /// calls the same tier.
    #[inline(always)]
    fn count(&mut self, r: usize, callee: usize, now: u64, f: impl Fn(&mut TierBucket)) {
        f(self.bucket(callee, now));
        if self.routes[r].own_counts {
            f(self.rec.route_bucket(r));
        }
    }

    pub(super) fn breaker_cfg(&self, r: usize) -> &Breaker {
        &self.route(r).breaker_cfg
    }

    /// Picks the route of a new call of job `j` (one draw when its tier has several
    /// routes; none with one, so a chain's random stream is unchanged).
    pub(super) fn pick_route(&mut self, j: u32) {
        let t = self.jobs[j as usize].tier as usize;
        let range = self.tiers[t].routes.clone();
        let r = if range.len() > 1 {
            let u = self.rng.next_unit();
            let routes = &self.routes[range.clone()];
            range.start
                + routes
                    .iter()
                    .position(|x| u < x.upto)
                    .unwrap_or(routes.len() - 1)
        } else {
            range.start
        };
        self.jobs[j as usize].route = r as u8;
    }

    /// Sends the next attempt of job `p`'s call on its route, if the bulkhead, breaker
    /// and deadline allow.
    pub(super) fn try_send(&mut self, p: u32, now: u64) {
        let job = self.jobs[p as usize];
        let (t, i, r) = (
            job.tier as usize,
            u32::from(job.instance),
            job.route as usize,
        );
        let hop = self.hop(r, i);
        let (callee, propagate) = (hop.to, hop.propagate);
        if propagate && job.deadline <= now {
            self.end_job(p, Outcome::Timeout, now);
            return;
        }
        // Bulkhead first (as Resilience4j decorates: the bulkhead sits inside the breaker,
        // but a call waiting for a bulkhead slot must not hold a half-open permit).
        if !job.has(flag::BH_HELD) {
            if let Some(bh) = self.route(r).bulkhead.clone() {
                let route = &mut self.routes[r];
                let ix = i as usize;
                if route.bh_active[ix] < bh.max_concurrent {
                    route.bh_active[ix] += 1;
                    self.jobs[p as usize].set(flag::BH_HELD, true);
                } else if route.bh_queue[ix].len() < bh.max_queue as usize {
                    route.bh_queue[ix].push_back(p);
                    let jm = &mut self.jobs[p as usize];
                    jm.st = St::BulkheadWait;
                    jm.since = now;
                    return;
                } else {
                    self.jobs[p as usize].calls += 1;
                    self.count(r, callee, now, |b| b.bulkhead_rejected += 1);
                    self.after_failure(p, Outcome::Overload, now);
                    return;
                }
            }
        }
        let bi = hop.breaker;
        let permit = {
            let tr = &mut self.tiers[t];
            match tr.breakers.get_mut(bi) {
                Some(b) => b.acquire(&self.routes[r].breaker_cfg, now, &mut self.rng),
                None => Some(0),
            }
        };
        let Some(permit) = permit else {
            if self.jobs[p as usize].has(flag::BH_HELD) {
                self.jobs[p as usize].set(flag::BH_HELD, false);
                self.bulkhead_release(r, i, now);
            }
            self.jobs[p as usize].calls += 1;
            self.count(r, callee, now, |b| b.breaker_rejected += 1);
            self.after_failure(p, Outcome::BreakerRejected, now);
            return;
        };
        let calls = job.calls.saturating_add(1);
        let mut timeout = hop.timeout_us;
        let mut child_deadline = NEVER;
        if propagate {
            timeout = timeout.min(job.deadline.saturating_sub(now));
            child_deadline = now.saturating_add(timeout);
        }
        let ci = self.pick(callee, Some((r, i)));
        let Some(child) = self.alloc(
            callee,
            ci,
            p,
            child_deadline,
            job.has(flag::IDEMPOTENT),
            now,
        ) else {
            return;
        };
        let network = self.routes[r].network;
        if network.is_none() {
            // At its instance at once (over a network, when it gets there).
            self.hold(child, now);
        }
        self.jobs[child as usize].cohort = job.cohort;
        self.rec.attempt_sent(job.cohort, callee);
        self.count(r, callee, now, |b| {
            if calls == 1 {
                b.first_attempts += 1;
            } else {
                b.retries += 1;
            }
        });
        if let Some(b) = self.tiers[t].budgets.get_mut(hop.budget) {
            b.on_sent(now, calls == 1);
        }
        if calls == 1 && hop.counts_calls {
            if let Some(b) = self.tiers[t].breakers.get_mut(hop.breaker) {
                b.on_first_attempt(now);
            }
        }
        let jm = &mut self.jobs[p as usize];
        jm.calls = calls;
        jm.admitted_or_permit = permit;
        jm.child = child;
        jm.st = St::Calling;
        jm.since = now;
        let gen = jm.gen;
        self.q
            .push(now.saturating_add(timeout), Kind::AttemptTimeout, p, gen);
        if let Some([there, _]) = network {
            self.send_over(child, there, now);
            return;
        }
        // Last: the child may fail at once and unwind through `p` synchronously.
        self.arrive(child, now);
    }

    pub(super) fn bulkhead_release(&mut self, r: usize, i: u32, now: u64) {
        let Some(bh) = self.route(r).bulkhead.clone() else {
            return;
        };
        let callee = self.route(r).to;
        self.routes[r].bh_active[i as usize] -= 1;
        loop {
            let Some(w) = self.routes[r].bh_queue[i as usize].pop_front() else {
                return;
            };
            let since = self.jobs[w as usize].since;
            if now.saturating_sub(since) > bh.max_wait_ms * 1000 {
                self.jobs[w as usize].calls += 1;
                self.count(r, callee, now, |b| b.bulkhead_rejected += 1);
                self.after_failure(w, Outcome::Overload, now);
                continue;
            }
            // Reserve the slot now, send from a fresh event: no recursion through chains
            // of waiters.
            self.routes[r].bh_active[i as usize] += 1;
            let jm = &mut self.jobs[w as usize];
            jm.set(flag::BH_HELD, true);
            let gen = jm.gen;
            self.q.push(now, Kind::BulkheadGrant, w, gen);
            return;
        }
    }

    /// The outstanding attempt of `p` ended with `outcome` (the callee answered, or the
    /// attempt timer fired).
    pub(super) fn attempt_result(&mut self, p: u32, outcome: Outcome, now: u64) {
        let (t, r, i, permit, sent_at, calls, after_timeout) = {
            let jm = &mut self.jobs[p as usize];
            jm.gen = jm.gen.wrapping_add(1); // the attempt timer is now stale
            jm.child = NONE;
            (
                jm.tier as usize,
                jm.route as usize,
                u32::from(jm.instance),
                jm.admitted_or_permit,
                jm.since,
                jm.calls,
                jm.has(flag::RETRY_AFTER_TIMEOUT),
            )
        };
        let hop = self.hop(r, i);
        let callee = hop.to;
        self.count(r, callee, now, |b| match outcome {
            Outcome::Success => b.successes += 1,
            Outcome::Timeout => b.timeouts += 1,
            Outcome::Overload | Outcome::BreakerRejected => b.overloads += 1,
            Outcome::Error => b.errors += 1,
        });
        if self.jobs[p as usize].has(flag::BH_HELD) {
            self.jobs[p as usize].set(flag::BH_HELD, false);
            self.bulkhead_release(r, i, now);
        }
        let success = outcome == Outcome::Success;
        let (bi, gi) = (hop.breaker, hop.budget);
        {
            let tr = &mut self.tiers[t];
            if let Some(b) = tr.breakers.get_mut(bi) {
                b.record(
                    &self.routes[r].breaker_cfg,
                    now,
                    permit,
                    !success,
                    now - sent_at,
                    &mut self.rng,
                );
            }
        }
        // A failure counts against a budget only when the policy retries its kind (gRPC
        // charges its throttle only for a retryable status code).
        let retryable = !success && hop.retry_mask & retry_bit(outcome.retry_kind()) != 0;
        if let Some(b) = self.tiers[t].budgets.get_mut(gi) {
            b.on_outcome(success, retryable, (calls > 1).then_some(after_timeout));
        }
        self.release_retry_slot(p);
        if success {
            // The job's own response: for the last hop this is where the chain unwinds.
            self.end_job(p, Outcome::Success, now);
            return;
        }
        self.after_failure(p, outcome, now);
    }

    /// Gives back the Envoy retry slot job `p`'s retry holds, if it holds one: the retry
    /// got its answer (or was refused before it left), or the request ended.
    #[inline]
    pub(super) fn release_retry_slot(&mut self, p: u32) {
        let job = &mut self.jobs[p as usize];
        if !job.has(flag::RETRY_SLOT) {
            return;
        }
        job.set(flag::RETRY_SLOT, false);
        let (t, r, i) = (
            job.tier as usize,
            job.route as usize,
            u32::from(job.instance),
        );
        let gi = self.hop(r, i).budget;
        if let Some(b) = self.tiers[t].budgets.get_mut(gi) {
            b.release_retry();
        }
    }

    /// Decides whether job `p` retries after a failed (or unsent) attempt.
    pub(super) fn after_failure(&mut self, p: u32, kind: Outcome, now: u64) {
        self.release_retry_slot(p);
        let job = self.jobs[p as usize];
        let (t, i, r) = (
            job.tier as usize,
            u32::from(job.instance),
            job.route as usize,
        );
        let tr = self.hop(r, i);
        let callee = tr.to;
        let allowed = job.calls < tr.max_attempts
            && tr.retry_mask & retry_bit(kind.retry_kind()) != 0
            && (!tr.idempotent_only || job.has(flag::IDEMPOTENT))
            && !(tr.propagate && job.deadline <= now);
        if !allowed {
            self.end_job(p, kind.propagate(), now);
            return;
        }
        if tr.no_retry_open {
            let open = self.tiers[t]
                .breakers
                .get(tr.breaker)
                .is_some_and(|b| b.status(self.breaker_cfg(r), now) != Status::Closed);
            if open {
                self.count(r, callee, now, |b| b.budget_rejected += 1);
                self.end_job(p, kind.propagate(), now);
                return;
            }
        }
        let gi = tr.budget;
        let timeout = kind == Outcome::Timeout;
        let granted = match self.tiers[t].budgets.get_mut(gi) {
            Some(b) => {
                let g = b.try_retry(now, timeout).is_some();
                self.jobs[p as usize].set(flag::RETRY_SLOT, g && b.holds_retries());
                g
            }
            None => true,
        };
        if !granted {
            self.count(r, callee, now, |b| b.budget_rejected += 1);
            self.end_job(p, kind.propagate(), now);
            return;
        }
        let (b, j) = &self.routes[r].backoff;
        let mut carry = job.carry;
        let sleep = backoff::sleep(b, j, job.calls as u32, &mut carry, &mut self.rng);
        if tr.propagate && now.saturating_add(sleep) >= job.deadline {
            // gRPC does not start a retry that cannot finish before the deadline.
            self.end_job(p, kind.propagate(), now);
            return;
        }
        let jm = &mut self.jobs[p as usize];
        jm.set(flag::RETRY_AFTER_TIMEOUT, timeout);
        jm.carry = carry;
        jm.st = St::Backoff;
        let gen = jm.gen;
        self.q
            .push(now.saturating_add(sleep), Kind::RetryFire, p, gen);
    }
}
