/// What a hub has fused so far.
public struct SiteFusionStatistics: Hashable, Sendable {
    /// Reports taken (from known gateways).
    public var reports = 0
    /// Records taken.
    public var records = 0
    /// Records that arrived after their cycle was fused (still used for the next cycles).
    public var lateRecords = 0
    /// Records too old to use at all (older than the cycles the hub keeps), dropped.
    public var staleRecords = 0
    /// Reports from gateways that are not in the site's layout, dropped.
    public var unknownGatewayReports = 0
    /// New beacons refused at the tracking cap.
    public var refusedBeacons = 0
    /// Cycles fused.
    public var cycles = 0
    /// Positions solved by multilateration.
    public var multilaterations = 0
    /// Positions from the weighted-centroid fallback.
    public var centroids = 0
    /// Room changes.
    public var roomChanges = 0

    public init() {}
}
