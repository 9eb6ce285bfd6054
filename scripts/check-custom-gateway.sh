#!/bin/sh
# `make examples`: the custom gateway (Examples/CustomGateway: beacond's command line with one
# more strategy, `steady-signal`) runs its bundled scenario as a daemon; its alert fires for the
# parcel left on the shelf and not for the trolley pushed up and down the aisle; check-config
# knows the strategy's parameters; explain follows it; tune searches its declared values.
set -eu
binary=Examples/CustomGateway/.build/debug/custom-gateway
config=Examples/CustomGateway/shelf.gateway.yaml
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$binary" check-config "$config"
"$binary" run --config "$config" > "$out"
grep -q '"event":"delivered","alert":"parcel-left","beacon":{"uuid":"2F3A7C10-5B6D-4E8F-9A0B-1C2D3E4F5A6B","major":1,"minor":1}' "$out" \
    || { echo "check-custom-gateway: the parcel's steady-signal alert was not delivered:" >&2; cat "$out" >&2; exit 1; }
if grep -q '"minor":2}' "$out"; then
    echo "check-custom-gateway: the moving trolley fired the steady-signal alert:" >&2; cat "$out" >&2; exit 1
fi
"$binary" explain --scenario Examples/CustomGateway/shelf.yaml --config "$config" --beacon parcel | tee "$out"
grep -q '^verdict: delivered at 08:0' "$out" || { echo "check-custom-gateway: explain gave no delivery" >&2; exit 1; }
# tune searches the strategy's declared values against the scenario's truth (the parcel stays
# within 5 m of the gateway all along; the trolley only passes).
"$binary" tune --scenario Examples/CustomGateway/shelf.yaml --config "$config" --radius 5 --max-latency none --seeds 2 \
    | tee "$out"
grep -q '^best: duration=' "$out" || { echo "check-custom-gateway: tune found no candidate meeting the objective" >&2; exit 1; }
bad=$(mktemp --suffix=.yaml)
trap 'rm -f "$out" "$bad"' EXIT
printf '%s\n' 'alerts:' \
    '  - {id: x, match: {uuid: 2F3A7C10-5B6D-4E8F-9A0B-1C2D3E4F5A6B}, strategy: steady-signal, parameters: {tolerance: 0}}' > "$bad"
if "$binary" check-config "$bad" > "$out" 2>&1; then echo "check-custom-gateway: a bad tolerance passed" >&2; exit 1; fi
grep -q "must be more than 0 dB" "$out" || { echo "check-custom-gateway: check-config did not name the tolerance:" >&2; cat "$out" >&2; exit 1; }
echo "check-custom-gateway: the custom strategy runs in the daemon, fires for the parcel only, is checked, explained and tuned"
