import BeaconAlertEngine

/// The engine's state and the sinks' outbox in memory, together — what a daemon without a
/// `state:` file runs on: the same ordering as the SQLite store (`BeaconStore`), nothing survives
/// the process. Beside it: ``InMemoryOutbox`` (the outbox alone) and `InMemoryAlertStateStore`
/// (the engine's state alone).
public final class InMemoryOutboxStore: AlertStateStore {
    private let state = InMemoryAlertStateStore()
    /// The outbox the sinks' dispatchers read.
    public let outbox: InMemoryOutbox

    /// Creates an empty store with an outbox for the configured sinks.
    public init(outbox configuration: OutboxConfiguration) {
        outbox = InMemoryOutbox(configuration: configuration)
    }

    public func load() throws -> AlertEngineState { try state.load() }

    public func apply(_ changes: [AlertStateChange]) throws { try state.apply(changes) }

    public func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws {
        try apply(changes, emitting: events, notices: [])
    }

    public func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent], notices: [OutboundNotice]) throws {
        if !changes.isEmpty { try state.apply(changes) }
        outbox.enqueue(events.map(OutboundEvent.init))
        for notice in notices { try outbox.enqueue([OutboundEvent(notice)], sinks: notice.sinks) }
    }
}
