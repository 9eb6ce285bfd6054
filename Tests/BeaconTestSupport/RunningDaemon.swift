import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `beacond run` started by a test, whose standard output and error are read line by line as
/// they come: the test waits for what the daemon says, never for a time. The reads block, so
/// they run on a thread of their own (``onOwnThread(_:)``), not on the cooperative pool.
///
/// `@unchecked Sendable`: a test drives its daemon from one task, one call at a time; the
/// buffers are only touched inside those calls.
public final class RunningDaemon: @unchecked Sendable {
    public let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let outputLines: LineReader
    private let errorLines: LineReader

    /// Starts `beacond` with `arguments`, and `environment` added to the test process's own.
    public init(arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.beacond)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardOutput = output
        process.standardError = errors
        outputLines = LineReader(output.fileHandleForReading)
        errorLines = LineReader(errors.fileHandleForReading)
        try process.run()
    }

    deinit {
        // Reap it before the Process object goes: Foundation's child monitor must not outlive it.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        reapWhenExited(process)
    }

    /// Reads standard output until a line contains `text`; `nil` if the output ends first.
    public func outputLine(containing text: String) async -> String? {
        await outputLines.line(containing: text)
    }

    /// The first line of standard output that contains `text`, among those already read or
    /// passed too (see ``LineReader/firstLine(containing:)``); `nil` if it ends first.
    public func firstOutputLine(containing text: String) async -> String? {
        await outputLines.firstLine(containing: text)
    }

    /// Every complete line of standard output read so far (by the calls above, or passed by them).
    public var outputSoFar: [String] { outputLines.lines }

    /// Reads standard error until a line contains `text`; `nil` if it ends first.
    public func errorLine(containing text: String) async -> String? {
        await errorLines.line(containing: text)
    }

    /// ``errorLine(containing:)`` for a thread of the test's own (``onOwnThread(_:)``): blocks it,
    /// and fails the test if called from the cooperative pool.
    public func blockingErrorLine(containing text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        errorLines.blockingLine(containing: text, sourceLocation: sourceLocation)
    }

    /// Waits for the exit, reading the rest of both streams; returns the status, the output not
    /// yet read and every line of standard error.
    public func waitForExit() async -> (status: Int32, output: String, errors: String) {
        let rest = await outputLines.rest()
        _ = await errorLines.rest()
        await BeaconTestSupport.waitForExit(process)
        return (process.terminationStatus, rest, errorLines.lines.joined(separator: "\n"))
    }
}
