import BeaconCore

/// A beacon's state as published for others to follow (MQTT retained topics, Home Assistant):
/// whether it is in range, how near, and when it was last heard.
public struct BeaconPresence: Hashable, Sendable {
    /// The beacon.
    public var id: BeaconID
    /// `false` once the ranging loop stopped tracking it (it left).
    public var present: Bool
    /// Its proximity band (`unknown` while missed, or once gone).
    public var proximity: Proximity
    /// Its estimated distance in metres, if any.
    public var distance: Double?
    /// Its filtered RSSI in dBm, if any.
    public var rssi: Double?
    /// When it was last heard.
    public var lastSeen: Timestamp

    /// Creates a presence.
    public init(
        id: BeaconID, present: Bool, proximity: Proximity, distance: Double? = nil, rssi: Double? = nil,
        lastSeen: Timestamp
    ) {
        self.id = id
        self.present = present
        self.proximity = proximity
        self.distance = distance
        self.rssi = rssi
        self.lastSeen = lastSeen
    }

    /// The presence of a ranged beacon.
    public init(_ beacon: RangedBeacon) {
        self.init(
            id: beacon.id, present: true, proximity: beacon.proximity, distance: beacon.distance,
            rssi: beacon.filteredRSSI, lastSeen: beacon.lastSeen)
    }

    /// The state's name: the proximity band while present, `away` once gone.
    public var state: String { present ? proximity.name : "away" }

    /// `{"id":…,"state":"near","present":true,"proximity":"near","distance":1.2,"rssi":-67.5,"lastSeen":…}`.
    public var json: String {
        var json = JSONWriter()
        json.object { object in
            object.member("id", id.description)
            object.member("state", state)
            object.member("present", present)
            object.member("proximity", proximity.name)
            object.member("distance", distance.map { ($0 * 100).rounded() / 100 })
            object.member("rssi", rssi.map { ($0 * 10).rounded() / 10 })
            object.member("lastSeen", lastSeen.rfc3339String)
        }
        return json.string
    }
}
