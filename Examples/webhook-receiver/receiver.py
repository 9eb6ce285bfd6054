#!/usr/bin/env python3
"""A webhook receiver for beacond that refuses forged, stale and replayed requests.

    BEACOND_WEBHOOK_SECRET=… python3 receiver.py [PORT] [TOLERANCE_SECONDS]

beacond signs each request (when the sink has a `secret`) with
    X-Beacond-Timestamp: <Unix seconds when it was sent>
    X-Beacond-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret>
This receiver answers
    401 when the signature is missing or wrong (forged or altered),
    401 when the timestamp is further than TOLERANCE_SECONDS (default 300) from its own clock,
    409 when the same signature was already accepted within the tolerance (a replay),
    200 otherwise, and prints the event (one JSON line) on standard output.
Retries are signed anew, so a retry is never taken for a replay; beacond's `Idempotency-Key`
header tells a retried event from a new one (keep the keys you processed to drop repeats).
Standard library only; port 0 picks a free port (printed first). Stops at end of standard input
when stdin is not a terminal (as the tests run it).
"""
import hashlib
import hmac
import http.server
import json
import os
import sys
import threading
import time

SECRET = os.environ.get("BEACOND_WEBHOOK_SECRET", "").encode()
PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 8080
TOLERANCE = float(sys.argv[2]) if len(sys.argv) > 2 else 300.0
seen = {}  # accepted signature -> its timestamp, kept for the tolerance window
lock = threading.Lock()


def verdict(headers, body):
    """(status, reason) for one request."""
    timestamp = headers.get("X-Beacond-Timestamp", "")
    signature = headers.get("X-Beacond-Signature", "")
    if not timestamp.isdigit() or not signature.startswith("sha256="):
        return 401, "unsigned"
    expected = "sha256=" + hmac.new(SECRET, timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        return 401, "bad signature"
    now = time.time()
    if abs(now - int(timestamp)) > TOLERANCE:
        return 401, "stale timestamp"
    with lock:
        for old, at in list(seen.items()):
            if now - at > TOLERANCE:
                del seen[old]
        if signature in seen:
            return 409, "replayed"
        seen[signature] = int(timestamp)
    return 200, "ok"


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status, reason = verdict(self.headers, body)
        if status == 200:
            print(json.dumps({"key": self.headers.get("Idempotency-Key"), "event": json.loads(body)}), flush=True)
        else:
            print(json.dumps({"refused": status, "reason": reason}), flush=True)
        self.send_response(status)
        self.send_header("Content-Length", str(len(reason)))
        self.end_headers()
        self.wfile.write(reason.encode())

    def log_message(self, *args):
        pass


if not SECRET:
    sys.exit("set BEACOND_WEBHOOK_SECRET to the sink's secret")
server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
print(server.server_address[1], flush=True)
if not sys.stdin.isatty():
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
server.serve_forever()
