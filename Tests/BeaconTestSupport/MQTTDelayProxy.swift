import Foundation

/// A fault injector between an MQTT client and a real broker (`mqtt_delay_proxy.py` beside this
/// file): the broker's PUBACKs of chosen message ids reach the client late, or when the test
/// releases them. Started and stopped
/// by a test; its log lines (`puback ID delayed`, `puback ID forwarded`) are read as they come.
public final class MQTTDelayProxy: Sendable {
    /// The port the client connects to.
    public var port: Int { proxy.port }
    private let proxy: ProxyProcess

    /// Starts the proxy in front of `broker`, delaying the PUBACKs of `messageIDs` (all when empty).
    public init(broker: MosquittoBroker, delay: Duration, messageIDs: [Int] = []) async throws {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        proxy = try await ProxyProcess(
            script: "mqtt_delay_proxy.py", arguments: [String(broker.port), "\(seconds)"] + messageIDs.map(String.init))
    }

    /// Starts the proxy in front of `broker`, holding the PUBACKs of `messageIDs` (all when
    /// empty) until ``release()``: a test that needs a PUBACK to come after a timeout waits for
    /// the timeout, not for a guessed delay.
    public init(broker: MosquittoBroker, holding messageIDs: [Int]) async throws {
        proxy = try await ProxyProcess(
            script: "mqtt_delay_proxy.py", arguments: [String(broker.port), "hold"] + messageIDs.map(String.init))
    }

    /// Lets every PUBACK held so far reach the client (each logs `puback ID forwarded`).
    public func release() {
        _ = proxy.send("release")
    }

    /// Waits until the proxy logs a line containing `text`; `nil` if it exits first.
    public func line(containing text: String) async -> String? {
        await proxy.line(containing: text)
    }
}
