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
//! ring (with a bitmap of the non-empty ones). Beyond the ring (≈ 2.1 s) a second, coarse
//! ring holds spans of `2^SPAN_SHIFT` buckets (≈ 1.05 s each, ≈ 72 min in all), unsorted; only
//! what lies beyond that goes to a binary heap. Long timeouts, backoffs and service
//! times (seconds, with thousands of requests in flight) therefore cost two appends
//! instead of a heap's log-time push and pop.
//!
//! When `cur` runs out, the next non-empty bucket (ring or heap, whichever is earlier)
//! is sorted by the full (time, seq) key and becomes `cur`; before the fine ring reaches
//! a coarse span, that span's events are appended to the fine ring's buckets (the span
//! fits the fine ring whole: see `refill`). Every event is compared by that key and
//! nothing else, so the pop order is exactly the one of a single heap: only the cost
//! changes (a push is an append, a pop an index bump, plus one small sort per bucket).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens at an event (the payload `a`/`b` meaning is per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Next open-loop arrival.
    Arrival,
    /// A closed-loop caller sends its next request (the callers are alike: no operand).
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
    /// Job `a` (generation `b`) reaches its callee instance over the network.
    Reach,
    /// The answer to job `a`'s outstanding attempt (generation `b`) reaches it over the network.
    Reply,
}

/// Bits of [`Event::key`] that hold the kind (below the sequence number).
const KIND_BITS: u32 = 4;
const KIND_MASK: u64 = (1 << KIND_BITS) - 1;

/// The kinds by discriminant (the low [`KIND_BITS`] bits of [`Event::key`]); the slots
/// beyond the last kind are never pushed, and fill the table so a lookup needs no check.
const KINDS: [Kind; 1 << KIND_BITS] = {
    let mut t = [Kind::FaultEdge; 1 << KIND_BITS];
    let all = [
        Kind::Arrival,
        Kind::Think,
        Kind::ServiceEnd,
        Kind::AttemptTimeout,
        Kind::RetryFire,
        Kind::EntryTimeout,
        Kind::BulkheadGrant,
        Kind::FaultEdge,
        Kind::Reach,
        Kind::Reply,
    ];
    let mut i = 0;
    while i < all.len() {
        t[all[i] as usize] = all[i];
        i += 1;
    }
    t
};

