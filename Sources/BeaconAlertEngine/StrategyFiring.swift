import BeaconCore

/// A strategy's verdict that a beacon qualifies for an alert: the alert engine's main input.
///
/// The strategy layer decides *when* a beacon qualifies; the engine decides what is delivered,
/// when, and what happens around it (windows, repeats, cooldown, cancellation).
public struct StrategyFiring: Hashable, Sendable {
    /// The alert definition's id from configuration.
    public var alertID: String
    /// The beacon that qualified.
    public var beacon: BeaconID
    /// The key of the strategy that fired (copied into every event).
    public var strategy: String
    /// When the condition was met; delays are counted from this time.
    public var time: Timestamp

    /// Creates a firing.
    public init(alertID: String, beacon: BeaconID, strategy: String, time: Timestamp) {
        self.alertID = alertID
        self.beacon = beacon
        self.strategy = strategy
        self.time = time
    }
}
