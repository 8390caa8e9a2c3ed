//! The combined effect of the faults active on one instance.

use super::scenario::{Fault, FaultEffect};

/// What the active faults do to an instance right now.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    /// Fail fast with `error`.
    pub outage: bool,
    /// Swallow responses until the hang ends.
    pub hang: bool,
    /// Stopped until this time, µs (0 when not paused).
    pub pause_until: u64,
    /// Service-rate factor (product of brownouts).
    pub factor: f64,
    /// Extra error probability (combined as independent failures).
    pub error_rate: f64,
    /// Extra service latency, µs.
    pub added_us: u64,
}

impl Effect {
    /// No fault.
    pub const NONE: Effect = Effect {
        outage: false,
        hang: false,
        pause_until: 0,
        factor: 1.0,
        error_rate: 0.0,
        added_us: 0,
    };

    /// Combines the active faults (`active` holds indices into `faults`, in index order so
    /// that the float products are always taken in the same order) covering `instance`.
    pub fn of(faults: &[Fault], active: &[u32], instance: u32) -> Effect {
        let mut e = Effect::NONE;
        for &fi in active {
            let Some(f) = faults.get(fi as usize) else {
                continue;
            };
            if f.instances.is_some_and(|n| instance >= n) {
                continue;
            }
            match f.effect {
                FaultEffect::Outage => e.outage = true,
                FaultEffect::Hang => e.hang = true,
                FaultEffect::Pause => {
                    let end = f
                        .start_ms
                        .saturating_add(f.duration_ms)
                        .saturating_mul(1000);
                    e.pause_until = e.pause_until.max(end);
                }
                FaultEffect::Brownout { factor } => e.factor *= factor,
                FaultEffect::ErrorRate { rate } => {
                    e.error_rate = 1.0 - (1.0 - e.error_rate) * (1.0 - rate)
                }
                FaultEffect::Latency { added_ms } => {
                    e.added_us = e.added_us.saturating_add(super::math::us_of_ms(added_ms));
                }
                // Judged by the time a job was admitted, not now: see `Admitted`.
                FaultEffect::LatencyAdmitted { .. } => {}
            }
        }
        e
    }
}

/// The indices of tier `tier`'s `latency_admitted` faults, in fault order (plain
/// indices, as `active` holds: no type of its own in the page's wasm).
pub fn admitted_of_tier(faults: &[Fault], tier: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for (fi, f) in faults.iter().enumerate() {
        if f.tier == tier && matches!(f.effect, FaultEffect::LatencyAdmitted { .. }) {
            out.push(fi as u32);
        }
    }
    out
}

/// The extra service time of a job that `instance` admitted at `admitted` µs: the sum of
/// the `latency_admitted` faults among `which` (indices into `faults`) covering the
/// instance whose window `[start, end)` held that instant.
pub fn admitted_us(faults: &[Fault], which: &[u32], instance: u32, admitted: u64) -> u64 {
    let mut us = 0u64;
    for &fi in which {
        let Some(f) = faults.get(fi as usize) else {
            continue;
        };
        if let FaultEffect::LatencyAdmitted { added_ms } = f.effect {
            let start = f.start_ms.saturating_mul(1000);
            let end = f
                .start_ms
                .saturating_add(f.duration_ms)
                .saturating_mul(1000);
            if f.instances.is_none_or(|n| instance < n) && start <= admitted && admitted < end {
                us = us.saturating_add(super::math::us_of_ms(added_ms));
            }
        }
    }
    us
}
