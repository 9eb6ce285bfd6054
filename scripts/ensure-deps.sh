#!/usr/bin/env bash
# Installs the Debian packages beacond's build and tests need, when they are missing.
#   scripts/ensure-deps.sh build   libbluetooth-dev (the HCI scanner's headers), libsqlite3-dev (the alert state
#                                  store), libmosquitto-dev (the MQTT sink), libcurl4-openssl-dev (outgoing HTTP(S):
#                                  FoundationNetworking's libcurl, linked by name for static builds)
#   scripts/ensure-deps.sh test    + tshark, bluez (btmon) to cross-check written captures; mosquitto and
#                                  mosquitto-clients (MQTT sink tests), python3 (the webhook tests' HTTP server), openssl (a test CA for MQTT over TLS)
#                                  chromium (the status page in a headless browser), python3-jsonschema (its API against Docs/status-api.schema.json)
set -euo pipefail
want=(libbluetooth-dev libsqlite3-dev libmosquitto-dev libcurl4-openssl-dev pkg-config)
case "${1:-build}" in
    test) want+=(tshark bluez mosquitto mosquitto-clients python3 python3-jsonschema openssl chromium) ;;
esac
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root (or sudo) to apt-get install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
