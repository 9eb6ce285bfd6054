/// One event waiting in the outbox for one sink.
public struct OutboxEntry: Hashable, Sendable {
    /// The row id: increasing in write order.
    public var id: Int64
    /// The sink's name in configuration.
    public var sink: String
    /// The event.
    public var event: OutboundEvent

    /// Creates an entry.
    public init(id: Int64, sink: String, event: OutboundEvent) {
        self.id = id
        self.sink = sink
        self.event = event
    }
}
