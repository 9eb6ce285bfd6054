import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A network that fails without a word, between a process under test and a real server
/// (`tcp_blackhole_proxy.py` beside this file): on command, the bytes of one direction (or both)
/// stop arriving — no reset, no refusal — until the hole heals, as over a dropped Wi-Fi link.
///
/// `@unchecked Sendable`: a test drives it from one task; reads block on a thread of their own.
public final class TCPBlackholeProxy: @unchecked Sendable {
    /// Which traffic a hole swallows.
    public enum Direction: String, Sendable {
        /// From the client to the server.
        case up
        /// From the server to the client.
        case down
        /// Both ways.
        case both
    }

    /// The port the client connects to.
    public let port: Int
    private let process = Process()
    private let output = Pipe()
    private let commands = Pipe()
    private let log: LineReader

    /// Starts the proxy in front of the server listening on 127.0.0.1:`serverPort`.
    public init(serverPort: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", TestPaths.repositoryRoot + "/Tests/BeaconTestSupport/tcp_blackhole_proxy.py", String(serverPort),
        ]
        process.standardOutput = output
        process.standardInput = commands
        try process.run()
        log = LineReader(output.fileHandleForReading)
        guard let port = log.blockingLine().flatMap({ Int($0) }) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        try? commands.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            blockUntilExit(process)
        }
    }

    /// Opens a hole; returns once the proxy holds it (`false` if it has exited).
    @discardableResult
    public func hole(_ direction: Direction) async -> Bool {
        await command("hole \(direction.rawValue)", answer: "hole \(direction.rawValue)")
    }

    /// Lets everything through again; returns once it does (`false` if the proxy has exited).
    @discardableResult
    public func heal() async -> Bool {
        await command("heal", answer: "healed")
    }

    private func command(_ text: String, answer: String) async -> Bool {
        do {
            try commands.fileHandleForWriting.write(contentsOf: Array((text + "\n").utf8))
        } catch {
            return false
        }
        return await log.line(containing: answer) != nil
    }
}
