#!/usr/bin/env python3
"""Prototype of the `site` hub fusion, replayed on the real multi-gateway recordings.

Usage:
    python3 scripts/site-prototype.py [--site DIR] [--section all|gateway|room|position|sensitivity]

DIR defaults to Data/site (made by scripts/site-captures.py). Needs Python 3 and numpy.

It replays the captures the way the Swift system will:

1. Gateway: one beacond ranging loop per gateway, replicated exactly from
   Sources/BeaconRanging (defaults of RangingConfiguration): 1 s cycles aligned to the Unix
   epoch; ARMA filter speed 0.1 on every RSSI sample (x <- x - 0.1 (x - rssi), starting at the
   first sample); innovation variance v (float32) starting at 4 dB^2, v <- v + 0.1 (e^2 - v) with
   e = sample - estimate before the step (not on the first sample); log-distance model
   d = 10^((P - f) / (10 n)), n = 1.5, P the frame's measured power (default -59);
   accuracy = |d(f - s) - d(f)| with s = max(1, sqrt(v)); a beacon is listed in a cycle if it
   was seen in it or was last seen less than 3 s (missed-scan grace) before the cycle end; it is
   evicted (state forgotten, filter restarts) at the first cycle end >= 30 s (retention) after
   its last sighting. Sightings older than the current cycle are dropped (none here). The
   gateway's timer closes cycles even when nothing is heard (advance(to:) in a live gateway).
   Each listed beacon gives a record (cycle end, filtered RSSI, distance, accuracy, sample count,
   seen this cycle, mean raw RSSI of the cycle).
2. Hub, once per cycle end T with the records of cycle T from every gateway (cycles of all
   gateways end on the same whole seconds, so records are joined by cycle end):
   ROOM (room_hysteresis, chosen defaults ROOM_*): score = sample-weighted mean of the raw RSSI
   of the last 2 cycles per gateway; switch when another gateway beats the current one by
   >= 4 dB at 3 consecutive cycle ends (minDwell 2 s).
   POSITION (track_positions, chosen defaults POS_*): per cycle, gateways that heard the beacon
   give their cycle-mean RSSI; RSSI-domain weighted least squares (Gauss-Newton) for x, y and a
   common measured-power offset b (prior N(0, 10 dB)), z fixed at the mean gateway height,
   weights 1 / (6^2 + sigma_inn^2 / n) dB^-2; centroid fallback; then a constant-velocity Kalman
   filter (q = 0.5 m^2/s^4).
   The per-cycle raw mean RSSI (RangedBeacon.meanRSSI) is therefore part of the record the hub
   needs; the gateway's ARMA output lags ~5 s at 2 advertisements/s (see the tables).
3. Reports: room accuracy over the derived starksm64 stays (truth.jsonl) and over a less
   conservative reference, and position error on the philotuxo walk (truth.jsonl): baselines
   against the chosen algorithm, variants and parameter grids. Run time ~25 s.
"""

import argparse
import datetime
import json
import math
import os
import re
import struct
import sys
from collections import defaultdict

import numpy as np

BTSNOOP_EPOCH_DELTA_US = 0x00DCDDB30F2F8000
US = 1_000_000

# ---------------------------------------------------------------------------------------------
# Loading


def load_site(directory):
    """Minimal reader for the flow-style site.yaml written by site-captures.py."""
    gateways = []
    with open(os.path.join(directory, "site.yaml")) as f:
        for line in f:
            m = re.match(r"\s*-\s*\{(.*)\}\s*$", line)
            if not m:
                continue
            body = m.group(1)
            g = {}
            pos = re.search(r"position:\s*\[([^\]]*)\]", body)
            if pos:
                g["position"] = [float(v) for v in pos.group(1).split(",")]
                body = body[:pos.start()] + body[pos.end():]
            for item in body.split(","):
                if ":" in item:
                    k, v = item.split(":", 1)
                    g[k.strip()] = v.strip()
            gateways.append(g)
    return gateways


def read_btsnoop(path):
    """Sightings of iBeacon LE Advertising Reports: list of (unix_us, beacon_key, rssi, power)."""
    data = open(path, "rb").read()
    assert data[:8] == b"btsnoop\x00"
    version, datalink = struct.unpack(">II", data[8:16])
    assert version == 1 and datalink == 1002, (version, datalink)
    out = []
    off = 16
    while off + 24 <= len(data):
        orig, incl, flags, drops, ts = struct.unpack(">IIIIq", data[off:off + 24])
        pkt = data[off + 24:off + 24 + incl]
        off += 24 + incl
        if len(pkt) < 4 or pkt[0] != 0x04 or pkt[1] != 0x3E or pkt[3] != 0x02:
            continue
        n = pkt[4]
        p = 5
        for _ in range(n):
            addr = pkt[p + 2:p + 8][::-1].hex(":")
            ln = pkt[p + 8]
            ad = pkt[p + 9:p + 9 + ln]
            rssi = struct.unpack("b", pkt[p + 9 + ln:p + 10 + ln])[0]
            p += 10 + ln
            i = 0
            while i < len(ad):
                l = ad[i]
                if l == 0:
                    break
                t = ad[i + 1]
                v = ad[i + 2:i + 1 + l]
                if t == 0xFF and len(v) >= 25 and v[:4] == b"\x4c\x00\x02\x15":
                    uuid = v[4:20].hex()
                    major, minor, power = struct.unpack(">HHb", v[20:25])
                    out.append((ts - BTSNOOP_EPOCH_DELTA_US, "%s:%d:%d" % (uuid, major, minor), rssi, power))
                i += 1 + l
    return out


