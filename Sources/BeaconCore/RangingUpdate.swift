/// What the ranging loop emits once per cycle.
///
/// `beacons` lists every tracked beacon: those seen during the cycle and those within their
/// missed-scan grace (`seenThisCycle == false`) — absence is information for strategies.
public struct RangingUpdate: Sendable {
    /// Start of the cycle (inclusive).
    public var cycleStart: Timestamp
    /// End of the cycle (exclusive): the `now` at which the update is evaluated.
    public var time: Timestamp
    /// Every tracked beacon, in the loop's tracking order: deterministic for a given input, but
    /// not sorted (sorting ~1,000 values every cycle cost more than the rest of the cycle).
    /// Sort by `id` where an order matters to you.
    public var beacons: [RangedBeacon]
    /// Region entries and exits that happened during this cycle.
    public var regionEvents: [RegionEvent]
    /// Beacons dropped from tracking at this cycle (unseen for the retention period).
    public var evicted: [BeaconID]

    public init(
        cycleStart: Timestamp, time: Timestamp, beacons: [RangedBeacon] = [],
        regionEvents: [RegionEvent] = [], evicted: [BeaconID] = []
    ) {
        self.cycleStart = cycleStart
        self.time = time
        self.beacons = beacons
        self.regionEvents = regionEvents
        self.evicted = evicted
    }
}
