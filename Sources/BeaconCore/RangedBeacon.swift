/// The state of one tracked beacon at the end of a ranging cycle.
public struct RangedBeacon: Hashable, Sendable {
    // Stored properties are declared in layout order, not reading order: the 28-byte identity
    // followed by the two 2-byte optionals, then the 8- and 16-byte fields, the 33-byte position
    // followed by the three 1-byte fields, and the 9-byte optionals last (232 bytes instead of
    // 248; one is kept per tracked beacon in a ranging loop's update).

    /// The beacon's identity.
    public var id: BeaconID
    /// RSSI of the last sighting this cycle (dBm), if any had one.
    public var lastRSSI: Int8?
    /// The measured power (RSSI at 1 m, dBm) used for the distance estimate.
    public var measuredPower: Int8?
    /// The address of the latest sighting.
    public var lastAddress: BluetoothAddress
    /// How many distinct addresses this beacon has been seen from while tracked.
    public var addressCount: Int
    /// Sightings during this cycle.
    public var sampleCount: Int
    /// How many gateways heard the beacon in this cycle (a site hub's evidence; 1 for one
    /// gateway's own ranging while the beacon is seen).
    public var gatewayCount: Int
    /// First sighting in the current tracking period.
    public var firstSeen: Timestamp
    /// Latest sighting.
    public var lastSeen: Timestamp
    /// The room a site hub places the beacon in (the zone of the gateways that hear it best,
    /// with hysteresis); `nil` for one gateway's own ranging, or while no room is known.
    public var room: String?
    /// The floor of the beacon's room on a site whose gateways name floors; `nil` otherwise.
    public var floor: String?
    /// Where a site hub places the beacon; `nil` for one gateway's own ranging, or while no
    /// gateway with a known position hears it.
    public var position: BeaconPosition?
    /// True when the beacon was sighted during this cycle; false during the missed-scan grace.
    public var seenThisCycle: Bool
    /// The proximity band after hysteresis.
    public var proximity: Proximity
    /// True when a site hub cannot tell the beacon's room (too little, too weak or too stale
    /// evidence, or its room's gateways offline): ``room`` and ``position`` are then `nil`, and the
    /// beacon has not left — strategies tell the two apart by this.
    public var roomUnknown: Bool
    /// Mean RSSI of this cycle's sightings (dBm), if any had one.
    public var meanRSSI: Double?
    /// RSSI after the configured filter (dBm), if there is enough signal.
    public var filteredRSSI: Double?
    /// Estimated distance in metres, if known.
    public var distance: Double?
    /// An estimate of the distance's uncertainty in metres (one standard deviation), if known.
    public var accuracy: Double?
    /// How sure a site hub is of ``room`` (0–1): about that share of the cycles with a given
    /// confidence have the right room. `nil` for one gateway's own ranging.
    public var roomConfidence: Double?

    /// Inlinable so that the ranging loop builds each cycle's beacons without a call and the
    /// copies it implies.
    @inlinable
    public init(
        id: BeaconID, lastAddress: BluetoothAddress, addressCount: Int = 1,
        seenThisCycle: Bool, sampleCount: Int, lastRSSI: Int8?, meanRSSI: Double?,
        filteredRSSI: Double?, measuredPower: Int8?, distance: Double?, accuracy: Double?,
        proximity: Proximity, firstSeen: Timestamp, lastSeen: Timestamp,
        room: String? = nil, position: BeaconPosition? = nil, gatewayCount: Int? = nil,
        roomConfidence: Double? = nil, roomUnknown: Bool = false, floor: String? = nil
    ) {
        self.id = id
        self.lastAddress = lastAddress
        self.addressCount = addressCount
        self.seenThisCycle = seenThisCycle
        self.sampleCount = sampleCount
        self.lastRSSI = lastRSSI
        self.meanRSSI = meanRSSI
        self.filteredRSSI = filteredRSSI
        self.measuredPower = measuredPower
        self.distance = distance
        self.accuracy = accuracy
        self.proximity = proximity
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.room = room
        self.position = position
        self.gatewayCount = gatewayCount ?? (seenThisCycle ? 1 : 0)
        self.roomConfidence = roomConfidence
        self.roomUnknown = roomUnknown
        self.floor = floor
    }
}
