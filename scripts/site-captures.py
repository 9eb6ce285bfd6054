#!/usr/bin/env python3
"""Convert the real multi-gateway RSSI recordings into per-gateway btsnoop captures for `site`.

Usage:
    python3 scripts/site-captures.py [--rssi DIR] [--out DIR] [--keep-duplicates]
                                     [--philotuxo-power DBM] [--only starksm64|philotuxo]

Defaults: --rssi Data/rssi, --out Data/site (relative to the repository root, whatever the
current directory). Python 3 standard library only; the output is deterministic (same input,
same bytes).

For each data set it writes one directory, `<out>/starksm64/` and `<out>/philotuxo/`, with:

  <gateway>.btsnoop  one capture per gateway (scanner/sensor): btsnoop v1, datalink 1002 (HCI
                     UART, H4), one record per RSSI sample, each an HCI LE Advertising Report
                     event (H4 type 0x04, event 0x3E, subevent 0x02, Num_Reports 1, event type
                     0x03 ADV_NONCONN_IND) carrying the iBeacon advertising data
                     `02 01 06` (flags) + `1A FF 4C 00 02 15 <uuid:16> <major:2> <minor:2>
                     <power:1>` with the sample's RSSI, the beacon's address and the sample's
                     timestamp as recorded by that gateway (each gateway keeps its own clock;
                     nothing is re-aligned). Record flags 3 (received event). Records are
                     written in timestamp order (both sources are already in order per gateway).
  site.yaml          `gateways: [{id, room, position: [x, y, z], capture}]`; capture paths are
                     relative to the directory; starksm64 has no positions (omitted).
  truth.jsonl        philotuxo: one line per true-position sample of the walking beacon,
                     `{"time": "<RFC 3339, ms, UTC>", "x": .., "y": .., "z": ..}`, time-ordered
                     (the tracker gives a position with every RSSI row; identical rows and rows
                     whose time rounds to the same millisecond are written once, first wins).
                     starksm64: a *derived* reference of stays, `{"from", "to", "room"}`, made
                     non-causally from the RSSI itself by `derive_starksm64_stays` (below; the
                     rule is documented there and in Data/site/README.md). It is not
                     independent ground truth.

Data sets (see Data/rssi/PROVENANCE.md):

(a) starksm64_FourScannersBeacon5Run1-2015-03-13.csv: 4 Raspberry Pi scanners Room201..Room204,
    one iBeacon DAF246CE-8363-11E4-B116-123B93F75CBA major 0 minor 5 walked between the rooms.
    Identity and measured power (calibratedPower, -62) are the recorded ones. The recording has no
    advertiser address, so every report carries the synthetic static random address
    DA:F2:46:00:00:05 (address type random). Gateway id = room = scannerID. One exact duplicate
    row exists (Room201, first sighting, same millisecond and RSSI): a logging duplicate at ~10 Hz
    advertising, dropped unless --keep-duplicates (only *exact* duplicate rows are dropped).

(b) philotuxo (philotuxo_sensors.csv + philotuxo_track_straight_04.csv): 12 sensors with x/y/z
    in a 17 m x 17 m hall; one walking beacon known only by its MAC e7:8f:13:56:24:ce, kept as the
    report address (type random: its top two bits are 11, a static random address). It gets the
    SYNTHETIC iBeacon identity
        UUID 7068696C-6F74-7578-6F00-E78F135624CE  ("philotuxo" in ASCII, 0x00, then the MAC),
        major 0, minor 1, measured power -67 dBm.
    -67 is the installer calibration of Docs/Ranging.md: the median RSSI of the 0.47 m stationary
    series (-62 dBm) moved to 1 m with the default exponent n = 1.5 (-62 + 15*log10(0.469)),
    rounded. Gateway id = sensor alias (sensor10..sensor42), room "hall" for all, position from
    philotuxo_sensors.csv. The track has no duplicate rows.
"""

import argparse
import csv
import datetime
import json
import math
import os
import struct
import sys
from collections import defaultdict

BTSNOOP_MAGIC = b"btsnoop\x00"
BTSNOOP_VERSION = 1
DATALINK_H4 = 1002
# Microseconds from 0000-01-01T00:00:00Z (btsnoop's epoch) to the Unix epoch.
BTSNOOP_EPOCH_DELTA_US = 0x00DCDDB30F2F8000
FLAGS_RECEIVED_EVENT = 3

