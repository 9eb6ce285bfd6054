import BeaconCore

/// Where one beacon stands with a strategy, for people watching (the status page): read on
/// demand through ``BeaconAlertStrategy/collectStatuses(now:into:)``, never on the hot path.
public struct StrategyBeaconStatus: Hashable, Sendable {
    /// The beacon.
    public var beacon: BeaconID
    /// Whether its alert has fired since the last reset.
    public var actionStatus: ActionStatus
    /// The condition as evaluated at the latest update.
    public var conditionValid: Bool
    /// The latest cycle at which the beacon counted as present.
    public var lastSeen: Timestamp
    /// How far the beacon is towards the strategy's condition (a dwell's elapsed time against
    /// its threshold), when the strategy measures one.
    public var progress: StrategyProgress?
    /// When the action resets if the beacon stays unseen (`lastSeen + maxTimeBeforeReset`);
    /// `nil` while the beacon waits for action.
    public var resetsAt: Timestamp?
    /// The strategy's own words on where the beacon stands, when it gives them (a dwell: "in a
    /// visit since 09:00:12"): a sentence that changes when the beacon's situation does, not
    /// every cycle (the progress says how far it has come). What explanations and the status
    /// page show beside the bookkeeping.
    public var explanation: String?

    /// Creates a status.
    public init(
        beacon: BeaconID, actionStatus: ActionStatus, conditionValid: Bool, lastSeen: Timestamp,
        progress: StrategyProgress? = nil, resetsAt: Timestamp? = nil, explanation: String? = nil
    ) {
        self.beacon = beacon
        self.actionStatus = actionStatus
        self.conditionValid = conditionValid
        self.lastSeen = lastSeen
        self.progress = progress
        self.resetsAt = resetsAt
        self.explanation = explanation
    }
}

/// A measured way towards a strategy's condition: `value` of `threshold` in `unit`
/// (a dwell: 42 of 60 seconds).
public struct StrategyProgress: Hashable, Sendable {
    /// How far it has come.
    public var value: Double
    /// Where the condition holds.
    public var threshold: Double
    /// What both count (`"s"` for seconds, `"cycles"`, …).
    public var unit: String

    /// Creates a progress.
    public init(value: Double, threshold: Double, unit: String) {
        self.value = value
        self.threshold = threshold
        self.unit = unit
    }

    /// A duration towards a duration, in seconds.
    public init(elapsed: Duration, of threshold: Duration) {
        self.init(value: elapsed.secondsValue, threshold: threshold.secondsValue, unit: "s")
    }

    /// `value / threshold`, between 0 and 1 (1 for a threshold of zero).
    public var fraction: Double {
        guard threshold > 0 else { return 1 }
        return min(1, max(0, value / threshold))
    }
}
