#!/usr/bin/env bash
# Sets everything up and runs every check, in the order CI runs them (.ci/run calls this):
#   Rust: fmt, clippy (native and wasm32), the docs (warnings denied); JavaScript: Biome
#   (format and lint) and the runner's unit tests; the engine tests, the wasm-bindgen tests of the exports (headless
#   Chromium), the native CLI, the release site (at / and under a sub-path) and its
#   gzipped size (at most 487,310 B, scripts/size.sh --check), the type
#   check of the page's JavaScript against the glue's generated .d.ts (tsc, strict), the
#   tests of Trunk's post_build hook (minification, integrity hashes), and the end-to-end
#   tests of the built site in headless Chromium.
# Every step runs even after a failure, so one run shows every problem; the exit status
# is non-zero when any step failed. Screenshots land in tests/artifacts/.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

"$ROOT/scripts/setup.sh" || { echo "test: setup failed" >&2; exit 1; }
cd "$ROOT"

failed=()
summary=()
step() {
  local name="$1"; shift
  log "$name"
  local out rc
  out="$(mktemp)"
  "$@" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  # Keep each runner's own summary lines ("test result: …", "# pass …") for the end.
  while IFS= read -r line; do summary+=("  [$name] $line"); done \
    < <(grep -E '^(test result:|# (tests|pass|fail|cancelled|skipped|todo|duration_ms) )' "$out" || true)
  rm -f "$out"
  if [ "$rc" -ne 0 ]; then
    failed+=("$name (exit $rc)")
    echo "!!! FAILED: $name (exit $rc)"
  fi
}

# The wasm-bindgen tests run in headless Chromium through chromedriver.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"

step "cargo fmt" cargo fmt --all -- --check
step "clippy native" cargo clippy --workspace --all-targets -- -D warnings
step "clippy wasm32" cargo clippy -p retrystorm-web -p retrystorm-import-web -p retrystorm-studies-web --target wasm32-unknown-unknown --all-targets -- -D warnings
step "cargo doc" env RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace
# Biome's config is biome.json; `biome check --write www/js www/types tests/e2e tests/unit` applies its fixes.
step "js format and lint" biome ci --colors=off www/js www/types tests/e2e tests/unit scripts/post-build.mjs
# The page's run scheduling (newest request wins, restart, cancel), in node with a fake Worker.
# The pool's ranges (one heavy item per message, light ones batched), in node with fake workers.
# The page's catalogues: both languages have every key, and no page text is outside them.
step "js unit tests" node --test "$ROOT/tests/unit/runner.test.js" "$ROOT/tests/unit/catalogue.test.js" "$ROOT/tests/unit/place.test.js" "$ROOT/tests/unit/pool.test.js"
step "engine tests" cargo test
# The charts' data choices and what they draw, natively (SVG backend): no browser needed.
step "chart tests (native)" cargo test -p retrystorm-web
# The studies' glue: a link's seed count read and refused as the CLI's --seeds is.
step "studies glue tests" cargo test -p retrystorm-studies-web
step "wasm-bindgen tests" cargo test -p retrystorm-web --target wasm32-unknown-unknown
step "CLI build" cargo build --release
step "trunk build" trunk build --release --offline
# The gzipped first page stays within its target (scripts/size.sh).
step "site size" "$ROOT/scripts/size.sh" --check
# The wasm exports' types come from target/web-types/retrystorm-web.d.ts, written by the build above.
step "js types (page)" tsc -p www
step "js types (tests)" tsc -p tests/e2e
step "js types (unit tests)" tsc -p tests/unit
SUBPATH=/nested/retry-storm/
step "trunk build (sub-path)" trunk build --release --offline --public-url "$SUBPATH" --dist "$ROOT/target/dist-subpath"
mkdir -p "$ROOT/tests/artifacts"
step "e2e" env DIST="$ROOT/dist" DIST_SUBPATH="$ROOT/target/dist-subpath" SUBPATH="$SUBPATH" \
  RETRYSTORM_BIN="$ROOT/target/release/retrystorm" ARTIFACTS="$ROOT/tests/artifacts" \
  node --test --test-concurrency=1 "$E2E_DIR/postbuild.test.js" "$E2E_DIR/playground.test.js" "$E2E_DIR/cluster.test.js" "$E2E_DIR/cost-attribution-routes.test.js" "$E2E_DIR/i18n.test.js" "$E2E_DIR/seeds.test.js" "$E2E_DIR/sweep.test.js" "$E2E_DIR/reader.test.js" "$E2E_DIR/errors.test.js" "$E2E_DIR/loading.test.js" "$E2E_DIR/a11y.test.js" "$E2E_DIR/chart-readout.test.js" "$E2E_DIR/embed.test.js" "$E2E_DIR/long-work.test.js" "$E2E_DIR/hostile-links.test.js" "$E2E_DIR/paste-config.test.js" "$E2E_DIR/studies.test.js"

log "summary"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all checks passed"
