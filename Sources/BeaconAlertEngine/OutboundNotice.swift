/// A notice of the daemon's own — a gateway gone offline or come back — written to sinks beside
/// the alerts' events. A pipeline commits the notices posted during an input in the same
/// transaction as the input's alert state and events (``AlertStateStore/apply(_:emitting:notices:)``):
/// what reaches the outbox from a cycle goes through one door.
public struct OutboundNotice: Hashable, Sendable {
    /// The idempotency key: the same for every retry.
    public var key: String
    /// The notice as one JSON object, without a line break.
    public var body: String
    /// The sinks it goes to (those of them the outbox serves).
    public var sinks: [String]

    /// A notice of `body`, under `key`, for `sinks`.
    public init(key: String, body: String, sinks: [String]) {
        self.key = key
        self.body = body
        self.sinks = sinks
    }
}
