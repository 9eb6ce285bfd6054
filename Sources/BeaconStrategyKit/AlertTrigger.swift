import BeaconCore

/// A strategy's decision that a beacon is ready for action: "fire the alert of `strategy` for
/// `beacon` at `time`". The alert engine turns triggers into alerts (content, windows, sinks).
public struct AlertTrigger: Hashable, Sendable, CustomStringConvertible {
    /// The beacon the decision is about.
    public var beacon: BeaconID
    /// The key of the strategy that fired (as configuration names it).
    public var strategy: String
    /// The cycle time at which the strategy fired.
    public var time: Timestamp

    /// Creates a trigger.
    public init(beacon: BeaconID, strategy: String, time: Timestamp) {
        self.beacon = beacon
        self.strategy = strategy
        self.time = time
    }

    /// `<strategy> fired for <beacon> at <time>`.
    public var description: String { "\(strategy) fired for \(beacon) at \(time.nanosecondsSinceEpoch) ns" }
}
