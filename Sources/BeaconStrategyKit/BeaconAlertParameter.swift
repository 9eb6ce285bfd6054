import BeaconCore

/// What ``BeaconAlertStrategyBase`` keeps for each beacon: the subclass's own state (`value`)
/// plus the bookkeeping every strategy needs.
public struct BeaconAlertParameter<Value> {
    /// The beacon this state belongs to.
    public let beacon: BeaconID
    /// The subclass's state, updated by `updateAlertParameter`.
    public var value: Value
    /// Whether the beacon's alert has fired since the last reset.
    public var actionStatus: ActionStatus
    /// The condition as evaluated at the latest update.
    public var conditionValid: Bool
    /// The latest cycle at which the beacon counted as present (first sighting when never).
    public var lastSeen: Timestamp
    /// Creates a beacon's state.
    public init(
        beacon: BeaconID, value: Value, actionStatus: ActionStatus = .waitingForAction,
        conditionValid: Bool = false, lastSeen: Timestamp
    ) {
        self.beacon = beacon
        self.value = value
        self.actionStatus = actionStatus
        self.conditionValid = conditionValid
        self.lastSeen = lastSeen
    }
}

extension BeaconAlertParameter: Sendable where Value: Sendable {}
