import BeaconCore

/// The memory of the enter and exit strategies: when the beacon was last seen and whether the
/// latest update was the event's cycle.
public struct PresenceEdge: Hashable, Sendable, Codable {
    /// The latest cycle at which the beacon was seen; nil before any.
    public var lastSeen: Timestamp?
    /// True while the beacon is considered away (exit strategy).
    public var away: Bool
    /// True only at the cycle the event happened.
    public var event: Bool

    /// Never seen, no event.
    public init(lastSeen: Timestamp? = nil, away: Bool = false, event: Bool = false) {
        self.lastSeen = lastSeen
        self.away = away
        self.event = event
    }
}
