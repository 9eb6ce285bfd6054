#!/usr/bin/env bash
# What each suite of the test run costs alone: every suite of every test target (a type named
# *Tests in Tests/<target>/), run by itself from the build make test made, with its wall time and
# the CPU time of the run and everything it started (beacond, mosquitto, chromium), the most
# expensive first. Slow: each suite pays the test binary's start. SUITES='Site' limits it to the
# suites whose name contains that text.
#   make suite-times
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${SUITES:-}"
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for file in Tests/*/*Tests.swift Tests/*/*/*Tests.swift; do
    [ -f "$file" ] || continue
    target=$(echo "$file" | cut -d/ -f2)
    suite=$(basename "$file" .swift)
    [[ -z "$filter" || "$suite" == *"$filter"* ]] || continue
    grep -q "struct $suite\b" "$file" || continue
    log=$(mktemp)
    /usr/bin/time -f "%e %U %S" -o "$log.time" swift test --skip-build --disable-xctest --filter "$target.$suite/" > "$log" 2>&1 \
        && status=passed || status=FAILED
    read -r wall user sys < "$log.time"
    tests=$(grep -oE "Test run with [0-9]+ test" "$log" | grep -oE "[0-9]+" || echo 0)
    printf '%8.1f %8.1f %5s %-7s %s.%s\n' "$wall" "$(awk "BEGIN { print $user + $sys }")" "$tests" "$status" "$target" "$suite" >> "$results"
    rm -f "$log" "$log.time"
done
printf '%8s %8s %5s %-7s %s\n' "wall s" "CPU s" tests status suite
sort -k2 -rn "$results"
