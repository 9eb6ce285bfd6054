#!/usr/bin/env bash
# Measures what a developer waits for, on a fresh clone of one revision:
#   1. clean `make run`    (resolve + debug build of beacond + the bundled simulation)
#   2. clean `make test`   (.build removed: debug build of everything + every test)
#   3. edit-one-file       (one line added to the ranging loop, then `make test`'s build)
# and the number of compile units of (1). Prints one tab-separated line per figure.
#
#   scripts/measure-build.sh [REV]      (default HEAD; run with the machine otherwise idle)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
work=$(mktemp -d /tmp/beacond-measure.XXXXXX)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/main"
git -C "$work/main" checkout -q "$rev"
[ -e "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
cd "$work/main"
sha=$(git rev-parse --short HEAD)

seconds() { local start=$SECONDS; "$@" > "$work/out.log" 2>&1 || { tail -30 "$work/out.log" >&2; exit 1; }; echo $((SECONDS - start)); }

run=$(seconds make run)
units=$(sed -nE 's/.*\[[0-9]+\/([0-9]+)\].*/\1/p' "$work/out.log" | tail -1)
rm -rf .build
test=$(seconds make test)
edited=Sources/BeaconRanging/Loop/RangingLoop.swift
# A one-line edit in a mid-pipeline module: the module recompiles, its dependants are checked.
printf '\n// measure-build: an edited line\n' >> "$edited"
rebuild=$(seconds swift build --build-tests)
printf 'revision\t%s\nclean make run\t%s s\t(%s build units)\nclean make test\t%s s\nedit-one-file rebuild (tests)\t%s s\n' \
    "$sha" "$run" "${units:-?}" "$test" "$rebuild"
