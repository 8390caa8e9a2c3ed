//! The native side of the wasm benchmark (`scripts/bench.sh`, `tests/e2e/bench-wasm.js`):
//! runs one classic scenario file in this process `REPS` times and prints the best time,
//! in milliseconds, of the engine plus the run's JSON text. That is what the page's
//! worker times for the wasm engine, so the two sides compare the same work, with no
//! process start-up to subtract (whose noise is as large as the gap being measured).
//!
//! `cargo run --release --example time_run -- FILE [REPS]` (REPS defaults to 25).

use retrystorm::classic::{self, Scenario};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: time_run FILE [REPS]");
        return ExitCode::FAILURE;
    };
    let reps: u32 = match args.get(1).map(|r| r.parse()) {
        None => 25,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("time_run: REPS must be a positive integer");
            return ExitCode::FAILURE;
        }
    };
    let scenario: Scenario = match std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(sc) => sc,
        Err(e) => {
            eprintln!("time_run: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut best = f64::INFINITY;
    for _ in 0..reps {
        let start = Instant::now();
        let out = match classic::simulate(&scenario, scenario.seed) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("time_run: {file}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let text = serde_json::to_string(&out).expect("a run always serializes");
        std::hint::black_box(text);
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    println!("{best:.3}");
    ExitCode::SUCCESS
}
