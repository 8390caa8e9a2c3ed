#!/usr/bin/env bash
# Writes the outputs a speed change must leave byte-identical, one JSON file each, into DIR:
# `run --json` of every bundled cluster preset (its own seed, 1 and 7), of
# crate/benches/high-concurrency.json and of crate/benches/outputs/*.json (scenarios for
# the fields the presets do not reach: closed loop, deadlines, network legs, bulkhead,
# budget, breaker, drain, latency_admitted and outage faults; seeds 1 and 7), and every
# study's `--json`. Not a test (scripts/test.sh's pinned tests hold fewer outputs); run it
# with the build before and after a change and compare:
#   scripts/outputs.sh before/retrystorm /tmp/a && scripts/outputs.sh target/release/retrystorm /tmp/b && diff -r /tmp/a /tmp/b
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BIN="${1:?usage: scripts/outputs.sh RETRYSTORM_BINARY DIR}"
OUT="${2:?usage: scripts/outputs.sh RETRYSTORM_BINARY DIR}"
mkdir -p "$OUT"
for p in $("$BIN" scenarios | awk '$2 == "cluster" && $1 ~ /^cluster-/ {print $1}'); do
  "$BIN" run --preset "$p" --json >"$OUT/$p.own.json"
  for s in 1 7; do "$BIN" run --preset "$p" --seed "$s" --json >"$OUT/$p.$s.json"; done
done
for f in "$ROOT/crate/benches/high-concurrency.json" "$ROOT"/crate/benches/outputs/*.json; do
  for s in 1 7; do "$BIN" run --scenario "$f" --seed "$s" --json >"$OUT/$(basename "$f" .json).$s.json"; done
done
for st in $("$BIN" studies | awk '/^[a-z]/ {print $1}'); do
  "$BIN" study "$st" --json >"$OUT/study.$st.json"
done
echo "$(ls "$OUT" | wc -l) outputs in $OUT"
