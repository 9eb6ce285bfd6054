#!/usr/bin/env python3
"""The site soak (`make soak`, after the gateway's): a site as separate `beacond` processes on a
real mosquitto — four gateways simulating one scenario on the wall clock and two hubs for one
share with `hub.takeover` — while this harness kills gateways and hubs with SIGKILL at random
(and starts them again), restarts the broker, blackholes the active hub's link to the broker (its
packets stop, nothing is reset: `Tests/BeaconTestSupport/tcp_blackhole_proxy.py` between each hub
and the broker), publishes forged and malformed reports, and floods the hubs' command topics with
junk while an operator's sealed commands go through.

    scripts/site_soak.py [--beacond PATH] [--wall SECONDS] [--seed N] [--kill-every S]

1. The reference: the same scenario as one process (`beacond simulate` of a site: every gateway
   and the hub on virtual time, no broker, no fault). Its `created` events are what the site
   must decide: one dwell alert per visitor's stay in the shop.
2. The soak: the processes, on the wall clock, for the scenario's --wall seconds (a visitor every
   10 s); every kind of fault comes in a random order, round after round, until 10 s before the
   last visitor leaves the shop; besides, a hole opens in the active hub's link at the worst
   moments — within 1.5 s before the reference's time of each of the first --holes alerts, so that
   the hub decides the alert with its claim cut off; and every --flood-every seconds, a hub's
   `commands/dismiss` topic gets --flood junk commands (unsigned, sealed with an unknown key or a
   wrong code, bytes) with one valid sealed command (`unsuppress`, its own `id`) among them, sent
   again every 5 s until its result comes back (a hub killed or cut off misses it, as MQTT
   commands at QoS 0 are). Then both hubs are stopped with SIGTERM.
3. The verdict: every reference alert (alert, beacon) came exactly once across the two hubs'
   sinks, within --tolerance seconds of the reference's time, and was delivered; nothing else
   was created; the hubs refused the forged and malformed reports and the junk commands (their
   logs say so), no junk command dismissed anything, every valid command was answered under
   its id, and the hubs exited 0. Besides, each sink's advertisement-to-sink latency of every
   delivery (p50, p99, max: the hubs run at debug level, where each delivery's latency is a log
   line), through kills, holes and takeovers. Prints the counts, writes WORKDIR/summary.json,
   exits 0 on a pass.

The site runs on the wall clock (the hub aligns each gateway's clock to its own), so it covers
minutes, not a simulated day. Needs mosquitto and mosquitto_pub; loopback only.
"""
import argparse
import calendar
import hashlib
import hmac
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

from soak import Broker, log, prepare

UUID = "7A3E2C1B-5D4F-4A6B-9C8D-0E1F2A3B4C5D"
GATEWAYS = [("hall-a", "hall", [2, 2, 2.5]), ("hall-b", "hall", [8, 8, 2.5]),
            ("shop-a", "shop", [12, 2, 2.5]), ("shop-b", "shop", [18, 8, 2.5])]
HUBS = ["hub-a", "hub-b"]
# The hubs' MQTT keep-alive: the broker declares a blackholed hub gone 10–15 s into the hole.
HUB_KEEP_ALIVE = 10
PROXY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Tests", "BeaconTestSupport",
                     "tcp_blackhole_proxy.py")
# The operator's key for sealed commands (commands.keys of each hub's mqtt sink).
DESK = "soak-desk"
DESK_KEY = "5eed" * 16
RESEND = 5  # seconds before a valid command without a result is sent again (sealed anew)
STAGGER = 10  # seconds between visitors
STAY = 25  # seconds each visitor dwells at each waypoint


