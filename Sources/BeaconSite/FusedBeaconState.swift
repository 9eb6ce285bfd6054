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

    init(id: BeaconID, time: Timestamp) {
        self.id = id
        firstSeen = time
        lastSeen = time
    }
}
