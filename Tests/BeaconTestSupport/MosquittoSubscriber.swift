import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mosquitto_sub` (the broker's own client) on a topic of a test broker, with QoS 1: it prints
/// the first `count` messages and exits. Killed if the test ends first.
///
/// `@unchecked Sendable`: a test reads it from one task; ``readToEnd()`` blocks on a thread of
/// its own (``onOwnThread(_:)``), not on the cooperative pool.
public final class MosquittoSubscriber: @unchecked Sendable {
    private let process = Process()
    private let received = Pipe()

    /// Starts the subscriber and, unless told not to, waits until the broker logged its
    /// subscription (so nothing published afterwards can be missed).
    /// - Parameters:
    ///   - arguments: more options (`-v`, `-c`, TLS and credentials).
    public init(
        _ broker: MosquittoBroker, topic: String, id: String, count: Int, arguments: [String] = [],
        waitForSubscription: Bool = true
    ) async throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments =
            [
                "-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-q", "1", "-i", id,
                "-C", String(count),
            ] + arguments
        process.standardOutput = received
        try process.run()
        if waitForSubscription { await broker.logged("\(id) 1 \(topic)") }
    }

    deinit {
        // Reap it before the Process object goes: Foundation's child monitor must not outlive it.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        reapWhenExited(process)
    }

    /// The output as it comes (for reading before the subscriber exits).
    public var output: FileHandle { received.fileHandleForReading }

    /// Everything it prints until it exits (after `count` messages).
    public func readToEnd() async -> String {
        await onOwnThread {
            let data = self.received.fileHandleForReading.readDataToEndOfFile()
            blockUntilExit(self.process)
            return String(decoding: data, as: UTF8.self)
        }
    }
}
