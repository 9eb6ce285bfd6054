import BeaconCore

/// ``TimeAlertStrategy``'s memory of one beacon: the current visit.
public struct TimeVisit: Hashable, Sendable, Codable {
    /// When the current visit began (the first present cycle after a gap); nil before any.
    public var start: Timestamp?
    /// The latest cycle at which the beacon counted as present.
    public var lastDetection: Timestamp?
    /// Whether the beacon counted as present at the latest update.
    public var presentNow: Bool
    /// The latest cycle a site hub placed the beacon in the strategy's room (not through
    /// `unknown`); what `unknownGrace` counts from. `nil` without a room.
    public var lastKnown: Timestamp?

    /// No visit yet.
    public init(start: Timestamp? = nil, lastDetection: Timestamp? = nil, presentNow: Bool = false) {
        self.start = start
        self.lastDetection = lastDetection
        self.presentNow = presentNow
    }
}
