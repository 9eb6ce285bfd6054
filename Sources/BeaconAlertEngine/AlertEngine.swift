import BeaconCore

/// The alert engine: a pure state machine from strategy firings, cancellation facts and `now`
/// to state changes and lifecycle events (``RoutedEvent``: created, delivered, cancelled, error).
///
/// It never reads a clock and never writes anything: each call returns an ``AlertEngineOutput``
/// — the changes it made to ``state`` and the events that follow — for its caller to commit
/// (``AlertStateStore/commit(_:)``, or one transaction with other changes, as the pipeline does
/// with the strategies' state) before delivering the events. A live service calls
/// ``fire(_:now:world:)`` and `handle(_:now:)` as inputs arrive, sleeps until ``nextDeadline``,
/// then calls ``advance(to:world:)``. An engine created again from the stored state after a crash
/// continues where it left off: ``advance(to:world:)`` then delivers (or drops or defers, per policy)
/// what fell due while it was down.
public struct AlertEngine: Sendable {
    /// The rules and the pending cap.
    public let configuration: AlertEngineConfiguration
    /// The current state: what is stored plus the changes of outputs not yet committed.
    public private(set) var state: AlertEngineState

    /// Creates an engine on `state` (empty by default).
    ///
    /// Room for the pending alerts is made once, up to the cap (``AlertEngineConfiguration/maxPending``,
    /// at most 4,096), so that scheduling never grows the table.
    public init(configuration: AlertEngineConfiguration, state: AlertEngineState = AlertEngineState()) {
        self.configuration = configuration
        self.state = state
        self.state.pending.reserveCapacity(min(configuration.maxPending, Self.pendingReservationLimit))
    }

    /// The most pending alerts an engine makes room for up front (a larger cap grows the table as
    /// alerts are scheduled).
    static let pendingReservationLimit = 4_096

    /// Creates an engine on the state `store` holds.
    public init(configuration: AlertEngineConfiguration, loadingFrom store: any AlertStateStore) throws(AlertEngineError) {
        let state: AlertEngineState
        do { state = try store.load() } catch { throw .storeFailed(String(describing: error)) }
        self.init(configuration: configuration, state: state)
    }

    /// The earliest due time of a pending alert (or the end of a held one's wait): call
    /// ``advance(to:world:)`` then. `nil` when none is pending.
    public var nextDeadline: Timestamp? { state.pending.values.lazy.map(\.deadline).min() }

    /// The pending alerts, earliest first.
    public var pending: [PendingAlert] {
        state.pending.values.sorted { ($0.dueAt, $0.key) < ($1.dueAt, $1.key) }
    }

    /// A strategy fired: schedules (or delivers at once, or ignores) the alert per its policy.
    ///
    /// `world` is what a `scheduleCondition` looks at (nothing in range when none is given).
    public mutating func fire(
        _ firing: StrategyFiring, now: Timestamp, world: any AlertWorld = EmptyAlertWorld()
    ) throws(AlertEngineError) -> AlertEngineOutput {
        guard let rule = configuration.rules[firing.alertID] else { throw .unknownAlert(firing.alertID) }
        return run(world: world) { step in step.fire(firing, rule: rule, now: now) }
    }

    /// What would keep `firing` from being scheduled now (its policy's firing mode, cooldown or a
    /// suppression), without changing anything; `nil` when nothing would, or the alert is unknown.
    public func obstacle(to firing: StrategyFiring) -> FiringObstacle? {
        guard let rule = configuration.rules[firing.alertID] else { return nil }
        let key = AlertKey(alertID: firing.alertID, beacon: firing.beacon)
        return rule.policy.obstacle(toFiringAt: firing.time, history: state.history[key] ?? AlertHistory(key: key))
    }

    /// A fact that may cancel pending alerts (region exit, beacon exit, a named event, …).
    public mutating func handle(_ fact: EngineFact, now: Timestamp) -> AlertEngineOutput {
        run { step in step.take(fact, now: now) }
    }

    /// A region event from the ranging loop: an exit cancels alerts with a matching `regionExit`.
    public mutating func handle(_ event: RegionEvent, now: Timestamp) -> AlertEngineOutput {
        guard let fact = EngineFact(event) else { return AlertEngineOutput() }
        return handle(fact, now: now)
    }

    /// A person (or a system) answered an alert instance: `acknowledged` stops a delivered
    /// instance's reminders; `dismissed` does too, and with `suppress` keeps the alert from firing
    /// for the beacon for a while or for good; `cancelled` calls off a scheduled instance before
    /// its delivery, or a delivered one's pending reminder, with a `cancelled` event. The same
    /// answer again changes nothing (the receipt says `repeated`); an unknown, superseded or
    /// differently answered instance throws and changes nothing.
    /// - Parameters:
    ///   - kind: acknowledged, dismissed or cancelled.
    ///   - instance: the delivered instance (its first delivery's key), or for a cancellation a
    ///     scheduled one (the key its `created` event names).
    ///   - by: who answered and through which channel, as the event names it (`nurse-2 via http`).
    ///   - suppress: with a dismissal, how long the alert stays off for the beacon.
    ///   - now: when the answer is taken.
    public mutating func answer(
        _ kind: AlertAnswer.Kind, instance: AlertInstance, by: String, suppress: AlertSuppression? = nil,
        now: Timestamp
    ) throws(AlertAnswerError) -> (AlertEngineOutput, AlertAnswerReceipt) {
        var step = EngineStep(configuration: configuration, state: state)
        state = AlertEngineState()
        defer { state = step.state }
        let receipt = try step.answer(kind, instance: instance, by: by, suppress: suppress, now: now)
        return (AlertEngineOutput(changes: step.changes, events: step.events), receipt)
    }

