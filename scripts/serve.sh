#!/usr/bin/env bash
# Sets everything up, builds the release site into dist/ and serves it on 127.0.0.1.
#   scripts/serve.sh            -> http://127.0.0.1:8080/
#   PORT=9000 scripts/serve.sh  -> another port
#   PUBLIC_URL=/blog/play/ scripts/serve.sh -> the site under a sub-path
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
PORT="${PORT:-${1:-8080}}"
PUBLIC_URL="${PUBLIC_URL:-/}"

"$ROOT/scripts/setup.sh"
cd "$ROOT"
log "building the site (trunk build --release)"
trunk build --release --offline --public-url "$PUBLIC_URL"
log "serving dist/"
exec node "$E2E_DIR/static-server.js" "$ROOT/dist" "$PORT" "$PUBLIC_URL"
