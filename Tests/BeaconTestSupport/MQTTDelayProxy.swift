import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A fault injector between an MQTT client and a real broker (`mqtt_delay_proxy.py` beside this
/// file): the broker's PUBACKs of chosen message ids reach the client late. Started and stopped
/// by a test; its log lines (`puback ID delayed`, `puback ID forwarded`) are read as they come.
///
/// `@unchecked Sendable`: a test reads it from one task; reads block on a thread of their own.
public final class MQTTDelayProxy: @unchecked Sendable {
    /// The port the client connects to.
    public let port: Int
    private let process = Process()
    private let output = Pipe()
    private let lifeline = Pipe()
    private let log: LineReader

    /// Starts the proxy in front of `broker`, delaying the PUBACKs of `messageIDs` (all when empty).
    public init(broker: MosquittoBroker, delay: Duration, messageIDs: [Int] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        process.arguments =
            [
                "python3", TestPaths.repositoryRoot + "/Tests/BeaconTestSupport/mqtt_delay_proxy.py", String(broker.port),
                "\(seconds)",
            ]
            + messageIDs.map(String.init)
        process.standardOutput = output
        process.standardInput = lifeline
        try process.run()
        log = LineReader(output.fileHandleForReading)
        guard let port = log.blockingLine().flatMap({ Int($0) }) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            blockUntilExit(process)
        }
    }

    /// Waits until the proxy logs a line containing `text`; `nil` if it exits first.
    public func line(containing text: String) async -> String? {
        await log.line(containing: text)
    }
}
