/// An event its sink gave up on: it failed permanently (a 4xx other than 408/429, a URL that is
/// not one) or failed `maxAttempts` times in a row (``OutboxDispatcher/defaultMaxAttempts``). It waits in the
/// outbox's dead letters, with its last error, until an operator retries or drops it
/// (`beacond outbox list|retry|drop`); the sink goes on with the events behind it.
public struct DeadLetter: Hashable, Sendable {
    /// The dead letter's id (not the outbox entry's).
    public var id: Int64
    /// The sink that gave up.
    public var sink: String
    /// The event.
    public var event: OutboundEvent
    /// How many attempts failed.
    public var attempts: Int
    /// The last attempt's error.
    public var lastError: String

    /// Creates a dead letter.
    public init(id: Int64, sink: String, event: OutboundEvent, attempts: Int, lastError: String) {
        self.id = id
        self.sink = sink
        self.event = event
        self.attempts = attempts
        self.lastError = lastError
    }
}
