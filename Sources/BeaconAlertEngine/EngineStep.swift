import BeaconCore

/// One engine step in progress: the state, the changes made to it and the events to emit once
/// the caller has stored them.
struct EngineStep {
    let configuration: AlertEngineConfiguration
    var state: AlertEngineState
    var changes: [AlertStateChange] = []
    var events: [RoutedEvent] = []
    /// What conditions look at.
    let world: any AlertWorld
    /// Where in ``changes`` ``updateHistory(_:_:)`` put a history last, and whose.
    private var lastHistoryPut: (index: Int, key: AlertKey)?
    /// A first firing being handled, whose time the next ``updateHistory(_:_:)`` of its key sets
    /// as ``AlertHistory/firstFiringAt`` (a firing delivered at once: one history update, not two).
    var pendingFirstFiring: (key: AlertKey, time: Timestamp)?

    /// A step on `state`, appending to `output`'s changes and events (moved in, not copied: a
    /// caller that reuses one output allocates nothing per step once its buffers have grown).
    init(
        configuration: AlertEngineConfiguration, state: AlertEngineState, world: any AlertWorld = EmptyAlertWorld(),
        appendingTo output: AlertEngineOutput = AlertEngineOutput()
    ) {
        self.configuration = configuration
        self.state = state
        self.world = world
        changes = output.changes
        events = output.events
    }

    mutating func record(_ change: AlertStateChange) {
        switch change {
        case .putPending, .removePending, .putHistory, .removeHistory:
            break
        case .putStrategyState, .removeStrategyState, .removeStrategyStates, .putStrategyClock:
            preconditionFailure("the engine records no strategy state: the pipeline saves it")
        }
        state.apply(change)
        changes.append(change)
    }

    func history(_ key: AlertKey) -> AlertHistory { state.history[key] ?? AlertHistory(key: key) }

    /// Updates the history of `key` (a new one when it has none) in place and records the put:
    /// what `record(.putHistory(…))` of an updated ``history(_:)`` does, with one lookup. `body`
    /// must not change the key. A put right after this step's last put of the same key replaces
    /// it, so that the store writes the history once. The first firing being handled
    /// (``pendingFirstFiring``) of `key` has its time set here too.
    mutating func updateHistory(_ key: AlertKey, _ body: (inout AlertHistory) -> Void) {
        var firstFiring: Timestamp?
        if let pending = pendingFirstFiring, pending.key == key {
            firstFiring = pending.time
            pendingFirstFiring = nil
        }
        func update(_ history: inout AlertHistory) -> AlertHistory {
            body(&history)
            if let firstFiring { history.firstFiringAt = firstFiring }
            return history
        }
        let updated = update(&state.history[key, default: AlertHistory(key: key)])
        if let last = lastHistoryPut, last.index == changes.count - 1, last.key == key {
            changes[last.index] = .putHistory(updated)
        } else {
            changes.append(.putHistory(updated))
            lastHistoryPut = (changes.count - 1, key)
        }
    }

    /// Appends an event about `key`, routed by `rule`'s callbacks (no rule: no destination).
    mutating func emit(
        _ kind: AlertEvent.Kind, key: AlertKey, strategy: String, rule: AlertRule?, now: Timestamp,
        scheduledFor: Timestamp?, messages: [String] = [], attempt: Int = 0, escalatedTo: [String] = [],
        answeredBy: String? = nil
    ) {
        let event = AlertEvent(
            kind: kind, alertID: key.alertID, beacon: key.beacon, strategy: strategy, time: now,
            scheduledFor: scheduledFor, content: rule?.content ?? AlertContent(), messages: messages, attempt: attempt,
            escalatedTo: escalatedTo, answeredBy: answeredBy, priority: rule?.policy.priority ?? .active)
        events.append(RoutedEvent(event: event, destination: rule?.policy.callbacks.destination(for: kind)))
    }

    /// Appends an event about a pending alert that will not be delivered (`cancelled`): for a
    /// reminder, about its instance (`scheduledFor` the instance's due time) and attempt, so that
    /// it names what it stops.
    mutating func emitCancelled(_ alert: PendingAlert, rule: AlertRule?, now: Timestamp, messages: [String]) {
        guard alert.attempt > 0, let instanceDue = history(alert.key).instanceDue else {
            return emit(
                .cancelled, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: alert.dueAt,
                messages: messages)
        }
        emit(
            .cancelled, key: alert.key, strategy: alert.strategy, rule: rule, now: now, scheduledFor: instanceDue,
            messages: ["reminder \(alert.attempt), due \(alert.dueAt.rfc3339String): " + messages.joined(separator: " / ")],
            attempt: alert.attempt)
    }
}
