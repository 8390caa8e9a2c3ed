//! The event queue: pending events ordered by (time, sequence number).
//!
//! Two events at the same microsecond run in the order they were scheduled: the
//! sequence number is a counter bumped on every push, so ties never depend on the
//! queue's layout, hashing or the platform. That is the whole determinism argument for
//! ordering.
//!
//! # Layout (a calendar queue)
//! Time is cut into buckets of `2^SHIFT` µs. The events of the *current* bucket sit in
//! `cur`, sorted by (time, seq); the next `SLOTS - 1` buckets are unsorted vectors in a
//! ring (with a bitmap of the non-empty ones); anything further goes to a binary heap.
//! When `cur` runs out, the next non-empty bucket (ring or heap, whichever is earlier)
//! is sorted by the full (time, seq) key and becomes `cur`. Every event is compared by
//! that key and nothing else, so the pop order is exactly the one of a single heap:
//! only the cost changes (a push is an append, a pop an index bump, plus one small sort
//! per bucket).

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

/// The kinds by discriminant (the low 3 bits of [`Event::key`]).
const KINDS: [Kind; 8] = [
    Kind::Arrival,
    Kind::Think,
    Kind::ServiceEnd,
    Kind::AttemptTimeout,
    Kind::RetryFire,
    Kind::EntryTimeout,
    Kind::BulkheadGrant,
    Kind::FaultEdge,
];

/// A scheduled event (24 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Simulated time, µs.
    pub time: u64,
    /// `seq << 3 | kind`: the scheduling order (the tie-breaker) and what happens.
    key: u64,
    /// First operand.
    pub a: u32,
    /// Second operand.
    pub b: u32,
}

impl Event {
    /// What happens.
    #[inline]
    pub fn kind(&self) -> Kind {
        KINDS[(self.key & 7) as usize]
    }

    /// Scheduling order (1 for the first push).
    #[cfg(test)] // used by the queue's own tests only
    pub fn seq(&self) -> u64 {
        self.key >> 3
    }

    /// The sort key: time, then sequence number.
    #[inline]
    fn ord(&self) -> u128 {
        (self.time as u128) << 64 | self.key as u128
    }
}

impl Ord for Event {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the earliest event first.
        other.ord().cmp(&self.ord())
    }
}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Bucket width: 2^SHIFT µs.
const SHIFT: u32 = 8;
/// Ring size in buckets (a power of two); the ring covers SLOTS × 2^SHIFT µs ≈ 2.1 s.
const SLOTS: usize = 1 << 13;
const MASK: u64 = SLOTS as u64 - 1;

