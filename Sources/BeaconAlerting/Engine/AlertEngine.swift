import BeaconCore

/// The alert engine: a pure state machine from strategy firings, cancellation facts and `now`
/// to lifecycle events (``RoutedEvent``: created, delivered, cancelled, error).
///
/// It never reads a clock. A live service calls ``fire(_:now:)`` and ``handle(_:now:)`` as
/// inputs arrive, sleeps until ``nextDeadline``, then calls ``advance(to:)``. Each step's state
/// changes are written to the ``AlertStateStore`` as one batch before its events are returned, so
/// an engine created again on the same store after a crash continues where the stored state
/// left off: ``advance(to:)`` then delivers (or drops or defers, per policy) what fell due
/// while it was down.
public struct AlertEngine: Sendable {
    /// The rules and the pending cap.
    public let configuration: AlertEngineConfiguration
    /// Where the state is kept.
    private let store: any AlertStateStore
    /// The current state (a mirror of the store's).
    public private(set) var state: AlertEngineState

    /// Creates an engine, loading its state from `store`.
    public init(configuration: AlertEngineConfiguration, store: any AlertStateStore) throws(AlertEngineError) {
        self.configuration = configuration
        self.store = store
        do { state = try store.load() } catch { throw .storeFailed(String(describing: error)) }
    }

    /// The earliest due time of a pending alert: call ``advance(to:)`` then. `nil` when none is pending.
    public var nextDeadline: Timestamp? { state.pending.values.lazy.map(\.dueAt).min() }

    /// The pending alerts, earliest first.
    public var pending: [PendingAlert] {
        state.pending.values.sorted { ($0.dueAt, $0.key) < ($1.dueAt, $1.key) }
    }

    /// A strategy fired: schedules (or delivers at once, or ignores) the alert per its policy.
    public mutating func fire(_ firing: StrategyFiring, now: Timestamp) throws(AlertEngineError) -> [RoutedEvent] {
        guard let rule = configuration.rules[firing.alertID] else { throw .unknownAlert(firing.alertID) }
        return try commit { step in step.fire(firing, rule: rule, now: now) }
    }

    /// A fact that may cancel pending alerts (region exit, beacon exit, a named event, …).
    public mutating func handle(_ fact: EngineFact, now: Timestamp) throws(AlertEngineError) -> [RoutedEvent] {
        try commit { step in step.cancel(matching: fact, now: now) }
    }

    /// A region event from the ranging loop: an exit cancels alerts with a matching `regionExit`.
    public mutating func handle(_ event: RegionEvent, now: Timestamp) throws(AlertEngineError) -> [RoutedEvent] {
        guard let fact = EngineFact(event) else { return [] }
        return try handle(fact, now: now)
    }

    /// Time moved to `now`: delivers every pending alert due at or before it (in due order),
    /// renews repeating ones, and applies `maxLateness` and the window to late ones.
    public mutating func advance(to now: Timestamp) throws(AlertEngineError) -> [RoutedEvent] {
        try commit { step in step.advance(to: now) }
    }

    /// Runs one step, stores its changes, then returns its events.
    ///
    /// The state moves into the step (no copy, so a step costs what it changes, not the size of
    /// the state); if the store refuses the batch, the step's undo log restores it.
    private mutating func commit(_ body: (inout EngineStep) -> Void) throws(AlertEngineError) -> [RoutedEvent] {
        var step = EngineStep(configuration: configuration, state: state)
        state = AlertEngineState()
        defer { state = step.state }
        body(&step)
        if !step.changes.isEmpty {
            do {
                try store.apply(step.changes)
            } catch {
                step.rollBack()
                throw .storeFailed(String(describing: error))
            }
        }
        return step.events
    }
}
