#!/usr/bin/env bash
# Prints Resilience4j's wait sequences (crate/tests/data/library_vectors_resilience4j.txt).
# Usage: gen_resilience4j.sh PATH/TO/resilience4j (a checkout; the file used is
# resilience4j-core/src/main/java/io/github/resilience4j/core/IntervalFunction.java).
set -euo pipefail
src="$1/resilience4j-core/src/main/java/io/github/resilience4j/core/IntervalFunction.java"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/io/github/resilience4j/core"
# The library's only randomness is one Math.random() in IntervalFunctionCompanion.randomize.
sed 's/Math\.random()/Draws.next()/' "$src" > "$work/io/github/resilience4j/core/IntervalFunction.java"
cp "$here/GenResilience4j.java" "$work/io/github/resilience4j/core/"
javac -d "$work/out" "$work"/io/github/resilience4j/core/*.java
echo "# resilience4j ${R4J_COMMIT:-$(git -C "$1" rev-parse HEAD 2>/dev/null || echo unknown)}"
java -cp "$work/out" io.github.resilience4j.core.GenResilience4j
