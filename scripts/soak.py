#!/usr/bin/env python3
"""The fault-injection soak (`make soak`): a simulated day through a real `beacond run`, with
JSON-lines, webhook and MQTT sinks, while this harness kills the daemon with SIGKILL at random
moments, restarts mosquitto, and makes the webhook receiver answer 500, hang and vanish.

    scripts/soak.py [--beacond PATH] [--wall SECONDS] [--hours H] [--seed N] [--kill-every S]

1. A reference run: the same day, unpaced, uninterrupted, into a JSON-lines file. Its events are
   the ground truth of delivery: every one of them must reach every sink.
2. The soak: the day paced to last about --wall seconds, restarted after every kill on the same
   state file (the simulation resumes where the saved state ends). Faults stop after --wall
   seconds; the daemon then finishes the day, drains its outbox and exits by itself.
   Meanwhile the harness acknowledges about half of the dwell alerts it sees delivered (over the
   daemon's control endpoint, retrying through kills until it is answered): their reminders stop.
3. The verdict, per sink: every reference event's idempotency key arrived (after de-duplication,
   each key counts once), with the reference's exact body — except the reminders of an
   acknowledged alert due after its acknowledgement, which must not arrive; every
   acknowledgement arrived, once, with the same body everywhere; nothing else arrived; no dead
   letters; every webhook signature valid; the daemon's RSS stayed under --rss-limit-mb. Prints
   the counts, writes them to WORKDIR/summary.json, exits 0 on a pass.

Needs mosquitto and mosquitto_sub (Debian's mosquitto, mosquitto-clients); loopback only.
"""
import argparse
import hashlib
import hmac
import http.server
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "Simulator", "Scenarios", "soak.yaml")
ALERTS = os.path.join(ROOT, "Simulator", "Scenarios", "soak.alerts.yaml")
SECRET = "soak-secret"
TOPIC = "beacond/soak/alerts"


def log(message):
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def event_key(body):
    """The idempotency key of an event body, or None for a line that is not an event."""
    try:
        return json.loads(body).get("key")
    except (ValueError, AttributeError):
        return None


class Receiver:
    """The webhook's receiver: checks each signature ("<timestamp>.<body>", HMAC-SHA256), keeps
    every accepted delivery, and can answer 500, hang (answer only when the hang ends, as a
    receiver that processed the request but answered late) or vanish (its port closed)."""

    def __init__(self):
        self.port = free_port()
        self.lock = threading.Lock()
        self.deliveries = []  # (key, body) of every accepted request
        self.bad_signatures = 0
        self.refused = 0
        self.mode = "ok"
        self.released = threading.Event()
        self.released.set()
        self.server = None
        self.open()

    def handler(receiver):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.released.wait()
                if receiver.mode == "500":
                    with receiver.lock:
                        receiver.refused += 1
                    return self.answer(500, b"soak: failing on purpose")
                timestamp = self.headers.get("X-Beacond-Timestamp", "")
                signature = self.headers.get("X-Beacond-Signature", "")
                expected = "sha256=" + hmac.new(SECRET.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
                if not hmac.compare_digest(expected, signature):
                    with receiver.lock:
                        receiver.bad_signatures += 1
                    return self.answer(401, b"bad signature")
                text = body.decode()
                with receiver.lock:
                    receiver.deliveries.append((event_key(text), text))
                self.answer(200, b"ok")

            def answer(self, status, text):
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(text)))
                    self.end_headers()
                    self.wfile.write(text)
                except OSError:
                    pass  # the sink gave up waiting (a hang): it will send it again

            def log_message(self, *args):
                pass

        return Handler

    def open(self):
        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), self.handler())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def set_mode(self, mode):
        if self.mode == "down" and mode != "down":
            self.open()
        if mode == "hang":
            self.released.clear()
        self.mode = mode
        if mode == "down":
            self.close()
        if mode != "hang":
            self.released.set()


