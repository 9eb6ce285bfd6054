/// Durable storage of the events each sink still has to confirm (the SQLite store implements it
/// in the same transaction as the alert engine's state; ``InMemoryOutbox`` is for tests).
///
/// Entries of one sink are read in the order they were written; an entry leaves only through
/// ``remove(_:)``, after its sink confirmed it.
public protocol Outbox: Sendable {
    /// The oldest `limit` entries waiting for `sink`, oldest first.
    func pending(sink: String, limit: Int) throws -> [OutboxEntry]
    /// Forgets confirmed entries.
    func remove(_ ids: [Int64]) throws
    /// How many entries wait for `sink`.
    func backlog(sink: String) throws -> Int
    /// How many events were refused for `sink` because its backlog was full, since the store was created.
    func overflow(sink: String) throws -> Int
}

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

/// Which sinks get a copy of every event, and how many events each may have waiting.
public struct OutboxConfiguration: Hashable, Sendable {
    /// The default bound of a sink's backlog.
    public static let defaultMaxBacklog = 10_000

    /// The sink names (each gets its own copy of every event).
    public var sinks: [String]
    /// At most this many events wait per sink; more are dropped and counted in ``Outbox/overflow(sink:)``.
    public var maxBacklog: Int

    /// Creates a configuration.
    public init(sinks: [String], maxBacklog: Int = defaultMaxBacklog) {
        self.sinks = sinks
        self.maxBacklog = maxBacklog
    }

    /// No outbox: events are not kept.
    public static let none = OutboxConfiguration(sinks: [])
}
