//! The checks of a cluster scenario: every field against its bound ([`super::bounds`]),
//! each problem named by its full path, collected by [`crate::validate::Problems`].

use super::*;
use crate::validate::{Problems, ValidationError};

fn ms(p: &mut Problems, field: &str, v: u64) {
    p.range(field, v, 0, MAX_TIME_MS);
}

fn ms_f(p: &mut Problems, field: &str, v: f64) {
    p.range_f64(field, v, 0.0, MAX_TIME_MS as f64);
}

impl Dist {
    fn problems(&self, p: &mut Problems) {
        match *self {
            Dist::Constant { ms } => ms_f(p, "ms", ms),
            Dist::Exponential { mean_ms } => ms_f(p, "mean_ms", mean_ms),
            Dist::Lognormal { p50_ms, p99_ms } => {
                p.range_f64("p50_ms", p50_ms, MIN_P50_MS, MAX_TIME_MS as f64);
                p.range_f64("p99_ms", p99_ms, p50_ms, MAX_TIME_MS as f64);
            }
        }
    }
}

impl Budget {
    fn problems(&self, p: &mut Problems) {
        match *self {
            Budget::None => {}
            Budget::CapacityPercent {
                percent,
                capacity_per_s,
                ..
            } => {
                p.range_f64("percent", percent, 0.0, MAX_BUDGET_PERCENT);
                p.range_f64("capacity_per_s", capacity_per_s, 0.0, MAX_RATE);
            }
            Budget::TokenBucket {
                percent,
                max_tokens,
                ..
            }
            | Budget::SuccessBucket {
                percent,
                max_tokens,
                ..
            } => {
                p.range_f64("percent", percent, 0.0, 100.0);
                p.range("max_tokens", max_tokens, 1, MAX_TOKENS);
            }
            Budget::GrpcThrottle {
                max_tokens,
                token_ratio,
                ..
            } => {
                p.range("max_tokens", max_tokens, 1, MAX_GRPC_TOKENS);
                p.range_f64(
                    "token_ratio",
                    token_ratio,
                    MIN_GRPC_TOKEN_RATIO,
                    max_tokens as f64,
                );
            }
            Budget::Windowed {
                ttl_ms,
                min_retries_per_sec,
                percent_can_retry,
                ..
            } => {
                p.range("ttl_ms", ttl_ms, MIN_TTL_MS, MAX_TTL_MS);
                p.range("min_retries_per_sec", min_retries_per_sec, 0, MAX_COUNT);
                p.range_f64(
                    "percent_can_retry",
                    percent_can_retry,
                    0.0,
                    MAX_BUDGET_PERCENT,
                );
            }
            Budget::Ratio {
                ratio_percent,
                window_ms,
                min_requests,
                ..
            } => {
                p.range_f64("ratio_percent", ratio_percent, 0.0, MAX_BUDGET_PERCENT);
                if window_ms != 0 {
                    p.range("window_ms", window_ms, MIN_RATIO_WINDOW_MS, MAX_TIME_MS);
                }
                p.range("min_requests", min_requests, 0, MAX_MIN_REQUESTS);
            }
            Budget::AwsQuota {
                initial_tokens,
                retry_cost,
                timeout_cost,
                no_retry_increment,
                ..
            } => {
                p.range("initial_tokens", initial_tokens, 1, MAX_TOKENS);
                p.range("retry_cost", retry_cost, 0, MAX_TOKENS);
                p.range("timeout_cost", timeout_cost, 0, MAX_TOKENS);
                p.range("no_retry_increment", no_retry_increment, 0, MAX_TOKENS);
            }
            Budget::EnvoyRetryBudget {
                budget_percent,
                min_retry_concurrency,
                ..
            } => {
                p.range_f64("budget_percent", budget_percent, 0.0, 100.0);
                p.range("min_retry_concurrency", min_retry_concurrency, 0, MAX_COUNT);
            }
            Budget::EnvoyMaxRetries { max_retries, .. } => {
                p.range("max_retries", max_retries, 0, MAX_COUNT);
            }
        }
    }
}

