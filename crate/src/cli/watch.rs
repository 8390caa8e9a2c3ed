//! The command line's side of a long job: a progress bar on stderr while it runs, only
//! when stderr is a terminal (nothing at all otherwise: a log or a pipe gets no bar
//! text), and Ctrl-C as a request to stop it cleanly. The engine only counts
//! ([`Progress`]); drawing and signals are the binary's.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use retrystorm::progress::Progress;
use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the bar reads the job's count: often enough to look live, rarely enough to
/// cost nothing next to the job.
const POLL: Duration = Duration::from_millis(100);

/// A progress of `total` `unit`s on stderr, or `None` when stderr is not a terminal.
pub fn bar(total: u64, unit: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let style = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {pos}/{len} {msg} (about {eta} left)",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar.set_message(unit.to_string());
    Some(bar)
}

/// A [`Progress`] that the first Ctrl-C asks to stop; a second Ctrl-C ends the process at
/// once (status 130), for a job whose items under way take too long to finish.
pub fn stop_on_ctrl_c() -> Arc<Progress> {
    let progress = Arc::new(Progress::new());
    let watched = Arc::clone(&progress);
    // Only one handler per process: a command sets it once; if it cannot be set, the
    // default (the process ends at once) is what Ctrl-C does.
    let _ = ctrlc::set_handler(move || {
        if watched.stopped() {
            std::process::exit(130);
        }
        watched.stop();
    });
    progress
}

/// Runs `job` while a bar of `total` `unit`s (when stderr is a terminal) shows the
/// items `progress` counts, and clears the bar once it is done.
pub fn with_bar<T>(total: usize, unit: &str, progress: &Progress, job: impl FnOnce() -> T) -> T {
    let Some(bar) = bar(total as u64, unit) else {
        return job();
    };
    let over = AtomicBool::new(false);
    let out = std::thread::scope(|s| {
        let drawer = s.spawn(|| {
            while !over.load(Ordering::Relaxed) {
                bar.set_position(progress.done() as u64);
                if progress.stopped() {
                    bar.set_message(format!("{unit}: stopping (the ones under way finish)"));
                }
                std::thread::park_timeout(POLL);
            }
        });
        let out = job();
        over.store(true, Ordering::Relaxed);
        drawer.thread().unpark();
        out
    });
    bar.finish_and_clear();
    out
}
