#!/usr/bin/env python3
"""A real Home Assistant watching a beacond site (run by scripts/test-ha.sh, `make test-ha`).

Starts, each a process of its own: mosquitto on a free port; Home Assistant 2024.3 on
127.0.0.1 with a fresh configuration directory, its MQTT integration pre-seeded as a config
entry pointing at that broker (discovery on) and an `mqtt_room` sensor; a beacond hub with an
MQTT sink (`homeAssistant: true`) naming one of the site's two beacons; three beacond gateways
simulating the site on the wall clock. Then, through Home Assistant's REST API only (a user
made by onboarding, a token from /auth/token):

- the named walker's device tracker shows the rooms the hub decided, hall then shop, as its
  state (the hub's presence lines are the reference), with x, y and confidence attributes,
  and `not_home` once the gateways have stopped and the hub's away timeout passed;
- its room, distance and position sensors exist and read the hub's room;
- the hub's `shop-browse` alert arrives as the walker's event entity (event_type shop-browse);
- the `mqtt_room` sensor configured for the walker's id reads the same room;
- the desk tag, heard all along but not named, has no entity at all;
- Vera, the person who carries the walker's badge (`people:`), is a device tracker following the
  same rooms, and the shop's occupancy sensor counts her while she is there;
- `beacond forget Vera`, once the hub has stopped, makes Home Assistant drop her tracker and her
  badge's entities (their discovery topics cleared at the broker).

Exit 0 = passed; every failure says what Home Assistant showed.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone

UUID = "0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A"
WALKER = f"ibeacon:{UUID}:1:1"
DESK = f"ibeacon:{UUID}:1:2"
GATEWAYS = [("hall-a", "hall", "[1, 1, 2.5]"), ("hall-b", "hall", "[5, 9, 2.5]"), ("shop", "shop", "[14, 5, 2.5]")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scenario(start):
    """The walker dwells 15 s in the hall, walks into the shop (about 21 s) and dwells 15 s; the desk tag stays."""
    return f"""name: ha-site
start: {start}
duration: 40s
seed: 5
radio: {{path_loss_exponent: 2.0, shadowing_sigma: 2.0, fading: none, packet_loss: 0.02}}
rooms:
  - {{name: hall, area: {{min: [0, 0], max: [10, 10]}}}}
  - {{name: shop, area: {{min: [10, 0], max: [20, 10]}}}}
gateways:
  - {{name: hall-a, position: [1, 1, 2.5]}}
  - {{name: hall-b, position: [5, 9, 2.5]}}
  - {{name: shop, position: [14, 5, 2.5]}}
walkers:
  - {{name: visitor, speed: 1.0, dwell: 15s, waypoints: [[4, 5, 1.2], [15, 5, 1.2]]}}
beacons:
  - {{name: visitor-tag, ibeacon: {{uuid: {UUID}, major: 1, minor: 1}}, interval: 200ms, carried_by: visitor}}
  - {{name: desk-tag, ibeacon: {{uuid: {UUID}, major: 1, minor: 2}}, interval: 200ms, position: [3, 8, 1.2]}}
"""


class Run:
    def __init__(self, args):
        self.args = args
        self.dir = tempfile.mkdtemp(prefix="beacond-ha-")
        self.processes = []
        self.failures = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def start(self, name, argv, env=None):
        log = open(self.path(name + ".log"), "w")
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, cwd=self.dir, env=env)
        self.processes.append((name, process))
        return process

    def stop_all(self):
        for _, process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
        for _, process in reversed(self.processes):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()

    def check(self, condition, what):
        print(("ok   " if condition else "FAIL ") + what, flush=True)
        if not condition:
            self.failures.append(what)

    def log_tail(self, name, lines=30):
        try:
            with open(self.path(name + ".log")) as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    # MARK: Home Assistant

    def write_home_assistant_config(self, broker_port, http_port):
        config = self.path("ha")
        os.makedirs(os.path.join(config, ".storage"))
        with open(os.path.join(config, "configuration.yaml"), "w") as f:
            f.write(f"""homeassistant:
  name: beacond test
  latitude: 48.85
  longitude: 2.35
  elevation: 0
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: FR
http:
  server_host: 127.0.0.1
  server_port: {http_port}