impl Breaker {
    fn problems(&self, p: &mut Problems, instances: u32) {
        match *self {
            Breaker::None => {}
            Breaker::Consecutive {
                failures,
                open_ms,
                open_jitter_ms,
                half_open_calls,
                ..
            } => {
                p.range("failures", failures, 1, MAX_COUNT);
                ms(p, "open_ms", open_ms);
                ms(p, "open_jitter_ms", open_jitter_ms);
                p.range("half_open_calls", half_open_calls, 1, MAX_HALF_OPEN_CALLS);
            }
            Breaker::Resilience4j {
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
                automatic_half_open: _,
                scope,
            } => {
                let max = match window {
                    WindowKind::Count => MAX_COUNT_WINDOW,
                    WindowKind::Time => MAX_TIME_WINDOW_S,
                };
                p.range("window_size", window_size, 1, max);
                // Memory: one ring of window_size cells per breaker.
                let cells = window_size as u64 * scope.slots(instances) as u64;
                if cells > MAX_WINDOW_CELLS {
                    p.push(ValidationError::new(
                        "window_size",
                        window_size,
                        format!("window_size × breakers ≤ {MAX_WINDOW_CELLS} (use a smaller window or a shared scope)"),
                    ));
                }
                p.range("minimum_calls", minimum_calls, 1, MAX_COUNT);
                p.range_f64("failure_rate_percent", failure_rate_percent, 1.0, 100.0);
                if let Some(s) = slow_call_ms {
                    p.range("slow_call_ms", s, 1, MAX_TIME_MS);
                }
                p.range_f64("slow_call_rate_percent", slow_call_rate_percent, 1.0, 100.0);
                ms(p, "wait_open_ms", wait_open_ms);
                ms(p, "open_jitter_ms", open_jitter_ms);
                p.range("half_open_calls", half_open_calls, 1, MAX_HALF_OPEN_CALLS);
                if let Some(r) = ramp_stage_ms {
                    p.range("ramp_stage_ms", r, 1, MAX_TIME_MS);
                }
            }
            Breaker::RetryOnly {
                failure_percent,
                window_ms,
                ..
            } => {
                p.range_f64(
                    "failure_percent",
                    failure_percent,
                    0.0,
                    MAX_RETRY_FAILURE_PERCENT,
                );
                if window_ms != 0 {
                    p.range("window_ms", window_ms, MIN_RATIO_WINDOW_MS, MAX_TIME_MS);
                }
            }
            Breaker::SreAdaptive { k, window_ms, .. } => {
                p.range_f64("k", k, 1.0, MAX_SRE_K);
                p.range("window_ms", window_ms, MIN_SRE_WINDOW_MS, MAX_TIME_MS);
            }
            Breaker::Polly {
                failure_ratio,
                minimum_throughput,
                sampling_duration_ms,
                break_duration_ms,
                ..
            } => {
                p.range_f64("failure_ratio", failure_ratio, 0.0, 1.0);
                p.range(
                    "minimum_throughput",
                    minimum_throughput,
                    MIN_POLLY_THROUGHPUT,
                    MAX_COUNT,
                );
                let (lo, hi) = (MIN_POLLY_DURATION_MS, MAX_POLLY_DURATION_MS);
                p.range("sampling_duration_ms", sampling_duration_ms, lo, hi);
                p.range("break_duration_ms", break_duration_ms, lo, hi);
            }
        }
    }
}

impl Backoff {
    fn problems(&self, p: &mut Problems) {
        match self {
            Backoff::None => {}
            Backoff::Fixed { delays_ms } => {
                p.len("delays_ms", delays_ms.len(), 1, MAX_DELAYS);
                for (i, d) in delays_ms.iter().enumerate() {
                    ms(p, &format!("delays_ms[{i}]"), *d);
                }
            }
            Backoff::Constant { ms: d } => ms(p, "ms", *d),
            Backoff::Exponential {
                base_ms,
                multiplier,
                cap_ms,
            } => {
                ms(p, "base_ms", *base_ms);
                p.range_f64("multiplier", *multiplier, 1.0, MAX_MULTIPLIER);
                p.range("cap_ms", *cap_ms, *base_ms, MAX_TIME_MS);
            }
            Backoff::ExponentialDistributed { mean_ms } => ms_f(p, "mean_ms", *mean_ms),
            library => library_problems(library, p),
        }
    }
}

