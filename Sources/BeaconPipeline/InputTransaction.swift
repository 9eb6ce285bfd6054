import BeaconAlerting
import Synchronization

/// The store as the pipeline's engine sees it: every step's changes and events are held until
/// the pipeline has finished an input (a batch of packets, a tick, a posted event), then
/// written with the strategies' state changes in **one** transaction of the real store.
///
/// So a firing, the strategy's "action done" behind it and the events it emits are durable
/// together or not at all: a crash between them can neither repeat an alert (the strategy would
/// fire again) nor lose one (the strategy would think it had fired).
final class InputTransaction: AlertStateStore {
    private struct Held {
        var changes: [AlertStateChange] = []
        var events: [RoutedEvent] = []
    }

    /// The real store.
    let store: any AlertStateStore
    private let held = Mutex(Held())

    init(_ store: any AlertStateStore) {
        self.store = store
    }

    var keepsStrategyState: Bool { store.keepsStrategyState }

    func load() throws -> AlertEngineState { try store.load() }

    func apply(_ changes: [AlertStateChange]) throws {
        held.withLock { $0.changes += changes }
    }

    func apply(_ changes: [AlertStateChange], emitting events: [RoutedEvent]) throws {
        held.withLock { held in
            held.changes += changes
            held.events += events
        }
    }

    /// Writes what the input's steps did, plus `strategyChanges`, in one transaction (nothing
    /// when there is nothing). What was held is dropped whether the write succeeds or not.
    func commit(adding strategyChanges: [AlertStateChange]) throws {
        let (changes, events) = held.withLock { held in
            defer { held = Held() }
            return (held.changes + strategyChanges, held.events)
        }
        guard !changes.isEmpty || !events.isEmpty else { return }
        try store.apply(changes, emitting: events)
    }
}
