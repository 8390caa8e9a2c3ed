//! Jobs: allocation and release, arrival at an instance (start, queue or refuse),
//! service, the queue kick, and the end of a job reported to its caller or the user.

use super::*;

impl Simulation {
    /// A new job bound for `instance` of `tier`, held by no instance yet: [`Self::hold`]
    /// when it gets there (at once, or over a network).
    #[inline(always)]
    pub(super) fn alloc(
        &mut self,
        tier: usize,
        instance: u32,
        parent: u32,
        deadline: u64,
        idem: bool,
        now: u64,
    ) -> Option<u32> {
        if self.live >= MAX_LIVE_JOBS {
            self.error = Some(ValidationError::new(
                "load",
                format!("{} requests alive at {} ms", self.live, now / 1000),
                format!("at most {MAX_LIVE_JOBS} requests alive at once; lower the rate, queue capacities or fault lengths"),
            ));
            return None;
        }
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.jobs.push(Job::EMPTY);
                (self.jobs.len() - 1) as u32
            }
        };
        self.next_uid = self.next_uid.wrapping_add(1);
        let j = &mut self.jobs[id as usize];
        let gen = j.gen;
        *j = Job {
            uid: self.next_uid,
            gen,
            parent,
            instance: instance as u16, // `pick`ed: below the tier's instances
            arrived: now,
            deadline,
            tier: tier as u8,
            flags: if idem { flag::IDEMPOTENT } else { 0 },
            ..Job::EMPTY
        };
        self.live += 1;
        Some(id)
    }

    /// Job `j` reaches its instance at `now`: the instance holds it from then on.
    #[inline(always)]
    pub(super) fn hold(&mut self, j: u32, now: u64) {
        let job = &mut self.jobs[j as usize];
        job.arrived = now;
        let t = &mut self.tiers[job.tier as usize];
        t.held += 1;
        t.held_m = t.held_m.wrapping_add(now);
        t.inst[usize::from(job.instance)].held += 1;
    }

    #[inline(always)]
    pub(super) fn release(&mut self, j: u32, now: u64) {
        let job = &mut self.jobs[j as usize];
        let (t, i) = (job.tier as usize, usize::from(job.instance));
        job.st = St::Free;
        job.gen = job.gen.wrapping_add(1);
        job.uid = 0;
        self.free.push(j);
        self.live -= 1;
        let tr = &mut self.tiers[t];
        tr.held -= 1;
        tr.held_m = tr.held_m.wrapping_sub(now);
        tr.inst[i].held -= 1;
    }

    /// The counters of `tier` in the bucket holding `now` (see `Recorder::bucket`).
    #[inline]
    pub(super) fn bucket(&mut self, tier: usize, now: u64) -> &mut TierBucket {
        self.rec.bucket(tier, now)
    }

    #[inline(always)]
    pub(super) fn pick(&mut self, callee: usize, caller: Option<(usize, u32)>) -> u32 {
        let n = self.tiers[callee].inst.len() as u32;
        if self.tiers[callee].random_lb {
            return self.rng.next_int_bounded(n as i32).unwrap_or(0) as u32;
        }
        let rr = match caller {
            Some((r, i)) => &mut self.routes[r].rr[i as usize],
            None => &mut self.entry_rr,
        };
        // `rr < n` always (it starts below n and wraps), so no division is needed.
        let mut r = *rr;
        if r >= n {
            r %= n;
        }
        *rr = if r + 1 >= n { 0 } else { r + 1 };
        r
    }

    #[inline(always)]
    pub(super) fn new_entry(&mut self, now: u64, closed_loop: bool) {
        let frac = self.sc.load.idempotent_fraction;
        let idem = frac >= 1.0 || self.rng.next_unit() < frac;
        let deadline = self.sc.load.deadline_ms.map_or(NEVER, |d| now + d * 1000);
        let inst = self.pick(0, None);
        let Some(j) = self.alloc(0, inst, ROOT, deadline, idem, now) else {
            return;
        };
        self.hold(j, now);
        let cohort = self.rec.entry_arrived(now);
        let jm = &mut self.jobs[j as usize];
        jm.set(flag::CLOSED_LOOP, closed_loop);
        jm.cohort = cohort;
        if deadline != NEVER {
            let uid = self.jobs[j as usize].uid;
            self.q.push(deadline, Kind::EntryTimeout, j, uid);
        }
        self.arrive(j, now);
    }

    /// The tier and instance of job `j`.
    #[inline(always)]
    fn place(&self, j: u32) -> (usize, u32) {
        let job = &self.jobs[j as usize];
        (job.tier as usize, u32::from(job.instance))
    }

    /// A job reaches its instance: fail fast, hang, start, queue, or be refused. One
    /// copy for its three callers (an entry request, an attempt sent at once, one that
    /// crossed a network): each inlined copy weighed on the page's wasm, for no speed
    /// the benchmark could tell.
    #[inline(never)]
    pub(super) fn arrive(&mut self, j: u32, now: u64) {
        let (t, i) = self.place(j);
        let fx = self.effect(t, i);
        if fx.outage {
            self.end_job(j, Outcome::Error, now);
            return;
        }
        if fx.hang {
            self.jobs[j as usize].st = St::Hung;
            self.tiers[t].inst[i as usize].hung.push(j);
            return;
        }
        if fx.admitted_us > 0 {
            // Decided now, at admission, and carried until the service starts (a job
            // refused below never starts, so it does not matter that it got one too).
            self.jobs[j as usize].admitted_or_permit =
                u32::try_from(fx.admitted_us).unwrap_or(u32::MAX);
        }
        let tr = &mut self.tiers[t];
        let conc = tr.concurrency;
        let cap = tr.queue_cap;
        let inst = &mut tr.inst[i as usize];
        if inst.busy < conc && fx.pause_until <= now && inst.queue.is_empty() {
            self.start_service(j, now, &fx);
        } else if inst.queue.len() < cap {
            inst.queue.push_back(j);
            tr.queued += 1;
            tr.queued_m = tr.queued_m.wrapping_add(now);
            self.jobs[j as usize].st = St::Queued;
        } else {
            self.end_job(j, Outcome::Overload, now);
        }
    }

    /// The faults' effect on instance `i` of tier `t` (inlined: most of the time no
    /// fault is active, and the callers' branches on `NONE` then fold away).
    #[inline(always)]
    pub(super) fn effect(&self, t: usize, i: u32) -> Effect {
        let active = &self.tiers[t].active;
        if active.is_empty() {
            Effect::NONE
        } else {
            self.active_effect(t, i)
        }
    }

    #[inline(never)]
    fn active_effect(&self, t: usize, i: u32) -> Effect {
        Effect::of(&self.sc.faults, &self.tiers[t].active, i)
    }

    #[inline(always)]
    pub(super) fn start_service(&mut self, j: u32, now: u64, fx: &Effect) {
        let (t, i, arrived, admitted_us) = {
            let job = &self.jobs[j as usize];
            let admitted_us = u64::from(job.admitted_or_permit);
            (
                job.tier as usize,
                usize::from(job.instance),
                job.arrived,
                admitted_us,
            )
        };
        let added_us = fx.added_us.saturating_add(admitted_us);
        self.rec.service_started(t, now, arrived);
        let base = self.service[t].draw(&mut self.rng, &mut self.normal);
        let tr = &mut self.tiers[t];
        let inst = &mut tr.inst[i];
        inst.busy += 1;
        tr.busy += 1;
        tr.busy_m = tr.busy_m.wrapping_add(now);
        let dur = if tr.slowdown > 0.0 || fx.factor != 1.0 {
            let mut st = base as f64;
            if tr.slowdown > 0.0 {
                // In flight = everything the instance holds besides this request.
                st *= 1.0 + tr.slowdown * inst.held.saturating_sub(1) as f64;
            }
            st /= fx.factor;
            math::round_us(st).saturating_add(added_us)
        } else {
            // The same value without the float round trip: round_us(base as f64).
            base.min(1_000_000_000_000_000).saturating_add(added_us)
        };
        let job = &mut self.jobs[j as usize];
        job.st = St::Serving;
        job.since = now; // the service's start
        let gen = job.gen;
        self.q
            .push(now.saturating_add(dur), Kind::ServiceEnd, j, gen);
    }

    #[inline(always)]
    pub(super) fn service_end(&mut self, j: u32, now: u64) {
        let (t, i) = self.place(j);
        let fx = self.effect(t, i);
        if fx.pause_until > now {
            // Stopped the world: the work resumes when the pause ends.
            let gen = self.jobs[j as usize].gen;
            self.q.push(fx.pause_until, Kind::ServiceEnd, j, gen);
            return;
        }
        let started = self.jobs[j as usize].since;
        self.rec.service_ended(t, now, started);
        if fx.outage {
            self.end_job(j, Outcome::Error, now);
            return;
        }
        if fx.hang {
            self.slot_freed(t, i, now);
            self.jobs[j as usize].st = St::Hung;
            self.tiers[t].inst[i as usize].hung.push(j);
            self.kick(t, i, now);
            return;
        }
        let base = self.tiers[t].error_rate;
        let err = 1.0 - (1.0 - base) * (1.0 - fx.error_rate);
        if err > 0.0 && self.rng.next_unit() < err {
            self.end_job(j, Outcome::Error, now);
            return;
        }
        if self.tiers[t].routes.is_empty() {
            self.end_job(j, Outcome::Success, now);
            return;
        }
        self.pick_route(j);
        self.try_send(j, now);
    }

    /// Starts queued work on free slots (dropping expired entries at the head).
    #[inline(always)]
    pub(super) fn kick(&mut self, t: usize, i: u32, now: u64) {
        // Usually nothing waits: no call, no fault lookup.
        if !self.tiers[t].inst[i as usize].queue.is_empty() {
            self.kick_queue(t, i, now);
        }
    }

    #[inline(never)]
    fn kick_queue(&mut self, t: usize, i: u32, now: u64) {
        loop {
            let fx = self.effect(t, i);
            if fx.pause_until > now || fx.outage {
                return;
            }
            let tr = &mut self.tiers[t];
            let qt = tr.queue_timeout_us;
            let inst = &mut tr.inst[i as usize];
            if inst.busy >= tr.concurrency {
                return;
            }
            let Some(j) = inst.queue.pop_front() else {
                return;
            };
            tr.queued -= 1;
            tr.queued_m = tr.queued_m.wrapping_sub(now);
            let job = &self.jobs[j as usize];
            if now.saturating_sub(job.arrived) > qt {
                self.end_job(j, Outcome::Overload, now);
            } else if job.deadline <= now {
                // The caller's propagated deadline has passed: nobody wants this answer.
                self.end_job(j, Outcome::Timeout, now);
            } else {
                self.start_service(j, now, &fx);
            }
        }
    }

    /// A job ends: free its slot, report to whoever waits for it, recycle it.
    pub(super) fn end_job(&mut self, j: u32, outcome: Outcome, now: u64) {
        // A request that ends holds no retry slot (Envoy's `~RetryStateImpl`).
        self.release_retry_slot(j);
        let job = self.jobs[j as usize];
        let (t, i) = (job.tier as usize, u32::from(job.instance));
        let freed = job.st.holds_slot();
        if freed {
            self.slot_freed(t, i, now);
        }
        if job.has(flag::BH_HELD) {
            self.jobs[j as usize].set(flag::BH_HELD, false);
            self.bulkhead_release(job.route as usize, i, now);
        }
        self.release(j, now);
        match job.parent {
            ROOT => self.entry_end(outcome, &job, now),
            NONE => self.bucket(t, now).wasted += 1,
            p => {
                let pj = &self.jobs[p as usize];
                if pj.st == St::Calling && pj.child == j {
                    if freed {
                        self.kick(t, i, now);
                    }
                    self.answer(p, outcome, now);
                    return;
                }
                self.bucket(t, now).wasted += 1;
            }
        }
        if freed {
            self.kick(t, i, now);
        }
    }

    /// A slot of instance `i` of tier `t` is free again.
    #[inline(always)]
    pub(super) fn slot_freed(&mut self, t: usize, i: u32, now: u64) {
        let tr = &mut self.tiers[t];
        tr.inst[i as usize].busy -= 1;
        tr.busy -= 1;
        tr.busy_m = tr.busy_m.wrapping_sub(now);
    }

    /// The entry request `job` ended with `outcome` (the user's view).
    #[inline(always)]
    pub(super) fn entry_end(&mut self, outcome: Outcome, job: &Job, now: u64) {
        self.rec.entry_ended(outcome, job.cohort, job.arrived, now);
        // (After the end, while draining, a caller does not think of a next request.)
        if job.has(flag::CLOSED_LOOP) && now < self.end {
            if let Some(cl) = self.sc.load.closed_loop.clone() {
                let think = self.sample_us(&cl.think);
                self.q.push(now.saturating_add(think), Kind::Think, 0, 0);
            }
        }
    }
}
