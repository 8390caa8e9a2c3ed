//! Circuit breakers: consecutive failures, Resilience4j sliding windows (with jitter on
//! the open duration and an optional 25% → 50% → 100% ramp), and Google SRE adaptive
//! throttling.
//!
//! Every permit carries the breaker's `epoch`, bumped on each state change. The
//! consecutive breaker and the gradual-recovery stages record an outcome only if its
//! permit is from the current epoch, so a slow call let through while closed cannot close
//! a half-open breaker later. Resilience4j itself does not: its state machine
//! (`CircuitBreakerStateMachine.java`) records every answer into whatever state is
//! current when it arrives, and so does its kind here.

use super::backoff::uniform;
use super::health::HealthMetrics;
use super::retry_gates;
use super::scenario::{Breaker, WindowKind};
use super::window::Window;
use crate::rng::UnitDouble;

/// What a breaker looks like from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Calls flow.
    Closed,
    /// Calls are rejected.
    Open,
    /// Some calls flow (half-open probes, a ramp stage, or SRE throttling above 0).
    HalfOpen,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    Closed,
    Open,
    HalfOpen,
    /// Gradual recovery stage 0 (25%) or 1 (50%).
    Ramp(u8),
}

/// Admission probability of each ramp stage (seed 004: 25% → 50% → 100%).
pub const RAMP: [f64; 2] = [0.25, 0.5];

/// One breaker's state.
#[derive(Debug, Clone)]
pub struct BreakerState {
    st: St,
    /// Bumped on every transition; permits from older epochs are ignored.
    pub epoch: u32,
    open_until: u64,
    stage_until: u64,
    // Closed-state window (count ring of outcome bits, or per-second time buckets).
    ring: Vec<u8>,
    ring_pos: usize,
    ring_len: usize,
    tbuckets: Vec<[u32; 3]>,
    head_sec: u64,
    /// `head_sec % window_size` (the time window's bucket of `head_sec`).
    head_idx: usize,
    calls: u64,
    fails: u64,
    slows: u64,
    consec: u32,
    // Half-open / ramp-stage counters.
    issued: u32,
    h_calls: u32,
    h_fails: u32,
    h_slows: u32,
    /// SRE throttling's requests and accepts, or a retry-only breaker's calls and failures.
    sre: Option<Window<2>>,
    /// Polly's health metrics.
    health: Option<HealthMetrics>,
    /// Times this breaker opened.
    pub opened: u32,
}

const FAIL: u8 = 1;
const SLOW: u8 = 2;

impl BreakerState {
    /// A closed breaker for this configuration.
    pub fn new(cfg: &Breaker) -> Self {
        let (ring, tb, sre) = match *cfg {
            Breaker::Resilience4j {
                window: WindowKind::Count,
                window_size,
                ..
            } => (vec![0; window_size as usize], vec![], None),
            Breaker::Resilience4j {
                window: WindowKind::Time,
                window_size,
                ..
            } => (vec![], vec![[0; 3]; window_size as usize], None),
            // The retry-only breaker keeps its two counts in the same kind of window.
            Breaker::SreAdaptive { window_ms, .. } | Breaker::RetryOnly { window_ms, .. } => {
                (vec![], vec![], Some(Window::new(window_ms * 1000)))
            }
            _ => (vec![], vec![], None),
        };
        BreakerState {
            st: St::Closed,
            epoch: 0,
            open_until: 0,
            stage_until: 0,
            ring,
            ring_pos: 0,
            ring_len: 0,
            tbuckets: tb,
            head_sec: 0,
            head_idx: 0,
            calls: 0,
            fails: 0,
            slows: 0,
            consec: 0,
            issued: 0,
            h_calls: 0,
            h_fails: 0,
            h_slows: 0,
            sre,
            health: match *cfg {
                Breaker::Polly {
                    sampling_duration_ms,
                    ..
                } => Some(HealthMetrics::new(sampling_duration_ms)),
                _ => None,
            },
            opened: 0,
        }
    }

