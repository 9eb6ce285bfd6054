import BeaconCore

/// A hub's link to its site's broker, as its page shows it: a hub without its broker has no
/// reports and nothing to show, and must say why at once.
public struct BrokerStatus: Hashable, Sendable {
    /// `host:port`.
    public var broker: String
    /// Whether the hub is connected now.
    public var connected: Bool
    /// What was last said of the connection (`cannot reach the broker 127.0.0.1:1883 (Connection
    /// refused); trying again …`); `nil` before the first attempt ended.
    public var detail: String?

    /// Creates a status.
    public init(broker: String, connected: Bool, detail: String?) {
        self.broker = broker
        self.connected = connected
        self.detail = detail
    }

    /// Writes the status's members into `object`.
    public func writeMembers(into object: inout JSONWriter) {
        object.member("address", broker)
        object.member("connected", connected)
        object.member("detail", detail)
    }
}