def scenario(start, visitors, duration):
    """Visitors come in through the hall, dwell 25 s in the shop and go back to the hall; two
    gateways per room, so one killed gateway leaves the room heard."""
    gateways = "\n".join(f"  - {{name: {name}, position: {position}}}" for name, _, position in GATEWAYS)
    return f"""name: site-soak
start: {start}
duration: {duration}s
seed: 7
radio: {{path_loss_exponent: 2.0, shadowing_sigma: 2.0, fading: none, packet_loss: 0.02}}
rooms:
  - {{name: hall, area: {{min: [0, 0], max: [10, 10]}}}}
  - {{name: shop, area: {{min: [10, 0], max: [20, 10]}}}}
gateways:
{gateways}
walkers:
  - {{name: visitor, count: {visitors}, stagger: {STAGGER}s, speed: 1.0, dwell: {STAY}s,
     waypoints: [[3, 5, 1.2], [15, 5, 1.2], [5, 5, 1.2]]}}
beacons:
  - {{name: badge, count: {visitors}, ibeacon: {{uuid: {UUID}, major: 1, minor: 1}}, interval: 200ms, carried_by: visitor}}
"""


ALERTS = f"""alerts:
  - {{id: shop-dwell, match: {{uuid: {UUID}}}, strategy: time, parameters: {{dwell: 10s, room: shop, gap: 20s}}}}
hub:
  position: {{tagHeight: 1.2, pathLossExponent: 2.0}}
"""