/// Sorts by (time, seq): insertion sort for the usual few events of a bucket (often
/// already in order), the standard unstable sort for big ones. Keys are unique, so either
/// gives the one and only order.
fn sort(v: &mut [Event]) {
    if v.len() > 24 {
        v.sort_unstable_by_key(Event::ord);
        return;
    }
    for i in 1..v.len() {
        let x = v[i];
        let k = x.ord();
        let mut j = i;
        while j > 0 && v[j - 1].ord() > k {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// The pending events (see the module documentation).
#[derive(Debug)]
pub struct EventQueue {
    /// Events of bucket `cur_b` (and any pushed earlier than it), sorted ascending;
    /// `cur[head..]` are pending.
    cur: Vec<Event>,
    head: usize,
    cur_b: u64,
    /// Bucket `b` with `cur_b < b < cur_b + SLOTS` lives in `ring[b & MASK]`, unsorted.
    ring: Box<[Vec<Event>; SLOTS]>,
    /// Bit `s` set when `ring[s]` is not empty.
    bits: Box<[u64; SLOTS / 64]>,
    ring_len: usize,
    /// Buckets beyond the ring at the time of their push.
    far: BinaryHeap<Event>,
    seq: u64,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue::new()
    }
}

impl EventQueue {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue {
            cur: Vec::with_capacity(64),
            head: 0,
            cur_b: 0,
            ring: vec![Vec::new(); SLOTS]
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("SLOTS elements")),
            bits: Box::new([0; SLOTS / 64]),
            ring_len: 0,
            far: BinaryHeap::new(),
            seq: 0,
        }
    }

    /// Heap bytes its events take beyond the empty ring (every bucket's allocated
    /// capacity: a drained bucket keeps its room for the next lap of the ring).
    pub(crate) fn held_bytes(&self) -> u64 {
        let events = self.cur.capacity()
            + self.far.capacity()
            + self.ring.iter().map(Vec::capacity).sum::<usize>();
        (events * std::mem::size_of::<Event>()) as u64
    }

    /// Schedules an event.
    #[inline]
    pub fn push(&mut self, time: u64, kind: Kind, a: u32, b: u32) {
        self.seq += 1;
        self.insert(Event {
            time,
            key: self.seq << 3 | kind as u64,
            a,
            b,
        });
    }

    /// Puts an event into the calendar.
    #[inline]
    fn insert(&mut self, ev: Event) {
        let bucket = ev.time >> SHIFT;
        let ahead = bucket.wrapping_sub(self.cur_b);
        if ahead.wrapping_sub(1) < SLOTS as u64 - 1 {
            // cur_b < bucket < cur_b + SLOTS: the common case, an append.
            let s = (bucket & MASK) as usize;
            self.ring[s].push(ev);
            self.bits[s >> 6] |= 1 << (s & 63);
            self.ring_len += 1;
        } else {
            self.insert_slow(ev);
        }
    }

    /// `insert` into the current bucket or the far heap.
    #[inline(never)]
    fn insert_slow(&mut self, ev: Event) {
        if ev.time >> SHIFT <= self.cur_b {
            // Into the sorted current bucket: after everything at or before `time` (all
            // of it was scheduled earlier, so it has a smaller sequence number).
            let time = ev.time;
            let pos = self.head + self.cur[self.head..].partition_point(|x| x.time <= time);
            self.cur.insert(pos, ev);
        } else {
            self.far.push(ev);
        }
    }

    /// Makes `cur[head]` the earliest event; false when nothing is pending.
    #[inline]
    fn ready(&mut self) -> bool {
        self.head < self.cur.len() || self.refill()
    }

    /// Loads the next non-empty bucket into `cur`.
    #[inline(never)]
    fn refill(&mut self) -> bool {
        self.cur.clear();
        self.head = 0;
        let ring_b = if self.ring_len > 0 {
            Some(self.next_ring_bucket())
        } else {
            None
        };
        let far_b = self.far.peek().map(|e| e.time >> SHIFT);
        let b = match (ring_b, far_b) {
            (Some(r), Some(f)) => r.min(f),
            (Some(r), None) => r,
            (None, Some(f)) => f,
            (None, None) => return false,
        };
        self.cur_b = b;
        if ring_b == Some(b) {
            let s = (b & MASK) as usize;
            std::mem::swap(&mut self.cur, &mut self.ring[s]);
            self.bits[s >> 6] &= !(1 << (s & 63));
            self.ring_len -= self.cur.len();
        }
        while let Some(e) = self.far.peek() {
            if e.time >> SHIFT != b {
                break;
            }
            if let Some(e) = self.far.pop() {
                self.cur.push(e);
            }
        }
        sort(&mut self.cur);
        true
    }

    /// The first non-empty ring bucket after `cur_b` (the ring must not be empty).
    fn next_ring_bucket(&self) -> u64 {
        let start = ((self.cur_b + 1) & MASK) as usize;
        let words = self.bits.len();
        let mut w = start >> 6;
        let mut word = self.bits[w] & (!0u64 << (start & 63));
        for _ in 0..=words {
            if word != 0 {
                let s = (w << 6) as u64 + word.trailing_zeros() as u64;
                // Distance from cur_b's slot, around the ring.
                let d = (s.wrapping_sub(self.cur_b)) & MASK;
                return self.cur_b + d;
            }
            w = (w + 1) % words;
            word = self.bits[w];
        }
        unreachable!("ring_len > 0 but no bit set")
    }

    /// Time of the earliest event.
    #[cfg(test)] // used by the queue's own tests only
    #[inline]
    pub fn peek_time(&mut self) -> Option<u64> {
        self.ready().then(|| self.cur[self.head].time)
    }

    /// Removes the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<Event> {
        if !self.ready() {
            return None;
        }
        let e = self.cur[self.head];
        self.head += 1;
        Some(e)
    }

    /// Pending events.
    #[cfg(test)] // used by the queue's own tests only
    pub fn len(&self) -> usize {
        self.cur.len() - self.head + self.ring_len + self.far.len()
    }

    /// True when nothing is pending.
    #[cfg(test)] // used by the queue's own tests only
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_break_by_scheduling_order() {
        let mut q = EventQueue::new();
        q.push(5, Kind::Arrival, 1, 0);
        q.push(3, Kind::Think, 2, 0);
        q.push(5, Kind::FaultEdge, 3, 0);
        q.push(3, Kind::Arrival, 4, 0);
        q.push(4, Kind::Arrival, 5, 0);
        q.push(7, Kind::Arrival, 6, 0);
        assert_eq!(q.len(), 6);
        let first = q.pop().unwrap();
        assert_eq!((first.a, first.kind(), first.seq()), (2, Kind::Think, 2));
        // Pushed while the current bucket is being consumed.
        q.push(3, Kind::Arrival, 7, 0);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|e| e.a).collect();
        assert_eq!(order, vec![4, 7, 5, 1, 3, 6]);
        assert!(q.is_empty());
    }

    /// Same order as a plain binary heap on (time, seq), across the ring, its wrap-around
    /// and the far heap.
    #[test]
    fn matches_a_binary_heap() {
        let mut rng = crate::rng::JavaRandom::new(7);
        let mut q = EventQueue::new();
        let mut h = BinaryHeap::new();
        let mut seq = 0u64;
        let mut now = 0u64;
        let mut popped = 0;
        let span = (SLOTS as i32) << SHIFT;
        for round in 0..200_000u32 {
            let r = rng.next_int_bounded(100).unwrap_or(0);
            if r < 55 || h.is_empty() {
                let dt = match r % 5 {
                    0 => 0,
                    1 => rng.next_int_bounded(200).unwrap_or(0) as u64,
                    2 => 500_000,
                    3 => rng.next_int_bounded(span).unwrap_or(0) as u64,
                    _ => rng.next_int_bounded(3 * span).unwrap_or(0) as u64,
                };
                let kind = KINDS[(round % 8) as usize];
                q.push(now + dt, kind, round, 0);
                seq += 1;
                h.push(Event {
                    time: now + dt,
                    key: seq << 3 | kind as u64,
                    a: round,
                    b: 0,
                });
            } else {
                let want = h.pop();
                assert_eq!(q.peek_time(), want.map(|e| e.time));
                let got = q.pop();
                assert_eq!(got, want);
                now = got.map_or(now, |e| e.time);
                popped += 1;
            }
            assert_eq!(q.len(), h.len());
        }
        while let Some(want) = h.pop() {
            assert_eq!(q.pop(), Some(want));
        }
        assert!(q.pop().is_none() && popped > 50_000);
    }
}
