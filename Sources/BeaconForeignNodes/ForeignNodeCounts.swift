/// What a foreign node's messages amounted to, since it was created.
public struct ForeignNodeCounts: Hashable, Sendable {
    /// Beacon sightings ranged.
    public var sightings = 0
    /// Well-formed messages about devices that are not tracked beacons (or without an RSSI).
    public var ignored = 0
    /// Messages refused (not what the kind sends).
    public var refused = 0
    /// Status messages (online / offline).
    public var statuses = 0

    /// Creates zero counts.
    public init() {}
}