class Broker:
    """mosquitto with persistence (a restart keeps the subscriber's queued messages) and no
    bound on a client's queue; restarted gracefully, as an operator would."""

    def __init__(self, directory):
        self.directory = directory
        self.port = free_port()
        self.config = os.path.join(directory, "mosquitto.conf")
        store = os.path.join(directory, "mosquitto")
        os.makedirs(store, exist_ok=True)
        # Started as root, mosquitto drops to the user `mosquitto`: its store must be writable by
        # it, or every restart silently forgets the subscriber's session and queued messages. The
        # working directory (mkdtemp: 0700) must let it through too, or the store is out of reach
        # however open it is itself.
        os.chmod(directory, os.stat(directory).st_mode | 0o711)
        os.chmod(store, 0o777)
        with open(self.config, "w") as file:
            file.write(
                f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                f"persistence_location {store}/\nmax_queued_messages 0\nlog_dest file {store}/mosquitto.log\n")
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen(["mosquitto", "-c", self.config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


class Subscriber:
    """mosquitto_sub with a persistent session (QoS 1, clean session off): what is published
    while it is away is queued by the broker and delivered when it is back."""

    def __init__(self, broker, path):
        self.broker, self.path = broker, path
        self.file = open(path, "ab")
        self.process = None
        self.restarts = 0
        self.start()

    def start(self):
        self.process = subprocess.Popen(
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(self.broker.port), "-t", TOPIC, "-q", "1", "-c",
             "-i", "soak-receiver"],
            stdout=self.file, stderr=subprocess.DEVNULL)

    def keep_alive(self):
        """Starts it again if it gave up (mosquitto_sub exits when its broker goes away)."""
        if self.process.poll() is not None:
            self.restarts += 1
            self.start()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def deliveries(self):
        with open(self.path, "r", errors="replace") as file:
            lines = [line.rstrip("\n") for line in file if line.strip()]
        return [(event_key(line), line) for line in lines if event_key(line)]


def read_jsonl(path):
    """(deliveries, torn lines) of a JSON-lines sink's file."""
    deliveries, torn = [], 0
    if not os.path.exists(path):
        return deliveries, torn
    with open(path, "r", errors="replace") as file:
        for line in file:
            line = line.rstrip("\n")
            if not line:
                continue
            key = event_key(line)
            if key is None:
                torn += 1
            else:
                deliveries.append((key, line))
    return deliveries, torn


def configuration(path, scenario, speed, state, sinks, http=False):
    with open(ALERTS) as file:
        alerts = file.read()
    alerts = alerts[alerts.index("alerts:"):]
    with open(path, "w") as file:
        file.write(f"source: {{simulate: {scenario}, speed: {speed}}}\nstate: {state}\n")
        if http:
            file.write('http: {listen: "127.0.0.1:0"}\n')
        file.write("sinks:\n")
        for sink in sinks:
            file.write(f"  - {sink}\n")
        file.write(alerts)
    return path


class Acknowledger:
    """Acknowledges about half of the dwell alerts delivered (a seeded draw per instance), as a
    person would, through the running daemon's control endpoint (its port read from the run's
    log), retrying through kills until it is answered. Keeps what each answer said."""

    ALERT = "visitor-dwell"

    def __init__(self, events_path):
        self.events_path = events_path
        self.log_path = None
        self.chosen = {}  # instance -> True (to acknowledge) / False (left unanswered)
        self.answers = {}  # instance -> the daemon's answer (JSON)
        self.refused = {}  # instance -> why (e.g. superseded by a later delivery)
        self.attempts = 0

    def port(self):
        try:
            with open(self.log_path, errors="replace") as file:
                for line in file:
                    if "control endpoint on http://127.0.0.1:" in line:
                        return int(line.split("http://127.0.0.1:")[1].split()[0].rstrip(")").split("/")[0])
        except (OSError, TypeError, ValueError, IndexError):
            pass
        return None

    def round(self):
        deliveries, _ = read_jsonl(self.events_path)
        for _, body in deliveries:
            event = json.loads(body)
            if event.get("event") != "delivered" or event.get("alert") != self.ALERT or "attempt" in event:
                continue
            instance = event["instance"]
            if instance not in self.chosen:
                self.chosen[instance] = random.random() < 0.5
        port = self.port()
        if port is None:
            return
        for instance, wanted in self.chosen.items():
            if not wanted or instance in self.answers or instance in self.refused:
                continue
            query = "instance=" + urllib.parse.quote(instance, safe="") + "&by=soak"
            request = urllib.request.Request(f"http://127.0.0.1:{port}/alerts/acknowledge?{query}", method="POST")
            self.attempts += 1
            try:
                with urllib.request.urlopen(request, timeout=3) as response:
                    self.answers[instance] = json.loads(response.read())
            except urllib.error.HTTPError as error:
                if error.code in (404, 409):
                    self.refused[instance] = f"{error.code}: {error.read().decode(errors='replace')[:200]}"
            except (OSError, ValueError):
                return  # the daemon is down or restarting: the next round tries again


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as file:
            for line in file:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def prepare(options, name, tools):
    """Checks the binary and the tools a soak needs (exiting with what to do), seeds the faults'
    random draws, and returns the working directory (made if needed)."""
    if not os.access(options.beacond, os.X_OK):
        sys.exit(f"{name}: no beacond at {options.beacond}; build it (swift build -c release --product beacond) or pass --beacond")
    for tool in tools:
        if not shutil.which(tool):
            sys.exit(f"{name}: {tool} is missing; install it: apt-get install -y mosquitto mosquitto-clients")
    random.seed(options.seed)
    workdir = options.workdir or tempfile.mkdtemp(prefix=f"beacond-{name.replace(' ', '-')}-")
    os.makedirs(workdir, exist_ok=True)
    log(f"{name}: seed {options.seed}, working in {workdir}")
    return workdir


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beacond", default=os.path.join(ROOT, ".build", "release", "beacond"))
    parser.add_argument("--wall", type=float, default=600, help="seconds the paced day should take (default 600)")
    parser.add_argument("--hours", type=float, default=24, help="simulated hours (default 24: the whole day)")
    parser.add_argument("--seed", type=int, default=int(time.time()), help="the faults' random seed")
    parser.add_argument("--kill-every", type=float, default=20, help="mean seconds between SIGKILLs (default 20)")
    parser.add_argument("--rss-limit-mb", type=float, default=150)
    parser.add_argument("--workdir", help="keep everything here (default: a temporary directory, removed on a pass)")
    options = parser.parse_args()
    workdir = prepare(options, "soak", ("mosquitto", "mosquitto_sub"))

    scenario = SCENARIO
    if options.hours != 24:
        scenario = os.path.join(workdir, "scenario.yaml")
        with open(SCENARIO) as source, open(scenario, "w") as target:
            target.write(source.read().replace("duration: 24h", f"duration: {options.hours}h"))
    virtual_seconds = options.hours * 3600

    # 1. The reference: the day uninterrupted, as fast as it goes.
    reference_yaml = configuration(
        os.path.join(workdir, "reference.yaml"), scenario, "max", os.path.join(workdir, "reference.sqlite"),
        [f"{{type: jsonl, path: {workdir}/reference.jsonl}}"])
    started = time.monotonic()
    subprocess.run([options.beacond, "run", "--config", reference_yaml], check=True,
                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(workdir, "reference.log"), "w"))
    reference_seconds = time.monotonic() - started
    reference, torn = read_jsonl(os.path.join(workdir, "reference.jsonl"))
    expected = dict(reference)
    assert torn == 0 and len(expected) == len(reference), "the reference run wrote a torn or repeated line"
    log(f"reference: {len(expected)} alert events in {reference_seconds:.1f} s ({virtual_seconds / reference_seconds:.0f}x real time)")

    # 2. The soak.
    broker = Broker(workdir)
    subscriber = Subscriber(broker, os.path.join(workdir, "mqtt.jsonl"))
    receiver = Receiver()
    probe_deadline = time.monotonic() + 10
    while not os.path.getsize(subscriber.path) and time.monotonic() < probe_deadline:
        subprocess.run(["mosquitto_pub", "-p", str(broker.port), "-t", TOPIC, "-q", "1", "-m", '{"probe":true}'], check=False)
        time.sleep(0.3)
    speed = virtual_seconds / options.wall
    soak_yaml = configuration(
        os.path.join(workdir, "gateway.yaml"), scenario, f"{speed:.3f}", os.path.join(workdir, "state.sqlite"), [
            f"{{type: jsonl, path: {workdir}/events.jsonl}}",
            f"{{type: webhook, url: 'http://127.0.0.1:{receiver.port}/alerts', secret: {SECRET}, timeout: 2s}}",
            f"{{type: mqtt, host: 127.0.0.1, port: {broker.port}, gateway: soak, timeout: 3s}}",
        ], http=True)
    acknowledger = Acknowledger(os.path.join(workdir, "events.jsonl"))
    faults = {"SIGKILL": 0, "mosquitto restart": 0, "webhook 500": 0, "webhook hang": 0, "webhook vanish": 0}
    stop_faults = threading.Event()
    state = {"pid": None, "max_rss_kb": 0}

    timeline = open(os.path.join(workdir, "faults.log"), "w", buffering=1)

    def note(text):
        timeline.write(f"{time.monotonic() - soak_start:8.2f} s  {text}\n")

    def inject():
        kinds = ["mosquitto restart", "webhook 500", "webhook hang", "webhook vanish"]
        while not stop_faults.wait(random.uniform(4, 12)) and time.monotonic() - soak_start < options.wall:
            kind = random.choice(kinds)
            length = random.uniform(2, 10)
            faults[kind] += 1
            note(f"{kind} for {length:.1f} s")
            if kind == "mosquitto restart":
                broker.stop()
                time.sleep(length / 3)
                broker.start()
            else:
                receiver.set_mode(kind.split()[1])
                time.sleep(length)
                receiver.set_mode("ok")

    def sample():
        while not stop_sampling.wait(0.2):
            if state["pid"]:
                state["max_rss_kb"] = max(state["max_rss_kb"], rss_kb(state["pid"]))
            subscriber.keep_alive()

    def acknowledge():
        while not stop_sampling.wait(1.0):
            acknowledger.round()

    stop_sampling = threading.Event()
    threading.Thread(target=sample, daemon=True).start()
    threading.Thread(target=acknowledge, daemon=True).start()
    injector = threading.Thread(target=inject, daemon=True)
    soak_start = time.monotonic()
    injector.start()
    runs, failures = 0, []
    deadline = soak_start + 2 * options.wall + 600
    try:
        while True:
            runs += 1
            acknowledger.log_path = os.path.join(workdir, f"run-{runs}.log")
            with open(acknowledger.log_path, "w") as errors:
                daemon = subprocess.Popen([options.beacond, "run", "--config", soak_yaml], stdout=subprocess.DEVNULL, stderr=errors)
            state["pid"] = daemon.pid
            faulting = time.monotonic() - soak_start < options.wall
            kill_after = random.uniform(1, 2 * options.kill_every - 1) if faulting else None
            try:
                daemon.wait(timeout=kill_after if kill_after is not None else max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                if kill_after is None:
                    daemon.kill()
                    daemon.wait()
                    failures.append(f"the daemon did not finish the day and drain its outbox by the deadline (run {runs})")
                    break
                daemon.kill()
                daemon.wait()
                faults["SIGKILL"] += 1
                note(f"SIGKILL run {runs} after {kill_after:.1f} s")
                continue
            if daemon.returncode == 0:
                if time.monotonic() - soak_start < options.wall:
                    log(f"the day ended after {time.monotonic() - soak_start:.0f} s, before --wall")
                break
            failures.append(f"run {runs} exited with status {daemon.returncode} (see {workdir}/run-{runs}.log)")
            if len(failures) > 3:
                break
        stop_faults.set()
        injector.join()
        receiver.set_mode("ok")
        soak_seconds = time.monotonic() - soak_start
        log(f"the daemon finished the day after {runs} runs in {soak_seconds:.0f} s")

        # The MQTT subscriber may still be catching up with its queue.
        settle = time.monotonic() + 60
        last = -1
        while time.monotonic() < settle:
            count = len({key for key, _ in subscriber.deliveries()})
            if count >= len(expected) or count == last:
                break
            last = count
            time.sleep(2)
    finally:
        stop_faults.set()
        stop_sampling.set()
        subscriber.stop()
        broker.stop()
        receiver.close()

    # 3. The verdict.
    dead = subprocess.run([options.beacond, "outbox", "list", "--config", soak_yaml], capture_output=True, text=True)
    dead_letters = [line for line in dead.stdout.splitlines() if line.strip()]
    jsonl, torn = read_jsonl(os.path.join(workdir, "events.jsonl"))
    # The acknowledgements the daemon took: each must reach every sink; what the reference says
    # of its reminders after it (deliveries, a reminder superseded or cancelled) must not (what
    # fell due before it was delivered first).
    acknowledgements = {}
    for key, body in jsonl:
        event = json.loads(body)
        if event.get("event") == "acknowledged":
            acknowledgements[key] = body
    acknowledged_at = {json.loads(body)["instance"]: json.loads(body)["time"] for body in acknowledgements.values()}
    if set(acknowledged_at) != set(acknowledger.answers):
        failures.append(
            f"the daemon answered {len(acknowledger.answers)} acknowledgements but the sinks have "
            f"{len(acknowledged_at)} acknowledged events")
    silenced = set()
    for key, body in expected.items():
        event = json.loads(body)
        instance = event.get("instance")
        if event.get("attempt") and instance in acknowledged_at and event["time"] > acknowledged_at[instance]:
            silenced.add(key)
    reminders = sum(1 for body in expected.values() if json.loads(body).get("attempt"))
    expected = {key: body for key, body in expected.items() if key not in silenced}
    expected.update(acknowledgements)
    sinks = {"jsonl": jsonl, "webhook": receiver.deliveries, "mqtt": subscriber.deliveries()}
    table = {}
    for name, deliveries in sinks.items():
        keys = {key for key, _ in deliveries}
        missing = expected.keys() - keys
        unexpected = keys - expected.keys()
        differing = {key for key, body in deliveries if key in expected and body != expected[key]}
        table[name] = {
            "delivered": len(keys & expected.keys()), "duplicates": len(deliveries) - len(keys),
            "missing": len(missing), "unexpected": len(unexpected), "body_differs": len(differing),
        }
        for label, found in (("missing", missing), ("unexpected", unexpected), ("with another body", differing)):
            if found:
                failures.append(f"{name}: {len(found)} {label}, e.g. {sorted(found)[:3]}")
    if dead_letters:
        failures.append(f"{len(dead_letters)} dead letters: {dead_letters[:2]}")
    if receiver.bad_signatures:
        failures.append(f"{receiver.bad_signatures} webhook requests with a bad signature")
    if torn:
        failures.append(f"{torn} torn lines in the JSON-lines file")
    max_rss_mb = state["max_rss_kb"] / 1024
    if max_rss_mb > options.rss_limit_mb:
        failures.append(f"the daemon's RSS reached {max_rss_mb:.1f} MB (bound {options.rss_limit_mb} MB)")

    summary = {
        "seed": options.seed, "simulated_hours": options.hours, "speed": round(speed, 1),
        "soak_seconds": round(soak_seconds, 1), "reference_seconds": round(reference_seconds, 1), "daemon_runs": runs,
        "faults": faults, "mqtt_subscriber_restarts": subscriber.restarts, "webhook_500_answers": receiver.refused,
        "alert_events_expected": len(expected), "reminders_in_reference": reminders,
        "acknowledged": len(acknowledgements), "reminders_silenced": len(silenced),
        "acknowledgement_requests": acknowledger.attempts, "sinks": table, "dead_letters": len(dead_letters),
        "bad_signatures": receiver.bad_signatures, "torn_lines": torn, "max_rss_mb": round(max_rss_mb, 1),
        "passed": not failures, "failures": failures,
    }
    with open(os.path.join(workdir, "summary.json"), "w") as file:
        json.dump(summary, file, indent=2)
    print()
    print(f"soak: {options.hours:g} simulated hours at {speed:.0f}x in {soak_seconds:.0f} s of wall time, {runs} daemon runs (seed {options.seed})")
    print("faults injected: " + ", ".join(f"{count} {kind}" for kind, count in faults.items()))
    print(f"alert events expected (the uninterrupted reference run, {reminders} reminders in it): {len(expected)}; "
          f"{len(acknowledgements)} acknowledged over HTTP ({acknowledger.attempts} requests), {len(silenced)} reminders silenced by them")
    print(f"{'sink':<9}{'delivered':>10}{'duplicates':>12}{'missing':>9}{'unexpected':>12}{'body≠':>7}")
    for name, row in table.items():
        print(f"{name:<9}{row['delivered']:>10}{row['duplicates']:>12}{row['missing']:>9}{row['unexpected']:>12}{row['body_differs']:>7}")
    print(f"dead letters: {len(dead_letters)}; bad signatures: {receiver.bad_signatures}; torn lines: {torn}; "
          f"max RSS {max_rss_mb:.1f} MB (bound {options.rss_limit_mb:g} MB)")
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures) + f"\n(everything is kept in {workdir})")
        return 1
    print("PASS")
    if not options.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
