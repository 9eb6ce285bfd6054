#!/usr/bin/env bash
# Fuzzes the configuration and scenario readers with libFuzzer + AddressSanitizer for a bounded time.
#   scripts/fuzz-config.sh [seconds]    (default 60)
# Builds Fuzz/ConfigFuzz (the harness and every module it links, instrumented) with SwiftPM's
# --sanitize=fuzzer, seeds the corpus with every YAML file of the repository (scenarios, alert
# files, test fixtures) and runs. Exit status is libFuzzer's: non-zero when it found a crash (the
# input is saved as Fuzz/ConfigFuzz/.build/fuzz/crash-*; replay with `config-fuzz <file>`).
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PACKAGE="$ROOT/Fuzz/ConfigFuzz"
OUT="$PACKAGE/.build/fuzz"
CORPUS="$OUT/corpus"
mkdir -p "$CORPUS"

echo "== building Fuzz/ConfigFuzz (--sanitize=fuzzer,address)"
swift build --package-path "$PACKAGE" --sanitize=fuzzer --sanitize=address --product config-fuzz 2>&1 | tail -3
BIN="$(swift build --package-path "$PACKAGE" --sanitize=fuzzer --sanitize=address --show-bin-path)/config-fuzz"

echo "== seeding the corpus from the repository's YAML files"
find "$ROOT/Simulator" "$ROOT/Tests" "$ROOT/Examples" "$ROOT/packaging" -name '*.yaml' -not -path '*/.build/*' 2>/dev/null |
    while read -r file; do cp "$file" "$CORPUS/seed-$(echo "$file" | md5sum | cut -c1-12).yaml"; done

echo "== fuzzing for $SECONDS_TO_RUN s"
cd "$OUT"
"$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -print_final_stats=1 "$CORPUS"
