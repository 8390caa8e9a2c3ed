#!/usr/bin/env bash
# Installs everything the playground needs to build, serve and test, and nothing twice:
# the wasm32 target, wasm-bindgen-cli and Trunk at pinned versions (cargo install only
# when the installed version differs), Chromium (apt, only when missing) and the npm
# packages of tests/e2e (playwright-core, binaryen's wasm-opt, esbuild for the release
# site's minification, and the JavaScript gate: Biome and TypeScript; `npm ci` only when
# the lockfile changed). Network: crates.io, npm and Debian only. Safe to re-run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

need() { command -v "$1" >/dev/null 2>&1 || { echo "setup: '$1' is required but not installed" >&2; exit 1; }; }
need cargo
need rustup
need node
need npm

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# `wasm-bindgen 0.2.129` / `trunk 0.21.14`: the second word is the version.
version_of() { "$1" --version 2>/dev/null | awk '{print $2}' || true; }

if [ "$(version_of wasm-bindgen)" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --force
fi

if [ "$(version_of trunk)" != "$TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION (about 12 minutes on 2 cores, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked --force
fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  log "installing chromium and chromium-driver (apt)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-driver
fi

# A CJK font, so the article's strategy names render in headless screenshots (not fatal).
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null | head -1)" ]; then
  log "installing a CJK font for the screenshots (apt, optional)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y fonts-wqy-zenhei || echo "setup: no CJK font; screenshots will show boxes for Chinese names"
fi

# npm ci wipes node_modules, so run it only when the lockfile differs from the last install.
stamp="$E2E_DIR/node_modules/.setup-lock-sha256"
want="$(sha256sum "$E2E_DIR/package-lock.json" | cut -d' ' -f1)"
if [ ! -x "$E2E_DIR/node_modules/.bin/wasm-opt" ] || [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  log "installing the e2e packages (npm ci)"
  (cd "$E2E_DIR" && npm ci --no-audit --no-fund)
  echo "$want" > "$stamp"
fi

# Check the result, so a half-installed machine fails here and not in the middle of a build.
[ "$(version_of wasm-bindgen)" = "$WASM_BINDGEN_VERSION" ] || { echo "setup: wasm-bindgen $WASM_BINDGEN_VERSION missing" >&2; exit 1; }
[ "$(version_of trunk)" = "$TRUNK_VERSION" ] || { echo "setup: trunk $TRUNK_VERSION missing" >&2; exit 1; }
wasm-opt --version | grep -q 'version 132' || { echo "setup: wasm-opt 132 is not first on PATH" >&2; exit 1; }
[ -x "$E2E_DIR/node_modules/.bin/biome" ] && [ -x "$E2E_DIR/node_modules/.bin/tsc" ] || { echo "setup: biome or tsc missing in tests/e2e" >&2; exit 1; }
# Trunk's post_build hook (scripts/post-build.mjs) minifies the release site with it.
(cd "$E2E_DIR" && node -e "require('esbuild').transformSync('')") || { echo "setup: esbuild missing or broken in tests/e2e" >&2; exit 1; }
echo "setup: ok (wasm-bindgen $WASM_BINDGEN_VERSION, trunk $TRUNK_VERSION, $(wasm-opt --version), $(chromium --version 2>/dev/null | head -1))"