class Blackhole:
    """A hub's link to the broker that can fail silently: tcp_blackhole_proxy.py in between."""

    def __init__(self, broker_port):
        self.process = subprocess.Popen([sys.executable, PROXY, str(broker_port)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.port = int(self.process.stdout.readline())
        self.heal_at = None

    def command(self, text, answer):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        while (line := self.process.stdout.readline()) and answer not in line:
            pass

    def hole(self, direction, seconds):
        self.command(f"hole {direction}", f"hole {direction}")
        self.heal_at = time.time() + seconds

    def heal_if_due(self, now):
        if self.heal_at is not None and now >= self.heal_at:
            self.command("heal", "healed")
            self.heal_at = None

    def stop(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=10)


def seal(action, command, name=DESK, key=DESK_KEY):
    """A command sealed as `CommandSeal` says (written here from its description, not from its
    code): a first line naming the key, the sequence and the HMAC-SHA-256, then the command."""
    sequence = time.time_ns()
    code = hmac.new(bytes.fromhex(key), f"{action}\n{name}\n{sequence}\n{command}".encode(), hashlib.sha256).hexdigest()
    return f"beacond-command v1 {name} {sequence} {code}\n{command}"


class Commands:
    """The command traffic: junk floods, the operator's valid commands (sent again until their
    result comes back) and a subscriber to the results."""

    def __init__(self, broker, workdir):
        self.broker, self.workdir = broker, workdir
        self.results_path = os.path.join(workdir, "command-results.txt")
        self.results_file = open(self.results_path, "ab")
        self.subscriber = None
        self.waiting = {}  # id -> [hub, first sent, last sent, sends]
        self.answered = {}  # id -> (sends, seconds from the first send)
        self.junk = 0
        self.floods = 0
        self.read_to = 0  # how far the results file was read
        self.listen()

    def listen(self):
        """(Re)starts the results subscriber (mosquitto_sub exits when the broker goes away)."""
        if self.subscriber is None or self.subscriber.poll() is not None:
            self.subscriber = subprocess.Popen(
                ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-t", "beacond/+/commands/result",
                 "-q", "1"], stdout=self.results_file, stderr=subprocess.DEVNULL)

    def publish(self, hub, action, payload):
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-q", "1",
                        "-t", f"beacond/{hub}/commands/{action}", "-m", payload], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def send(self, command_id):
        hub = self.waiting[command_id][0]
        beacon = f"ibeacon:{UUID}:1:1"
        self.publish(hub, "unsuppress", seal("unsuppress", json.dumps(
            {"alert": "shop-dwell", "beacon": beacon, "id": command_id})))
        self.waiting[command_id][2] = time.time()
        self.waiting[command_id][3] += 1

    def flood(self, hub, count):
        """`count` junk commands on the hub's dismiss topic in one burst, a valid one among them."""
        # One line, one message: unsigned dismissals in the head nurse's name, seals cut to one
        # line (malformed), printable junk. Seals are two lines: a few go one by one (below).
        lines = []
        for index in range(count):
            kind = index % 3
            if kind == 0:
                lines.append(json.dumps({"beacon": f"ibeacon:{UUID}:1:1", "suppress": "forever", "by": "head-nurse"}))
            elif kind == 1:
                lines.append(seal("dismiss", "{}").replace("\n", " "))
            else:
                lines.append("".join(chr(random.randrange(33, 127)) for _ in range(random.randrange(1, 80))))
        junk = subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-l",
                                 "-t", f"beacond/{hub}/commands/dismiss"], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        half = "\n".join(lines[:count // 2]) + "\n"
        junk.stdin.write(half.encode())
        junk.stdin.flush()
        self.floods += 1
        command_id = f"soak-{self.floods}-{hub}"
        self.waiting[command_id] = [hub, time.time(), 0, 0]
        self.send(command_id)
        junk.stdin.write(("\n".join(lines[count // 2:]) + "\n").encode())
        junk.stdin.close()
        junk.wait(timeout=60)
        dismissal = json.dumps({"beacon": f"ibeacon:{UUID}:1:1", "suppress": "forever"})
        for _ in range(5):
            self.publish(hub, "dismiss", seal("dismiss", dismissal, name="intruder"))  # an unknown key
            self.publish(hub, "dismiss", seal("dismiss", dismissal, key="00" * 32))  # the desk's name, a wrong key
        self.junk += count + 10
        return command_id

    def poll(self, now):
        """Takes the results that came; sends again the valid commands still without one."""
        self.listen()
        with open(self.results_path, "rb") as file:
            file.seek(self.read_to)
            complete, newline, _ = file.read().rpartition(b"\n")
            self.read_to += len(complete) + len(newline)
        for line in complete.decode(errors="replace").splitlines():
            try:
                command_id = json.loads(line).get("id")
            except (ValueError, AttributeError):
                continue
            if command_id in self.waiting:
                _, first, _, sends = self.waiting.pop(command_id)
                self.answered[command_id] = (sends, now - first)
        for command_id, (_, _, last, _) in list(self.waiting.items()):
            if now - last >= RESEND:
                self.send(command_id)

    def stop(self):
        if self.subscriber and self.subscriber.poll() is None:
            self.subscriber.terminate()
            self.subscriber.wait(timeout=10)


def hub_configuration(hub, site, workdir, broker_port):
    gateways = "\n".join(f"  - {{id: {name}, room: {room}, position: {position}}}" for name, room, position in GATEWAYS)
    return f"""{site}}}
gateways:
{gateways}
hub:
  position: {{tagHeight: 1.2, pathLossExponent: 2.0}}
  takeover: {{id: {hub}}}
state: {workdir}/{hub}.sqlite
sinks:
  - {{type: jsonl, path: {workdir}/{hub}-events.jsonl}}
  - {{type: mqtt, host: 127.0.0.1, port: {broker_port}, gateway: {hub}, beacons: false,
     commands: {{keys: {{{DESK}: {{key: {DESK_KEY}}}}}}}}}
alerts:
  - {{id: shop-dwell, match: {{uuid: {UUID}}}, strategy: time, parameters: {{dwell: 10s, room: shop, gap: 20s}}}}
"""


def events(path):
    """The events of a jsonl sink (the lines that parse)."""
    found = []
    if os.path.exists(path):
        with open(path) as file:
            for line in file:
                try:
                    found.append(json.loads(line))
                except ValueError:
                    pass
    return found


def seconds(stamp):
    """RFC 3339 (UTC, `Z`) to seconds since the epoch."""
    whole, _, fraction = stamp.rstrip("Z").partition(".")
    return calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S")) + float("0." + (fraction or "0"))


class Process:
    """A `beacond` process that the soak kills and starts again; its log is appended to."""

    def __init__(self, name, arguments, workdir):
        self.name = name
        self.arguments = arguments
        self.log_path = os.path.join(workdir, f"{name}.log")
        self.process = None
        self.kills = 0

    def start(self):
        self.process = subprocess.Popen(self.arguments, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "a"))

    def kill_and_restart(self):
        """SIGKILL, then (after up to 2 s, as systemd's restart would) the same command again."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.kills += 1
            time.sleep(random.uniform(0.3, 2))
            self.start()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                return -9
        return self.process.returncode if self.process else None


def wait_until_ready(processes, ceiling):
    """Waits until each process's log has its `ready:` line; returns the names that never did."""
    deadline = time.time() + ceiling
    waiting = {process.name: process for process in processes}
    while waiting and time.time() < deadline:
        for name, process in list(waiting.items()):
            with open(process.log_path) as file:
                if any("ready: source running" in line for line in file):
                    del waiting[name]
        time.sleep(0.1)
    return sorted(waiting)


def is_active(process):
    """Whether a hub's log says it is active now (its latest takeover line)."""
    role = None
    with open(process.log_path) as file:
        for line in file:
            if "is now the active hub" in line:
                role = "active"
            elif "is a standby" in line:
                role = "standby"
    return role == "active"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beacond", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                          ".build", "release", "beacond"))
    parser.add_argument("--wall", type=float, default=600, help="the scenario's length in seconds (default 600)")
    parser.add_argument("--seed", type=int, default=int(time.time()), help="the faults' random seed")
    parser.add_argument("--kill-every", type=float, default=15, help="mean seconds between faults (default 15)")
    parser.add_argument("--holes", type=int, default=2,
                        help="how many alerts get a hole in the active hub's link just before them (default 2)")
    parser.add_argument("--flood-every", type=float, default=20, help="seconds between command floods (default 20)")
    parser.add_argument("--flood", type=int, default=2000, help="junk commands in each flood (default 2000)")
    # A hole opened just before an alert cuts the active hub off silently: the broker notices after
    # 1.5 keep-alives (15 s) and the standby takes over; a hole that heals about then lets the hub
    # that was cut off decide the alert itself, as late as the hole was long. So an alert may be
    # 15 s late plus an election and a cycle.
    parser.add_argument("--tolerance", type=float, default=20, help="seconds an alert may be off the reference's")
    parser.add_argument("--workdir", help="keep everything here (default: a temporary directory, removed on a pass)")
    options = parser.parse_args()
    workdir = prepare(options, "site soak", ("mosquitto", "mosquitto_pub"))

    duration = max(int(options.wall), 3 * STAY + 15 + STAGGER)
    visitors = (duration - 3 * STAY - 15) // STAGGER + 1
    # The gateways hold the scenario until every process is ready (startFile:); its own start is
    # the reference's, and the reference's times are read relative to it.
    reference_start = "2025-01-01T09:00:00Z"
    start = reference_start
    scenario_path = os.path.join(workdir, "site.yaml")
    with open(scenario_path, "w") as file:
        file.write(scenario(start, visitors, duration))
    alerts_path = os.path.join(workdir, "site.alerts.yaml")
    with open(alerts_path, "w") as file:
        file.write(ALERTS)

    # 1. The reference: the site in one process, on virtual time.
    reference = subprocess.run([options.beacond, "simulate", scenario_path, "--config", alerts_path, "--quiet"],
                               check=True, capture_output=True, text=True)
    expected = {}
    for line in reference.stdout.splitlines():
        event = json.loads(line)
        if event.get("event") == "created":
            offset = seconds(event["time"]) - seconds(reference_start)
            expected[(event["alert"], json.dumps(event["beacon"], sort_keys=True))] = offset
    log(f"reference: {len(expected)} dwell alerts for {visitors} visitors")

    # 2. The site as processes, with faults.
    broker = Broker(workdir)
    site = f"site: {{name: soak, broker: {{host: 127.0.0.1, port: {broker.port}}}"
    processes = {}
    holes = {hub: Blackhole(broker.port) for hub in HUBS}
    commands = Commands(broker, workdir)
    for hub in HUBS:
        path = os.path.join(workdir, f"{hub}.yaml")
        hub_site = (f"site: {{name: soak, broker: {{host: 127.0.0.1, port: {holes[hub].port}, "
                    f"keepAlive: {HUB_KEEP_ALIVE}s}}")
        with open(path, "w") as file:
            file.write(hub_configuration(hub, hub_site, workdir, broker.port))
        # At debug level a hub logs each delivery's advertisement-to-sink latency (`AlertLatency`).
        processes[hub] = Process(hub, [options.beacond, "hub", "--config", path, "--log-level", "debug"], workdir)
    start_file = os.path.join(workdir, "start")
    for name, _, _ in GATEWAYS:
        path = os.path.join(workdir, f"{name}.yaml")
        with open(path, "w") as file:
            file.write(f"source: {{simulate: {scenario_path}, gateway: {name}, speed: wall, startFile: {start_file}}}\n"
                       f"{site}, gateway: {name}}}\nalerts: []\n")
        processes[name] = Process(name, [options.beacond, "run", "--config", path], workdir)
    for process in processes.values():
        process.start()
    try:
        # The walk starts when every process says it is ready (connected, subscribed, elected), not
        # at a moment guessed in advance; only a hang reaches the ceiling.
        waiting = wait_until_ready(processes.values(), ceiling=180)
        if waiting:
            log(f"site soak FAILED: never ready: {', '.join(waiting)}; everything is in {workdir}")
            return 1
        start_seconds = int(time.time()) + 2
        with open(start_file + ".new", "w") as file:
            file.write(time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start_seconds)))
        os.rename(start_file + ".new", start_file)
        expected = {identity: start_seconds + offset for identity, offset in expected.items()}
        log(f"every process is ready: the scenario starts at {start_seconds}")
        return soak(options, workdir, processes, broker, holes, commands, start_seconds, visitors, duration, expected)
    finally:
        commands.stop()
        for process in processes.values():
            if process.process and process.process.poll() is None:
                process.process.kill()
        for hole in holes.values():
            hole.stop()
        broker.stop()


LATENCY_LINE = re.compile(r"sink '([^']+)': delivered .* ([0-9.e+-]+) s after its advertisement")


def delivery_latencies(log_paths):
    """Per kind of sink (`jsonl`, `mqtt`: both hubs' sinks of that kind together), the
    advertisement-to-sink latency of every alert delivery the hubs logged (each run of each hub:
    the log is appended to across restarts): count, p50, p99 and max, seconds."""
    by_sink = {}
    for path in log_paths:
        with open(path, errors="replace") as file:
            for line in file:
                match = LATENCY_LINE.search(line)
                if match:
                    kind = match.group(1).split(":")[0]
                    by_sink.setdefault(kind, []).append(float(match.group(2)))

    def rank(values, fraction):
        return values[min(len(values), max(1, math.ceil(fraction * len(values)))) - 1]

    summary = {}
    for sink, values in sorted(by_sink.items()):
        values.sort()
        summary[sink] = {"deliveries": len(values), "p50": round(rank(values, 0.5), 3),
                         "p99": round(rank(values, 0.99), 3), "max": round(values[-1], 3)}
    return summary


def soak(options, workdir, processes, broker, holes, commands, start_seconds, visitors, duration, expected):
    """Runs the faults until the scenario ends, stops the hubs, and judges; 0 on a pass."""
    faults = {"gateway kills": 0, "hub kills": 0, "broker restarts": 0, "forged reports": 0, "malformed reports": 0,
              "holes": 0, "holes at an alert": 0}
    # The worst moments: a hole opens in the active hub's link just before it decides an alert.
    worst = sorted(at - random.uniform(0, 1.5) for at in sorted(expected.values())[:options.holes])

    def cut_off():
        """Whether a hub's link is in a hole now: another hole, or a hub kill, would then leave no
        hub hearing the reports — every alert of that stretch late, by the soak's own doing."""
        return any(hole.heal_at is not None for hole in holes.values())

    def open_hole(kind):
        active = [hub for hub in HUBS if is_active(processes[hub])]
        hub = active[-1] if active else random.choice(HUBS)
        if cut_off():
            log(f"fault: no hole ({kind}): a hub's link is in one already")
            return
        direction = random.choice(["up", "both"])
        seconds = random.uniform(3, 3 * HUB_KEEP_ALIVE)
        holes[hub].hole(direction, seconds)
        faults[kind] += 1
        log(f"fault: hole ({direction}, {seconds:.0f} s) in {hub}'s link{', just before an alert' if kind == 'holes at an alert' else ''}")
    last_stay_ends = start_seconds + (visitors - 1) * STAGGER + 3 * STAY
    faults_end = last_stay_ends - 10
    end = start_seconds + duration
    next_fault = time.time() + random.expovariate(1 / options.kill_every)
    next_flood = start_seconds + options.flood_every / 2
    # Every kind of fault comes, in a random order, round after round.
    kinds = []
    while time.time() < end + 5:
        now = time.time()
        for hole in holes.values():
            hole.heal_if_due(now)
        commands.poll(now)
        if now >= next_flood and now < faults_end:
            hub = random.choice(HUBS)
            command_id = commands.flood(hub, options.flood)
            log(f"fault: {options.flood} junk commands to {hub}, with {command_id} among them")
            next_flood = now + options.flood_every
        if worst and now >= worst[0]:
            worst.pop(0)
            open_hole("holes at an alert")
        if start_seconds < now < faults_end and now >= next_fault:
            if not kinds:
                kinds = random.sample(["gateway", "hub", "broker", "forged", "gateway", "malformed", "hole"], 7)
            fault = kinds.pop()
            if fault == "hole":
                open_hole("holes")
            elif fault == "gateway":
                processes[random.choice(GATEWAYS)[0]].kill_and_restart()
                faults["gateway kills"] += 1
            elif fault == "hub" and cut_off():
                log("fault: no hub kill: a hub's link is in a hole")
                fault = "hole"  # logged already
            elif fault == "hub":
                active = [hub for hub in HUBS if is_active(processes[hub])]
                processes[active[-1] if active else random.choice(HUBS)].kill_and_restart()
                faults["hub kills"] += 1
            elif fault == "broker":
                broker.stop()
                time.sleep(random.uniform(0.2, 2))
                broker.start()
                faults["broker restarts"] += 1
            else:
                gateway = random.choice(GATEWAYS)[0] if fault == "forged" else "intruder"
                payload = (json.dumps({"v": 1, "gateway": gateway, "time": "2300-01-01T00:00:00Z", "records": []}).encode()
                           if fault == "forged" else bytes(random.randrange(256) for _ in range(random.randrange(1, 300))))
                payload_path = os.path.join(workdir, "payload")
                with open(payload_path, "wb") as file:
                    file.write(payload)
                topic = f"beacond/site/soak/records/{random.randrange(16)}/{gateway}"
                subprocess.run(["mosquitto_pub", "-p", str(broker.port), "-t", topic, "-f", payload_path], check=False,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                faults[f"{fault} reports"] += 1
            if fault != "hole":
                log(f"fault: {fault}")
            next_fault = now + random.expovariate(1 / options.kill_every)
        time.sleep(0.2)

    for hole in holes.values():
        if hole.heal_at is not None:
            hole.heal_at = 0
            hole.heal_if_due(time.time())
    # The valid commands still without a result are sent again (every RESEND s) until they have
    # one; only a hang reaches the ceiling.
    ceiling = time.time() + 120
    while commands.waiting and time.time() < ceiling:
        commands.poll(time.time())
        time.sleep(0.2)
    statuses = {name: processes[name].stop() for name in processes}
    broker.stop()

    # 3. The verdict.
    created, delivered = {}, set()
    for hub in HUBS:
        for event in events(os.path.join(workdir, f"{hub}-events.jsonl")):
            if "alert" not in event:
                continue  # a gateway's lifecycle event (gatewayOffline / gatewayOnline), not an alert's
            identity = (event["alert"], json.dumps(event["beacon"], sort_keys=True))
            if event.get("event") == "created":
                created.setdefault(identity, []).append((hub, seconds(event["time"])))
            elif event.get("event") == "delivered":
                delivered.add(identity)
    problems = []
    for identity, at in expected.items():
        got = created.get(identity, [])
        if len(got) != 1:
            problems.append(f"{identity}: created {len(got)} times (want 1): {got}")
        elif abs(got[0][1] - at) > options.tolerance:
            problems.append(f"{identity}: created at {got[0][1] - at:+.1f} s from the reference")
        if identity not in delivered:
            problems.append(f"{identity}: never delivered")
    for identity in created.keys() - expected.keys():
        problems.append(f"{identity}: created, but not by the reference: {created[identity]}")
    # The refusal log lines of every run of both hubs (a killed hub's exit summary is lost with
    # it; the log is appended to across its restarts, and says each reason at least once a minute).
    refused = sum(1 for hub in HUBS for line in open(processes[hub].log_path)
                  if " refused (" in line and "mqtt commands" not in line)
    if faults["forged reports"] + faults["malformed reports"] > 0 and refused == 0:
        problems.append("the hubs logged no refused report")
    refused_commands = sum(1 for hub in HUBS for line in open(processes[hub].log_path)
                           if "mqtt commands: refused" in line)
    if commands.floods > 0 and refused_commands == 0:
        problems.append("the hubs logged no refused command")
    for command_id, (hub, *_rest) in commands.waiting.items():
        problems.append(f"the valid command {command_id} to {hub} was never answered")
    dismissed = [event for hub in HUBS for event in events(os.path.join(workdir, f"{hub}-events.jsonl"))
                 if event.get("event") == "dismissed"]
    if dismissed:
        problems.append(f"junk commands dismissed {len(dismissed)} alerts: {dismissed[:3]}")
    for hub in HUBS:
        if statuses[hub] != 0:
            problems.append(f"{hub} exited {statuses[hub]} at SIGTERM")
    latency = delivery_latencies([processes[hub].log_path for hub in HUBS])
    if delivered and not latency:
        problems.append("the hubs delivered alerts but logged no delivery's latency")
    summary = {"seed": options.seed, "visitors": visitors, "reference alerts": len(expected),
               "created": sum(len(v) for v in created.values()), "delivered": len(delivered),
               "refusals logged": refused, "latency (s)": latency,
               "commands": {"floods": commands.floods, "junk": commands.junk, "valid": len(commands.answered) +
                            len(commands.waiting), "answered": len(commands.answered),
                            "answered at the first send": sum(1 for sends, _ in commands.answered.values() if sends == 1),
                            "slowest answer (s)": round(max((t for _, t in commands.answered.values()), default=0), 1),
                            "refusal lines logged": refused_commands},
               "faults": faults, "problems": problems}
    with open(os.path.join(workdir, "summary.json"), "w") as file:
        json.dump(summary, file, indent=2)
    log(f"site soak: {json.dumps(summary)}")
    if problems:
        log(f"site soak FAILED ({len(problems)} problems); everything is in {workdir}")
        return 1
    log("site soak passed")
    if not options.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
