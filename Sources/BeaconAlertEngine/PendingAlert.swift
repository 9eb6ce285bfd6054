import BeaconCore

/// An alert scheduled and not yet delivered: for a repeating alert, its next occurrence only.
public struct PendingAlert: Hashable, Sendable {
    /// The alert and beacon.
    public var key: AlertKey
    /// The strategy that fired.
    public var strategy: String
    /// When the strategy fired.
    public var firedAt: Timestamp
    /// The first occurrence's due time before any window deferral: repeats count from it.
    public var seriesStart: Timestamp
    /// Which occurrence this is (0 = the first delivery).
    public var occurrence: Int
    /// When it is due (after window deferral).
    public var dueAt: Timestamp
    /// 0 for an alert's first delivery; 1… for the reminders of the instance delivered at the
    /// history's ``AlertHistory/instanceDue`` (`remind`).
    public var attempt: Int
    /// Set while a due alert waits for its `deliverWhen` condition: the end of the wait.
    public var heldUntil: Timestamp?

    /// When the engine must next look at it: the end of its wait while held, else its due time.
    public var deadline: Timestamp { heldUntil ?? dueAt }

    /// Creates a pending alert.
    public init(
        key: AlertKey, strategy: String, firedAt: Timestamp, seriesStart: Timestamp, occurrence: Int,
        dueAt: Timestamp, attempt: Int = 0, heldUntil: Timestamp? = nil
    ) {
        self.key = key
        self.strategy = strategy
        self.firedAt = firedAt
        self.seriesStart = seriesStart
        self.occurrence = occurrence
        self.dueAt = dueAt
        self.attempt = attempt
        self.heldUntil = heldUntil
    }
}
