import BeaconCore

/// What a hub remembers about one beacon between cycles.
struct FusedBeaconState {
    let id: BeaconID
    /// The first report of it (hub time).
    var firstSeen: Timestamp
    /// Its latest sighting by any gateway (hub time).
    var lastSeen: Timestamp
    /// Its room, as the room rule holds it.
    var rooms = RoomMemory()
    var proximity: Proximity = .unknown
    /// Its smoothed position.
    var tracker = PositionTracker()
    /// Its latest reported position (NaN before any): where a calibration fix says it was taken.
    var lastX: Float = .nan
    var lastY: Float = .nan
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
