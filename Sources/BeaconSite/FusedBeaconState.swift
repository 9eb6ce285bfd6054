import BeaconCore

/// What a hub remembers about one beacon between cycles.
struct FusedBeaconState {
    let id: BeaconID
    /// The first report of it (hub time).
    var firstSeen: Timestamp
    /// Its latest sighting by any gateway (hub time).
    var lastSeen: Timestamp
    /// Its room as hysteresis holds it (index into the layout's rooms), -1 while none: kept
    /// while the room is shown as unknown, so that weak evidence never changes the room for free.
    var room: Int32 = -1
    /// The room last reported (entered as a region), -1 while none or unknown.
    var shown: Int32 = -1
    /// Whether the latest cycle reported the room as unknown.
    var unknown = false
    /// The confidence of ``room`` at the latest cycle (0–1).
    var confidence: Float = 0
    /// The floor of the latest room it was in (index into the layout's floors), -1 while none:
    /// kept through unknown, so that a beacon that comes back changes floor only on the floor rule.
    var lastFloor: Int32 = -1
    /// The latest score of ``room`` from a gateway that heard the beacon (dBm): what the room
    /// counts with while its gateways are silent without reporting, or offline.
    var roomScore: Float = -.infinity
    /// The room that leads by the margin, -1 when none does.
    var candidate: Int32 = -1
    /// Since when ``candidate`` has led (ns).
    var candidateSince: Int64 = 0
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
