import BeaconCore

/// One engine step in progress: a working copy of the state, the changes to store and the
/// events to emit once they are stored.
struct EngineStep {
    let configuration: AlertEngineConfiguration
    var state: AlertEngineState
    var changes: [AlertStateChange] = []
    var events: [RoutedEvent] = []
    /// What each change replaced, to restore the state if the store refuses the batch.
    private var undo: [Undo] = []

    private enum Undo {
        case pending(AlertKey, PendingAlert?)
        case history(AlertKey, AlertHistory?)
    }

    init(configuration: AlertEngineConfiguration, state: AlertEngineState) {
        self.configuration = configuration
        self.state = state
    }

    mutating func record(_ change: AlertStateChange) {
        switch change {
        case .putPending(let alert): undo.append(.pending(alert.key, state.pending[alert.key]))
        case .removePending(let key): undo.append(.pending(key, state.pending[key]))
        case .putHistory(let record): undo.append(.history(record.key, state.history[record.key]))
        case .putStrategyState, .removeStrategyState, .removeStrategyStates, .putStrategyClock:
            preconditionFailure("the engine records no strategy state: the pipeline saves it")
        }
        state.apply(change)
        changes.append(change)
    }

    /// Restores the state as it was before the step; forgets its changes and events.
    mutating func rollBack() {
        for entry in undo.reversed() {
            switch entry {
            case .pending(let key, let previous): state.pending[key] = previous
            case .history(let key, let previous): state.history[key] = previous
            }
        }
        undo.removeAll()
        changes.removeAll()
        events.removeAll()
    }

    func history(_ key: AlertKey) -> AlertHistory { state.history[key] ?? AlertHistory(key: key) }

    /// Appends an event about `key`, routed by `rule`'s callbacks (no rule: no destination).
    mutating func emit(
        _ kind: AlertEvent.Kind, key: AlertKey, strategy: String, rule: AlertRule?, now: Timestamp,
        scheduledFor: Timestamp?, messages: [String] = []
    ) {
        let event = AlertEvent(
            kind: kind, alertID: key.alertID, beacon: key.beacon, strategy: strategy, time: now,
            scheduledFor: scheduledFor, content: rule?.content ?? AlertContent(), messages: messages)
        events.append(RoutedEvent(event: event, destination: rule?.policy.callbacks.destination(for: kind)))
    }
}
