import Synchronization

/// A sink that keeps what it receives (for tests): it can be told to refuse, so retries,
/// backoff and the outbox can be exercised without a network.
public final class InMemorySink: AlertSink {
    private struct State {
        var delivered: [OutboundEvent] = []
        var attempts = 0
        var refusing = false
        var flushes = 0
    }

    private let state = Mutex(State())
    /// The sink's name in logs.
    public let name: String

    /// Creates an empty sink that accepts everything until told to refuse.
    public init(name: String = "memory") {
        self.name = name
    }

    /// The events accepted so far, in order.
    public var delivered: [OutboundEvent] { state.withLock { $0.delivered } }
    /// How many deliveries were attempted (accepted or refused).
    public var attempts: Int { state.withLock { $0.attempts } }
    /// How many times ``flush()`` was called.
    public var flushes: Int { state.withLock { $0.flushes } }

    /// While `true`, every delivery throws ``SinkError/refused(_:)``.
    public func setRefusing(_ refusing: Bool) {
        state.withLock { $0.refusing = refusing }
    }

    /// Accepts the event unless refusing.
    public func deliver(_ event: OutboundEvent) async throws {
        try state.withLock { state in
            state.attempts += 1
            if state.refusing { throw SinkError.refused("\(name) is refusing") }
            state.delivered.append(event)
        }
    }

    /// Counts the flush.
    public func flush() async throws {
        state.withLock { $0.flushes += 1 }
    }
}