ADV_NONCONN_IND = 0x03
ADDRESS_RANDOM = 0x01

STARKSM64_FILE = "starksm64_FourScannersBeacon5Run1-2015-03-13.csv"
STARKSM64_ADDRESS = "da:f2:46:00:00:05"
PHILOTUXO_SENSORS = "philotuxo_sensors.csv"
PHILOTUXO_TRACK = "philotuxo_track_straight_04.csv"
PHILOTUXO_UUID = "7068696c-6f74-7578-6f00-e78f135624ce"
PHILOTUXO_MAJOR = 0
PHILOTUXO_MINOR = 1
PHILOTUXO_POWER = -67


# ---------------------------------------------------------------------------------------------
# Encoding


def ibeacon_ad(uuid_hex, major, minor, power):
    """Flags AD + iBeacon manufacturer AD (30 bytes)."""
    uuid = bytes.fromhex(uuid_hex.replace("-", ""))
    if len(uuid) != 16:
        raise ValueError("uuid must be 16 bytes: %r" % uuid_hex)
    mfg = b"\x4c\x00\x02\x15" + uuid + struct.pack(">HHb", major, minor, power)
    return b"\x02\x01\x06" + bytes([len(mfg) + 1, 0xFF]) + mfg


def le_advertising_report(address, address_type, event_type, ad, rssi):
    """H4 packet: HCI LE Meta event, LE Advertising Report with one report."""
    addr = bytes.fromhex(address.replace(":", ""))[::-1]  # little-endian on the wire
    if len(addr) != 6:
        raise ValueError("bad address %r" % address)
    if not -127 <= rssi <= 127:
        raise ValueError("rssi out of range: %r" % rssi)
    params = bytes([0x02, 1, event_type, address_type]) + addr + bytes([len(ad)]) + ad + struct.pack("b", rssi)
    return bytes([0x04, 0x3E, len(params)]) + params


def btsnoop_file(records):
    """records: iterable of (unix_microseconds, h4_packet). Returns the file's bytes."""
    out = bytearray(BTSNOOP_MAGIC + struct.pack(">II", BTSNOOP_VERSION, DATALINK_H4))
    for micros, packet in records:
        out += struct.pack(">IIIIq", len(packet), len(packet), FLAGS_RECEIVED_EVENT, 0, micros + BTSNOOP_EPOCH_DELTA_US)
        out += packet
    return bytes(out)


def micros_from_decimal_seconds(text):
    """Exact conversion of a decimal seconds string ('1581249732.9415135') to µs, rounded half up."""
    text = text.strip()
    whole, _, frac = text.partition(".")
    frac = (frac + "0000000")[:7]
    us = int(whole) * 1_000_000 + int(frac[:6])
    if int(frac[6]) >= 5:
        us += 1
    return us


