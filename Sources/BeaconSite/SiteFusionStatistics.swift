import BeaconSiteReport

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
    /// Reports refused whole, by reason (nothing of them was used).
    public var refusedReports: [ReportRefusal.Reason: Int] = [:]
    /// New beacons refused at the tracking cap (`hub.maxTracked`).
    public var refusedBeacons = 0
    /// New beacons refused because their gateway brought in `hub.maxBeaconsPerGateway` already.
    public var refusedBeaconsOverGatewayCap = 0
    /// Cycles fused.
    public var cycles = 0
    /// Positions from the grid filter's posterior.
    public var tracked = 0
    /// Positions solved by multilateration.
    public var multilaterations = 0
    /// Positions from the weighted-centroid fallback.
    public var centroids = 0
    /// Room changes.
    public var roomChanges = 0
    /// Floor changes (room changes to a room on another floor).
    public var floorChanges = 0
    /// Beacon cycles reported with the room unknown.
    public var unknownRooms = 0
    /// Gateways offline now.
    public var gatewaysOffline = 0
    /// Each gateway's status, in layout order. Filled in when the statistics are read.
    public var gateways: [SiteGatewayStatus] = []
    /// What self-calibration has found (`nil` when it is off or the site has fewer than three
    /// positioned gateways). Filled in when the statistics are read.
    public var calibration: CalibrationStatus?

    public init() {}

    /// Reports refused, all reasons.
    public var refusedReportCount: Int { refusedReports.values.reduce(0, +) }

    /// Counts what one cycle of the room rule did to a beacon.
    mutating func count(_ step: RoomStep) {
        if step.changed {
            roomChanges += 1
            if step.changedFloor { floorChanges += 1 }
        }
        if step.unknown { unknownRooms += 1 }
    }
}
