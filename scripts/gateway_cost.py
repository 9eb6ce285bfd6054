#!/usr/bin/env python3
"""What a gateway costs (issue 30): `beacond run` on a realistic load, on the wall clock.

The load is Simulator/Scenarios/gateway-load.yaml paced at real time (`speed: 1`): 200 beacons
advertising at 1-10 Hz (about 510 advertisements heard a second) and 30 visitors coming and
going, with gateway-load.alerts.yaml's five strategies (enter, time, proximity, exit, rssi) and
two sinks, JSON lines and MQTT (QoS 1 to a mosquitto this script starts on 127.0.0.1).

After a warm-up (the first cycles, the sinks' connections), it reads the daemon's CPU time
(utime + stime from /proc/PID/stat) at the start and the end of a measured window, and its peak
RSS (VmHWM) at the end, and prints:

    gateway cost: 60 s measured after 5 s of warm-up; 33,150 advertisements in 65 s (510/s), …
    CPU 0.62 % of one core (373 ms of CPU time), peak RSS 24.1 MB (targets: 1 % and 30 MB)
    resident at the end: 4.4 MB private (heap, stacks), 19.7 MB of mapped files (…)

(figures for illustration; BENCHMARKS.md has the measured ones)

Exit status 0 when both targets are met, 1 when one is not, 2 when the run itself failed (the
daemon died, no alert was delivered to a sink). It is a measurement, not a test: the figures
depend on the machine. Usage: scripts/gateway_cost.py [--seconds 60] [--warmup 5] [--beacond PATH]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak import Broker  # noqa: E402  (mosquitto on a free loopback port)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "Simulator", "Scenarios", "gateway-load.yaml")
ALERTS = os.path.join(ROOT, "Simulator", "Scenarios", "gateway-load.alerts.yaml")
CPU_TARGET = 0.01  # of one core
RSS_TARGET_MB = 30.0


def cpu_seconds(pid):
    """utime + stime of a process, in seconds (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def configuration(directory, port):
    with open(ALERTS) as file:
        alerts = file.read()
    path = os.path.join(directory, "gateway.yaml")
    with open(path, "w") as file:
        file.write(
            f"source: {{simulate: {SCENARIO}, speed: 1}}\n"
            "sinks:\n"
            f"  - {{type: jsonl, path: {directory}/events.jsonl}}\n"
            f"  - {{type: mqtt, host: 127.0.0.1, port: {port}, gateway: load, timeout: 3s}}\n"
            + alerts[alerts.index("alerts:"):])
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="measured wall-clock seconds (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before the window opens (default 5)")
    parser.add_argument("--beacond", default=os.path.join(ROOT, ".build", "release", "beacond"),
                        help="the daemon to measure (default: the release build)")
    options = parser.parse_args()
    if not os.access(options.beacond, os.X_OK):
        print(f"gateway cost: no executable at {options.beacond}; build it with "
              "`swift build -c release --product beacond` (make bench-gateway does)", file=sys.stderr)
        return 2
    if shutil.which("mosquitto") is None:
        print("gateway cost: mosquitto is not installed (apt-get install -y mosquitto)", file=sys.stderr)
        return 2

    directory = tempfile.mkdtemp(prefix="beacond-gateway-cost-")
    broker = Broker(directory)
    log = open(os.path.join(directory, "beacond.log"), "wb")
    daemon = subprocess.Popen([options.beacond, "run", "--config", configuration(directory, broker.port)],
                              stdout=log, stderr=subprocess.STDOUT)
    started = time.monotonic()
    try:
        time.sleep(options.warmup)
        if daemon.poll() is not None:
            raise RuntimeError(f"beacond exited ({daemon.returncode}) during the warm-up")
        cpu_start, wall_start = cpu_seconds(daemon.pid), time.monotonic()
        time.sleep(options.seconds)
        if daemon.poll() is not None:
            raise RuntimeError(f"beacond exited ({daemon.returncode}) during the window")
        cpu, wall = cpu_seconds(daemon.pid) - cpu_start, time.monotonic() - wall_start
        peak_mb = status_kb(daemon.pid, "VmHWM") / 1024
        # What the peak is made of, now: private memory, and clean pages of the binary and its
        # libraries (shared with other processes, dropped by the kernel under memory pressure).
        anon_mb, file_mb = status_kb(daemon.pid, "RssAnon") / 1024, status_kb(daemon.pid, "RssFile") / 1024
    except RuntimeError as error:
        print(f"gateway cost: {error}; its log: {log.name}", file=sys.stderr)
        return 2
    finally:
        if daemon.poll() is None:
            daemon.terminate()  # a graceful stop: the daemon prints its summary
            daemon.wait(timeout=30)
        lifetime = time.monotonic() - started
        broker.stop()
        log.close()

    with open(os.path.join(directory, "events.jsonl")) as file:
        events = [json.loads(line) for line in file if line.strip()]
    summary = open(log.name, errors="replace").read()
    if not events:
        print(f"gateway cost: no alert event reached the JSON-lines sink; the log: {log.name}", file=sys.stderr)
        return 2
    # The exit summary: "beacond: 2369 packets, 2369 advertisements, … peak RSS 45.5 MB".
    adverts = next((int(part.split()[0]) for line in summary.splitlines() if line.startswith("beacond: ")
                    for part in line.split(", ") if part.endswith(" advertisements")), 0)
    share = cpu / wall
    print(f"gateway cost: {wall:.0f} s measured after {options.warmup:g} s of warm-up; {adverts:,} advertisements"
          f" in {lifetime:.0f} s ({adverts / lifetime:.0f}/s), {len(events)} alert events in the JSON-lines sink")
    print(f"CPU {share * 100:.2f} % of one core ({cpu * 1000:.0f} ms of CPU time), peak RSS {peak_mb:.1f} MB"
          f" (targets: {CPU_TARGET * 100:g} % and {RSS_TARGET_MB:g} MB)")
    print(f"resident at the end: {anon_mb:.1f} MB private (heap, stacks), {file_mb:.1f} MB of mapped files"
          " (the binary's code and data, shared libraries)")
    shutil.rmtree(directory, ignore_errors=True)
    return 0 if share <= CPU_TARGET and peak_mb <= RSS_TARGET_MB else 1


if __name__ == "__main__":
    sys.exit(main())
