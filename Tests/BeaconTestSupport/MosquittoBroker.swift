import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real `mosquitto` broker on 127.0.0.1 and a free port, started by the test, with its log
/// (everything, on stderr) readable so the test can wait for a subscription. A thread of its own
/// reads the log as it comes, so a busy broker never blocks on a full pipe.
///
/// `@unchecked Sendable`: the log text is guarded by `logChanged`.
public final class MosquittoBroker: @unchecked Sendable {
    public let directory: URL
    public let port: Int
    private let ownsDirectory: Bool
    private let process: Process
    private let log: Pipe
    private var logText = ""
    private var logEnded = false
    private let logChanged = NSCondition()

    /// Starts a broker; `configuration` is added to its configuration file (TLS, passwords,
    /// persistence: paths relative to ``directory`` are written by the caller before).
    /// - Parameters:
    ///   - directory: reuse this directory (a restart keeps its files); a new one by default.
    ///   - port: listen on this port (a restart keeps it); a free one by default.
    ///   - removesDirectory: whether the directory goes with the broker (by default only one it made).
    public init(
        configuration extra: String = "allow_anonymous true\n", directory reused: URL? = nil, port reusedPort: Int? = nil,
        removesDirectory: Bool? = nil
    ) async throws {
        if let reused {
            directory = reused
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-mqtt-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        ownsDirectory = removesDirectory ?? (reused == nil)
        port = try reusedPort ?? Self.freePort()
        let configuration = directory.appendingPathComponent("mosquitto-\(port).conf")
        try Data("listener \(port) 127.0.0.1\n\(extra)log_type all\nlog_dest stderr\n".utf8).write(to: configuration)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", configuration.path]
        log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let reader = log.fileHandleForReading
        Thread.detachNewThread { [weak self] in
            while true {
                let chunk = reader.availableData
                guard let self else { return }
                self.logChanged.lock()
                if chunk.isEmpty { self.logEnded = true } else { self.logText += String(decoding: chunk, as: UTF8.self) }
                self.logChanged.broadcast()
                self.logChanged.unlock()
                if chunk.isEmpty { return }
            }
        }
        // Not just the listening socket: a TLS client that connects before the broker's main loop
        // runs can stall until its keepalive.
        await logged("running", after: "Opening ipv4 listen socket on port \(port)")
    }

    /// Returns once the broker's log contains `text` (after the first `marker`, if given), or
    /// the broker has exited; the wait is on a thread of its own.
    public func logged(_ text: String, after marker: String? = nil) async {
        await onOwnThread { self.waitForLog(text, after: marker) }
    }

    /// ``logged(_:after:)``, blocking the calling thread (never a task's: the cooperative pool).
    public func waitForLog(_ text: String, after marker: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        expectOffCooperativePool("waiting for the broker's log", sourceLocation: sourceLocation)
        func found() -> Bool {
            guard let marker else { return logText.contains(text) }
            guard let start = logText.range(of: marker) else { return false }
            return logText[start.upperBound...].contains(text)
        }
        logChanged.lock()
        defer { logChanged.unlock() }
        while !found() && !logEnded { logChanged.wait() }
    }

    /// Whether the broker's log so far contains `text` (does not wait).
    public func logContains(_ text: String) -> Bool {
        logChanged.lock()
        defer { logChanged.unlock() }
        return logText.contains(text)
    }

    /// Kills the broker (SIGKILL: nothing saved) and returns at once; it is reaped on a thread of
    /// its own. Before reusing its port, ``stopped()``.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        reapWhenExited(process)
    }

    /// Kills the broker and returns once it has exited (its port is free).
    public func stopped() async {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        await waitForExit(process)
    }

    deinit {
        let directory = directory, owns = ownsDirectory
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        reapWhenExited(process) { if owns { try? FileManager.default.removeItem(at: directory) } }
    }

    /// A port nothing listens on right now (bound to 0, read back, released).
    public static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
