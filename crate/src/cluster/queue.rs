//! The event queue: a binary min-heap keyed by (time, sequence number).
//!
//! Two events at the same microsecond run in the order they were scheduled: the
//! sequence number is a counter bumped on every push, so ties never depend on heap
//! layout, hashing or the platform. That is the whole determinism argument for ordering.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// What happens at an event (the payload `a`/`b` meaning is per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Next open-loop arrival.
    Arrival,
    /// Closed-loop caller `a` sends its next request.
    Think,
    /// Job `a` (generation `b`) finishes its local service.
    ServiceEnd,
    /// Job `a`'s outstanding attempt (generation `b`) times out.
    AttemptTimeout,
    /// Job `a`'s backoff (generation `b`) is over: send the next attempt.
    RetryFire,
    /// Entry job `a` (uid `b`) reaches its end-to-end deadline.
    EntryTimeout,
    /// Job `a` (generation `b`) got a bulkhead slot.
    BulkheadGrant,
    /// Fault `a` starts (`b` = 0) or ends (`b` = 1).
    FaultEdge,
}

/// A scheduled event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Simulated time, µs.
    pub time: u64,
    /// Scheduling order, the tie-breaker.
    pub seq: u64,
    /// What happens.
    pub kind: Kind,
    /// First operand.
    pub a: u32,
    /// Second operand.
    pub b: u32,
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the earliest event first.
        (other.time, other.seq).cmp(&(self.time, self.seq))
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The pending events.
///
/// Besides the heap, it keeps FIFO *lanes* for events whose times arrive in
/// non-decreasing order (an attempt timeout is always `now + the tier's timeout`).
/// Those never enter the heap, which keeps it small; `pop` takes the smallest
/// (time, seq) among the heap top and the lane heads, so the order is exactly the one a
/// single heap would give.
#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Event>,
    lanes: Vec<VecDeque<Event>>,
    seq: u64,
}

impl EventQueue {
    /// An empty queue with room for `cap` events and `lanes` FIFO lanes.
    pub fn with_capacity(cap: usize, lanes: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(cap),
            lanes: (0..lanes).map(|_| VecDeque::with_capacity(cap)).collect(),
            seq: 0,
        }
    }

    /// Schedules an event through FIFO lane `lane` (falls back to the heap when it would
    /// break the lane's order or the lane does not exist).
    #[inline]
    pub fn push_lane(&mut self, lane: usize, time: u64, kind: Kind, a: u32, b: u32) {
        self.seq += 1;
        let ev = Event {
            time,
            seq: self.seq,
            kind,
            a,
            b,
        };
        match self.lanes.get_mut(lane) {
            Some(l) if l.back().is_none_or(|x| x.time <= time) => l.push_back(ev),
            _ => self.heap.push(ev),
        }
    }

    /// Where the earliest event is: `None` = heap, `Some(i)` = lane i.
    #[inline]
    fn earliest(&self) -> Option<(Option<usize>, u64, u64)> {
        let mut best = self.heap.peek().map(|e| (None, e.time, e.seq));
        for (i, l) in self.lanes.iter().enumerate() {
            if let Some(e) = l.front() {
                if best.is_none_or(|(_, t, s)| (e.time, e.seq) < (t, s)) {
                    best = Some((Some(i), e.time, e.seq));
                }
            }
        }
        best
    }

    /// Schedules an event.
    #[inline]
    pub fn push(&mut self, time: u64, kind: Kind, a: u32, b: u32) {
        self.seq += 1;
        self.heap.push(Event {
            time,
            seq: self.seq,
            kind,
            a,
            b,
        });
    }

    /// Time of the earliest event.
    #[inline]
    pub fn peek_time(&self) -> Option<u64> {
        self.earliest().map(|(_, t, _)| t)
    }

    /// Removes the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<Event> {
        match self.earliest()?.0 {
            None => self.heap.pop(),
            Some(i) => self.lanes.get_mut(i)?.pop_front(),
        }
    }

    /// Pending events.
    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().map(VecDeque::len).sum::<usize>()
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_break_by_scheduling_order() {
        let mut q = EventQueue::with_capacity(4, 1);
        q.push(5, Kind::Arrival, 1, 0);
        q.push_lane(0, 3, Kind::Arrival, 2, 0);
        q.push_lane(0, 5, Kind::Arrival, 3, 0);
        q.push(3, Kind::Arrival, 4, 0);
        q.push_lane(0, 4, Kind::Arrival, 5, 0); // out of lane order: goes to the heap
        q.push_lane(0, 7, Kind::Arrival, 6, 0);
        assert_eq!(q.len(), 6);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|e| e.a).collect();
        assert_eq!(order, vec![2, 4, 5, 1, 3, 6]);
    }
}
