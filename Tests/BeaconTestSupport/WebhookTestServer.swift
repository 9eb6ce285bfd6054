import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real HTTP server on 127.0.0.1 for webhook tests: Python's `http.server` in a subprocess,
/// started by the test. It verifies each request's `X-Beacond-Signature` (over
/// `X-Beacond-Timestamp`, a dot and the body) with Python's own `hmac` (an oracle independent of
/// the Swift code), answers 404 to paths under `/gone` (a callback that can never succeed), 503
/// to the first `failFirst` requests and 200 after (each answer `delay` seconds late, to keep deliveries in flight;
/// every request after the first `holdAfter` held unanswered until ``release()``), and logs every request as a JSON line: path, idempotency key, whether the signature was valid,
/// the status it answered and the body. It prints one line per request on its standard output.
public final class WebhookTestServer: @unchecked Sendable {
    public struct Request: Decodable, Equatable {
        public let path: String
        public let key: String?
        public let signatureValid: Bool
        public let status: Int
        public let body: String

        public init(path: String, key: String?, signatureValid: Bool, status: Int, body: String) {
            self.path = path
            self.key = key
            self.signatureValid = signatureValid
            self.status = status
            self.body = body
        }
    }

    public static let script = #"""
        import hashlib, hmac, http.server, json, os, sys, threading
        import time
        port, log, secret, fail_first, delay = int(sys.argv[1]), sys.argv[2], sys.argv[3].encode(), int(sys.argv[4]), float(sys.argv[5])
        hold_after, release = int(sys.argv[6]), sys.argv[7]
        state = {"count": 0}
        lock = threading.Lock()
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with lock:
                    state["count"] += 1
                    number = state["count"]
                    status = 503 if state["count"] <= fail_first else 200
                    if self.path.startswith("/gone"):
                        status = 404  # a callback that can never succeed
                    timestamp = self.headers.get("X-Beacond-Timestamp", "")
                    expected = "sha256=" + hmac.new(secret, timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
                    record = {"path": self.path, "key": self.headers.get("Idempotency-Key"),
                              "signatureValid": hmac.compare_digest(expected, self.headers.get("X-Beacond-Signature", "")),
                              "status": status, "body": body.decode()}
                    with open(log, "a") as f:
                        f.write(json.dumps(record) + "\n")
                    print("request", flush=True)
                while hold_after >= 0 and number > hold_after and not os.path.exists(release):
                    time.sleep(0.01)
                time.sleep(delay)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def log_message(self, *args):
                pass
        def exit_when_stdin_closes():
            sys.stdin.read()
            os._exit(0)
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    public let directory: URL
    public let secret: String
    public let delay: Double
    public let holdAfter: Int?
    private var linesSeen = 0
    public private(set) var port: Int = 0
    private var process: Process?
    private var input: Pipe?
    private var output: Pipe?

    public var logPath: String { directory.appendingPathComponent("requests.jsonl").path }
    private var releasePath: String { directory.appendingPathComponent("release").path }
    public var url: String { "http://127.0.0.1:\(port)/alerts" }

    /// Starts the server on a free port.
    /// - Parameter holdAfter: answers this many requests, then holds every later one unanswered
    ///   (logged and counted as it arrives) until ``release()``: a client stopped at a known request.
    public init(secret: String, failFirst: Int = 0, delay: Double = 0, holdAfter: Int? = nil) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-webhook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(Self.script.utf8).write(to: directory.appendingPathComponent("server.py"))
        self.secret = secret
        self.delay = delay
        self.holdAfter = holdAfter
        try await start(port: 0, failFirst: failFirst)
    }

    /// Starts (again) on `port` (0 = a free one); returns once it listens.
    public func start(port: Int, failFirst: Int = 0) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", directory.appendingPathComponent("server.py").path, String(port), logPath, secret,
            String(failFirst), String(delay), String(holdAfter ?? -1), releasePath,
        ]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        self.input = input
        self.output = output
        let reading = output.fileHandleForReading
        let line = try await onOwnThread {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = reading.availableData
                if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
                line.append(chunk)
            }
            return line
        }
        let firstLine = line.prefix { $0 != UInt8(ascii: "\n") }
        self.port = Int(String(decoding: firstLine, as: UTF8.self)) ?? 0
        linesSeen = line.lazy.filter { $0 == UInt8(ascii: "\n") }.count
        self.process = process
    }

    /// Stops the server and returns at once: it exits when its standard input closes (which also
    /// happens if the test process dies), whatever launcher sits in between, and is killed too.
    /// For connections to be refused from the next line on, ``stopped()``.
    public func stop() {
        guard let process else { return }
        try? input?.fileHandleForWriting.close()
        kill(process.processIdentifier, SIGKILL)
        reapWhenExited(process)
        self.process = nil
        self.input = nil
        self.output = nil
    }

    /// Stops the server and returns once it has exited: connections are then refused.
    public func stopped() async {
        guard let process, let output else { return }
        stop()
        let box = UncheckedProcess(process)
        await onOwnThread {
            blockUntilExit(box.process)
            // The server's standard output reaches end of file once the server itself has exited.
            while !output.fileHandleForReading.availableData.isEmpty {}
        }
    }

    /// Returns once the server has received `count` requests since it started (or has exited).
    public func received(_ count: Int) async {
        await onOwnThread { self.waitForRequests(count) }
    }

    /// ``received(_:)``, blocking the calling thread (never a task's: the cooperative pool).
    public func waitForRequests(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        expectOffCooperativePool("waiting for a webhook request", sourceLocation: sourceLocation)
        guard let output else { return }
        while linesSeen < count + 1 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return }
            linesSeen += chunk.lazy.filter { $0 == UInt8(ascii: "\n") }.count
        }
    }

    /// Answers the requests held by `holdAfter`, and every later one at once.
    public func release() throws {
        try Data().write(to: URL(fileURLWithPath: releasePath))
    }

    /// Every request received so far.
    public func requests() throws -> [Request] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    deinit {
        let directory = directory
        if let process {
            try? input?.fileHandleForWriting.close()
            kill(process.processIdentifier, SIGKILL)
            reapWhenExited(process) { try? FileManager.default.removeItem(at: directory) }
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
