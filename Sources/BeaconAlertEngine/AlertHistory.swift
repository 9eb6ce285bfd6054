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
    /// How many deliveries there were (first deliveries; reminders are counted in ``attempts``).
    public var deliveries: Int
    /// The due time of the latest delivered instance: what an answer names (with the alert and
    /// beacon); `nil` before the first delivery.
    public var instanceDue: Timestamp?
    /// The key of the strategy that fired that instance (what its answer event names).
    public var instanceStrategy: String?
    /// How many times that instance was delivered: 1, plus its reminders.
    public var attempts: Int
    /// The latest answer (acknowledged or dismissed) and the instance it answered.
    public var answer: AlertAnswer?
    /// Until when firings for this alert and beacon are ignored (a dismissal that suppresses;
    /// `Timestamp.distantFuture` for good), until lifted.
    public var suppressedUntil: Timestamp?

    /// Whether the latest delivered instance waits for an answer.
    public var isAwaitingAnswer: Bool {
        guard let instanceDue else { return false }
        return answer?.instanceDue != instanceDue
    }

    /// Creates a history.
    public init(
        key: AlertKey, firstFiringAt: Timestamp? = nil, lastDeliveredAt: Timestamp? = nil,
        lastDeliveredDue: Timestamp? = nil, deliveries: Int = 0, instanceDue: Timestamp? = nil,
        instanceStrategy: String? = nil, attempts: Int = 0,
        answer: AlertAnswer? = nil, suppressedUntil: Timestamp? = nil
    ) {
        self.key = key
        self.firstFiringAt = firstFiringAt
        self.lastDeliveredAt = lastDeliveredAt
        self.lastDeliveredDue = lastDeliveredDue
        self.deliveries = deliveries
        self.instanceDue = instanceDue
        self.instanceStrategy = instanceStrategy
        self.attempts = attempts
        self.answer = answer
        self.suppressedUntil = suppressedUntil
    }
}
