//! The binary's progress and its stop on Ctrl-C, as a user meets them: no progress text
//! when stderr is not a terminal; a bar when it is; and SIGINT during `ensemble` or `grid`
//! ends the job with status 130, the work finished on stdout (marked as partial where
//! the format allows) and "stopped after N of M …" on stderr.
//!
//! The signal tests wait for the child to have set its Ctrl-C handler and to have used
//! some CPU (read from `/proc`) before sending SIGINT, and try again with a longer wait
//! when it had finished nothing yet: no pass or fail hangs on how fast the machine is,
//! beyond a generous bound.
#![cfg(target_os = "linux")]

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_retrystorm");

/// Longest wait for a child to reach a state, or to end after SIGINT.
const BOUND: Duration = Duration::from_secs(300);

fn output(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = output(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The child's line of `/proc/PID/status` starting with `key`, if it is still there.
fn status_line(pid: u32, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find(|l| l.starts_with(key))
        .map(str::to_string)
}

/// True once the child catches SIGINT (signal 2: bit 1 of the `SigCgt` mask).
fn catches_sigint(pid: u32) -> bool {
    status_line(pid, "SigCgt:")
        .and_then(|l| u64::from_str_radix(l["SigCgt:".len()..].trim(), 16).ok())
        .is_some_and(|mask| mask & 0b10 != 0)
}

/// CPU time the child has used, in clock ticks (user + system).
fn cpu_ticks(pid: u32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // The fields after the command name (which may hold spaces, in parentheses):
    // state is the first, utime the 12th and stime the 13th.
    let rest = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    tick(11) + tick(12)
}

/// Polls `ready` until it holds or the child has ended; false if it never held.
fn wait_until(child: &mut Child, ready: impl Fn(u32) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < BOUND {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if ready(child.id()) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the child never got there within {BOUND:?}");
}

/// Runs `args`, sends SIGINT once the child catches it and has used `ticks` of CPU,
/// and returns what it printed; `None` if it ended before that.
fn interrupted(args: &[&str], ticks: u64) -> Option<Output> {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let ready = wait_until(&mut child, |pid| {
        catches_sigint(pid) && cpu_ticks(pid) >= ticks
    });
    if !ready {
        let _ = child.wait_with_output();
        return None;
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    Some(child.wait_with_output().unwrap())
}

/// `args` interrupted after more and more CPU until it had finished something: its
/// output and the N of "stopped after N of M".
fn stopped_with_work(args: &[&str], of: &str) -> (Output, usize) {
    for ticks in [50, 200, 800, 3200] {
        let out = interrupted(args, ticks).expect("the job outlasts the wait");
        assert_eq!(
            out.status.code(),
            Some(130),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8(out.stderr.clone()).unwrap();
        let line = stderr.trim_end();
        let rest = line
            .strip_prefix("retrystorm: stopped after ")
            .unwrap_or_else(|| panic!("stderr says how far it got: {stderr:?}"));
        let (done, tail) = rest.split_once(' ').unwrap();
        assert!(tail.starts_with(of), "{line:?} does not go on with {of:?}");
        assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr:?}");
        let done: usize = done.parse().unwrap();
        if done > 0 {
            return (out, done);
        }
        assert!(out.stdout.is_empty(), "nothing done, nothing printed");
    }
    panic!("{args:?} finished nothing before SIGINT even after a long wait");
}

#[test]
fn no_progress_text_when_stderr_is_not_a_terminal() {
    for args in [
        &["ensemble", "--seeds", "40", "--csv"][..],
        &[
            "grid",
            "--sweep-preset",
            "budget-percentage",
            "--seeds",
            "3",
        ],
    ] {
        let out = output(args);
        assert!(out.status.success(), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?} prints its result");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "{args:?}: stderr is a pipe here, so it carries nothing"
        );
    }
}

#[test]
fn sigint_stops_an_ensemble_with_the_first_seeds_as_csv() {
    let args = ["ensemble", "--seeds", "10000", "--threads", "1", "--csv"];
    let (out, done) = stopped_with_work(&args, "of 10000 seeds");
    assert!(done < 10_000);
    // The CSV is unmarked: exactly what the whole run of those first seeds prints.
    let n = done.to_string();
    let whole = stdout(&["ensemble", "--seeds", &n, "--csv"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), whole);
}

#[test]
fn sigint_stops_an_ensemble_with_the_partial_marked_in_json_and_text() {
    let base = ["ensemble", "--preset", "article"];
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--seeds", "10000", "--threads", "2", "--json"])
        .collect();
    let (out, done) = stopped_with_work(&args, "of 10000 seeds");
    let mut partial: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        partial["partial"],
        serde_json::json!({ "done": done, "of": 10000, "unit": "seeds" })
    );
    // Without its mark, the partial result is the whole result of the seeds done.
    partial.as_object_mut().unwrap().remove("partial");
    let n = done.to_string();
    let with_n: Vec<&str> = base.iter().copied().chain(["--seeds", &n]).collect();
    let whole: serde_json::Value = serde_json::from_str(&stdout(
        &with_n.iter().copied().chain(["--json"]).collect::<Vec<_>>(),
    ))
    .unwrap();
    assert_eq!(partial, whole);

    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--seeds", "10000", "--threads", "1"])
        .collect();
    let (out, done) = stopped_with_work(&args, "of 10000 seeds");
    let text = String::from_utf8(out.stdout).unwrap();
    let (mark, rest) = text.split_once('\n').unwrap();
    assert_eq!(
        mark,
        format!("partial: stopped after {done} of 10000 seeds")
    );
    let n = done.to_string();
    let with_n: Vec<&str> = base.iter().copied().chain(["--seeds", &n]).collect();
    assert_eq!(rest, stdout(&with_n));
}

#[test]
fn sigint_stops_a_grid_with_every_point_over_the_first_seeds() {
    let base = [
        "grid",
        "--sweep-preset",
        "budget-percentage",
        "--threads",
        "1",
    ];
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--seeds", "2000", "--jsonl"])
        .collect();
    let (out, done) = stopped_with_work(&args, "of 2000 seeds of each of the 21 points");
    let text = String::from_utf8(out.stdout).unwrap();
    let (points, mark) = text.trim_end().rsplit_once('\n').unwrap();
    // The points' lines are those of the whole run over the seeds done; a last line marks it.
    let n = done.to_string();
    let whole: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--seeds", &n, "--jsonl"])
        .collect();
    assert_eq!(format!("{points}\n"), stdout(&whole));
    assert_eq!(points.lines().count(), 21);
    let mark: serde_json::Value = serde_json::from_str(mark).unwrap();
    assert_eq!(
        mark,
        serde_json::json!({ "partial": { "done": done, "of": 2000, "unit": "seeds" } })
    );
}

/// Under a pseudo-terminal (`script`), the bar is drawn on stderr and cleared at the end.
#[test]
fn a_terminal_gets_a_progress_bar() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("no `script` here (util-linux): the terminal case is not run");
        return;
    }
    let command = format!("{BIN} ensemble --seeds 200 --csv >/dev/null");
    let out = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    assert!(out.status.success(), "{:?}", out);
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("/200 seeds"), "no bar in {screen:?}");
}
