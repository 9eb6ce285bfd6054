import BeaconCore
import BeaconRanging

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

    /// What the hub says of the beacon for a cycle: `heard` summarises the gateways' evidence of
    /// it, `distance` is the nearest gateway's estimate; its room is named from `roomNames` and
    /// its floor from `floors`.
    func ranged(
        heard: BeaconEvidence, distance: Double?, position: BeaconPosition?, roomNames: [String], floors: [String]
    ) -> RangedBeacon {
        let placed = !roomNames.isEmpty
        return RangedBeacon(
            id: id, lastAddress: BluetoothAddress(rawValue: 0), addressCount: 0, seenThisCycle: heard.seen,
            sampleCount: heard.samples, lastRSSI: nil, meanRSSI: nil,
            filteredRSSI: heard.bestRSSI.isFinite ? Double(heard.bestRSSI) : nil, measuredPower: measuredPower,
            distance: distance, accuracy: heard.nearestAccuracy.isNaN || distance == nil ? nil : Double(heard.nearestAccuracy),
            proximity: proximity, firstSeen: firstSeen, lastSeen: lastSeen,
            room: rooms.shown >= 0 ? roomNames[Int(rooms.shown)] : nil, position: position,
            gatewayCount: heard.gateways,
            roomConfidence: placed && rooms.room >= 0 ? Double(rooms.confidence) : (placed ? 0 : nil),
            roomUnknown: rooms.unknown,
            floor: rooms.shown >= 0 && rooms.lastFloor >= 0 ? floors[Int(rooms.lastFloor)] : nil)
    }
}