/// The `kind` a jitter is written with.
fn jitter_kind(j: &Jitter) -> &'static str {
    match j {
        Jitter::None => "none",
        Jitter::Full => "full",
        Jitter::Equal => "equal",
        Jitter::Decorrelated => "decorrelated",
        Jitter::Percent { .. } => "percent",
    }
}

/// A library rule's settings: times within the engine's clock bound, multipliers within
/// [`MAX_MULTIPLIER`], factors in 0..=1, each upper bound at least its lower one.
fn library_problems(b: &Backoff, p: &mut Problems) {
    let multiplier =
        |p: &mut Problems, field: &str, m: f64| p.range_f64(field, m, 1.0, MAX_MULTIPLIER);
    let factor = |p: &mut Problems, field: &str, f: f64| p.range_f64(field, f, 0.0, 1.0);
    let max_s = MAX_TIME_MS as f64 / 1000.0;
    match b {
        Backoff::Resilience4j(r) => {
            p.range("wait_duration_ms", r.wait_duration_ms, 1, MAX_TIME_MS);
            if let Some(m) = r.exponential_backoff_multiplier {
                multiplier(p, "exponential_backoff_multiplier", m);
            }
            if let Some(f) = r.randomized_wait_factor {
                factor(p, "randomized_wait_factor", f);
            }
            if let Some(max) = r.exponential_max_wait_duration_ms {
                p.range("exponential_max_wait_duration_ms", max, 1, MAX_TIME_MS);
            }
        }
        Backoff::Grpc(g) => {
            p.range_f64(
                "initial_backoff_ms",
                g.initial_backoff_ms,
                0.001,
                MAX_TIME_MS as f64,
            );
            multiplier(p, "backoff_multiplier", g.backoff_multiplier);
            let lo = g.initial_backoff_ms.clamp(0.001, MAX_TIME_MS as f64);
            p.range_f64("max_backoff_ms", g.max_backoff_ms, lo, MAX_TIME_MS as f64);
        }
        Backoff::Envoy(e) => {
            p.range("base_interval_ms", e.base_interval_ms, 1, MAX_TIME_MS);
            if let Some(max) = e.max_interval_ms {
                let lo = e.base_interval_ms.clamp(1, MAX_TIME_MS);
                p.range("max_interval_ms", max, lo, MAX_TIME_MS);
            }
        }
        Backoff::Polly(b) => {
            ms_f(p, "delay_ms", b.delay_ms);
            if let Some(max) = b.max_delay_ms {
                ms_f(p, "max_delay_ms", max);
            }
        }
        Backoff::Aws(_) => {}
        Backoff::Tenacity(t) => {
            p.range_f64("multiplier", t.multiplier, 0.0, max_s);
            multiplier(p, "exp_base", t.exp_base);
            p.range_f64("min_s", t.min_s, 0.0, max_s);
            if let Some(max) = t.max_s {
                p.range_f64("max_s", max, 0.0, max_s);
            }
            p.range_f64("jitter_s", t.jitter_s, 0.0, max_s);
        }
        Backoff::CenkaltiBackoff(c) => {
            ms_f(p, "initial_interval_ms", c.initial_interval_ms);
            factor(p, "randomization_factor", c.randomization_factor);
            multiplier(p, "multiplier", c.multiplier);
            let lo = c.initial_interval_ms.clamp(0.0, MAX_TIME_MS as f64);
            p.range_f64("max_interval_ms", c.max_interval_ms, lo, MAX_TIME_MS as f64);
        }
        Backoff::FailsafeGo(f) => {
            ms_f(p, "delay_ms", f.delay_ms);
            if let Some(max) = f.max_delay_ms {
                let lo = f.delay_ms.clamp(0.0, MAX_TIME_MS as f64);
                p.range_f64("max_delay_ms", max, lo, MAX_TIME_MS as f64);
            }
            multiplier(p, "delay_factor", f.delay_factor);
            factor(p, "jitter_factor", f.jitter_factor);
            ms_f(p, "jitter_ms", f.jitter_ms);
        }
        Backoff::SpringCloudGateway(g) => {
            p.range("first_backoff_ms", g.first_backoff_ms, 1, MAX_TIME_MS);
            if let Some(max) = g.max_backoff_ms {
                let lo = g.first_backoff_ms.clamp(1, MAX_TIME_MS);
                p.range("max_backoff_ms", max, lo, MAX_TIME_MS);
            }
            p.range("backoff_factor", g.backoff_factor, 1, MAX_MULTIPLIER as u32);
        }
        Backoff::None
        | Backoff::Fixed { .. }
        | Backoff::Constant { .. }
        | Backoff::Exponential { .. }
        | Backoff::ExponentialDistributed { .. } => {}
    }
}

