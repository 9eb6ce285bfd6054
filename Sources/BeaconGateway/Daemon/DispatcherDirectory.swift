import BeaconSinks
import Synchronization

/// The daemon's outbox dispatchers by sink name, for a report of one sink that must wake others
/// (a dead letter's notice). Filled once, after the dispatchers are made.
final class DispatcherDirectory: Sendable {
    private let dispatchers = Mutex<[String: OutboxDispatcher]>([:])

    /// Records the dispatchers.
    func register(_ named: [(String, OutboxDispatcher)]) {
        dispatchers.withLock { all in for (name, dispatcher) in named { all[name] = dispatcher } }
    }

    /// Wakes the dispatchers of `sinks` (new entries wait for them).
    func notify(_ sinks: [String]) {
        let chosen = dispatchers.withLock { all in sinks.compactMap { all[$0] } }
        for dispatcher in chosen { dispatcher.notify() }
    }
}
