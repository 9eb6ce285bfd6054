import BeaconAlerting
import BeaconSinks

/// The engine state and the outbox in memory, for a daemon run without a `state:` file: the same
/// ordering as the SQLite store, nothing survives the process.
final class MemoryOutboxStore: AlertStateStore {
    private let state = InMemoryAlertStateStore()
    let outbox: InMemoryOutbox

    init(outbox configuration: OutboxConfiguration) {
        outbox = InMemoryOutbox(configuration: configuration)
    }

    func load() throws -> AlertEngineState { try state.load() }

    func apply(_ changes: [AlertStateChange]) throws { try state.apply(changes) }

    func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws {
        if !changes.isEmpty { try state.apply(changes) }
        outbox.enqueue(events.map(OutboundEvent.init))
    }
}
