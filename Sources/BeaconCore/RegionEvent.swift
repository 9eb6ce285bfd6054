/// A beacon entering or leaving a region, emitted by the ranging loop.
public struct RegionEvent: Hashable, Sendable {
    /// Entry or exit.
    public enum Kind: String, Hashable, Sendable {
        case enter
        case exit
    }

    public var kind: Kind
    /// The region's identifier from configuration.
    public var regionID: String
    /// The beacon that entered or left.
    public var beacon: BeaconID
    /// When it happened: the first sighting for an entry, the cycle at which the exit timeout
    /// ran out for an exit.
    public var time: Timestamp

    public init(kind: Kind, regionID: String, beacon: BeaconID, time: Timestamp) {
        self.kind = kind
        self.regionID = regionID
        self.beacon = beacon
        self.time = time
    }
}
