import BeaconCore

/// One change to the durable state: the engine's (pending alerts, histories) or the
/// strategies' (saved per-beacon state). A store applies each batch atomically.
public enum AlertStateChange: Hashable, Sendable {
    /// Insert or replace the pending alert of its key.
    case putPending(PendingAlert)
    /// Remove the pending alert of a key (delivered, cancelled, superseded).
    case removePending(AlertKey)
    /// Insert or replace the history of its key.
    case putHistory(AlertHistory)
    /// Remove the history of a key (kept no longer than the retention: see
    /// ``AlertEngine/forgetHistories(idleSince:now:into:)``).
    case removeHistory(AlertKey)
    /// Insert or replace a beacon's saved strategy state.
    case putStrategyState(SavedStrategyState)
    /// Remove a beacon's saved strategy state (the strategy forgot it).
    case removeStrategyState(SavedStrategyState.Key)
    /// Remove every saved strategy state of an alert definition (its strategy was replaced).
    case removeStrategyStates(alertID: String)
    /// The end of the latest cycle the strategies had seen when their state was saved.
    case putStrategyClock(Timestamp)
}