impl Client {
    fn problems(&self, p: &mut Problems, instances: u32) {
        p.range("timeout_ms", self.timeout_ms, 1, MAX_TIME_MS);
        p.range("max_attempts", self.max_attempts, 1, MAX_ATTEMPTS);
        p.at("backoff", |p| self.backoff.problems(p));
        if self.backoff.randomizes() && self.jitter != Jitter::None {
            // A library's rule already randomizes the way that library does, and an
            // exponentially distributed delay is random by itself; a second jitter on top
            // would simulate no real client (nor the model it follows).
            p.push(ValidationError::new(
                "jitter.kind",
                jitter_kind(&self.jitter),
                if self.backoff.is_library() {
                    "none: this backoff randomizes by its library's own rule"
                } else {
                    "none: an exponentially distributed delay is random by itself"
                },
            ));
        }
        if let Jitter::Percent { percent } = self.jitter {
            p.range_f64("jitter.percent", percent, 0.0, 100.0);
        }
        p.len("retry_on", self.retry_on.len(), 0, RetryOn::kinds().len());
        p.at("budget", |p| self.budget.problems(p));
        p.at("breaker", |p| self.breaker.problems(p, instances));
        if let Some(b) = &self.bulkhead {
            p.at("bulkhead", |p| {
                p.range("max_concurrent", b.max_concurrent, 1, MAX_COUNT);
                p.range("max_queue", b.max_queue, 0, MAX_COUNT);
                ms(p, "max_wait_ms", b.max_wait_ms);
            });
        }
        if let Some(c) = &self.cost {
            p.at("cost", |p| c.problems(p));
        }
        if let Some(n) = &self.network {
            p.at("network", |p| {
                p.at("request", |p| n.request.problems(p));
                p.at("response", |p| n.response.problems(p));
            });
        }
    }
}

impl Tier {
    fn route_problems(&self, p: &mut Problems, k: usize, n_tiers: usize) {
        if self.client.is_some() {
            p.push(ValidationError::new(
                "routes",
                format!("{} routes", self.routes.len()),
                "absent when `client` is set (a tier calls the next tier or its routes)",
            ));
        }
        p.len("routes", self.routes.len(), 0, MAX_ROUTES);
        for (r, route) in self.routes.iter().enumerate() {
            p.at(&format!("routes[{r}]"), |p| {
                if route.to as usize <= k || route.to as usize >= n_tiers {
                    p.push(ValidationError::new(
                        "to",
                        route.to,
                        format!("{}..={} (a later tier)", k + 1, n_tiers.saturating_sub(1)),
                    ));
                }
                p.range_f64("weight", route.weight, MIN_ROUTE_WEIGHT, MAX_ROUTE_WEIGHT);
                p.at("client", |p| route.client.problems(p, self.instances));
                let first = &self.routes[0].client;
                if self.route_sharing.budget && route.client.budget != first.budget {
                    p.push(ValidationError::new(
                        "client.budget",
                        "a different budget",
                        "the budget of routes[0] (route_sharing.budget shares one)",
                    ));
                }
                if self.route_sharing.breaker && route.client.breaker != first.breaker {
                    p.push(ValidationError::new(
                        "client.breaker",
                        "a different breaker",
                        "the breaker of routes[0] (route_sharing.breaker shares one)",
                    ));
                }
            });
        }
    }