def rfc3339_ms(micros):
    ms = (micros + 500) // 1000
    t = datetime.datetime.fromtimestamp(ms // 1000, tz=datetime.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S") + ".%03dZ" % (ms % 1000)


def yaml_number(v):
    s = repr(float(v))
    return s[:-2] if s.endswith(".0") else s


def write_site_yaml(path, gateways, comment):
    lines = ["# " + c for c in comment] + ["gateways:"]
    for g in gateways:
        items = ["id: %s" % g["id"], "room: %s" % g["room"]]
        if g.get("position") is not None:
            items.append("position: [%s]" % ", ".join(yaml_number(v) for v in g["position"]))
        items.append("capture: %s" % g["capture"])
        lines.append("  - {" + ", ".join(items) + "}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_captures(out_dir, per_gateway):
    """per_gateway: {gateway: [(micros, packet), ...]} -> writes <gateway>.btsnoop, returns counts."""
    counts = {}
    for gw, recs in per_gateway.items():
        recs = sorted(recs, key=lambda r: r[0])  # stable: equal times keep file order
        with open(os.path.join(out_dir, gw + ".btsnoop"), "wb") as f:
            f.write(btsnoop_file(recs))
        counts[gw] = len(recs)
    return counts


# ---------------------------------------------------------------------------------------------
# (a) starksm64


def load_starksm64(path, keep_duplicates):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    seen = set()
    kept, dropped = [], 0
    for r in rows:
        key = tuple(r[k] for k in r)
        if key in seen and not keep_duplicates:
            dropped += 1
            continue
        seen.add(key)
        if r["messageType"] != "0" or r["code"] != "533" or r["manufacturer"] != "19456":
            raise ValueError("unexpected row (not an iBeacon read): %r" % r)
        kept.append(r)
    return kept, dropped


def derive_starksm64_stays(rows, half_window_s=5, min_samples=5, margin_db=6.0, floor_dbm=-100.0,
                           min_stay_s=10, trim_s=2):
    """The derived stay reference (non-causal; uses the whole recording).

    1. Grid: every whole second s from the first to the last sighting (any scanner).
    2. Score of scanner g at s: the median raw RSSI of g's sightings with time in
       [s - half_window_s, s + half_window_s] (a centred 11 s window), or floor_dbm when g has
       fewer than min_samples there (a scanner that hears the tag < 0.5 times a second is not
       the tag's room).
    3. Second s is labelled with the best scanner when at least one scanner has a score and the
       best beats the runner-up by >= margin_db; otherwise it is "moving/ambiguous".
    4. Runs of consecutive seconds with the same label form candidate stays; each is trimmed by
       trim_s seconds at both ends (the window blurs transitions) and kept if at least
       min_stay_s long after trimming.
    Returns [{"from": unix_s, "to": unix_s, "room": g}] (half-open [from, to) in seconds).
    """
    by = defaultdict(list)
    for r in rows:
        by[r["scannerID"]].append((int(r["time"]) / 1000.0, int(r["rssi"])))
    for g in by:
        by[g].sort()
    scanners = sorted(by)
    t_first = min(v[0][0] for v in by.values())
    t_last = max(v[-1][0] for v in by.values())
    labels = []
    s = math.floor(t_first)
    while s <= math.ceil(t_last):
        scores = {}
        for g in scanners:
            vals = sorted(x for t, x in by[g] if s - half_window_s <= t <= s + half_window_s)
            if len(vals) >= min_samples:
                n = len(vals)
                scores[g] = vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2.0
            else:
                scores[g] = floor_dbm
        ranked = sorted(scanners, key=lambda g: -scores[g])
        best, second = ranked[0], ranked[1]
        if scores[best] > floor_dbm and scores[best] - scores[second] >= margin_db:
            labels.append((s, best))
        else:
            labels.append((s, None))
        s += 1
    stays = []
    i = 0
    while i < len(labels):
        j = i
        while j + 1 < len(labels) and labels[j + 1][1] == labels[i][1] and labels[j + 1][0] == labels[j][0] + 1:
            j += 1
        room = labels[i][1]
        if room is not None:
            start = labels[i][0] + trim_s
            end = labels[j][0] + 1 - trim_s
            if end - start >= min_stay_s:
                stays.append({"from": start, "to": end, "room": room})
        i = j + 1
    return stays


def convert_starksm64(rssi_dir, out_dir, keep_duplicates):
    rows, dropped = load_starksm64(os.path.join(rssi_dir, STARKSM64_FILE), keep_duplicates)
    per_gateway = defaultdict(list)
    for r in rows:
        ad = ibeacon_ad(r["uuid"], int(r["major"]), int(r["minor"]), int(r["calibratedPower"]))
        packet = le_advertising_report(STARKSM64_ADDRESS, ADDRESS_RANDOM, ADV_NONCONN_IND, ad, int(r["rssi"]))
        per_gateway[r["scannerID"]].append((int(r["time"]) * 1000, packet))
    os.makedirs(out_dir, exist_ok=True)
    counts = write_captures(out_dir, per_gateway)
    gateways = [{"id": g, "room": g, "capture": g + ".btsnoop"} for g in sorted(per_gateway)]
    write_site_yaml(os.path.join(out_dir, "site.yaml"), gateways, [
        "starksm64 FourScannersBeacon5Run1-2015-03-13: 4 scanners, one per room; positions unknown.",
        "Made by scripts/site-captures.py from Data/rssi/%s." % STARKSM64_FILE,
    ])
    stays = derive_starksm64_stays(rows)
    with open(os.path.join(out_dir, "truth.jsonl"), "w") as f:
        for st in stays:
            f.write(json.dumps({"from": rfc3339_ms(st["from"] * 1_000_000), "to": rfc3339_ms(st["to"] * 1_000_000),
                                "room": st["room"]}) + "\n")
    return counts, dropped, stays


# ---------------------------------------------------------------------------------------------
# (b) philotuxo


def convert_philotuxo(rssi_dir, out_dir, power):
    with open(os.path.join(rssi_dir, PHILOTUXO_SENSORS), newline="") as f:
        sensors = list(csv.DictReader(f))
    alias = {s["sensor_mac"]: s["sensor_alias"] for s in sensors}
    with open(os.path.join(rssi_dir, PHILOTUXO_TRACK), newline="") as f:
        rows = list(csv.DictReader(f))
    ad = ibeacon_ad(PHILOTUXO_UUID, PHILOTUXO_MAJOR, PHILOTUXO_MINOR, power)
    per_gateway = defaultdict(list)
    truth = []
    for r in rows:
        micros = micros_from_decimal_seconds(r["timestamp"])
        mac = r["beacon_mac"].lower()
        address = ":".join(mac[i:i + 2] for i in range(0, 12, 2))
        packet = le_advertising_report(address, ADDRESS_RANDOM, ADV_NONCONN_IND, ad, int(r["rssi"]))
        per_gateway[alias[r["sensor_mac"]]].append((micros, packet))
        truth.append((micros, r["beacon_x_m"], r["beacon_y_m"], r["beacon_z_m"]))
    os.makedirs(out_dir, exist_ok=True)
    counts = write_captures(out_dir, per_gateway)
    gateways = [{"id": s["sensor_alias"], "room": "hall",
                 "position": [float(s["x_m"]), float(s["y_m"]), float(s["z_m"])],
                 "capture": s["sensor_alias"] + ".btsnoop"} for s in sensors if s["sensor_alias"] in per_gateway]
    write_site_yaml(os.path.join(out_dir, "site.yaml"), gateways, [
        "philotuxo track straight_04: 12 sensors in one 17 m x 17 m hall; positions in metres.",
        "Beacon: synthetic iBeacon %s major %d minor %d power %d (see README.md)." % (
            PHILOTUXO_UUID.upper(), PHILOTUXO_MAJOR, PHILOTUXO_MINOR, power),
        "Made by scripts/site-captures.py from Data/rssi/%s and %s." % (PHILOTUXO_SENSORS, PHILOTUXO_TRACK),
    ])
    truth.sort(key=lambda t: t[0])
    written, last_ms = 0, None
    with open(os.path.join(out_dir, "truth.jsonl"), "w") as f:
        for micros, x, y, z in truth:
            ms = (micros + 500) // 1000
            if ms == last_ms:
                continue
            last_ms = ms
            f.write('{"time": "%s", "x": %s, "y": %s, "z": %s}\n' % (rfc3339_ms(micros), x, y, z))
            written += 1
    return counts, written


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rssi", default=os.path.join(root, "Data", "rssi"), help="directory of the source CSVs")
    p.add_argument("--out", default=os.path.join(root, "Data", "site"), help="output root")
    p.add_argument("--keep-duplicates", action="store_true", help="keep exact duplicate starksm64 rows")
    p.add_argument("--philotuxo-power", type=int, default=PHILOTUXO_POWER,
                   help="measured power (dBm at 1 m) in the synthetic philotuxo iBeacon frames (default -67)")
    p.add_argument("--only", choices=["starksm64", "philotuxo"])
    a = p.parse_args(argv)
    if a.only in (None, "starksm64"):
        counts, dropped, stays = convert_starksm64(a.rssi, os.path.join(a.out, "starksm64"), a.keep_duplicates)
        print("starksm64: %s; %d exact duplicate row(s) dropped; %d derived stays" % (
            ", ".join("%s %d" % kv for kv in sorted(counts.items())), dropped, len(stays)))
    if a.only in (None, "philotuxo"):
        counts, written = convert_philotuxo(a.rssi, os.path.join(a.out, "philotuxo"), a.philotuxo_power)
        print("philotuxo: %s; %d truth samples" % (", ".join("%s %d" % kv for kv in sorted(counts.items())), written))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
