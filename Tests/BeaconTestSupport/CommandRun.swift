import Foundation
import Testing

/// Runs a command to completion and captures its output (for tests of the `beacond` CLI).
public struct CommandRun: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
    /// From the start of the process to its exit (not counting the wait for a slot).
    public let elapsed: Duration

    /// Runs the command in one of the ``ChildProcessSlots``, on a thread of its own (see
    /// ``onOwnThread(_:)``), and returns what it did.
    ///
    /// `slot: false` runs it at once: for a short command that talks to a daemon the test is
    /// running (`beacond ack --to`, `post-event`), which must not queue behind another suite's
    /// long command while that daemon's time goes by.
    public static func run(
        _ executable: String, _ arguments: [String], directory: String? = nil, slot: Bool = true
    ) async throws -> CommandRun {
        guard slot else { return try await onOwnThread { try CommandRun(executable, arguments, directory: directory) } }
        return try await ChildProcessSlots.shared.withSlot {
            try await onOwnThread { try CommandRun(executable, arguments, directory: directory) }
        }
    }

    private init(_ executable: String, _ arguments: [String], directory: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let started = ContinuousClock.now
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        blockUntilExit(process)
        elapsed = ContinuousClock.now - started
        status = process.terminationStatus
        standardOutput = String(decoding: outData, as: UTF8.self)
        standardError = String(decoding: errData, as: UTF8.self)
    }
}