    fn problems(&self, p: &mut Problems, last: bool) {
        p.name("name", &self.name, MAX_TIER_NAME_CHARS);
        p.range("instances", self.instances, 1, MAX_INSTANCES);
        p.range("concurrency", self.concurrency, 1, MAX_CONCURRENCY);
        p.range("queue_capacity", self.queue_capacity, 0, MAX_COUNT);
        if let Some(q) = self.queue_timeout_ms {
            ms(p, "queue_timeout_ms", q);
        }
        p.at("service", |p| self.service.problems(p));
        p.range_f64(
            "slowdown_per_in_flight",
            self.slowdown_per_in_flight,
            0.0,
            1.0,
        );
        p.range_f64("error_rate", self.error_rate, 0.0, 1.0);
        match (&self.client, last) {
            (Some(_), true) => p.push(ValidationError::new(
                "client",
                "present",
                "absent on the last tier (it calls nothing)",
            )),
            (None, false) => p.push(ValidationError::new(
                "client",
                "absent",
                "present on every tier but the last",
            )),
            (Some(c), false) => p.at("client", |p| c.problems(p, self.instances)),
            (None, true) => {}
        }
    }
}

impl Scenario {
    /// Every problem of the scenario, each naming its field by its full path
    /// (`tiers[1].client.budget.percent`), its value and the allowed range, in field
    /// order; empty when the scenario is valid.
    pub fn problems(&self) -> Vec<ValidationError> {
        let mut p = Problems::new();
        p.name("name", &self.name, MAX_SCENARIO_NAME_CHARS);
        let chars = self.description.chars().count();
        if chars > MAX_DESCRIPTION_CHARS {
            p.push(ValidationError::new(
                "description",
                format!("{chars} characters"),
                format!("0..={MAX_DESCRIPTION_CHARS} characters"),
            ));
        }
        p.range("duration_ms", self.duration_ms, 1, MAX_DURATION_MS);
        p.range("bucket_ms", self.bucket_ms, MIN_BUCKET_MS, MAX_TIME_MS);
        // Only a bucket width in range can be divided by.
        if self.bucket_ms >= MIN_BUCKET_MS
            && self.duration_ms.div_ceil(self.bucket_ms) > MAX_BUCKETS
        {
            p.push(ValidationError::new(
                "bucket_ms",
                self.bucket_ms,
                format!("duration_ms / bucket_ms ≤ {MAX_BUCKETS} buckets"),
            ));
        }
        p.range("max_events", self.max_events, 1, MAX_EVENTS_LIMIT);
        p.at("load", |p| self.load.problems(p));
        p.len("tiers", self.tiers.len(), 1, MAX_TIERS);
        let n = self.tiers.len();
        if self.tiers.iter().all(|t| t.routes.is_empty()) {
            // A chain: tier i calls tier i + 1 through its client.
            for (i, t) in self.tiers.iter().enumerate() {
                p.at(&format!("tiers[{i}]"), |p| t.problems(p, i + 1 == n));
            }
        } else {
            // A tree: each tier's client or routes name its callees.
            let mut callers = vec![0usize; n];
            for (i, t) in self.tiers.iter().enumerate() {
                p.at(&format!("tiers[{i}]"), |p| {
                    // A leaf needs no client; the last tier may have none.
                    t.problems(p, i + 1 == n || t.client.is_none());
                    if !t.routes.is_empty() {
                        t.route_problems(p, i, n);
                    }
                });
                for c in t.callees(i) {
                    if let Some(x) = callers.get_mut(c) {
                        *x += 1;
                    }
                }
            }
            for (j, &c) in callers.iter().enumerate().skip(1) {
                if c != 1 {
                    p.push(ValidationError::new(
                        format!("tiers[{j}]"),
                        format!("called by {c} tiers"),
                        "called by exactly one tier (a `client` on the tier before it, or routes of one tier)",
                    ));
                }
            }
        }
        let total: u64 = self.tiers.iter().map(|t| u64::from(t.instances)).sum();
        if total > MAX_TOTAL_INSTANCES {
            p.push(ValidationError::new(
                "tiers",
                format!("{total} instances"),
                format!("at most {MAX_TOTAL_INSTANCES} instances over all tiers"),
            ));
        }
        p.len("faults", self.faults.len(), 0, MAX_FAULTS);
        for (i, f) in self.faults.iter().enumerate() {
            p.at(&format!("faults[{i}]"), |p| self.fault_problems(p, f));
        }
        let s = &self.steady;
        p.at("steady", |p| {
            ms(p, "warmup_ms", s.warmup_ms);
            p.range_f64("success_tolerance", s.success_tolerance, 0.0, 1.0);
            p.range_f64(
                "amplification_tolerance",
                s.amplification_tolerance,
                0.0,
                MAX_AMPLIFICATION_TOLERANCE,
            );
            ms(p, "hold_ms", s.hold_ms);
            p.range_f64("z_score", s.z_score, 0.0, MAX_Z_SCORE);
            ms(p, "late_ms", s.late_ms);
        });
        p.into_vec()
    }

