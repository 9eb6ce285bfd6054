import BeaconCore

/// What a hub remembers about one beacon between cycles.
struct FusedBeaconState {
    let id: BeaconID
    /// The first report of it (hub time).
    var firstSeen: Timestamp
    /// Its latest sighting by any gateway (hub time).
    var lastSeen: Timestamp
    /// Its room (index into the layout's rooms), -1 while none.
    var room: Int32 = -1
    /// The room that leads by the margin, -1 when none does.
    var candidate: Int32 = -1
    /// Since when ``candidate`` has led (ns).
    var candidateSince: Int64 = 0
    var proximity: Proximity = .unknown
    /// Its smoothed position.
    var tracker = PositionTracker()
    var measuredPower: Int8?
    /// The gateway whose record brought it in (counted against its `maxBeaconsPerGateway`).
    let introducedBy: Int32
    /// The anchor it is (index into the layout's anchors), -1 for a beacon that moves.
    let anchor: Int32

    init(id: BeaconID, time: Timestamp, introducedBy gateway: Int, anchor: Int = -1) {
        self.id = id
        self.anchor = Int32(anchor)
        introducedBy = Int32(gateway)
        firstSeen = time
        lastSeen = time
    }
}
