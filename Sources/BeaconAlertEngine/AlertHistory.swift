import BeaconCore

/// What the engine remembers about an alert and beacon beyond its pending delivery: enough to
/// apply `first`/`once-per-beacon`, the cooldown, and never to deliver the same occurrence twice.
public struct AlertHistory: Hashable, Sendable {
    /// The alert and beacon.
    public var key: AlertKey
    /// When the first accepted firing happened (`first` ignores every later one).
    public var firstFiringAt: Timestamp?
    /// When the last delivery happened (the cooldown counts from it).
    public var lastDeliveredAt: Timestamp?
    /// The due time of the last delivered occurrence (the delivered key: an occurrence due at
    /// or before it is never delivered again).
    public var lastDeliveredDue: Timestamp?
    /// How many deliveries there were.
    public var deliveries: Int

    /// Creates a history.
    public init(
        key: AlertKey, firstFiringAt: Timestamp? = nil, lastDeliveredAt: Timestamp? = nil,
        lastDeliveredDue: Timestamp? = nil, deliveries: Int = 0
    ) {
        self.key = key
        self.firstFiringAt = firstFiringAt
        self.lastDeliveredAt = lastDeliveredAt
        self.lastDeliveredDue = lastDeliveredDue
        self.deliveries = deliveries
    }
}
