import BeaconCore

/// The alert engine: a pure state machine from strategy firings, cancellation facts and `now`
/// to state changes and lifecycle events (``RoutedEvent``: created, delivered, cancelled, error).
///
/// It never reads a clock and never writes anything: each call returns an ``AlertEngineOutput``
/// — the changes it made to ``state`` and the events that follow — for its caller to commit
/// (``AlertStateStore/commit(_:)``, or one transaction with other changes, as the pipeline does
/// with the strategies' state) before delivering the events. A live service calls
/// ``fire(_:now:)`` and `handle(_:now:)` as inputs arrive, sleeps until ``nextDeadline``, then
/// calls ``advance(to:)``. An engine created again from the stored state after a crash
/// continues where it left off: ``advance(to:)`` then delivers (or drops or defers, per policy)
/// what fell due while it was down.
public struct AlertEngine: Sendable {
    /// The rules and the pending cap.
    public let configuration: AlertEngineConfiguration
    /// The current state: what is stored plus the changes of outputs not yet committed.
    public private(set) var state: AlertEngineState

    /// Creates an engine on `state` (empty by default).
    public init(configuration: AlertEngineConfiguration, state: AlertEngineState = AlertEngineState()) {
        self.configuration = configuration
        self.state = state
    }

    /// Creates an engine on the state `store` holds.
    public init(configuration: AlertEngineConfiguration, loadingFrom store: any AlertStateStore) throws(AlertEngineError) {
        let state: AlertEngineState
        do { state = try store.load() } catch { throw .storeFailed(String(describing: error)) }
        self.init(configuration: configuration, state: state)
    }

    /// The earliest due time of a pending alert: call ``advance(to:)`` then. `nil` when none is pending.
    public var nextDeadline: Timestamp? { state.pending.values.lazy.map(\.dueAt).min() }

    /// The pending alerts, earliest first.
    public var pending: [PendingAlert] {
        state.pending.values.sorted { ($0.dueAt, $0.key) < ($1.dueAt, $1.key) }
    }

    /// A strategy fired: schedules (or delivers at once, or ignores) the alert per its policy.
    public mutating func fire(_ firing: StrategyFiring, now: Timestamp) throws(AlertEngineError) -> AlertEngineOutput {
        guard let rule = configuration.rules[firing.alertID] else { throw .unknownAlert(firing.alertID) }
        return run { step in step.fire(firing, rule: rule, now: now) }
    }

    /// A fact that may cancel pending alerts (region exit, beacon exit, a named event, …).
    public mutating func handle(_ fact: EngineFact, now: Timestamp) -> AlertEngineOutput {
        run { step in step.cancel(matching: fact, now: now) }
    }

    /// A region event from the ranging loop: an exit cancels alerts with a matching `regionExit`.
    public mutating func handle(_ event: RegionEvent, now: Timestamp) -> AlertEngineOutput {
        guard let fact = EngineFact(event) else { return AlertEngineOutput() }
        return handle(fact, now: now)
    }

    /// Time moved to `now`: delivers every pending alert due at or before it (in due order),
    /// renews repeating ones, and applies `maxLateness` and the window to late ones.
    public mutating func advance(to now: Timestamp) -> AlertEngineOutput {
        run { step in step.advance(to: now) }
    }

    /// Runs one step on the state and returns what it changed and emitted.
    ///
    /// The state moves into the step (no copy, so a step costs what it changes, not the size of
    /// the state) and back.
    private mutating func run(_ body: (inout EngineStep) -> Void) -> AlertEngineOutput {
        var step = EngineStep(configuration: configuration, state: state)
        state = AlertEngineState()
        body(&step)
        state = step.state
        return AlertEngineOutput(changes: step.changes, events: step.events)
    }
}
