import Foundation

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
    private var outputBuffer = Data()
    private var errorBuffer = Data()
    /// Every line read so far from standard error.
    public private(set) var errorLines: [String] = []

    public init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: TestPaths.beacond)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    deinit {
        // Reap it before the Process object goes: Foundation's child monitor must not outlive it.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Reads standard output until a line contains `text`; `nil` if the output ends first.
    public func outputLine(containing text: String) async -> String? {
        await onOwnThread { self.blockingOutputLine(containing: text) }
    }

    /// Reads standard error until a line contains `text`; `nil` if it ends first.
    public func errorLine(containing text: String) async -> String? {
        await onOwnThread { self.blockingErrorLine(containing: text) }
    }

    /// Waits for the exit, reading the rest of both streams; returns the status and remaining output.
    public func waitForExit() async -> (status: Int32, output: String, errors: String) {
        let result = await onOwnThread { self.blockingWaitForExit() }
        return (result.status, result.output, result.errors)
    }

    private func blockingOutputLine(containing text: String) -> String? {
        Self.line(containing: text, from: output.fileHandleForReading, buffer: &outputBuffer) { _ in }
    }

    private func blockingErrorLine(containing text: String) -> String? {
        var seen: [String] = []
        defer { errorLines += seen }
        return Self.line(containing: text, from: errors.fileHandleForReading, buffer: &errorBuffer) { seen.append($0) }
    }

    private func blockingWaitForExit() -> ExitResult {
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let restErrors = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorText = String(decoding: errorBuffer + restErrors, as: UTF8.self)
        errorLines += errorText.split(separator: "\n").map(String.init)
        return ExitResult(
            status: process.terminationStatus, output: String(decoding: outputBuffer + rest, as: UTF8.self),
            errors: errorLines.joined(separator: "\n"))
    }

    private struct ExitResult: Sendable {
        let status: Int32
        let output: String
        let errors: String
    }

    private static func line(
        containing text: String, from handle: FileHandle, buffer: inout Data,
        seen: (String) -> Void
    ) -> String? {
        while true {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[buffer.index(after: newline)...])
                seen(line)
                if line.contains(text) { return line }
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer += chunk
        }
    }
}
