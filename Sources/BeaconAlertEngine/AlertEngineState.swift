import BeaconCore

/// Everything that must survive a restart: pending alerts and histories (the engine's), and the
/// strategies' saved per-beacon state.
public struct AlertEngineState: Hashable, Sendable {
    /// The pending alert of each key (at most one).
    public var pending: [AlertKey: PendingAlert]
    /// The history of each key that has one.
    public var history: [AlertKey: AlertHistory]
    /// The strategies' saved per-beacon state (empty unless the store keeps it).
    public var strategyStates: [SavedStrategyState.Key: SavedStrategyState]
    /// The end of the latest cycle the strategies had seen when their state was last saved: a
    /// restarted pipeline runs the cycles from there on as unseen ones, so that resets due
    /// during a downtime happen.
    public var strategyClock: Timestamp?

    /// Creates a state.
    public init(
        pending: [AlertKey: PendingAlert] = [:], history: [AlertKey: AlertHistory] = [:],
        strategyStates: [SavedStrategyState.Key: SavedStrategyState] = [:], strategyClock: Timestamp? = nil
    ) {
        self.pending = pending
        self.history = history
        self.strategyStates = strategyStates
        self.strategyClock = strategyClock
    }

    /// Applies one change.
    public mutating func apply(_ change: AlertStateChange) {
        switch change {
        case .putPending(let alert): pending[alert.key] = alert
        case .removePending(let key): pending[key] = nil
        case .putHistory(let record): history[record.key] = record
        case .removeHistory(let key): history[key] = nil
        case .putStrategyState(let saved): strategyStates[saved.key] = saved
        case .removeStrategyState(let key): strategyStates[key] = nil
        case .removeStrategyStates(let alertID): strategyStates = strategyStates.filter { $0.key.alertID != alertID }
        case .putStrategyClock(let time): strategyClock = time
        }
    }
}
