import Synchronization

/// An ``AlertStateStore`` in memory: for tests and for runs that need no persistence. Several
/// engine instances may share one (a test's "restart").
public final class InMemoryAlertStateStore: AlertStateStore {
    /// A failure injected by a test.
    public struct InjectedFailure: Error, CustomStringConvertible {
        /// Says the failure was injected.
        public var description: String { "injected store failure" }
    }

    private struct Contents {
        var state = AlertEngineState()
        var batches = 0
        var failNext = false
    }

    private let contents = Mutex(Contents())

    /// Whether it keeps the strategies' per-beacon state (for tests of a restart; off by default,
    /// which spares a run that needs no restart the cost of collecting it).
    public let keepsStrategyState: Bool

    /// Creates an empty store.
    public init(keepsStrategyState: Bool = false) {
        self.keepsStrategyState = keepsStrategyState
    }

    /// The stored state.
    public func load() throws -> AlertEngineState { contents.withLock { $0.state } }

    /// Applies the batch under the lock (all or nothing).
    public func apply(_ changes: [AlertStateChange]) throws {
        try contents.withLock { contents in
            if contents.failNext {
                contents.failNext = false
                throw InjectedFailure()
            }
            for change in changes { contents.state.apply(change) }
            contents.batches += 1
        }
    }

    /// The stored state.
    public var state: AlertEngineState { contents.withLock { $0.state } }

    /// How many batches were applied.
    public var batchCount: Int { contents.withLock { $0.batches } }

    /// Makes the next ``apply(_:)`` throw without changing anything (for tests).
    public func failNextApply() { contents.withLock { $0.failNext = true } }
}
