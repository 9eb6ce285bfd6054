/// One change to the engine's durable state. The engine hands a store each step's changes as
/// one batch, to apply atomically, before it emits the step's events.
public enum AlertStateChange: Hashable, Sendable {
    /// Insert or replace the pending alert of its key.
    case putPending(PendingAlert)
    /// Remove the pending alert of a key (delivered, cancelled, superseded).
    case removePending(AlertKey)
    /// Insert or replace the history of its key.
    case putHistory(AlertHistory)
}
