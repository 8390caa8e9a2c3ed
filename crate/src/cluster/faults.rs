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
    /// Extra service latency of the services that start now, µs.
    pub added_us: u64,
    /// Extra service latency of the work admitted now, µs, whenever it starts.
    pub admitted_us: u64,
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
        admitted_us: 0,
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
                FaultEffect::LatencyAdmitted { added_ms } => {
                    e.admitted_us = e
                        .admitted_us
                        .saturating_add(super::math::us_of_ms(added_ms));
                }
            }
        }
        e
    }
}