api:
onboarding:
sensor:
  - platform: mqtt_room
    name: Walker mqtt_room
    device_id: "{WALKER}"
    state_topic: room_presence
    timeout: 5
""")
        # The MQTT integration is set up by a config entry in 2024 (YAML only takes entities).
        entry = {
            "entry_id": "beacondtestmqtt0000000000000001", "version": 1, "minor_version": 1, "domain": "mqtt",
            "title": "127.0.0.1", "source": "user", "unique_id": None, "disabled_by": None,
            "pref_disable_new_entities": False, "pref_disable_polling": False, "options": {},
            "data": {"broker": "127.0.0.1", "port": broker_port, "discovery": True, "discovery_prefix": "homeassistant"},
        }
        with open(os.path.join(config, ".storage", "core.config_entries"), "w") as f:
            json.dump({"version": 1, "minor_version": 1, "key": "core.config_entries", "data": {"entries": [entry]}}, f)
        return config

    def request(self, method, path, body=None, token=None, form=False):
        url = f"http://127.0.0.1:{self.http_port}{path}"
        headers = {}
        data = None
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if body is not None:
            if form:
                data = urllib.parse.urlencode(body).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def wait_for_home_assistant(self, process, limit=240):
        deadline = time.time() + limit
        while time.time() < deadline:
            if process.poll() is not None:
                raise SystemExit("Home Assistant exited:\n" + self.log_tail("hass", 60))
            if "Activating recovery mode" in self.log_tail("hass", 100000):
                raise SystemExit("Home Assistant started in recovery mode (a missing requirement?):\n"
                                 + "".join(l for l in self.log_tail("hass", 100000).splitlines(True) if "ERROR" in l))
            try:
                self.request("GET", "/api/onboarding")
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.5)
        raise SystemExit("Home Assistant did not answer in time:\n" + self.log_tail("hass", 60))

    def onboard(self):
        client = f"http://127.0.0.1:{self.http_port}/"
        made = self.request(
            "POST", "/api/onboarding/users",
            {"client_id": client, "name": "beacond", "username": "beacond", "password": "beacond-test", "language": "en"})
        tokens = self.request(
            "POST", "/auth/token", {"grant_type": "authorization_code", "code": made["auth_code"], "client_id": client},
            form=True)
        return tokens["access_token"]

    def states(self):
        self.keep_broker()
        return {s["entity_id"]: s for s in self.request("GET", "/api/states", token=self.token)}

    def keep_broker(self):
        """Starts the broker again (same port) if something ended it: every client reconnects by itself."""
        if self.broker.poll() is not None:
            print(f"note: mosquitto ended (status {self.broker.returncode}); starting it again", flush=True)
            self.broker = self.start("mosquitto-again", ["/usr/sbin/mosquitto", "-c", self.path("mosquitto.conf")])
            time.sleep(0.5)

    # MARK: the run

    def main(self):
        broker_port, self.http_port = free_port(), free_port()
        with open(self.path("mosquitto.conf"), "w") as f:
            f.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\n")
        self.broker = self.start("mosquitto", ["/usr/sbin/mosquitto", "-c", self.path("mosquitto.conf")])

        time.sleep(0.3)
        self.keep_broker()
        config = self.write_home_assistant_config(broker_port, self.http_port)
        began = time.time()
        hass = self.start("hass", [self.args.hass, "-c", config, "--skip-pip", "--log-no-color"])
        self.wait_for_home_assistant(hass)
        self.token = self.onboard()
        # MQTT is up once the mqtt_room sensor (an MQTT platform) exists.
        deadline = time.time() + 60
        while time.time() < deadline:
            if "sensor.walker_mqtt_room" in self.states():
                break
            time.sleep(0.5)
        print(f"Home Assistant up and onboarded in {time.time() - began:.0f} s", flush=True)

        # The site: a hub naming the walker (not the desk tag) and three gateways, 8 s from now.
        start = (datetime.now(timezone.utc) + timedelta(seconds=8)).replace(microsecond=0)
        with open(self.path("site.yaml"), "w") as f:
            f.write(scenario(start.strftime("%Y-%m-%dT%H:%M:%SZ")))
        site = f"site: {{name: ha, broker: {{host: 127.0.0.1, port: {broker_port}}}"
        gateways = "\n".join(f"  - {{id: {g}, room: {r}, position: {p}}}" for g, r, p in GATEWAYS)
        with open(self.path("hub.yaml"), "w") as f:
            f.write(f"""{site}}}