    /// The state as seen at `now` (an expired open state reads as half-open).
    pub fn status(&self, cfg: &Breaker, now: u64) -> Status {
        match cfg {
            Breaker::None => Status::Closed,
            // Open while it stops retries (it never refuses a first attempt).
            Breaker::RetryOnly {
                failure_percent, ..
            } => match &self.sre {
                Some(w) if retry_gates::retries_stopped(w, now, *failure_percent) => Status::Open,
                _ => Status::Closed,
            },
            Breaker::SreAdaptive { k, .. } => {
                if self.sre_p(*k, now) > 0.0 {
                    Status::HalfOpen
                } else {
                    Status::Closed
                }
            }
            _ => match self.st {
                St::Closed => Status::Closed,
                St::Open if now < self.open_until => Status::Open,
                St::Open | St::HalfOpen => Status::HalfOpen,
                St::Ramp(_) if self.ramp_over(now) => Status::Closed,
                St::Ramp(_) => Status::HalfOpen,
            },
        }
    }

    fn ramp_over(&self, now: u64) -> bool {
        // Stage 0 ends at stage_until, stage 1 one stage later.
        matches!(self.st, St::Ramp(1)) && now >= self.stage_until
    }

    fn sre_p(&self, k: f64, now: u64) -> f64 {
        match &self.sre {
            Some(w) => {
                let req = w.sum(now, 0) as f64;
                let acc = w.sum(now, 1) as f64;
                ((req - k * acc) / (req + 1.0)).max(0.0)
            }
            None => 0.0,
        }
    }

    fn reset_window(&mut self) {
        self.ring.iter_mut().for_each(|c| *c = 0);
        self.tbuckets.iter_mut().for_each(|b| *b = [0; 3]);
        self.ring_pos = 0;
        self.ring_len = 0;
        self.calls = 0;
        self.fails = 0;
        self.slows = 0;
        self.consec = 0;
    }

    fn reset_half(&mut self) {
        self.issued = 0;
        self.h_calls = 0;
        self.h_fails = 0;
        self.h_slows = 0;
    }

    fn enter_open<R: UnitDouble>(&mut self, now: u64, wait_us: u64, jitter_us: u64, rng: &mut R) {
        self.st = St::Open;
        self.epoch = self.epoch.wrapping_add(1);
        self.opened = self.opened.saturating_add(1);
        let j = if jitter_us > 0 {
            uniform(rng, 0, jitter_us)
        } else {
            0
        };
        self.open_until = now.saturating_add(wait_us).saturating_add(j);
        self.reset_half();
    }

    fn enter_half_open(&mut self) {
        self.st = St::HalfOpen;
        self.epoch = self.epoch.wrapping_add(1);
        self.reset_half();
    }

    fn enter_closed(&mut self) {
        self.st = St::Closed;
        self.epoch = self.epoch.wrapping_add(1);
        self.reset_window();
        self.reset_half();
    }

    /// Applies the time-driven transitions (open → half-open, ramp stages) due at `now`.
    fn tick(&mut self, cfg: &Breaker, now: u64) {
        if self.st == St::Open && now >= self.open_until {
            self.enter_half_open();
        }
        self.tick_ramp(cfg, now);
    }

    /// Resilience4j's way out of OPEN: with the automatic transition, a scheduler moves
    /// it to HALF_OPEN when the wait ends; without it (`lazy`), the first call strictly
    /// after the wait does (`OpenState.tryAcquirePermission`: `isAfter`).
    fn tick_resilience4j(&mut self, cfg: &Breaker, now: u64, lazy_call: bool) {
        let automatic = matches!(
            cfg,
            Breaker::Resilience4j {
                automatic_half_open: true,
                ..
            }
        );
        if self.st == St::Open
            && ((automatic && now >= self.open_until) || (lazy_call && now > self.open_until))
        {
            self.enter_half_open();
        }
        self.tick_ramp(cfg, now);
    }

