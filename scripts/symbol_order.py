#!/usr/bin/env python3
"""Writes packaging/beacond.order: the functions a gateway runs, for the release link (issue 30).

The release `beacond` is linked with `--symbol-ordering-file=packaging/beacond.order`
(Package.swift, the beacond target's linker settings): the functions named there are laid out
first, in that order, and so the code a gateway runs sits on a few hundred contiguous pages
instead of being spread over the binary's 25 MB of code. The kernel maps a file's pages 64 KB at
a time around each page touched (fault-around), so a function touched alone in a stretch of cold
code costs 64 KB of resident memory; packed, the same code costs a quarter of what it did (see
BENCHMARKS.md, "What a gateway costs").

This script produces the list: it runs `beacond run` on the same load as `make bench-gateway`
(scripts/gateway_cost.py: Simulator/Scenarios/gateway-load.yaml paced at real time, five
strategies, JSON-lines and MQTT sinks on a mosquitto it starts) under valgrind's callgrind for
--seconds, and writes every function of the binary that ran, the most instructions first (the
steady loop before start-up), one linkage name a line.

The list is a layout hint, not a contract: a function renamed or added since is simply laid out
in the ordinary order (the link does not warn), and the gain fades as the code drifts from the
list. Run it again after large changes, on the shipped build (its names include the Swift
runtime's and Foundation's, linked statically):

    swift build -c release --static-swift-stdlib --product beacond --scratch-path .build-dist
    scripts/symbol_order.py --beacond .build-dist/release/beacond

Needs valgrind (apt-get install -y valgrind) and mosquitto. valgrind 3.19 cannot read the
toolchain's DWARF 5, so the script profiles a copy without debug information (objcopy).
"""

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gateway_cost import configuration  # noqa: E402  (the bench's load, sinks and strategies)
from soak import Broker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = os.path.join(ROOT, "packaging", "beacond.order")


def executed_functions(profile, binary):
    """Self cost (instructions) of each function of `binary` in a callgrind profile written
    with --compress-strings=no: `fn=` names a function of the current `ob=` object, and each
    cost line after it is (position, instructions), except the line after `calls=`, which is
    the inclusive cost of a call and belongs to the callee."""
    cost = collections.Counter()
    in_binary, function, skip = False, None, False
    with open(profile, errors="replace") as file:
        for line in file:
            if line.startswith("ob="):
                in_binary = os.path.realpath(line[3:].strip()) == binary
            elif line.startswith("fn="):
                function = line[3:].strip() if in_binary else None
                if function:
                    cost[function] += 0
            elif line.startswith("calls="):
                skip = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if skip:
                    skip = False
                elif function:
                    fields = line.split()
                    if len(fields) > 1 and fields[1].isdigit():
                        cost[function] += int(fields[1])
    # callgrind marks recursion depths (`f'2`) and has no name for code without a symbol.
    names = {}
    for name, instructions in cost.items():
        name = name.split("'")[0]
        if name.startswith("0x") or name.startswith("("):
            continue
        names[name] = names.get(name, 0) + instructions
    return sorted(names, key=lambda name: (-names[name], name))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beacond", default=os.path.join(ROOT, ".build-dist", "release", "beacond"),
                        help="the binary to profile (default: make dist's build)")
    parser.add_argument("--seconds", type=float, default=40, help="wall-clock seconds of the load (default 40)")
    parser.add_argument("--output", default=ORDER, help=f"where to write the list (default {ORDER})")
    options = parser.parse_args()
    for tool, package in (("valgrind", "valgrind"), ("mosquitto", "mosquitto"), ("objcopy", "binutils")):
        if shutil.which(tool) is None:
            print(f"symbol order: {tool} is not installed (apt-get install -y {package})", file=sys.stderr)
            return 2
    if not os.access(options.beacond, os.X_OK):
        print(f"symbol order: no executable at {options.beacond}", file=sys.stderr)
        return 2

    directory = tempfile.mkdtemp(prefix="beacond-symbol-order-")
    binary = os.path.join(directory, "beacond")
    subprocess.run(["objcopy", "--strip-debug", options.beacond, binary], check=True)
    binary = os.path.realpath(binary)
    profile = os.path.join(directory, "callgrind.out")
    broker = Broker(directory)
    log = open(os.path.join(directory, "beacond.log"), "wb")
    daemon = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", "--demangle=no",
         "--compress-strings=no", "--compress-pos=no",
         binary, "run", "--config", configuration(directory, broker.port)],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(options.seconds)
        if daemon.poll() is not None:
            print(f"symbol order: beacond exited ({daemon.returncode}); its log: {log.name}", file=sys.stderr)
            return 2
        daemon.terminate()
        daemon.wait(timeout=120)
    finally:
        if daemon.poll() is None:
            daemon.kill()
        broker.stop()
        log.close()
    names = executed_functions(profile, binary)
    if len(names) < 1000:
        print(f"symbol order: only {len(names)} functions in the profile; its log: {log.name}", file=sys.stderr)
        return 2
    with open(options.output, "w") as file:
        file.write("\n".join(names) + "\n")
    print(f"symbol order: {len(names)} functions ran in {options.seconds:g} s of the gateway load; "
          f"written to {os.path.relpath(options.output)}")
    shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
