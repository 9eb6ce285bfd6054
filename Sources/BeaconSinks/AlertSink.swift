/// Where alert events go: a file, a command, a webhook, a broker.
///
/// The contract is the confirmation: ``deliver(_:)`` returning normally means the event is
/// accepted (written, run successfully, answered with 2xx) and may be forgotten; throwing means
/// "not delivered, try again later". An ``OutboxDispatcher`` calls a sink from one task at a
/// time, retries what it refuses and calls ``flush()`` before it forgets what was delivered.
public protocol AlertSink: Sendable {
    /// A short name for logs ("jsonl:/var/log/alerts.jsonl", "webhook:https://…").
    var name: String { get }
    /// Delivers one event; returns once it is accepted, throws if it should be retried.
    func deliver(_ event: OutboundEvent) async throws
    /// Makes everything delivered so far durable (fsync for files); throws if it could not.
    func flush() async throws
    /// `true` when a delivery that returned is already durable at the receiver (an HTTP 2xx, a
    /// command that exited 0): the outbox then forgets each event as soon as it is confirmed,
    /// so a crash repeats at most the delivery in flight. `false` (the default): the outbox
    /// forgets a batch after ``flush()``.
    var confirmsEachDelivery: Bool { get }
}

extension AlertSink {
    /// Deliveries are made durable by ``flush()``.
    public var confirmsEachDelivery: Bool { false }

    /// Sinks that confirm each delivery durably have nothing to flush.
    public func flush() async throws {}
}