    /// The gradual-recovery stages due at `now`.
    fn tick_ramp(&mut self, cfg: &Breaker, now: u64) {
        if let (
            St::Ramp(s),
            Breaker::Resilience4j {
                ramp_stage_ms: Some(r),
                ..
            },
        ) = (self.st, cfg)
        {
            if now >= self.stage_until {
                if s == 0 {
                    self.st = St::Ramp(1);
                    self.epoch = self.epoch.wrapping_add(1);
                    self.stage_until = self.stage_until.saturating_add(r * 1000);
                    self.reset_half();
                    if now >= self.stage_until {
                        self.enter_closed();
                    }
                } else {
                    self.enter_closed();
                }
            }
        }
    }

    /// Asks to send a call at `now`: `Some(epoch)` is the permit, `None` a rejection.
    pub fn acquire<R: UnitDouble>(&mut self, cfg: &Breaker, now: u64, rng: &mut R) -> Option<u32> {
        match *cfg {
            Breaker::None | Breaker::RetryOnly { .. } => Some(self.epoch),
            // `CircuitStateController.OnActionPreExecuteAsync`: an open circuit whose
            // break is over (`now >= _blockedUntil`) turns half-open and lets this call
            // through as its one probe; every other call is refused until it answers.
            Breaker::Polly { .. } => match self.st {
                St::Closed => Some(self.epoch),
                St::Open if now >= self.open_until => {
                    self.enter_half_open();
                    Some(self.epoch)
                }
                _ => None,
            },
            Breaker::SreAdaptive { k, .. } => {
                let p = self.sre_p(k, now);
                if let Some(w) = &mut self.sre {
                    // SRE book, "Handling Overload": requests counts every attempt, rejected
                    // ones included.
                    w.add(now, 0, 1);
                }
                if p > 0.0 && rng.next_unit() < p {
                    None
                } else {
                    Some(self.epoch)
                }
            }
            Breaker::Consecutive {
                half_open_calls, ..
            }
            | Breaker::Resilience4j {
                half_open_calls, ..
            } => {
                if matches!(cfg, Breaker::Resilience4j { .. }) {
                    self.tick_resilience4j(cfg, now, true);
                } else {
                    self.tick(cfg, now);
                }
                match self.st {
                    St::Closed => Some(self.epoch),
                    St::Open => None,
                    St::HalfOpen => {
                        if self.issued < half_open_calls {
                            self.issued += 1;
                            Some(self.epoch)
                        } else {
                            None
                        }
                    }
                    St::Ramp(s) => {
                        if rng.next_unit() < RAMP[s as usize & 1] {
                            Some(self.epoch)
                        } else {
                            None
                        }
                    }
                }
            }
        }
    }

    /// A call's first attempt is being sent at `now`: what a retry-only breaker counts
    /// its failures against (asked only of one, see `RouteRt::counts_calls`).
    pub fn on_first_attempt(&mut self, now: u64) {
        if let Some(w) = &mut self.sre {
            retry_gates::call_started(w, now);
        }
    }

