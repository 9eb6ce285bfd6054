import Synchronization

/// An ``Outbox`` in memory (for tests and for runs without a state file): same ordering, bound
/// and overflow accounting as the SQLite one, without the durability.
public final class InMemoryOutbox: Outbox {
    private struct State {
        var entries: [OutboxEntry] = []
        var nextID: Int64 = 1
        var overflow: [String: Int] = [:]
    }

    private let state = Mutex(State())
    /// The sinks and the backlog bound.
    public let configuration: OutboxConfiguration

    /// Creates an empty outbox.
    public init(configuration: OutboxConfiguration) {
        self.configuration = configuration
    }

    /// Adds a copy of each event for every configured sink (dropping and counting past the bound).
    public func enqueue(_ events: [OutboundEvent]) {
        state.withLock { state in
            for sink in configuration.sinks {
                var backlog = state.entries.lazy.filter { $0.sink == sink }.count
                for event in events {
                    if backlog >= configuration.maxBacklog {
                        state.overflow[sink, default: 0] += 1
                        continue
                    }
                    state.entries.append(OutboxEntry(id: state.nextID, sink: sink, event: event))
                    state.nextID += 1
                    backlog += 1
                }
            }
        }
    }

    public func pending(sink: String, limit: Int) throws -> [OutboxEntry] {
        state.withLock { Array($0.entries.lazy.filter { $0.sink == sink }.prefix(limit)) }
    }

    public func remove(_ ids: [Int64]) throws {
        let removed = Set(ids)
        state.withLock { $0.entries.removeAll { removed.contains($0.id) } }
    }

    public func backlog(sink: String) throws -> Int {
        state.withLock { $0.entries.lazy.filter { $0.sink == sink }.count }
    }

    public func overflow(sink: String) throws -> Int {
        state.withLock { $0.overflow[sink, default: 0] }
    }
}
