import BeaconCore

/// One beacon's strategy state as stored beside the engine's state (see
/// `BeaconAlertStrategy/collectStateChanges(into:)`).
public struct SavedStrategyState: Hashable, Sendable {
    /// Where it belongs: the alert definition, the part of its strategy, the beacon.
    public struct Key: Hashable, Sendable, Comparable {
        /// The alert definition's id.
        public var alertID: String
        /// The part of the strategy (`StrategyStateEntry/part`).
        public var part: String
        /// The beacon.
        public var beacon: BeaconID

        /// Creates a key.
        public init(alertID: String, part: String, beacon: BeaconID) {
            self.alertID = alertID
            self.part = part
            self.beacon = beacon
        }

        public static func < (a: Key, b: Key) -> Bool { (a.alertID, a.part, a.beacon) < (b.alertID, b.part, b.beacon) }
    }

    /// Where it belongs.
    public var key: Key
    /// The key of the strategy that saved it (`time`, …): a state is restored only into the same kind.
    public var strategy: String
    /// The encoded state.
    public var state: [UInt8]

    /// Creates a saved state.
    public init(key: Key, strategy: String, state: [UInt8]) {
        self.key = key
        self.strategy = strategy
        self.state = state
    }
}