    /// Records the outcome of a call admitted with permit `epoch`.
    pub fn record<R: UnitDouble>(
        &mut self,
        cfg: &Breaker,
        now: u64,
        epoch: u32,
        failure: bool,
        dur_us: u64,
        rng: &mut R,
    ) {
        match *cfg {
            Breaker::None => {}
            Breaker::Polly {
                failure_ratio,
                minimum_throughput,
                break_duration_ms,
                ..
            } => self.record_polly(
                now,
                failure,
                failure_ratio,
                minimum_throughput,
                break_duration_ms,
                rng,
            ),
            Breaker::RetryOnly { .. } => {
                if let (true, Some(w)) = (failure, &mut self.sre) {
                    retry_gates::attempt_failed(w, now);
                }
            }
            Breaker::SreAdaptive { .. } => {
                if !failure {
                    if let Some(w) = &mut self.sre {
                        w.add(now, 1, 1);
                    }
                }
            }
            Breaker::Consecutive {
                failures,
                open_ms,
                open_jitter_ms,
                half_open_calls,
                ..
            } => {
                if epoch != self.epoch {
                    return;
                }
                match self.st {
                    St::Closed => {
                        if failure {
                            self.consec += 1;
                            if self.consec >= failures {
                                self.consec = 0;
                                self.enter_open(now, open_ms * 1000, open_jitter_ms * 1000, rng);
                            }
                        } else {
                            self.consec = 0;
                        }
                    }
                    St::HalfOpen => {
                        if failure {
                            self.enter_open(now, open_ms * 1000, open_jitter_ms * 1000, rng);
                        } else {
                            self.h_calls += 1;
                            if self.h_calls >= half_open_calls {
                                self.enter_closed();
                            }
                        }
                    }
                    _ => {}
                }
            }
            Breaker::Resilience4j { .. } => {
                self.record_resilience4j(cfg, now, epoch, failure, dur_us, rng)
            }
        }
    }

    /// Resilience4j's `onError`/`onSuccess` with `CircuitBreakerMetrics` (and seed 004's
    /// gradual-recovery stages).
    fn record_resilience4j<R: UnitDouble>(
        &mut self,
        cfg: &Breaker,
        now: u64,
        epoch: u32,
        failure: bool,
        dur_us: u64,
        rng: &mut R,
    ) {
        let Breaker::Resilience4j {
            window,
            window_size,
            minimum_calls,
            failure_rate_percent,
            slow_call_ms,
            slow_call_rate_percent,
            wait_open_ms,
            open_jitter_ms,
            half_open_calls,
            ramp_stage_ms,
            ..
        } = *cfg
        else {
            return;
        };
        self.tick_resilience4j(cfg, now, false);
        // Resilience4j records an answer into whatever state is current, however
        // old its permit (`CircuitBreakerStateMachine.onError`/`onSuccess`); only
        // the gradual-recovery stages (seed 004's own code) judge their own calls.
        if epoch != self.epoch && matches!(self.st, St::Ramp(_)) {
            return;
        }
        let slow = slow_call_ms.is_some_and(|s| dur_us > s * 1000);
        let bits = (failure as u8 * FAIL) | (slow as u8 * SLOW);
        // `SnapshotImpl`: `failed * 100.0f / total`, a float against the float
        // threshold.
        let (fr, sr) = (failure_rate_percent as f32, slow_call_rate_percent as f32);
        let exceeded = |calls: u64, fails: u64, slows: u64| {
            calls > 0
                && (fails as f32 * 100.0 / calls as f32 >= fr
                    || slows as f32 * 100.0 / calls as f32 >= sr)
        };
        match self.st {
            St::Closed => {
                self.push(window, window_size, now, bits);
                // Resilience4j: rates are judged once the window holds
                // minimumNumberOfCalls (capped at the window size for count windows).
                let min = match window {
                    WindowKind::Count => minimum_calls.min(window_size),
                    WindowKind::Time => minimum_calls,
                } as u64;
                if self.calls >= min && exceeded(self.calls, self.fails, self.slows) {
                    self.enter_open(now, wait_open_ms * 1000, open_jitter_ms * 1000, rng);
                }
            }
            St::HalfOpen => {
                self.h_calls += 1;
                self.h_fails += failure as u32;
                self.h_slows += slow as u32;
                // `CircuitBreakerMetrics.forHalfOpen`: a count window of the
                // permitted calls, judged from min(minimum calls, permits) answers.
                if self.h_calls >= minimum_calls.min(half_open_calls) {
                    if exceeded(
                        self.h_calls as u64,
                        self.h_fails as u64,
                        self.h_slows as u64,
                    ) {
                        self.enter_open(now, wait_open_ms * 1000, open_jitter_ms * 1000, rng);
                    } else if let Some(r) = ramp_stage_ms {
                        self.st = St::Ramp(0);
                        self.epoch = self.epoch.wrapping_add(1);
                        self.stage_until = now.saturating_add(r * 1000);
                        self.reset_half();
                    } else {
                        self.enter_closed();
                    }
                }
            }
            St::Ramp(_) => {
                self.h_calls += 1;
                self.h_fails += failure as u32;
                self.h_slows += slow as u32;
                if self.h_calls >= minimum_calls
                    && exceeded(
                        self.h_calls as u64,
                        self.h_fails as u64,
                        self.h_slows as u64,
                    )
                {
                    self.enter_open(now, wait_open_ms * 1000, open_jitter_ms * 1000, rng);
                }
            }
            St::Open => {}
        }
    }

