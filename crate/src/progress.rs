//! A long job's progress, shared between the threads that run it and whoever watches it
//! (the CLI's progress bar and its Ctrl-C handler): how many items (seeds, or a sweep's
//! point × seed runs) are done, and whether the job has been asked to stop.
//!
//! Plain atomics, so the engine stays free of I/O, terminals and signals: the watcher
//! polls [`Progress::done`] and calls [`Progress::stop`]; a job watched this way
//! ([`crate::ensemble::run_watched`], [`crate::sweep::Plan::run_watched`]) starts no new
//! item once asked to stop, finishes the ones under way, and returns what it finished.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Items done so far and the request to stop (see the module doc).
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    stop: AtomicBool,
}

impl Progress {
    /// A job not started, not asked to stop.
    pub fn new() -> Self {
        Self::default()
    }

    /// Items finished so far (by every thread).
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Asks the job to stop: no item starts after this; the ones under way finish.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once [`Progress::stop`] has been called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Counts one more item finished.
    pub(crate) fn tick(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }
}