/// A scheduled event (24 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// Simulated time, µs.
    pub time: u64,
    /// `seq << KIND_BITS | kind`: the scheduling order (the tie-breaker) and what happens.
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
        KINDS[(self.key & KIND_MASK) as usize]
    }

    /// Scheduling order (1 for the first push).
    #[cfg(test)] // used by the queue's own tests only
    pub fn seq(&self) -> u64 {
        self.key >> KIND_BITS
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
/// Buckets per coarse span: half the ring, so that a whole span fits the ring's window
/// when the span is moved into it (the window is `SLOTS - 1` buckets after `cur_b`).
const SPAN_SHIFT: u32 = 12;
/// Coarse ring size in spans (a power of two).
const CSLOTS: usize = 1 << 12;
const CMASK: u64 = CSLOTS as u64 - 1;
/// No span (`EventQueue::coarse_next` of an empty coarse ring).
const NONE: u64 = u64::MAX;

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

/// The first index after `base` (absolute) whose slot `index & mask` has its bit set in
/// `bits`, searching once around the ring; at least one bit must be set.
fn next_after(bits: &[u64], base: u64, mask: u64) -> u64 {
    let start = ((base + 1) & mask) as usize;
    let words = bits.len();
    let mut w = start >> 6;
    let mut word = bits[w] & (!0u64 << (start & 63));
    for _ in 0..=words {
        if word != 0 {
            let s = (w << 6) as u64 + word.trailing_zeros() as u64;
            // Distance from base's slot, around the ring.
            return base + (s.wrapping_sub(base) & mask);
        }
        w = (w + 1) % words;
        word = bits[w];
    }
    unreachable!("a pending slot but no bit set")
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
    /// Span `c` (the `2^SPAN_SHIFT` buckets from `c << SPAN_SHIFT`), beyond the ring at the time of
    /// its events' push, lives in `coarse[c & CMASK]`, unsorted; every pending span is
    /// within `cur_b >> SPAN_SHIFT < c < (cur_b >> SPAN_SHIFT) + CSLOTS`.
    coarse: Box<[Vec<Event>]>,
    /// Bit `c` set when `coarse[c]` is not empty.
    coarse_bits: Box<[u64]>,
    coarse_len: usize,
    /// The earliest pending span (what `next_after` on `coarse_bits` would find; `NONE`
    /// when the coarse ring is empty): kept on every push and move rather than searched
    /// for at every refill.
    coarse_next: u64,
    /// Buckets beyond the coarse ring at the time of their push.
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
            coarse: vec![Vec::new(); CSLOTS].into_boxed_slice(),
            coarse_bits: vec![0; CSLOTS / 64].into_boxed_slice(),
            coarse_len: 0,
            coarse_next: NONE,
            far: BinaryHeap::new(),
            seq: 0,
        }
    }

    /// Heap bytes of an empty queue: both rings' vector headers and bitmaps.
    pub(crate) const EMPTY_BYTES: u64 =
        ((SLOTS + CSLOTS) * std::mem::size_of::<Vec<Event>>() + (SLOTS + CSLOTS) / 8) as u64;

    /// Heap bytes its events take beyond the empty ring (every bucket's allocated
    /// capacity: a drained bucket keeps its room for the next lap of the ring).
    pub(crate) fn held_bytes(&self) -> u64 {
        let events = self.cur.capacity()
            + self.far.capacity()
            + self.ring.iter().map(Vec::capacity).sum::<usize>()
            + self.coarse.iter().map(Vec::capacity).sum::<usize>();
        (events * std::mem::size_of::<Event>()) as u64
    }

    /// Schedules an event.
    #[inline]
    pub fn push(&mut self, time: u64, kind: Kind, a: u32, b: u32) {
        self.seq += 1;
        self.insert(Event {
            time,
            key: self.seq << KIND_BITS | kind as u64,
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

    /// `insert` into the current bucket, the coarse ring or the far heap.
    #[inline(never)]
    fn insert_slow(&mut self, ev: Event) {
        let bucket = ev.time >> SHIFT;
        if bucket <= self.cur_b {
            // Into the sorted current bucket: after everything at or before `time` (all
            // of it was scheduled earlier, so it has a smaller sequence number).
            let time = ev.time;
            let pos = self.head + self.cur[self.head..].partition_point(|x| x.time <= time);
            self.cur.insert(pos, ev);
            return;
        }
        // Beyond the ring: bucket ≥ cur_b + SLOTS, so its span is at least 2 after cur_b's.
        let span = bucket >> SPAN_SHIFT;
        if span - (self.cur_b >> SPAN_SHIFT) < CSLOTS as u64 {
            let c = (span & CMASK) as usize;
            self.coarse[c].push(ev);
            self.coarse_bits[c >> 6] |= 1 << (c & 63);
            self.coarse_len += 1;
            self.coarse_next = self.coarse_next.min(span);
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
        if self.ring_len > 0 {
            // The usual case: the ring's next bucket comes before every coarse span and
            // the far heap's earliest bucket, so it alone is the next bucket.
            let b = self.next_ring_bucket();
            if self.coarse_next > b >> SPAN_SHIFT
                && self.far.peek().is_none_or(|e| e.time >> SHIFT > b)
            {
                self.take_ring_bucket(b);
                sort(&mut self.cur);
                return true;
            }
        }
        self.refill_slow()
    }

    /// `refill` when a coarse span or the far heap may hold the next bucket's events.
    #[inline(never)]
    fn refill_slow(&mut self) -> bool {
        let mut ring_b = if self.ring_len > 0 {
            Some(self.next_ring_bucket())
        } else {
            None
        };
        let far_b = self.far.peek().map(|e| e.time >> SHIFT);
        if self.coarse_len > 0 {
            let span = self.coarse_next;
            debug_assert_eq!(span, self.next_coarse_span());
            let start = span << SPAN_SHIFT;
            if ring_b.is_none_or(|r| start <= r) && far_b.is_none_or(|f| start <= f) {
                // The span may hold the earliest event: move it into the fine ring. Nothing
                // pending is before `start`, so `cur_b` may stand just before it; then the
                // span's buckets (from `start`, fewer than `SLOTS - 1` of them) and the ring's (all ≥ start,
                // and < the old cur_b + SLOTS ≤ start - 1 + SLOTS) are in the ring's window.
                self.cur_b = start - 1;
                let c = (span & CMASK) as usize;
                let moved = std::mem::take(&mut self.coarse[c]);
                self.coarse_bits[c >> 6] &= !(1 << (c & 63));
                self.coarse_len -= moved.len();
                self.coarse_next = if self.coarse_len > 0 {
                    self.next_coarse_span()
                } else {
                    NONE
                };
                for &ev in &moved {
                    let s = ((ev.time >> SHIFT) & MASK) as usize;
                    self.ring[s].push(ev);
                    self.bits[s >> 6] |= 1 << (s & 63);
                }
                self.ring_len += moved.len();
                // `moved` is freed here: a span's slot comes round again only after
                // CSLOTS spans (≈ 72 min), so keeping its room would hold memory for
                // every span of a long run at once.
                ring_b = Some(self.next_ring_bucket());
            }
        }
        let b = match (ring_b, far_b) {
            (Some(r), Some(f)) => r.min(f),
            (Some(r), None) => r,
            (None, Some(f)) => f,
            (None, None) => return false,
        };
        self.cur_b = b;
        if ring_b == Some(b) {
            self.take_ring_bucket(b);
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

    /// Makes ring bucket `b` the current one: its events become `cur` (unsorted), and
    /// the slot gets `cur`'s emptied vector, so neither allocation is dropped.
    #[inline]
    fn take_ring_bucket(&mut self, b: u64) {
        self.cur_b = b;
        let s = (b & MASK) as usize;
        std::mem::swap(&mut self.cur, &mut self.ring[s]);
        self.bits[s >> 6] &= !(1 << (s & 63));
        self.ring_len -= self.cur.len();
    }

    /// The first non-empty ring bucket after `cur_b` (the ring must not be empty).
    fn next_ring_bucket(&self) -> u64 {
        next_after(&self.bits[..], self.cur_b, MASK)
    }

    /// The first non-empty coarse span after `cur_b`'s (the coarse ring must not be empty).
    fn next_coarse_span(&self) -> u64 {
        next_after(&self.coarse_bits, self.cur_b >> SPAN_SHIFT, CMASK)
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
        self.cur.len() - self.head + self.ring_len + self.coarse_len + self.far.len()
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

    /// A bucket whose events are split between the ring and a coarse span, or the ring
    /// and the far heap, is loaded whole: the earlier event comes first although it was
    /// pushed first into the other store.
    #[test]
    fn a_bucket_split_across_stores_pops_in_order() {
        // Far heap: X is pushed beyond the coarse ring, Z later into the fine ring, in the
        // same bucket and after X.
        let x = 5 * 3_600_000_000u64 + (1 << SHIFT);
        let mut q = EventQueue::new();
        q.push(x, Kind::Arrival, 1, 0);
        q.push(x - 1_000_000, Kind::Arrival, 2, 0);
        assert_eq!(q.pop().map(|e| e.a), Some(2));
        q.push(x + 1, Kind::Arrival, 3, 0);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|e| e.a).collect();
        assert_eq!(order, vec![1, 3]);

        // Coarse span: X is pushed beyond the fine ring (3 s), Z later into the ring,
        // in X's span and after it.
        let x = 3_000_000u64;
        let mut q = EventQueue::new();
        q.push(x, Kind::Arrival, 1, 0);
        q.push(1_500_000, Kind::Arrival, 2, 0);
        assert_eq!(q.pop().map(|e| e.a), Some(2));
        q.push(x + 100, Kind::Arrival, 3, 0);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).map(|e| e.a).collect();
        assert_eq!(order, vec![1, 3]);
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
                // Beyond the fine ring (2.1 s), the coarse ring (≈ 72 min) and the far heap.
                let dt = match r % 7 {
                    0 => 0,
                    1 => rng.next_int_bounded(200).unwrap_or(0) as u64,
                    2 => 500_000,
                    3 => rng.next_int_bounded(span).unwrap_or(0) as u64,
                    4 => rng.next_int_bounded(3 * span).unwrap_or(0) as u64,
                    5 => rng.next_int_bounded(1 << 30).unwrap_or(0) as u64 * 8,
                    _ => rng.next_int_bounded(40 * span).unwrap_or(0) as u64,
                };
                // Every kind, so none can change the order (the kind sits below the seq).
                let kind = KINDS[(round % (Kind::Reply as u32 + 1)) as usize];
                q.push(now + dt, kind, round, 0);
                seq += 1;
                h.push(Event {
                    time: now + dt,
                    key: seq << KIND_BITS | kind as u64,
                    a: round,
                    b: 0,
                });
            } else {
                let want = h.pop();
                assert_eq!(q.peek_time(), want.map(|e| e.time));
                let got = q.pop();
                assert_eq!(got, want);
                assert_eq!(
                    got.map(|e| e.kind()),
                    want.map(|e| KINDS[e.a as usize % (Kind::Reply as usize + 1)])
                );
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
