import BeaconAlertEngine
import BeaconCore
import Synchronization

/// An ``Outbox`` in memory (for tests and for runs without a state file): same ordering, bound
/// and overflow accounting as the SQLite one, without the durability.
public final class InMemoryOutbox: Outbox {
    private struct State {
        var entries: [OutboxEntry] = []
        var nextID: Int64 = 1
        var overflow: [String: Int] = [:]
        var attempts: [Int64: Int] = [:]
        var dead: [DeadLetter] = []
        var nextDeadID: Int64 = 1
    }

    private let state = Mutex(State())
    /// The sinks and the backlog bound.
    public let configuration: OutboxConfiguration

    /// Creates an empty outbox.
    public init(configuration: OutboxConfiguration) {
        self.configuration = configuration
    }

    /// Adds a copy of each event for every configured sink (spilling and counting past the bound).
    public func enqueue(_ events: [OutboundEvent]) {
        enqueue(events, only: configuration.sinks)
    }

    public func enqueue(_ events: [OutboundEvent], sinks: [String]) throws {
        enqueue(events, only: sinks.filter(configuration.sinks.contains))
    }

    private func enqueue(_ events: [OutboundEvent], only sinks: [String]) {
        state.withLock { state in enqueue(events, only: sinks, into: &state) }
    }

    private func enqueue(_ events: [OutboundEvent], only sinks: [String], into state: inout State) {
        for sink in sinks {
            var backlog = state.entries.lazy.filter { $0.sink == sink }.count
            for event in events where configuration.takes(event, sink: sink) {
                if backlog >= configuration.maxBacklog {
                    state.overflow[sink, default: 0] += 1
                    state.dead.append(
                        DeadLetter(
                            id: state.nextDeadID, sink: sink, event: event, attempts: 0,
                            lastError: configuration.spillError))
                    state.nextDeadID += 1
                    continue
                }
                state.entries.append(OutboxEntry(id: state.nextID, sink: sink, event: event))
                state.nextID += 1
                backlog += 1
            }
        }
    }

    public func pending(sink: String, limit: Int) throws -> [OutboxEntry] {
        state.withLock { Array($0.entries.lazy.filter { $0.sink == sink }.prefix(limit)) }
    }

    public func remove(_ ids: [Int64]) throws {
        let removed = Set(ids)
        state.withLock { state in
            state.entries.removeAll { removed.contains($0.id) }
            for id in ids { state.attempts[id] = nil }
        }
    }

    public func recordFailure(_ id: Int64, error: String) throws -> Int {
        state.withLock { state in
            state.attempts[id, default: 0] += 1
            return state.attempts[id]!
        }
    }

    public func deadLetter(_ id: Int64, error: String) throws {
        try deadLetter(id, error: error, notice: nil)
    }

    public func deadLetter(_ id: Int64, error: String, notice: OutboundNotice?) throws {
        state.withLock { state in
            if let notice {
                enqueue(
                    [OutboundEvent(notice)], only: notice.sinks.filter(configuration.sinks.contains), into: &state)
            }
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return }
            let entry = state.entries.remove(at: index)
            state.dead.append(
                DeadLetter(
                    id: state.nextDeadID, sink: entry.sink, event: entry.event,
                    attempts: state.attempts.removeValue(forKey: id) ?? 0, lastError: error))
            state.nextDeadID += 1
        }
    }

    public func deadLetters(sink: String) throws -> [DeadLetter] {
        state.withLock { $0.dead.filter { $0.sink == sink } }
    }

    public func retryDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        state.withLock { state in
            let chosen = state.dead.filter { $0.sink == sink && (ids?.contains($0.id) ?? true) }
            state.dead.removeAll { letter in chosen.contains { $0.id == letter.id } }
            for letter in chosen {
                state.entries.append(OutboxEntry(id: state.nextID, sink: sink, event: letter.event))
                state.nextID += 1
            }
            return chosen.count
        }
    }

    public func dropDeadLetters(sink: String, ids: [Int64]?) throws -> Int {
        state.withLock { state in
            let before = state.dead.count
            state.dead.removeAll { $0.sink == sink && (ids?.contains($0.id) ?? true) }
            return before - state.dead.count
        }
    }

    public func dropDeadLetters(eventsBefore cutoff: Timestamp) throws -> Int {
        state.withLock { state in
            let before = state.dead.count
            state.dead.removeAll { letter in
                OutboundEvent.time(ofBody: letter.event.body, key: letter.event.key).map { $0 < cutoff } ?? false
            }
            return before - state.dead.count
        }
    }

    public func backlog(sink: String) throws -> Int {
        state.withLock { $0.entries.lazy.filter { $0.sink == sink }.count }
    }

    public func overflow(sink: String) throws -> Int {
        state.withLock { $0.overflow[sink, default: 0] }
    }
}
