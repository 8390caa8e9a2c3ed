//! The event queue: a binary min-heap keyed by (time, sequence number).
//!
//! Two events at the same microsecond run in the order they were scheduled: the
//! sequence number is a counter bumped on every push, so ties never depend on heap
//! layout, hashing or the platform. That is the whole determinism argument for ordering.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

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
#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Event>,
    seq: u64,
}

impl EventQueue {
    /// An empty queue with room for `cap` events.
    pub fn with_capacity(cap: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(cap),
            seq: 0,
        }
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
        self.heap.peek().map(|e| e.time)
    }

    /// Removes the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<Event> {
        self.heap.pop()
    }

    /// Pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_break_by_scheduling_order() {
        let mut q = EventQueue::with_capacity(4);
        q.push(5, Kind::Arrival, 1, 0);
        q.push(3, Kind::Arrival, 2, 0);
        q.push(5, Kind::Arrival, 3, 0);
        q.push(3, Kind::Arrival, 4, 0);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|e| e.a).collect();
        assert_eq!(order, vec![2, 4, 1, 3]);
    }
}
