#!/usr/bin/env bash
# Prints what the built site weighs (a report, not a test; docs/performance.md keeps the numbers):
# every file of dist/ raw and gzipped on its own (gzip -9 from stdin: no file name in the
# header, as a server would send it), each folder as one gzipped tar, and
# the whole site measured as docs/performance.md does, `tar cf - -C dist . | gzip -9 | wc -c`,
# against the 485 KB target.
#   trunk build --release --offline && scripts/size.sh      (or: scripts/size.sh other-dist/)
# With --check (scripts/test.sh) it prints only the whole-site line and fails above the
# target: sizes are exact for a given source and toolchain, so this is a test, not timing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
CHECK=0
if [ "${1:-}" = --check ]; then CHECK=1; shift; fi
DIST="${1:-$ROOT/dist}"
[ -f "$DIST/index.html" ] || { echo "size: no built site in $DIST (run trunk build --release --offline)" >&2; exit 1; }
TARGET=485000

gz() { gzip -9c | wc -c; }
row() { printf '%-48s %10s %10s\n' "$1" "$2" "$3"; }

if [ "$CHECK" = 1 ]; then
  site="$(tar cf - -C "$DIST" . | gzip -9c | wc -c)"
  echo "whole site: $site B gzipped (target: at most $TARGET B)"
  [ "$site" -le "$TARGET" ] || { echo "size: the site is above the target by $((site - TARGET)) B (scripts/size.sh lists every file)" >&2; exit 1; }
  exit 0
fi
row file raw gzip
(cd "$DIST" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) | while IFS= read -r f; do
  row "$f" "$(wc -c <"$DIST/$f")" "$(gz <"$DIST/$f")"
done
echo
row 'folder (tar)' raw gzip
for d in "$DIST"/*/; do
  d="$(basename "$d")"
  row "$d/" "$(tar cf - -C "$DIST" "$d" | wc -c)" "$(tar cf - -C "$DIST" "$d" | gz)"
done
echo
site="$(tar cf - -C "$DIST" . | gz)"
row 'whole site (tar cf - -C dist . | gzip -9)' "$(tar cf - -C "$DIST" . | wc -c)" "$site"
if [ "$site" -le "$TARGET" ]; then
  echo "within the ${TARGET} B target by $((TARGET - site)) B"
else
  echo "above the ${TARGET} B target by $((site - TARGET)) B"
fi
