#!/bin/bash
# A real Home Assistant watching a beacond site (issue 28): installs homeassistant 2024.3.3 (the
# last release for this machine's Python 3.11) into a venv under .build/ha (cached), then runs
# scripts/ha_site_check.py: mosquitto, Home Assistant connected to it (MQTT config entry),
# a hub and three simulated gateways, every one a process of its own; the checks go through Home
# Assistant's REST API. Exit 0 = passed.
#
# About 10 minutes cold (the pip install), about 2 minutes with the venv cached.
#
# Env: BEACOND_BINARY   test this binary (default: .build/debug/beacond, built if missing)
#      HA_VENV          the venv (default .build/ha/venv)
#      HA_KEEP=1        keep the run's directory (Home Assistant's log, the daemons' logs)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
HA_VERSION=2024.3.3
VENV=${HA_VENV:-$REPO/.build/ha/venv}
# What Home Assistant would pip-install at its first start for the integrations it always loads
# (frontend, backup, hardware, analytics, camera, cloud) and those the check uses (http, mqtt,
# person → image_upload, file_upload): installed once here, so it starts with --skip-pip and no
# network. josepy < 2: the acme that hass-nabucasa 0.78 pulls needs josepy 1's ComparableX509.
REQUIREMENTS=(
    "homeassistant==$HA_VERSION" "paho-mqtt==1.6.1" "Pillow==10.2.0" "janus==1.0.0"
    "aiohttp_cors==0.7.0" "aiohttp-fast-url-dispatcher==0.3.0" "aiohttp-zlib-ng==0.3.1"
    "home-assistant-frontend==20240307.0" "psutil-home-assistant==0.0.1" "securetar==2024.2.1"
    "PyTurboJPEG==1.7.1" "numpy==1.26.0" "josepy<2"
    "hassil==1.6.1" "home-assistant-intents==2024.3.12" "SQLAlchemy==2.0.27" "fnv-hash-fast==0.5.0"
)
stamp="$VENV/.beacond-ha-$HA_VERSION"
if [ ! -f "$stamp" ]; then
    echo "test-ha: installing Home Assistant $HA_VERSION into $VENV (once; cached afterwards)"
    python3 -m venv "$VENV" 2>/dev/null || { apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$VENV"; }
    "$VENV/bin/pip" install -q --upgrade pip wheel
    "$VENV/bin/pip" install -q "${REQUIREMENTS[@]}"
    touch "$stamp"
fi
"$VENV/bin/hass" --version >/dev/null

BEACOND=${BEACOND_BINARY:-$REPO/.build/debug/beacond}
if [ -z "${BEACOND_BINARY:-}" ] && [ ! -x "$BEACOND" ]; then
    swift build --product beacond
fi
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || scripts/ensure-deps.sh test

exec python3 "$REPO/scripts/ha_site_check.py" --beacond "$BEACOND" --hass "$VENV/bin/hass"
