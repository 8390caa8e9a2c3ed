#!/usr/bin/env bash
# The wasm engine against the native one, on the same inputs: builds the release CLI, the
# native in-process timer (crate/examples/time_run.rs) and the release site (unless
# BENCH_NO_BUILD=1 and all exist), then runs tests/e2e/bench-wasm.js in headless Chromium
# and prints wasm time, native time and their ratio for the article's table, the 100×
# table, a 1,000-seed classic ensemble and a 40-seed cluster ensemble. A benchmark: it never fails on a number (not part of
# scripts/test.sh). REPS=N (default 25) repeats; WORKERS=N sets the page's pool and the
# CLI's --threads (default: the machine's cores). Run it on a quiet machine: other
# builds on the same cores inflate both sides, the browser's more.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"

if [ "${BENCH_NO_BUILD:-}" != 1 ] || [ ! -x target/release/retrystorm ] || [ ! -x target/release/examples/time_run ] || [ ! -f dist/index.html ]; then
  "$ROOT/scripts/setup.sh"
  log "building the release CLI, the native timer and the site"
  cargo build --release
  cargo build --release --example time_run
  trunk build --release --offline
fi

log "benchmark (wasm in headless Chromium vs the native CLI)"
DIST="$ROOT/dist" RETRYSTORM_BIN="$ROOT/target/release/retrystorm" ARTIFACTS="$ROOT/tests/artifacts" \
  node "$E2E_DIR/bench-wasm.js"