    /// Polly's `OnUnhandledOutcomeAsync` (a success) and `OnHandledOutcomeAsync` (a
    /// failure), with `AdvancedCircuitBehavior`: an answer is judged in the state
    /// current when it arrives, whatever its permit.
    fn record_polly<R: UnitDouble>(
        &mut self,
        now: u64,
        failure: bool,
        ratio: f64,
        minimum: u32,
        break_ms: u64,
        rng: &mut R,
    ) {
        let Some(h) = &mut self.health else {
            return;
        };
        if !failure {
            // Counted in every state; a half-open circuit closes and forgets.
            h.success(now);
            if self.st == St::HalfOpen {
                h.reset();
                self.enter_closed();
            }
            return;
        }
        let should_break = match self.st {
            St::Closed => {
                h.failure(now);
                let info = h.info(now);
                info.throughput >= minimum && info.failure_rate() >= ratio
            }
            // Tracked only: a late failure neither re-signals nor extends the break.
            St::Open => {
                h.failure(now);
                false
            }
            _ => false,
        };
        if self.st == St::HalfOpen || should_break {
            self.enter_open(now, break_ms.saturating_mul(1000), 0, rng);
        }
    }

    fn push(&mut self, window: WindowKind, size: u32, now: u64, bits: u8) {
        match window {
            WindowKind::Count => {
                let n = self.ring.len();
                if n == 0 {
                    return;
                }
                if self.ring_len == n {
                    let old = self.ring[self.ring_pos];
                    self.calls -= 1;
                    self.fails -= (old & FAIL != 0) as u64;
                    self.slows -= (old & SLOW != 0) as u64;
                } else {
                    self.ring_len += 1;
                }
                self.ring[self.ring_pos] = bits;
                // ring_pos < n: wrap without a division.
                self.ring_pos = if self.ring_pos + 1 >= n {
                    0
                } else {
                    self.ring_pos + 1
                };
            }
            WindowKind::Time => {
                let n = size as u64;
                let sec = now / 1_000_000;
                if self.calls == 0 && self.ring_len == 0 {
                    self.head_sec = sec;
                    self.head_idx = (sec % n) as usize;
                    self.ring_len = 1;
                }
                if sec > self.head_sec {
                    // Evict the buckets the window slid past (at most n of them).
                    let steps = (sec - self.head_sec).min(n);
                    for s in 1..=steps {
                        let i = ((self.head_sec + s) % n) as usize;
                        let b = self.tbuckets[i];
                        self.calls -= b[0] as u64;
                        self.fails -= b[1] as u64;
                        self.slows -= b[2] as u64;
                        self.tbuckets[i] = [0; 3];
                    }
                    self.head_sec = sec;
                    self.head_idx = (sec % n) as usize;
                }
                let i = if sec == self.head_sec {
                    self.head_idx
                } else {
                    (sec % n) as usize
                };
                let b = &mut self.tbuckets[i];
                b[0] += 1;
                b[1] += (bits & FAIL != 0) as u32;
                b[2] += (bits & SLOW != 0) as u32;
            }
        }
        self.calls += 1;
        self.fails += (bits & FAIL != 0) as u64;
        self.slows += (bits & SLOW != 0) as u64;
    }
}