gateways:
{gateways}
hub:
  position: {{tagHeight: 1.2, pathLossExponent: 2.0}}
  presence: {self.path("presence.jsonl")}
state: {self.path("hub.sqlite")}
beacons:
  - {{id: "{WALKER}", name: Walker, tags: [visitor]}}
people:
  - {{name: Vera, devices: [Walker]}}
sinks:
  - {{type: jsonl, path: {self.path("events.jsonl")}}}
  - {{type: mqtt, host: 127.0.0.1, port: {broker_port}, gateway: hub, homeAssistant: true, commands: true, timeout: 5s}}
alerts:
  - {{id: shop-browse, match: {{tag: visitor}}, strategy: time, parameters: {{dwell: 8s, room: shop}}, remind: {{every: 4s, max: 20}}}}
""")
        self.start("hub", [self.args.beacond, "hub", "--config", self.path("hub.yaml")])
        # What the hub answers to commands (the button's press among them), for the record.
        self.start("commands", ["stdbuf", "-oL", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker_port), "-t", "beacond/hub/commands/#", "-v"])
        for name, _, _ in GATEWAYS:
            with open(self.path(name + ".yaml"), "w") as f:
                f.write(f"source: {{simulate: {self.path('site.yaml')}, gateway: {name}, speed: wall}}\n"
                        f"{site}, gateway: {name}}}\nalerts: []\n")
            self.start(name, [self.args.beacond, "run", "--config", self.path(name + ".yaml")])

        # Follow the tracker while the site runs: the rooms Home Assistant showed, in order.
        # Once the alert has fired, someone presses its Acknowledge button in Home Assistant.
        seen, event = [], None
        self.vera, self.shop_people = [], []
        self.pressed = None
        end = start.timestamp() + 40 + 5
        while time.time() < end:
            states = self.states()
            tracker = states.get("device_tracker.walker")
            if tracker and (not seen or seen[-1] != tracker["state"]):
                seen.append(tracker["state"])
            vera = self.entity(states, "device_tracker.", "Vera")
            if vera and (not self.vera or self.vera[-1] != vera["state"]):
                self.vera.append(vera["state"])
            shop = self.entity(states, "sensor.", "shop People")
            if shop and (not self.shop_people or self.shop_people[-1] != shop["state"]):
                self.shop_people.append(shop["state"])
            # (The event entity's state is the time of its latest event: "unavailable" and
            # "unknown" until the first.)
            if self.pressed is None and states.get("event.walker_alert", {}).get("state", "")[:2] == "20":
                answer = self.request("POST", "/api/services/button/press", {"entity_id": "button.walker_acknowledge"}, token=self.token)
                self.pressed = time.time()
                print(f"pressed button.walker_acknowledge ({states.get('button.walker_acknowledge')}): {answer}", flush=True)
            time.sleep(0.5)
        states = self.states()
        self.report(states, seen)
        # The gateways ended with the scenario: once the hub's away timeout passes, not_home.
        deadline = time.time() + 90
        while time.time() < deadline and self.states().get("device_tracker.walker", {}).get("state") != "not_home":
            time.sleep(1)
        final = self.states().get("device_tracker.walker", {}).get("state")
        self.check(final == "not_home", f"device_tracker.walker is not_home after the away timeout ({final})")
        self.forget_vera()

    @staticmethod
    def entity(states, domain, friendly_name):
        """The state of the entity of `domain` whose friendly name is `friendly_name`, if any."""
        for entity_id, state in states.items():
            if entity_id.startswith(domain) and state.get("attributes", {}).get("friendly_name") == friendly_name:
                return dict(state, entity_id=entity_id)
        return None

    @staticmethod
    def vera_entities(states):
        """Vera's tracker and her badge's entities (the walker's, but for the mqtt_room sensor, which is YAML's)."""
        return sorted(eid for eid, s in states.items()
                      if (eid.startswith(("device_tracker.walker", "sensor.walker", "event.walker", "button.walker"))
                          and eid != "sensor.walker_mqtt_room")
                      or s.get("attributes", {}).get("friendly_name") == "Vera")

    def forget_vera(self):
        """Stops the hub (forget refuses while a daemon holds the state file), forgets Vera, and
        waits for Home Assistant to drop her tracker and her badge's entities."""
        hub = dict(self.processes)["hub"]
        hub.terminate()
        hub.wait(timeout=30)
        before = self.vera_entities(self.states())
        forget = subprocess.run([self.args.beacond, "forget", "--config", self.path("hub.yaml"), "Vera"], cwd=self.dir,
                                capture_output=True, text=True, timeout=120)
        print(f"beacond forget Vera: status {forget.returncode}\n{forget.stdout}{forget.stderr}", flush=True)
        self.check(forget.returncode == 0 and "retained topics cleared" in forget.stdout,
                   f"beacond forget Vera cleared her retained topics (status {forget.returncode})")
        deadline = time.time() + 60
        left = self.vera_entities(self.states())
        while left and time.time() < deadline:
            time.sleep(1)
            left = self.vera_entities(self.states())
        self.check(not left, f"Home Assistant dropped Vera's tracker and her badge's entities after forget (left: {left}; before: {before})")

    def report(self, states, seen):
        presence = []
        try:
            with open(self.path("presence.jsonl")) as f:
                presence = [json.loads(line) for line in f if '"beacon"' in line]
        except OSError:
            pass
        hub_rooms = []
        for line in presence:
            if line["beacon"].get("minor") == 1 and line.get("room") and (not hub_rooms or hub_rooms[-1] != line["room"]):
                hub_rooms.append(line["room"])
        print(f"hub's rooms for the walker: {hub_rooms}; Home Assistant's tracker states: {seen}", flush=True)
        self.check(hub_rooms[:1] == ["hall"] and "shop" in hub_rooms, f"the hub placed the walker in the hall, then the shop ({hub_rooms})")
        rooms_seen = [s for s in seen if s in ("hall", "shop")]
        self.check("hall" in rooms_seen and "shop" in rooms_seen and rooms_seen.index("hall") < rooms_seen.index("shop"),
                   f"device_tracker.walker showed hall, then shop ({seen})")
        tracker = states.get("device_tracker.walker", {})
        self.check(tracker.get("state") == hub_rooms[-1] if hub_rooms else False,
                   f"device_tracker.walker ends in the hub's last room ({tracker.get('state')} vs {hub_rooms[-1:]})")
        attributes = tracker.get("attributes", {})
        self.check(attributes.get("source_type") == "bluetooth_le", f"the tracker's source_type is bluetooth_le ({attributes.get('source_type')})")
        # (Home Assistant keeps `name` out of MQTT attributes: the device's name is the entity's.)
        self.check(all(k in attributes for k in ("x", "y", "confidence", "gateways", "lastSeen", "id", "tags")),
                   f"the tracker's attributes have x, y, confidence, gateways, lastSeen, id, tags ({sorted(attributes)})")
        self.check(attributes.get("friendly_name") == "Walker" and attributes.get("tags") == ["visitor"],
                   f"the tracker is Walker, tagged visitor ({attributes.get('friendly_name')}, {attributes.get('tags')})")
        for sensor in ("sensor.walker_room", "sensor.walker_distance", "sensor.walker_position"):
            self.check(sensor in states, f"{sensor} exists ({states.get(sensor, {}).get('state')})")
        self.check(states.get("sensor.walker_room", {}).get("state") == tracker.get("state"),
                   f"sensor.walker_room reads the tracker's room ({states.get('sensor.walker_room', {}).get('state')})")
        event = states.get("event.walker_alert", {})
        self.check(event.get("attributes", {}).get("event_type") == "shop-browse",
                   f"event.walker_alert fired shop-browse ({event.get('state')}, {event.get('attributes', {}).get('event_type')})")
        try:
            with open(self.path("events.jsonl")) as f:
                delivered = [json.loads(l) for l in f if '"delivered"' in l]
        except OSError:
            delivered = []
        first = [e for e in delivered if "attempt" not in e]
        self.check([e["alert"] for e in first] == ["shop-browse"] and first[0].get("name") == "Walker",
                   f"the hub delivered one shop-browse alert, named Walker ({[(e['alert'], e.get('name')) for e in first]})")
        # The button: one acknowledgement through Home Assistant, and no reminder after it.
        self.check("button.walker_acknowledge" in states, "button.walker_acknowledge exists")
        try:
            with open(self.path("events.jsonl")) as f:
                answers = [json.loads(l) for l in f if '"acknowledged"' in l]
        except OSError:
            answers = []
        self.check(self.pressed is not None and len(answers) == 1 and answers[0].get("by") == "home-assistant via mqtt",
                   f"pressing the button acknowledged the alert ({[(a.get('event'), a.get('by')) for a in answers]})")
        if answers:
            later = [e for e in delivered if "attempt" in e and e["time"] > answers[0]["time"]]
            self.check(later == [], f"no reminder after the acknowledgement ({[e['time'] for e in later]})")
        mqtt_room = states.get("sensor.walker_mqtt_room", {})
        self.check(mqtt_room.get("state") == "shop", f"the mqtt_room sensor reads shop ({mqtt_room.get('state')})")
        desk = [eid for eid, s in states.items()
                if "1_2" in eid or s.get("attributes", {}).get("id") == DESK or "desk" in eid]
        self.check(desk == [], f"the unnamed desk tag has no entity ({desk})")
        ours = sorted(eid for eid in states if eid.startswith(("device_tracker.", "event.")) or eid.startswith("sensor.walker"))
        vera = self.entity(states, "device_tracker.", "Vera")
        self.check(ours == sorted(["device_tracker.walker", "event.walker_alert", "sensor.walker_distance", "sensor.walker_mqtt_room",
                                   "sensor.walker_position", "sensor.walker_room", vera["entity_id"] if vera else "(Vera's tracker)"]),
                   f"exactly the walker's and Vera's entities ({ours})")
        # The person: her tracker follows the rooms of what she carries; the shop counts her.
        vera_rooms = [s for s in self.vera if s in ("hall", "shop")]
        self.check("hall" in vera_rooms and "shop" in vera_rooms and vera_rooms.index("hall") < vera_rooms.index("shop"),
                   f"Vera's device tracker showed hall, then shop ({self.vera})")
        self.check(vera is not None and vera["state"] == tracker.get("state") and vera["attributes"].get("source_type") == "bluetooth_le",
                   f"Vera's tracker ends in her badge's room ({vera and vera['state']} vs {tracker.get('state')})")
        self.check("1" in self.shop_people, f"the shop's occupancy sensor counted her ({self.shop_people})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beacond", required=True)
    parser.add_argument("--hass", required=True)
    args = parser.parse_args()
    run = Run(args)
    began = time.time()
    try:
        run.main()
    finally:
        run.stop_all()
    print(f"test-ha: {time.time() - began:.0f} s, run directory {run.dir}", flush=True)
    if run.failures:
        print("test-ha: FAILED\n" + "\n".join(run.failures) + "\n--- hass.log (tail)\n" + run.log_tail("hass", 40)
              + "\n--- hub.log (tail)\n" + run.log_tail("hub", 20), file=sys.stderr)
        sys.exit(1)
    if not os.environ.get("HA_KEEP"):
        shutil.rmtree(run.dir, ignore_errors=True)
    print("test-ha: passed")


if __name__ == "__main__":
    main()
