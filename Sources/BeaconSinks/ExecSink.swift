import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a shell command for each event, with the event's JSON (one line) on its standard input.
///
/// Exit status 0 confirms the delivery; any other status, a signal or the timeout is a failure
/// (retried later). The command also sees `BEACOND_EVENT_KEY` (the idempotency key) and, when the
/// alert has one, `BEACOND_DESTINATION` in its environment; its standard output goes to
/// beacond's standard error, so it never mixes with a JSON-lines stream on standard output.
public struct ExecSink: AlertSink {
    /// The command, run by `/bin/sh -c`.
    public let command: String
    /// How long the command may run before it is killed (and the delivery fails).
    public let timeout: Duration
    private let clock: any Clock<Duration>

    /// Creates a sink running `command`; the timeout is measured on `clock`.
    ///
    /// Ignores SIGPIPE for the process, so that a command that exits without reading its input
    /// is a failed delivery rather than the end of beacond.
    public init(command: String, timeout: Duration = .seconds(30), clock: any Clock<Duration> = ContinuousClock()) {
        self.command = command
        self.timeout = timeout
        self.clock = clock
        signal(SIGPIPE, SIG_IGN)
    }

    /// Exit status 0 is final: each event leaves the outbox once confirmed.
    public var confirmsEachDelivery: Bool { true }

    /// `exec:` and the command.
    public var name: String { "exec:" + command }

    /// Runs the command once; returns if it exits 0.
    public func deliver(_ event: OutboundEvent) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["BEACOND_EVENT_KEY"] = event.key
        environment["BEACOND_DESTINATION"] = event.destination
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.standardError
        let (exits, exit) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { finished in
            exit.yield(finished.terminationReason == .exit ? finished.terminationStatus : 128 + finished.terminationStatus)
            exit.finish()
        }
        do {
            try process.run()
        } catch {
            throw SinkError.commandNotStarted(command: command, reason: "\(error)")
        }
        // A command that exits without reading makes this write fail (EPIPE): its exit status decides.
        try? input.fileHandleForWriting.write(contentsOf: Data((event.body + "\n").utf8))
        try? input.fileHandleForWriting.close()

        let clock = clock
        let timeout = timeout
        let status: Int32? = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in exits { return status }
                return nil
            }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            do {
                return try await group.next() ?? nil
            } catch {
                kill(process.processIdentifier, SIGKILL)
                throw error
            }
        }
        guard let status else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw SinkError.commandTimedOut(command: command, timeout: timeout)
        }
        if status != 0 { throw SinkError.commandFailed(command: command, status: status) }
    }
}
