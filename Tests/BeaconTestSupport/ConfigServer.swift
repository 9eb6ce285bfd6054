import Foundation

/// A real HTTP server on 127.0.0.1 (config_server.py beside this file), started and stopped by a test.
public final class ConfigServer {
    public let directory: URL
    public let port: Int
    private let process: Process
    /// The server's standard input: closing it makes the server exit.
    private let lifeline = Pipe()
    private var stopping = false

    /// Whether it serves HTTPS, asking for a client certificate.
    public let mutualTLS: Bool

    /// Starts the server: plain HTTP, or with `certificates` HTTPS with their server certificate,
    /// asking each client for a certificate their authority signed.
    public init(certificates: TestCertificates? = nil) async throws {
        mutualTLS = certificates != nil
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", TestPaths.repositoryRoot + "/Tests/BeaconTestSupport/config_server.py", directory.path]
            + (certificates.map { [$0.serverCertificate.path, $0.serverKey.path, $0.caFile.path] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = lifeline
        try process.run()
        // The server prints its port once it listens.
        let line = await LineReader(out.fileHandleForReading).line() ?? ""
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    public var url: String { "\(mutualTLS ? "https" : "http")://127.0.0.1:\(port)/alerts.yaml" }

    /// Replaces the served document.
    public func serve(_ yaml: String) throws {
        try yaml.write(to: directory.appendingPathComponent("alerts.yaml"), atomically: true, encoding: .utf8)
    }

    /// Makes every request answer `status` (nil: serve the document again).
    public func fail(with status: Int?) throws {
        let file = directory.appendingPathComponent("status")
        if let status {
            try "\(status)".write(to: file, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Makes every request without `Authorization: Bearer <token>` answer 401 (nil: none needed).
    public func require(token: String?) throws {
        let file = directory.appendingPathComponent("token")
        if let token {
            try token.write(to: file, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Signs each document served with `key` (`X-Beacond-Signature`; nil: unsigned).
    public func sign(with key: String?) throws {
        let file = directory.appendingPathComponent("signing.key")
        if let key {
            try key.write(to: file, atomically: true, encoding: .utf8)
        } else {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// The `Authorization` header of each request received so far (`nil`: none sent).
    public var authorizations: [String?] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return .some(object["authorization"] as? String)
        }
    }

    /// The requests received so far: (If-None-Match, If-Modified-Since) per request.
    public var requests: [(ifNoneMatch: String?, ifModifiedSince: String?)] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("requests.log"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["if_none_match"] as? String, object["if_modified_since"] as? String)
        }
    }

    /// Stops the server (its standard input closes, it exits) and returns at once: it is reaped,
    /// and its directory removed, on a thread of their own. For connections to be refused from the
    /// next line on, ``stopped()``.
    public func stop() {
        guard !stopping else { return }
        stopping = true
        try? lifeline.fileHandleForWriting.close()
        let directory = directory
        reapWhenExited(process) { try? FileManager.default.removeItem(at: directory) }
    }

    /// Stops the server and returns once it has exited.
    public func stopped() async {
        stop()
        await waitForExit(process)
    }

    /// Stops the server: Foundation's child monitor must not outlive the Process.
    deinit { stop() }
}
