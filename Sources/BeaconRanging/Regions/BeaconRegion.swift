import BeaconCore

/// A set of beacons, by identity, whose entries and exits the ranging loop reports.
///
/// A beacon enters a region with its first sighting (or its first after an exit) and exits at
/// the first cycle boundary at or after `lastSeen + exitTimeout`. Which beacons belong to it is
/// a `BeaconMatch`, the same type that says which beacons an alert applies to.
public struct BeaconRegion: Hashable, Sendable {
    /// The region's identifier, reported in `RegionEvent/regionID`.
    public var id: String
    /// Which identities belong to it.
    public var match: BeaconMatch
    /// How long after its last sighting a beacon exits; `nil` uses the configuration's default.
    public var exitTimeout: Duration?

    /// A region.
    public init(id: String, match: BeaconMatch, exitTimeout: Duration? = nil) {
        self.id = id
        self.match = match
        self.exitTimeout = exitTimeout
    }

    /// True when `beacon` belongs to the region.
    public func contains(_ beacon: BeaconID) -> Bool { match.matches(beacon) }
}
