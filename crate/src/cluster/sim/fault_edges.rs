//! Fault edges: what happens at the start and end of a scheduled fault.

use super::*;

impl Simulation {
    pub(super) fn fault_edge(&mut self, fi: u32, start: bool, now: u64) {
        let Some(f) = self.sc.faults.get(fi as usize) else {
            return;
        };
        let t = f.tier as usize;
        let n = f.instances.unwrap_or(self.sc.tiers[t].instances);
        let effect = f.effect.clone();
        {
            let active = &mut self.tiers[t].active;
            if start {
                let pos = active.partition_point(|&x| x < fi);
                active.insert(pos, fi);
            } else if let Some(pos) = active.iter().position(|&x| x == fi) {
                active.remove(pos);
            }
        }
        for i in 0..n {
            let fx = self.effect(t, i);
            match (&effect, start) {
                (FaultEffect::Outage, true) => {
                    // The process is gone: everything waiting in its queue fails.
                    while let Some(j) = self.tiers[t].inst[i as usize].queue.pop_front() {
                        let tr = &mut self.tiers[t];
                        tr.queued -= 1;
                        tr.queued_m = tr.queued_m.wrapping_sub(now);
                        self.end_job(j, Outcome::Error, now);
                    }
                }
                (FaultEffect::Hang, false) if !fx.hang => {
                    // Connections reset: held requests fail.
                    let hung = std::mem::take(&mut self.tiers[t].inst[i as usize].hung);
                    for j in hung {
                        if self.jobs[j as usize].st == St::Hung {
                            self.end_job(j, Outcome::Error, now);
                        }
                    }
                }
                (_, false) => self.kick(t, i, now),
                _ => {}
            }
        }
    }
}
