import BeaconCore

/// What the engine may look at when an alert has conditions (`scheduleCondition`,
/// `deliverWhen`): the live state of the beacons and the site at the step's `now`. The pipeline
/// keeps one from its latest cycle; tests write one by hand. The engine only reads it.
public protocol AlertWorld {
    /// The beacon as the latest cycle ranged (or fused) it; `nil` when it is not in range.
    func beacon(_ id: BeaconID) -> RangedBeacon?
    /// The regions the beacon is in.
    func regions(of id: BeaconID) -> Set<String>
    /// How many beacons the latest cycle placed in `room` (a site hub's; 0 elsewhere).
    func occupancy(ofRoom room: String) -> Int
    /// When the named event was last posted for this beacon or for every beacon, if ever.
    func lastPosted(_ event: String, for beacon: BeaconID) -> Timestamp?
}

/// A world with nothing in it: no beacon in range, no room occupied, no event posted (what the
/// engine sees when its caller gives none).
public struct EmptyAlertWorld: AlertWorld {
    /// Creates the empty world.
    public init() {}
    public func beacon(_ id: BeaconID) -> RangedBeacon? { nil }
    public func regions(of id: BeaconID) -> Set<String> { [] }
    public func occupancy(ofRoom room: String) -> Int { 0 }
    public func lastPosted(_ event: String, for beacon: BeaconID) -> Timestamp? { nil }
}
