import BeaconAlertEngine
import BeaconCore
import Synchronization

/// The latest alert events (created / delivered / cancelled / error) and what each sink did with
/// them, for the status page: a ring of at most ``capacity`` entries, filled as events are
/// emitted (a few a minute, never per advertisement) and as sinks confirm or fail deliveries.
public final class AlertLog: Sendable {
    /// One event and its deliveries.
    public struct Entry: Sendable {
        /// Increases by one per event: the page asks for what is newer than what it has.
        public var sequence: Int
        /// The event.
        public var event: AlertEvent
        /// Per sink: `nil` while waiting in its outbox, then the outcome of the latest attempt.
        public var deliveries: [String: Delivery?]
    }

    /// What a sink's latest attempt did.
    public enum Delivery: Sendable, Hashable {
        /// Confirmed by the sink.
        case delivered
        /// Failed; it stays in the outbox and is retried.
        case failed(String)
    }

    private struct State {
        var entries: [Entry] = []
        var head = 0
        var nextSequence = 1
        /// Where each idempotency key's entry is, while it is in the ring.
        var byKey: [String: Int] = [:]
        /// Attempts reported before their event was recorded, by key, oldest first (at most
        /// ``capacity`` keys): a dispatcher already awake can take an event from the outbox —
        /// where it is written before the pipeline hands it on — and confirm it first.
        var early: [(key: String, sink: String, delivery: Delivery)] = []
    }

    /// How many events are kept.
    public let capacity: Int
    private let sinks: [String]
    private let state = Mutex(State())

    /// Creates a log of the latest `capacity` events, delivered to `sinks`.
    public init(sinks: [String], capacity: Int = 500) {
        self.sinks = sinks
        self.capacity = max(1, capacity)
    }

    /// Records an emitted event: it waits in every sink's outbox.
    public func record(_ event: AlertEvent) {
        let waiting = Dictionary(uniqueKeysWithValues: sinks.map { ($0, Delivery?.none) })
        state.withLock { state in
            let entry = Entry(sequence: state.nextSequence, event: event, deliveries: waiting)
            state.nextSequence += 1
            let slot: Int
            if state.entries.count < capacity {
                slot = state.entries.count
                state.entries.append(entry)
            } else {
                slot = state.head
                state.byKey[state.entries[slot].event.idempotencyKey] = nil
                state.entries[slot] = entry
                state.head = (state.head + 1) % capacity
            }
            state.byKey[event.idempotencyKey] = slot
            if !state.early.isEmpty {
                for attempt in state.early where attempt.key == event.idempotencyKey {
                    state.entries[slot].deliveries[attempt.sink] = attempt.delivery
                }
                state.early.removeAll { $0.key == event.idempotencyKey }
            }
        }
    }

    /// Records a sink's attempt at the event with idempotency key `key`. An attempt at an event
    /// not recorded yet is kept for it (the sink may confirm an event before the pipeline has
    /// handed it to the log); one whose event has left the ring, or was emitted before this
    /// process started, is forgotten among the oldest such attempts.
    public func record(sink: String, key: String, _ delivery: Delivery) {
        state.withLock { state in
            guard let slot = state.byKey[key] else {
                state.early.removeAll { $0.key == key && $0.sink == sink }
                state.early.append((key, sink, delivery))
                if state.early.count > capacity { state.early.removeFirst(state.early.count - capacity) }
                return
            }
            state.entries[slot].deliveries[sink] = delivery
        }
    }

    /// The entries newer than `sequence`, oldest first, at most `limit` (the newest ones).
    public func entries(after sequence: Int = 0, limit: Int = .max) -> [Entry] {
        state.withLock { state in
            let ordered = state.entries[state.head...] + state.entries[..<state.head]
            return Array(ordered.filter { $0.sequence > sequence }.suffix(limit))
        }
    }

    /// The sequence of the newest entry (0: none yet).
    public var latestSequence: Int { state.withLock { $0.nextSequence - 1 } }
}
