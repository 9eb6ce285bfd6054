import Foundation

/// A network that fails without a word, between a process under test and a real server
/// (`tcp_blackhole_proxy.py` beside this file): on command, the bytes of one direction (or both)
/// stop arriving — no reset, no refusal — until the hole heals, as over a dropped Wi-Fi link.
public final class TCPBlackholeProxy: Sendable {
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
    public var port: Int { proxy.port }
    private let proxy: ProxyProcess

    /// Starts the proxy in front of the server listening on 127.0.0.1:`serverPort`.
    public init(serverPort: Int) async throws {
        proxy = try await ProxyProcess(script: "tcp_blackhole_proxy.py", arguments: [String(serverPort)])
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
        guard proxy.send(text) else { return false }
        return await proxy.line(containing: answer) != nil
    }
}
