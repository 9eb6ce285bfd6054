/// Everything the engine must survive a restart with: pending alerts and histories.
public struct AlertEngineState: Hashable, Sendable {
    /// The pending alert of each key (at most one).
    public var pending: [AlertKey: PendingAlert]
    /// The history of each key that has one.
    public var history: [AlertKey: AlertHistory]

    /// Creates a state.
    public init(pending: [AlertKey: PendingAlert] = [:], history: [AlertKey: AlertHistory] = [:]) {
        self.pending = pending
        self.history = history
    }

    /// Applies one change.
    public mutating func apply(_ change: AlertStateChange) {
        switch change {
        case .putPending(let alert): pending[alert.key] = alert
        case .removePending(let key): pending[key] = nil
        case .putHistory(let record): history[record.key] = record
        }
    }
}