    /// The first problem, if any: what the engine refuses to run.
    pub fn validate(&self) -> Result<(), ValidationError> {
        self.problems().into_iter().next().map_or(Ok(()), Err)
    }

    fn fault_problems(&self, p: &mut Problems, f: &Fault) {
        // The tier must exist before its instance count can bound `instances`.
        let tier = self.tiers.get(f.tier as usize);
        if tier.is_none() {
            p.push(ValidationError::new(
                "tier",
                f.tier,
                format!(
                    "0..={} (an index into tiers)",
                    self.tiers.len().saturating_sub(1)
                ),
            ));
        }
        p.range("start_ms", f.start_ms, 0, MAX_DURATION_MS);
        p.range("duration_ms", f.duration_ms, 0, MAX_DURATION_MS);
        if let (Some(n), Some(t)) = (f.instances, tier) {
            p.range("instances", n, 1, t.instances);
        }
        p.at("effect", |p| match f.effect {
            FaultEffect::Brownout { factor } => {
                p.range_f64("factor", factor, MIN_BROWNOUT_FACTOR, 1.0)
            }
            FaultEffect::ErrorRate { rate } => p.range_f64("rate", rate, 0.0, 1.0),
            FaultEffect::Latency { added_ms } | FaultEffect::LatencyAdmitted { added_ms } => {
                ms_f(p, "added_ms", added_ms)
            }
            FaultEffect::Outage | FaultEffect::Hang | FaultEffect::Pause => {}
        });
    }
}

impl Load {
    fn problems(&self, p: &mut Problems) {
        p.range_f64("rate_per_s", self.rate_per_s, 0.0, MAX_RATE);
        p.len("schedule", self.schedule.len(), 0, MAX_SEGMENTS);
        for (i, s) in self.schedule.iter().enumerate() {
            p.at(&format!("schedule[{i}]"), |p| {
                p.range("start_ms", s.start_ms, 0, MAX_DURATION_MS);
                p.range("end_ms", s.end_ms, s.start_ms, MAX_DURATION_MS);
                p.range_f64("rate_per_s", s.rate_per_s, 0.0, MAX_RATE);
                if let Some(r) = s.to_rate_per_s {
                    p.range_f64("to_rate_per_s", r, 0.0, MAX_RATE);
                }
            });
        }
        if let Some(c) = &self.closed_loop {
            p.at("closed_loop", |p| {
                p.range("callers", c.callers, 1, MAX_COUNT);
                p.at("think", |p| c.think.problems(p));
            });
        }
        if let Some(d) = self.deadline_ms {
            p.range("deadline_ms", d, 1, MAX_TIME_MS);
        }
        p.range_f64("idempotent_fraction", self.idempotent_fraction, 0.0, 1.0);
        if self.jitter_ms != 0.0 {
            self.jitter_problems(p);
        }
    }

