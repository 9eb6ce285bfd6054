#!/usr/bin/env bash
# Fuzzes BeaconWire with libFuzzer + AddressSanitizer for a bounded time.
#   scripts/fuzz.sh [seconds]    (default 60)
# Builds BeaconCore and BeaconWire as static libraries with coverage instrumentation, links the
# harness Fuzz/WireFuzz/WireFuzz.swift, seeds the corpus from the test fixtures and runs.
# Exit status is libFuzzer's: non-zero when it found a crash (the input is saved as
# .build/fuzz/crash-*; replay with `.build/fuzz/wire-fuzz <file>`).
set -euo pipefail
SECONDS_TO_RUN="${1:-60}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/.build/fuzz"
CORPUS="$OUT/corpus"
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -enable-upcoming-feature ExistentialAny -package-name beacond)
mkdir -p "$OUT/modules" "$CORPUS"

echo "== building (BeaconCore, BeaconWire, BeaconSiteReport, harness)"
swiftc "${FLAGS[@]}" -module-name BeaconCore -emit-module -emit-module-path "$OUT/modules/BeaconCore.swiftmodule" \
    -emit-library -static -o "$OUT/libBeaconCore.a" "$ROOT"/Sources/BeaconCore/*.swift
swiftc "${FLAGS[@]}" -module-name BeaconWire -I "$OUT/modules" -emit-module \
    -emit-module-path "$OUT/modules/BeaconWire.swiftmodule" -emit-library -static -o "$OUT/libBeaconWire.a" \
    $(find "$ROOT/Sources/BeaconWire" -name '*.swift')
swiftc "${FLAGS[@]}" -module-name BeaconSiteReport -I "$OUT/modules" -emit-module \
    -emit-module-path "$OUT/modules/BeaconSiteReport.swiftmodule" -emit-library -static -o "$OUT/libBeaconSiteReport.a" \
    "$ROOT"/Sources/BeaconSiteReport/*.swift
swiftc "${FLAGS[@]}" -module-name WireFuzz -I "$OUT/modules" "$ROOT/Fuzz/WireFuzz/WireFuzz.swift" \
    "$OUT/libBeaconSiteReport.a" "$OUT/libBeaconWire.a" "$OUT/libBeaconCore.a" -o "$OUT/wire-fuzz"

echo "== seeding the corpus from Tests/BeaconWireTests/Fixtures"
for raw in "$ROOT"/Tests/BeaconWireTests/Fixtures/*.raw; do
    name="$(basename "$raw" .raw)"
    for offset in 0 43 1000 5001 20000 40007; do   # aligned and misaligned 512-byte windows
        dd if="$raw" of="$CORPUS/seed-$name-$offset" bs=1 skip="$offset" count=512 status=none
    done
done

# Capture files: the first 2 KiB of each (headers and the first records) seed the capture readers.
for capture in "$ROOT"/Tests/BeaconWireTests/Fixtures/Captures/*.{btsnoop,pcap,pcapng}; do
    [ -f "$capture" ] && head -c 2048 "$capture" > "$CORPUS/seed-capture-$(basename "$capture")"
done

echo "== fuzzing for $SECONDS_TO_RUN s"
cd "$OUT"
./wire-fuzz -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -print_final_stats=1 "$CORPUS"