def parse_time(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()


# ---------------------------------------------------------------------------------------------
# Gateway: beacond's ranging loop (defaults), one beacon key per gateway is all we need here but
# the state is per key.

CYCLE_US = 1 * US
GRACE_US = 3 * US
RETENTION_US = 30 * US
ARMA_SPEED = 0.1
VAR_WEIGHT = np.float32(0.1)
EXPONENT = 1.5
DEFAULT_POWER = -59


def log_distance(f, p, n=EXPONENT):
    return 10.0 ** ((p - f) / (10.0 * n))


class BeaconState:
    def __init__(self, t):
        self.last_seen = t
        self.estimate = None
        self.var = np.float32(4.0)
        self.power = None
        self.cycle_samples = 0
        self.cycle_sum = 0
        self.cycle_count = 0

    def record(self, t, rssi, power, speed):
        if t > self.last_seen:
            self.last_seen = t
        if power is not None:
            self.power = power
        self.cycle_samples += 1
        self.cycle_count += 1
        self.cycle_sum += rssi
        sample = float(rssi)
        if self.estimate is not None:
            e = np.float32(sample - self.estimate)
            self.var = np.float32(self.var + VAR_WEIGHT * (e * e - self.var))
        cur = sample if self.estimate is None else self.estimate
        self.estimate = cur - speed * (cur - sample)


def range_gateway(sightings, until_us, speed=ARMA_SPEED, exponent=EXPONENT):
    """Replays one gateway. Returns {cycle_end_us: {key: record}}; cycles close up to until_us."""
    sightings = sorted(sightings, key=lambda s: s[0])
    start = None
    beacons = {}
    updates = {}
    late = 0

    def close_through(t):
        nonlocal start
        while start + CYCLE_US <= t:
            if not beacons:
                start = (t // CYCLE_US) * CYCLE_US
                return
            end = start + CYCLE_US
            recs = {}
            for key in list(beacons):
                b = beacons[key]
                unseen = end - b.last_seen
                if unseen >= RETENTION_US:
                    del beacons[key]
                    continue
                if b.cycle_samples > 0 or unseen < GRACE_US:
                    p = b.power if b.power is not None else DEFAULT_POWER
                    f = b.estimate
                    d = log_distance(f, p, exponent)
                    sigma = max(1.0, float(math.sqrt(b.var)))
                    acc = abs(log_distance(f - sigma, p, exponent) - d)
                    recs[key] = {
                        "filtered": f, "distance": d, "accuracy": acc, "samples": b.cycle_samples,
                        "seen": b.cycle_samples > 0,
                        "mean": b.cycle_sum / b.cycle_count if b.cycle_count else None,
                    }
                b.cycle_samples = b.cycle_count = b.cycle_sum = 0
            updates[end] = recs
            start = end

    for t, key, rssi, power in sightings:
        if start is None:
            start = (t // CYCLE_US) * CYCLE_US
        elif t < start:
            late += 1
            continue
        elif t >= start + CYCLE_US:
            close_through(t)
        b = beacons.get(key)
        if b is None:
            b = beacons[key] = BeaconState(t)
        b.record(t, rssi, power, speed)
    if start is not None:
        close_through(until_us)
    assert late == 0
    return updates


def replay(site_dir, speed=ARMA_SPEED, exponent=EXPONENT):
    gws = load_site(site_dir)
    caps = {g["id"]: read_btsnoop(os.path.join(site_dir, g["capture"])) for g in gws}
    first = min(s[0] for c in caps.values() for s in c)
    last = max(s[0] for c in caps.values() for s in c)
    until = (last // CYCLE_US + 1) * CYCLE_US
    per_gw = {gid: range_gateway(c, until, speed, exponent) for gid, c in caps.items()}
    ticks = list(range((first // CYCLE_US + 1) * CYCLE_US, until + 1, CYCLE_US))
    keys = sorted({s[1] for c in caps.values() for s in c})
    assert len(keys) == 1, keys
    key = keys[0]
    # frames[i] = {gateway: record} for cycle end ticks[i]
    frames = [{gid: per_gw[gid][T][key] for gid in per_gw if T in per_gw[gid] and key in per_gw[gid][T]}
              for T in ticks]
    return gws, caps, ticks, frames


# ---------------------------------------------------------------------------------------------
# Hub: room

FLOOR_DBM = -105.0  # score of a gateway without a score this cycle

# Chosen defaults (see the report and Data/site/README.md).
ROOM_SCORE = "rawwin"
ROOM_WINDOW = 2        # cycles (s)
ROOM_MARGIN_DB = 4.0
ROOM_MIN_DWELL_S = 2


def scores_for(frames, i, mode, window):
    """Per-gateway room score at tick i ({gateway: dBm}; a gateway without one counts FLOOR).
    'filtered': the record's filtered RSSI (gateway ARMA; records in grace included).
    'seen'    : the filtered RSSI only if the gateway heard the beacon this cycle.
    'mean'    : this cycle's raw mean RSSI (RangedBeacon.meanRSSI), gateways that heard it.
    'rawwin'  : sample-weighted mean of the raw samples of the last `window` cycles,
                sum_k(n_k m_k) / sum_k(n_k) over cycles k in (i - window, i] (chosen, window 2).
    'win'     : mean of the 'filtered' score over the last `window` cycles, FLOOR when absent.
    """
    if mode == "rawwin":
        tot, cnt = defaultdict(float), defaultdict(int)
        for k in range(max(0, i - window + 1), i + 1):
            for g, r in frames[k].items():
                if r["mean"] is not None:
                    tot[g] += r["mean"] * r["samples"]
                    cnt[g] += r["samples"]
        return {g: tot[g] / cnt[g] for g in cnt}

    def one(k, m):
        out = {}
        for g, r in frames[k].items():
            if m == "filtered":
                out[g] = r["filtered"]
            elif m == "seen" and r["seen"]:
                out[g] = r["filtered"]
            elif m == "mean" and r["mean"] is not None:
                out[g] = r["mean"]
        return out
    if mode in ("filtered", "seen", "mean"):
        return one(i, mode)
    lo = max(0, i - window + 1)
    acc = defaultdict(list)
    for k in range(lo, i + 1):
        for g, v in one(k, "filtered").items():
            acc[g].append(v)
    n = i - lo + 1
    return {g: (sum(v) + FLOOR_DBM * (n - len(v))) / n for g, v in acc.items()}


def room_baseline(frames):
    """Strongest cycle-mean raw RSSI among the gateways that heard the beacon this cycle; the
    previous room is held through cycles in which nobody heard it; no hysteresis."""
    rooms, cur = [], None
    for fr in frames:
        heard = {g: r["mean"] for g, r in fr.items() if r["mean"] is not None}
        if heard:
            cur = max(sorted(heard), key=lambda g: heard[g])
        rooms.append(cur)
    return rooms


def room_hysteresis(frames, margin=ROOM_MARGIN_DB, min_dwell=ROOM_MIN_DWELL_S, mode=ROOM_SCORE,
                    window=ROOM_WINDOW):
    """Room with hysteresis, one decision per tick (cycle end T, 1 s apart).
    State: current gateway R (None at first) and since[g] for every other gateway g: the first
    tick of g's current unbroken run of score(g) >= score(R) + margin.
      - no gateway lists the beacon, or none has a score: R held, timers cleared (the hub drops
        the beacon when no gateway tracks it any more: 30 s retention, not exercised here);
      - R None: R = the best-scoring gateway at once;
      - otherwise, for every g != R with a score: if score(g) - score(R) >= margin
        (score(R) = FLOOR when R has none) start/keep since[g], else clear it; timers of gateways
        without a score are cleared. Among the g with T - since[g] >= min_dwell, switch to the
        highest-scoring one and clear all timers. (min_dwell 2: the condition held at 3
        consecutive cycle ends.)
    The room reported is room(R)."""
    rooms, cur = [], None
    since = {}
    for i, fr in enumerate(frames):
        sc = scores_for(frames, i, mode, window)
        if not fr or not sc:
            since = {}
            rooms.append(cur)
            continue
        if cur is None:
            cur = max(sorted(sc), key=lambda g: sc[g])
            since = {}
            rooms.append(cur)
            continue
        base = sc.get(cur, FLOOR_DBM)
        ready = []
        for g in sc:
            if g == cur:
                continue
            if sc[g] - base >= margin and sc[g] > base:  # margin 0: a tie does not switch
                since.setdefault(g, i)
                if i - since[g] >= min_dwell:
                    ready.append(g)
            else:
                since.pop(g, None)
        for g in list(since):
            if g not in sc:
                since.pop(g)
        if ready:
            cur = max(sorted(ready), key=lambda g: sc[g])
            since = {}
        rooms.append(cur)
    return rooms


def score_rooms(ticks, rooms, stays, step_us=100_000):
    """(share of stay time right, flaps, flaps per hour of stay, switches over the whole walk).
    The hub's answer of tick T holds until the next tick; stay time is sampled every 0.1 s.
    A flap is a change, at a tick strictly inside a stay, to a room other than the stay's (a late
    switch into the stay's room is lag, counted only in the share right)."""
    ok = tot = 0
    for st in stays:
        t = st["from"]
        while t < st["to"]:
            k = int(np.searchsorted(ticks, t, side="right")) - 1
            ok += (rooms[k] if k >= 0 else None) == st["room"]
            tot += 1
            t += step_us
    switches = sum(1 for a, b in zip(rooms, rooms[1:]) if a is not None and b is not None and a != b)
    flaps = 0
    for st in stays:
        rs = [rooms[k] for k, T in enumerate(ticks) if st["from"] < T < st["to"]]
        flaps += sum(1 for a, b in zip(rs, rs[1:]) if a != b and b != st["room"])
    stay_s = sum(st["to"] - st["from"] for st in stays) / US
    return ok / tot, flaps, flaps / (stay_s / 3600.0), switches


def inclusive_stays(caps, half_window_s=5, min_samples=5, min_run_s=10, trim_s=3):
    """A second, less conservative reference (sensitivity check only): each second labelled with
    the scanner of the highest centred 11 s median RSSI (no margin); runs shorter than 10 s are
    'moving'; the others are trimmed by 3 s at both ends. Seconds nobody heard are unlabelled."""
    by = defaultdict(list)
    for g, c in caps.items():
        by[g] = sorted((t / US, r) for t, k, r, p in c)
    gs = sorted(by)
    t0 = math.floor(min(v[0][0] for v in by.values()))
    t1 = math.ceil(max(v[-1][0] for v in by.values()))
    runs = []
    for s in range(t0, t1 + 1):
        sc = {}
        for g in gs:
            v = [x for t, x in by[g] if s - half_window_s <= t <= s + half_window_s]
            sc[g] = float(np.median(v)) if len(v) >= min_samples else None
        have = {g: v for g, v in sc.items() if v is not None}
        lab = max(sorted(have), key=lambda g: have[g]) if have else None
        if runs and runs[-1][2] == lab:
            runs[-1][1] = s + 1
        else:
            runs.append([s, s + 1, lab])
    return [{"from": (a + trim_s) * US, "to": (b - trim_s) * US, "room": lab}
            for a, b, lab in runs if lab is not None and b - a >= min_run_s]


# ---------------------------------------------------------------------------------------------
# Hub: position inputs and solver


def hub_inputs(frames, i, source="filtered", window=3):
    """Per-gateway input of the position solver at tick i: {g: (rssi, P, sigma_inn, n)}.
    source 'filtered': the record's filtered RSSI (beacond's ARMA);
           'mean'    : this cycle's raw mean RSSI (RangedBeacon.meanRSSI), gateways that did not
                       hear the beacon this cycle are left out;
           'window'  : sample-weighted mean of the raw cycle means of the last `window` cycles
                       (sum(n_k m_k) / sum(n_k)); a gateway with no sample in the window is left out.
    P (measured power) = filtered + 10 n log10(distance), read back from the record;
    sigma_inn (dB) = 10 n log10(1 + accuracy / distance), the gateway's innovation RMS."""
    out = {}
    for g, r in frames[i].items():
        P = r["filtered"] + 10 * EXPONENT * math.log10(r["distance"])
        s_inn = 10 * EXPONENT * math.log10(1 + r["accuracy"] / r["distance"])
        if source == "filtered":
            out[g] = (r["filtered"], P, s_inn, max(r["samples"], 1))
        elif source == "mean":
            if r["mean"] is not None:
                out[g] = (r["mean"], P, s_inn, r["samples"])
        elif source == "inverted":
            # the cycle's ARMA-weighted sample mean recovered from two consecutive filtered values
            # and the sample count: (f_T - (1-c)^n f_T-1) / (1 - (1-c)^n); the record alone, no
            # new field. Without a previous record (first cycle) the filtered value itself.
            n = r["samples"]
            if n > 0:
                prev = frames[i - 1].get(g) if i > 0 else None
                if prev is None:
                    out[g] = (r["filtered"], P, s_inn, n)
                else:
                    a = (1 - ARMA_SPEED) ** n
                    out[g] = ((r["filtered"] - a * prev["filtered"]) / (1 - a), P, s_inn, n)
        else:
            tot = n = 0
            for k in range(max(0, i - window + 1), i + 1):
                rk = frames[k].get(g)
                if rk and rk["mean"] is not None:
                    tot += rk["mean"] * rk["samples"]
                    n += rk["samples"]
            if n:
                out[g] = (tot / n, P, s_inn, n)
    return out


def centroid(inp, pos, k=4):
    """Weighted centroid of the k strongest, w = 1/d (d from the log-distance model)."""
    gs = sorted(inp, key=lambda g: -inp[g][0])[:k]
    P = np.array([pos[g] for g in gs], dtype=float)
    w = np.array([1.0 / max(log_distance(inp[g][0], inp[g][1]), 0.1) for g in gs])
    return (w[:, None] * P).sum(0) / w.sum()


def solve_position(inp, pos, z=None, z_free=False, fit_offset=True, offset_prior_db=10.0, model_sigma_db=6.0,
                   domain="log", rho_floor=0.5, iters=50, bounds_margin=2.0, min_gateways=3):
    """Weighted least squares multilateration: Gauss-Newton with step halving.
    inp: {gateway: (rssi, P, sigma_inn, n)} (see hub_inputs); every gateway in inp is used.
    Unknowns u = (x, y, b, z): b, a common offset (dB) of all measured powers, only if fit_offset,
    with a prior b ~ N(0, offset_prior_db^2) (keeps it defined with 3 gateways); z only if z_free
    (clamped to the gateways' height range), else fixed at `z` (default: mean gateway height).
    domain 'log' (RSSI domain; the maximum-likelihood fix under log-normal shadowing):
        L_i = P_i - rssi_i (= 10 n log10 d_i), rho_i = max(|p - s_i|, rho_floor)
        r_i = 10 n log10(rho_i) - L_i - b,  w_i = 1 / (model_sigma_db^2 + sigma_inn_i^2 / n_i)
    domain 'range': r_i = rho_i - d_i 10^(b / (10 n)), d_i = 10^(L_i / (10 n)),
        w_i = 1 / (d_i (10^(sqrt(model_sigma^2 + sigma_inn^2/n) / (10 n)) - 1))^2
    minimise sum w_i r_i^2 + (b / offset_prior_db)^2 from u0 = (weighted centroid of the 4
    strongest, b = 0, z = clamp(centroid z)); stop when the xy step < 1 mm or no descent is
    possible (converged), or after `iters` steps (not converged).
    Fallback (ok False, the centroid is returned): fewer than min_gateways, a singular system, no
    convergence, or a fix outside the gateways' xy box grown by bounds_margin.
    sigma_xy = sqrt(C_xx + C_yy), C = (J'WJ + prior)^-1 * max(1, chi2 / dof)."""
    gs = sorted(inp, key=lambda g: -inp[g][0])
    start = centroid(inp, pos) if inp else None
    if len(gs) < min_gateways:
        return start, False, None
    S = np.array([pos[g] for g in gs], dtype=float)
    L = np.array([inp[g][1] - inp[g][0] for g in gs])
    sig2 = np.array([model_sigma_db ** 2 + inp[g][2] ** 2 / inp[g][3] for g in gs])
    zlo, zhi = S[:, 2].min(), S[:, 2].max()
    z0 = S[:, 2].mean() if z is None else z
    tn = 10 * EXPONENT
    active = [0, 1] + ([2] if fit_offset else []) + ([3] if z_free else [])
    u = np.array([start[0], start[1], 0.0, min(max(start[2], zlo), zhi) if z_free else z0])

    def resid(u):
        diff = np.stack([u[0] - S[:, 0], u[1] - S[:, 1], u[3] - S[:, 2]], 1)
        rho = np.linalg.norm(diff, axis=1)
        rr = np.maximum(rho, rho_floor)
        inside = rho > rho_floor
        if domain == "log":
            res = tn * np.log10(rr) - L - u[2]
            dr = np.where(inside, tn / (math.log(10) * rr * np.maximum(rho, 1e-9)), 0.0)
            db = -np.ones(len(S))
            w = 1.0 / sig2
        else:
            d = 10 ** ((L + u[2]) / tn)
            res = rr - d
            dr = np.where(inside, 1.0 / np.maximum(rho, 1e-9), 0.0)
            db = -d * math.log(10) / tn
            w = 1.0 / (d * (10 ** (np.sqrt(sig2) / tn) - 1)) ** 2
        J = np.stack([dr * diff[:, 0], dr * diff[:, 1], db, dr * diff[:, 2]], 1)
        return res, J[:, active], w

    def normal(u):
        res, J, w = resid(u)
        A = J.T @ (w[:, None] * J)
        g = J.T @ (w * res)
        if fit_offset:
            A[2, 2] += 1.0 / offset_prior_db ** 2
            g[2] += u[2] / offset_prior_db ** 2
        return res, w, A, g

    def cost(u):
        res, _, w = resid(u)
        return float((w * res * res).sum()) + ((u[2] / offset_prior_db) ** 2 if fit_offset else 0.0)

    ok = False
    c0 = cost(u)
    for _ in range(iters):
        res, w, A, g = normal(u)
        try:
            dx = np.linalg.solve(A, -g)
        except np.linalg.LinAlgError:
            return start, False, None
        step = np.zeros(4)
        step[active] = dx
        t = 1.0
        while t > 1e-3:
            un = u + t * step
            un[3] = min(max(un[3], zlo), zhi) if z_free else z0
            cn = cost(un)
            if cn <= c0:
                break
            t /= 2
        else:
            ok = True  # no descent left: at a minimum
            break
        moved = np.linalg.norm(un[:2] - u[:2])
        u, c0 = un, cn
        if moved < 1e-3:
            ok = True
            break
    p = np.array([u[0], u[1], u[3]])
    lo = S[:, :2].min(0) - bounds_margin
    hi = S[:, :2].max(0) + bounds_margin
    if not ok or np.any(p[:2] < lo) or np.any(p[:2] > hi):
        return start, False, None
    res, w, A, g = normal(u)
    dof = max(len(gs) - len(active), 1)
    scale = max(1.0, float((w * res * res).sum()) / dof)
    try:
        C = np.linalg.inv(A) * scale
    except np.linalg.LinAlgError:
        return p, True, None
    return p, True, float(math.sqrt(max(C[0, 0] + C[1, 1], 0.0)))


# ---------------------------------------------------------------------------------------------
# Hub: position

POS_SOURCE = "mean"        # per-gateway input: this cycle's raw mean RSSI
POS_OFFSET_PRIOR_DB = 10.0
POS_MODEL_SIGMA_DB = 6.0
POS_KF_ACCEL = 0.5         # q: acceleration variance (m^2/s^4) of the constant-velocity filter
POS_KF_R_FLOOR = 1.0       # m^2, per axis
POS_FALLBACK_SIGMA = 3.0   # m, when the solver falls back to the centroid and gives no sigma


def fallback_sigma(inp):
    """1-sigma radius of a centroid fix: the mean distance estimate of the gateways used."""
    gs = sorted(inp, key=lambda g: -inp[g][0])[:4]
    return float(np.mean([log_distance(inp[g][0], inp[g][1]) for g in gs]))


class PositionFilter:
    """Constant-velocity Kalman filter, x and y independent, 1 s steps.
    state (p, v); F = [[1, dt], [0, 1]]; Q = q [[dt^4/4, dt^3/2], [dt^3/2, dt^2]];
    measurement p with R = max(sigma_xy^2 / 2, r_floor) per axis. Initialised at the first fix
    with variance (sigma_xy^2 / 2, 1 m^2/s^2). A cycle without a fix only predicts. z is the
    fix's (fixed) z. Output sigma_xy = sqrt(P_xx + P_yy)."""

    def __init__(self, q=POS_KF_ACCEL, r_floor=POS_KF_R_FLOOR):
        self.q, self.r_floor = q, r_floor
        self.x = None

    def step(self, fix, sigma, dt=1.0):
        F = np.array([[1.0, dt], [0.0, 1.0]])
        Q = self.q * np.array([[dt ** 4 / 4, dt ** 3 / 2], [dt ** 3 / 2, dt ** 2]])
        if self.x is None:
            if fix is None:
                return None, None
            v0 = max(sigma ** 2 / 2, self.r_floor)
            self.x = [np.array([fix[0], 0.0]), np.array([fix[1], 0.0])]
            self.P = [np.diag([v0, 1.0]), np.diag([v0, 1.0])]
            self.z = fix[2]
        else:
            for a in range(2):
                self.x[a] = F @ self.x[a]
                self.P[a] = F @ self.P[a] @ F.T + Q
                if fix is not None:
                    R = max(sigma ** 2 / 2, self.r_floor)
                    S = self.P[a][0, 0] + R
                    K = self.P[a][:, 0] / S
                    self.x[a] = self.x[a] + K * (fix[a] - self.x[a][0])
                    self.P[a] = self.P[a] - np.outer(K, self.P[a][0, :])
            if fix is not None:
                self.z = fix[2]
        return (np.array([self.x[0][0], self.x[1][0], self.z]),
                float(math.sqrt(self.P[0][0, 0] + self.P[1][0, 0])))


def track_positions(ticks, frames, pos, source=POS_SOURCE, window=1, solver="wls", kf=True,
                    q=POS_KF_ACCEL, power_shift_db=0.0, **solver_kw):
    """The hub's position per tick: list of (p or None, sigma_xy or None, fallback?)."""
    pf = PositionFilter(q=q) if kf else None
    out = []
    for i in range(len(ticks)):
        inp = hub_inputs(frames, i, source, window)
        if power_shift_db:
            inp = {g: (v[0], v[1] + power_shift_db, v[2], v[3]) for g, v in inp.items()}
        fix = sigma = None
        fb = False
        if inp:
            if solver == "centroid":
                fix, sigma = centroid(inp, pos), fallback_sigma(inp)
            else:
                kw = dict(offset_prior_db=POS_OFFSET_PRIOR_DB, model_sigma_db=POS_MODEL_SIGMA_DB)
                kw.update(solver_kw)
                fix, ok, sigma = solve_position(inp, pos, **kw)
                if not ok or sigma is None:
                    fb = True
                    sigma = fallback_sigma(inp)
        if pf is not None:
            p, s = pf.step(fix, sigma if sigma is not None else POS_FALLBACK_SIGMA)
            out.append((p, s, fb))
        else:
            out.append((fix, sigma, fb))
    return out


def truth_positions(path):
    T, X = [], []
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            T.append(parse_time(o["time"]))
            X.append([o["x"], o["y"], o["z"]])
    return np.array(T), np.array(X)


def truth_at(Tt, Xt, t):
    return np.array([np.interp(t, Tt, Xt[:, j]) for j in range(3)])


def position_errors(ticks, track, Tt, Xt, skip_s=0.0):
    """3-D errors of the estimates at cycle ends T within the truth's span (estimate at T against
    the truth at T); skip_s drops the first seconds. Returns (errors, coverage of sigma_xy, fallbacks)."""
    errs, inside, n, fbs = [], 0, 0, 0
    for T, (p, s, fb) in zip(ticks, track):
        t = T / US
        if p is None or t < Tt[0] + skip_s or t > Tt[-1]:
            continue
        tr = truth_at(Tt, Xt, t)
        errs.append(float(np.linalg.norm(p - tr)))
        fbs += fb
        if s is not None:
            n += 1
            inside += float(np.linalg.norm((p - tr)[:2])) <= s
    return np.array(errs), (inside / n if n else float("nan")), fbs


# ---------------------------------------------------------------------------------------------
# Reports


def pct(x):
    return "%.1f %%" % (100 * x)


def section_gateway(site):
    for ds in ("starksm64", "philotuxo"):
        gws, caps, ticks, frames = replay(os.path.join(site, ds))
        print("\n## %s: gateway records (beacond defaults)\n" % ds)
        print("| gateway | sightings | cycles listed | in grace | median samples / heard cycle | "
              "filtered RSSI | median accuracy (m) |")
        print("|---|---|---|---|---|---|---|")
        for g in gws:
            gid = g["id"]
            recs = [fr[gid] for fr in frames if gid in fr]
            seen = [r for r in recs if r["seen"]]
            f = [r["filtered"] for r in recs]
            print("| %s | %d | %d | %d | %g | %.1f … %.1f | %.2f |" % (
                gid, len(caps[gid]), len(recs), len(recs) - len(seen),
                np.median([r["samples"] for r in seen]), min(f), max(f),
                np.median([r["accuracy"] for r in recs])))


def load_stays(path):
    out = []
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            out.append({"from": int(round(parse_time(o["from"]) * US)),
                        "to": int(round(parse_time(o["to"]) * US)), "room": o["room"]})
    return out


MARGINS = [0, 2, 3, 4, 5, 6, 8]
DWELLS = [0, 1, 2, 3, 4, 6]


def section_room(site):
    d = os.path.join(site, "starksm64")
    gws, caps, ticks, frames = replay(d)
    refs = [("derived stays (truth.jsonl)", load_stays(os.path.join(d, "truth.jsonl"))),
            ("inclusive reference", inclusive_stays(caps))]
    print("\n## starksm64: room\n")
    for name, st in refs:
        print("- %s: %d stays, %.0f s of the %d s walk: %s" % (
            name, len(st), sum(s["to"] - s["from"] for s in st) / US, len(ticks),
            ", ".join("%s %d–%d s" % (s["room"], (s["from"] - ticks[0]) / US + 1, (s["to"] - ticks[0]) / US + 1)
                      for s in st)))
    print("\n| rule | right (derived) | flaps | flaps/h | right (inclusive) | flaps | switches over the walk |")
    print("|---|---|---|---|---|---|---|")

    def row(name, rooms):
        a = score_rooms(ticks, rooms, refs[0][1])
        b = score_rooms(ticks, rooms, refs[1][1])
        print("| %s | %s | %d | %.0f | %s | %d | %d |" % (name, pct(a[0]), a[1], a[2], pct(b[0]), b[1], a[3]))
    row("baseline: strongest cycle-mean RSSI", room_baseline(frames))
    for mode, w in (("filtered", 1), ("rawwin", 2)):
        row("argmax %s%s, no hysteresis" % (mode, "(%d)" % w if mode == "rawwin" else ""),
            room_hysteresis(frames, 0, 0, mode, w))
    row("hysteresis on filtered RSSI, 4 dB / 2 s", room_hysteresis(frames, 4, 2, "filtered", 1))
    row("**chosen: raw mean over 2 cycles, %g dB / %g s**" % (ROOM_MARGIN_DB, ROOM_MIN_DWELL_S),
        room_hysteresis(frames))
    for mode, w in (("rawwin", 2), ("rawwin", 3), ("filtered", 1), ("mean", 1)):
        print("\nGrid, score `%s`%s: right on derived stays / right on inclusive reference / switches "
              "over the walk (rows margin dB, columns minDwell s)\n" % (mode, " window %d" % w if mode == "rawwin" else ""))
        print("| margin \\ dwell | " + " | ".join(str(x) for x in DWELLS) + " |")
        print("|---" * (len(DWELLS) + 1) + "|")
        for m in MARGINS:
            cells = []
            for dw in DWELLS:
                rooms = room_hysteresis(frames, m, dw, mode, w)
                a = score_rooms(ticks, rooms, refs[0][1])
                b = score_rooms(ticks, rooms, refs[1][1])
                cells.append("%.1f / %.1f / %d" % (100 * a[0], 100 * b[0], a[3]))
            print("| %g | " % m + " | ".join(cells) + " |")


def section_position(site):
    d = os.path.join(site, "philotuxo")
    gws, caps, ticks, frames = replay(d)
    pos = {g["id"]: np.array(g["position"]) for g in gws}
    Tt, Xt = truth_positions(os.path.join(d, "truth.jsonl"))
    zfix = float(np.mean([p[2] for p in pos.values()]))
    print("\n## philotuxo: position error (m, 3-D; estimate at cycle end T against the truth at T)\n")
    print("z fixed at the mean gateway height %.2f m (true ≈ 1.85 m). 'after 5 s' drops the first 5 s "
          "(warm-up: the beacon is first heard at t = 0). cover = share of fixes with horizontal error "
          "≤ sigma_xy.\n" % zfix)
    print("| estimator (input) | median | p90 | median after 5 s | p90 after 5 s | fixes | fallbacks | cover |")
    print("|---|---|---|---|---|---|---|---|")

    def row(name, **kw):
        tr = track_positions(ticks, frames, pos, **kw)
        e, cov, fb = position_errors(ticks, tr, Tt, Xt)
        e5, _, _ = position_errors(ticks, tr, Tt, Xt, skip_s=5)
        print("| %s | %.2f | %.2f | %.2f | %.2f | %d | %d | %s |" % (
            name, np.median(e), np.percentile(e, 90), np.median(e5), np.percentile(e5, 90), len(e), fb,
            "%.2f" % cov if cov == cov else "-"))
    row("baseline: weighted centroid of 4 strongest, w = 1/d (filtered RSSI)", source="filtered", solver="centroid", kf=False)
    row("baseline: weighted centroid of 4 strongest, w = 1/d (cycle mean RSSI)", source="mean", solver="centroid", kf=False)
    row("WLS range domain, no offset (filtered)", source="filtered", kf=False, domain="range", fit_offset=False)
    row("WLS range domain, no offset (cycle mean)", kf=False, domain="range", fit_offset=False)
    row("WLS range domain + offset (cycle mean)", kf=False, domain="range")
    row("WLS RSSI domain, no offset (cycle mean)", kf=False, fit_offset=False)
    row("WLS RSSI domain + offset (filtered)", source="filtered", kf=False)
    row("WLS RSSI domain + offset (cycle mean)", kf=False)
    row("WLS RSSI domain + offset (2-cycle raw mean)", source="window", window=2, kf=False)
    row("WLS RSSI domain + offset (ARMA-inverted cycle mean)", source="inverted", kf=False)
    row("WLS RSSI domain + offset, z free (cycle mean)", kf=False, z_free=True)
    row("centroid + Kalman (cycle mean)", solver="centroid")
    row("WLS + offset + Kalman (filtered)", source="filtered")
    row("WLS + offset + Kalman (ARMA-inverted cycle mean)", source="inverted")
    row("**chosen: WLS RSSI domain + offset + Kalman (cycle mean)**")

    print("\nChosen pipeline, median / p90 (m), whole walk and [after 5 s], against model sigma (rows, dB) "
          "and Kalman q (columns, m²/s⁴); offset prior %g dB\n" % POS_OFFSET_PRIOR_DB)
    qs = [None, 0.25, 0.5, 1.0, 2.0]
    print("| model sigma \\ q | " + " | ".join("no filter" if q is None else str(q) for q in qs) + " |")
    print("|---" * (len(qs) + 1) + "|")
    for ms in (3.0, 4.0, 5.0, 6.0, 8.0):
        cells = []
        for q in qs:
            tr = track_positions(ticks, frames, pos, kf=q is not None, q=q or 0.5, model_sigma_db=ms)
            e, _, _ = position_errors(ticks, tr, Tt, Xt)
            e5, _, _ = position_errors(ticks, tr, Tt, Xt, skip_s=5)
            cells.append("%.2f / %.2f [%.2f / %.2f]" % (np.median(e), np.percentile(e, 90),
                                                      np.median(e5), np.percentile(e5, 90)))
        print("| %g | " % ms + " | ".join(cells) + " |")
    print("\nOffset prior (rows, dB; 'none' = offset not fitted) against a measured-power error Δ in the "
          "frames (columns, dB; the frames say −67): median / p90 (m), chosen pipeline\n")
    deltas = [-6, -3, 0, 3, 6]
    print("| offset prior \\ Δ | " + " | ".join("%+d" % x for x in deltas) + " |")
    print("|---" * (len(deltas) + 1) + "|")
    for prior in (None, 3.0, 6.0, 10.0, 20.0):
        cells = []
        for dl in deltas:
            kw = dict(fit_offset=False) if prior is None else dict(offset_prior_db=prior)
            tr = track_positions(ticks, frames, pos, power_shift_db=dl, **kw)
            e, _, _ = position_errors(ticks, tr, Tt, Xt)
            cells.append("%.2f / %.2f" % (np.median(e), np.percentile(e, 90)))
        print("| %s | " % ("none" if prior is None else "%g" % prior) + " | ".join(cells) + " |")


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description="site fusion prototype")
    p.add_argument("--site", default=os.path.join(root, "Data", "site"))
    p.add_argument("--section", default="all", choices=["all", "gateway", "room", "position"])
    a = p.parse_args(argv)
    if a.section in ("all", "gateway"):
        section_gateway(a.site)
    if a.section in ("all", "room"):
        section_room(a.site)
    if a.section in ("all", "position"):
        section_position(a.site)


if __name__ == "__main__":
    main(sys.argv[1:])