    /// The most `jitter_ms` may be with constant arrivals, and the load's highest rate
    /// when that rate sets it: [`MAX_JITTER_GAP_SHARE`] of the gap between arrivals at
    /// that rate, or any time a field allows when there are no open-loop arrivals. What
    /// validation checks and the sweep panel offers ([`crate::sweep::numeric_fields`]).
    pub fn jitter_max_ms(&self) -> (f64, Option<f64>) {
        let rates = self.schedule.iter();
        let peak = rates
            .flat_map(|s| [s.rate_per_s, s.to_rate_per_s.unwrap_or(0.0)])
            .fold(self.rate_per_s, f64::max);
        let hi = MAX_JITTER_GAP_SHARE * 1000.0 / peak;
        if peak > 0.0 && hi < MAX_TIME_MS as f64 {
            (hi, Some(peak))
        } else {
            (MAX_TIME_MS as f64, None)
        }
    }

    /// `jitter_ms`: for constant arrivals only, at most [`Self::jitter_max_ms`].
    fn jitter_problems(&self, p: &mut Problems) {
        let j = self.jitter_ms;
        if self.arrivals == Arrivals::Poisson && j.is_finite() && j > 0.0 {
            p.push(ValidationError::new(
                "jitter_ms",
                j,
                crate::validate::EXPECT_NO_JITTER,
            ));
            return;
        }
        let (hi, peak) = self.jitter_max_ms();
        let Some(peak) = peak else {
            ms_f(p, "jitter_ms", j);
            return;
        };
        if !(j.is_finite() && (0.0..=hi).contains(&j)) {
            p.push(ValidationError::new(
                "jitter_ms",
                j,
                format!(
                    "0..={hi} (half the gap between arrivals at the load's highest rate, {peak}/s)"
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, AnyScenario};

    fn stampede() -> Scenario {
        match parse(include_str!(
            "../../../../scenarios/cluster-gc-stampede-naive.json"
        )) {
            Ok(AnyScenario::Cluster(s)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn problems_lists_each_bad_field_by_path() {
        let mut s = stampede();
        s.duration_ms = 0;
        s.bucket_ms = 0;
        s.tiers[0].client.as_mut().unwrap().timeout_ms = 0;
        s.tiers[0].client.as_mut().unwrap().budget = Budget::TokenBucket {
            percent: 101.0,
            max_tokens: 0,
            scope: Scope::Shared,
        };
        s.tiers[1].concurrency = 0;
        s.tiers[1].service = Dist::Lognormal {
            p50_ms: 10.0,
            p99_ms: 5.0,
        };
        s.faults[0].tier = 7;
        s.faults[0].instances = Some(0);
        s.faults.push(Fault {
            effect: FaultEffect::Brownout { factor: 2.0 },
            ..s.faults[0].clone()
        });
        s.faults[1].tier = 1;
        s.faults[1].instances = Some(9);
        let fields: Vec<String> = Scenario::problems(&s)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(
            fields,
            [
                "duration_ms",
                "bucket_ms",
                "tiers[0].client.timeout_ms",
                "tiers[0].client.budget.percent",
                "tiers[0].client.budget.max_tokens",
                "tiers[1].concurrency",
                "tiers[1].service.p99_ms",
                // The instance count of a fault on a tier that does not exist is not judged.
                "faults[0].tier",
                "faults[1].instances",
                "faults[1].effect.factor",
            ]
        );
        assert!(Scenario::problems(&stampede()).is_empty());
        // The first problem is the one the engine reports.
        assert_eq!(Scenario::problems(&s)[0], s.validate().unwrap_err());
    }
}