    /// Lifts the suppression a dismissal put on `key` (the alert fires for the beacon again);
    /// an empty output when none was in force at `now`.
    public mutating func liftSuppression(_ key: AlertKey, now: Timestamp) -> AlertEngineOutput {
        run { step in _ = step.liftSuppression(key, now: now) }
    }

    /// The suppressions in force at `now`: each key and until when (`Timestamp.distantFuture`: for good).
    public func suppressions(at now: Timestamp) -> [(key: AlertKey, until: Timestamp)] {
        state.history.values.compactMap { history in
            history.suppressedUntil.flatMap { $0 > now ? (history.key, $0) : nil }
        }.sorted { $0.key < $1.key }
    }

    /// Time moved to `now`: delivers every pending alert due at or before it (in due order),
    /// renews repeating ones, and applies `maxLateness` and the window to late ones.
    ///
    /// `world` is what a `deliverWhen` condition looks at (nothing in range when none is given): a
    /// due alert whose condition does not hold stays pending, held, until it does or its wait ends.
    public mutating func advance(to now: Timestamp, world: any AlertWorld = EmptyAlertWorld()) -> AlertEngineOutput {
        run(world: world) { step in step.advance(to: now) }
    }

    /// Runs one step on the state and returns what it changed and emitted.
    ///
    /// The state moves into the step (no copy, so a step costs what it changes, not the size of
    /// the state) and back.
    private mutating func run(world: any AlertWorld = EmptyAlertWorld(), _ body: (inout EngineStep) -> Void) -> AlertEngineOutput
    {
        var output = AlertEngineOutput()
        run(world: world, into: &output, body)
        return output
    }

    /// Runs one step, appending what it changed and emitted to `output`: the state and the
    /// output's buffers move into the step and back (no copy; no allocation once the buffers
    /// have grown).
    private mutating func run(world: any AlertWorld, into output: inout AlertEngineOutput, _ body: (inout EngineStep) -> Void) {
        var step = EngineStep(configuration: configuration, state: state, world: world, appendingTo: output)
        state = AlertEngineState()
        output = AlertEngineOutput()
        body(&step)
        state = step.state
        output = AlertEngineOutput(changes: step.changes, events: step.events)
    }

    /// ``fire(_:now:world:)``, appending its changes and events to `output` (a caller that
    /// gathers one transaction and reuses its buffers: nothing allocated per alert).
    public mutating func fire(
        _ firing: StrategyFiring, now: Timestamp, world: any AlertWorld = EmptyAlertWorld(),
        into output: inout AlertEngineOutput
    ) throws(AlertEngineError) {
        guard let rule = configuration.rules[firing.alertID] else { throw .unknownAlert(firing.alertID) }
        run(world: world, into: &output) { step in step.fire(firing, rule: rule, now: now) }
    }

    /// ``advance(to:world:)``, appending to `output`.
    public mutating func advance(
        to now: Timestamp, world: any AlertWorld = EmptyAlertWorld(), into output: inout AlertEngineOutput
    ) {
        run(world: world, into: &output) { step in step.advance(to: now) }
    }

    /// ``handle(_:now:)-(EngineFact,_)``, appending to `output`.
    public mutating func handle(_ fact: EngineFact, now: Timestamp, into output: inout AlertEngineOutput) {
        run(world: EmptyAlertWorld(), into: &output) { step in step.take(fact, now: now) }
    }

    /// Retention: forgets the histories of alerts and beacons idle since before `cutoff`, so that
    /// what the engine keeps about a person's tag or phone is bounded in time. A history is kept
    /// while anything still rests on it — a pending instance, a suppression or a cooldown still in
    /// force at `now`, a `firstStart: quiet` beacon not yet gone — and otherwise goes once its
    /// latest moment (first firing, last delivery, instance, answer, end of suppression) is
    /// before `cutoff`. A forgotten beacon is new to the alert again: `first` and
    /// `once-per-beacon` count from there. A `firstStart: quiet` alert keeps its latest history
    /// (what says it has started). Appends the removals to `output`; returns how many.
    @discardableResult
    public mutating func forgetHistories(idleSince cutoff: Timestamp, now: Timestamp, into output: inout AlertEngineOutput)
        -> Int
    {
        var removed = 0
        run(world: EmptyAlertWorld(), into: &output) { step in removed = step.forgetHistories(idleSince: cutoff, now: now) }
        return removed
    }

    /// `firstStart: quiet`: the alert `alertID` starts for the first time and `beacons` are
    /// already in range. Their firings are ignored (``FiringObstacle/quietAtFirstStart``) until
    /// each has gone (its ``EngineFact/beaconExit(_:)``); a beacon the alert already has a
    /// history of is left as it is. Appends the histories it writes to `output`.
    public mutating func quietAtFirstStart(
        _ beacons: [BeaconID], alertID: String, into output: inout AlertEngineOutput
    ) {
        guard !beacons.isEmpty else { return }
        run(world: EmptyAlertWorld(), into: &output) { step in step.quietAtFirstStart(beacons, alertID: alertID) }
    }
}
