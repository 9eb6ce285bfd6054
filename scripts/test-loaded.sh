#!/usr/bin/env bash
# make test-loaded: the whole test suite (already built by make test or the build step) while the
# machine is deliberately busy: BURNERS processes (default: one per core) spin at full load for
# the whole run, started and stopped here. A test that passes only on a quiet machine fails here.
#   RUNS=5 make test-loaded   five runs in a row, stopping at the first failure
set -euo pipefail
cd "$(dirname "$0")/.."
burners="${BURNERS:-$(nproc)}"
runs="${RUNS:-1}"
pids=()
stop_burners() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap stop_burners EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$burners"); do
    ( while :; do :; done ) &
    pids+=("$!")
done
echo "test-loaded: $burners CPU burner(s) at full load on $(nproc) core(s), $runs run(s)"
for run in $(seq "$runs"); do
    started=$(date +%s)
    swift test --skip-build --disable-xctest
    echo "test-loaded: run $run of $runs passed in $(( $(date +%s) - started )) s under load"
done
