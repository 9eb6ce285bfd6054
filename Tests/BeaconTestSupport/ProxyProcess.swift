import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A fault-injecting proxy script of this folder, run with `python3`: it prints the port it
/// listens on first, then its log lines; its standard input is its lifeline (and, for some,
/// its commands). Killed if the test ends first.
///
/// `@unchecked Sendable`: a test drives it from one task; reads block on a thread of their own.
final class ProxyProcess: @unchecked Sendable {
    /// The port the client connects to.
    let port: Int
    private let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private let log: LineReader

    /// Starts `script` (a file beside this one) with `arguments`; returns once it listens.
    init(script: String, arguments: [String]) async throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.repositoryRoot + "/Tests/BeaconTestSupport/" + script] + arguments
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let log = LineReader(output.fileHandleForReading)
        self.log = log
        guard let port = await log.line().flatMap({ Int($0) }) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        reapWhenExited(process)
    }

    /// Writes one line to the script's standard input; false if it has gone.
    func send(_ line: String) -> Bool {
        do {
            try input.fileHandleForWriting.write(contentsOf: Array((line + "\n").utf8))
            return true
        } catch {
            return false
        }
    }

    /// Waits until the script logs a line containing `text`; `nil` if it exits first.
    func line(containing text: String) async -> String? {
        await log.line(containing: text)
    }
}
