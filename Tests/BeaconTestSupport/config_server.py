#!/usr/bin/env python3
"""A tiny HTTP server for the remote-configuration tests, on 127.0.0.1 only.

    config_server.py DIR [CERT KEY CA]

With CERT, KEY and CA it serves HTTPS with that certificate and asks every client for a
certificate signed by CA (mutual TLS): a client without one fails the handshake.

Exits when its standard input closes (the test holds it open), so it never outlives the test
even when started through a launcher such as pyenv's shim. Serves DIR/alerts.yaml at any path with an ETag (sha256 of the content) and Last-Modified,
answering 304 to a matching If-None-Match or If-Modified-Since. If DIR/status exists, its
content (e.g. 500) is returned as the status instead. If DIR/token exists, a request without
"Authorization: Bearer <its content>" is answered 401. If DIR/signing.key exists, a document is
sent with "X-Beacond-Signature: sha256=<hex HMAC-SHA256 of it, keyed with that file's text>". Every request is appended to
DIR/requests.log as one JSON line. Prints the port it listens on, then serves until killed.
"""
import email.utils, hashlib, hmac, http.server, json, os, sys, threading

root = sys.argv[1]

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(os.path.join(root, "requests.log"), "a") as log:
            log.write(json.dumps({"path": self.path,
                                  "if_none_match": self.headers.get("If-None-Match"),
                                  "if_modified_since": self.headers.get("If-Modified-Since"),
                                  "authorization": self.headers.get("Authorization")}) + "\n")
        token_file = os.path.join(root, "token")
        if os.path.exists(token_file):
            if self.headers.get("Authorization") != "Bearer " + open(token_file).read().strip():
                self.send_response(401)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        status_file = os.path.join(root, "status")
        if os.path.exists(status_file):
            self.send_response(int(open(status_file).read().strip()))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        path = os.path.join(root, "alerts.yaml")
        body = open(path, "rb").read()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        modified = email.utils.formatdate(int(os.path.getmtime(path)), usegmt=True)
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.send_response(200)
        signing_key = os.path.join(root, "signing.key")
        if os.path.exists(signing_key):
            secret = open(signing_key).read().strip().encode()
            self.send_header("X-Beacond-Signature", "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest())
        self.send_header("Content-Type", "application/yaml")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
if len(sys.argv) == 5:
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(sys.argv[4])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.handle_error = lambda request, address: None   # a refused handshake is the test's point
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()   # returns at end of input: the test closed the pipe or died
server.shutdown()
