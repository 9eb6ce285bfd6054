#!/usr/bin/env bash
# Fuzzes the foreign nodes' readers (ESPresense, OpenMQTTGateway, Theengs payloads, recorded MQTT
# lines) with libFuzzer + AddressSanitizer for a bounded time.
#   scripts/fuzz-foreign.sh [seconds]    (default 60)
# Builds Fuzz/ForeignFuzz with SwiftPM's --sanitize=fuzzer, seeds the corpus with the foreign
# fixtures (one payload a file) and runs. Exit status is libFuzzer's: non-zero when it found a
# crash (the input is saved as Fuzz/ForeignFuzz/.build/fuzz/crash-*; replay with `foreign-fuzz <file>`).
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PACKAGE="$ROOT/Fuzz/ForeignFuzz"
OUT="$PACKAGE/.build/fuzz"
CORPUS="$OUT/corpus"
FIXTURES="$ROOT/Tests/BeaconForeignNodesTests/Fixtures/foreign"
mkdir -p "$CORPUS"

echo "== building Fuzz/ForeignFuzz (--sanitize=fuzzer,address, every module instrumented)"
# -Xswiftc -sanitize=fuzzer: coverage in every module the harness links (--sanitize=fuzzer alone
# instruments the harness only, and libFuzzer then finds nothing to follow).
swift build --package-path "$PACKAGE" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer --product foreign-fuzz 2>&1 | tail -3
BIN="$(swift build --package-path "$PACKAGE" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer --show-bin-path)/foreign-fuzz"

echo "== seeding the corpus from $FIXTURES"
n=0
for file in "$FIXTURES"/*.txt "$FIXTURES"/*.jsonl; do
    while IFS= read -r line; do
        n=$((n + 1))
        printf '%s' "${line#* }" > "$CORPUS/seed-$n"      # the payload of a `topic payload` line, or the line
        [ "$n" -ge 200 ] && break
    done < "$file"
done
printf 'online' > "$CORPUS/seed-status"

echo "== fuzzing for $SECONDS_TO_RUN s"
cd "$OUT"
"$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 -print_final_stats=1 "$CORPUS"
