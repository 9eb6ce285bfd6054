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
    /// The room a site hub places it in (`nil` on a gateway, while unknown, or once gone).
    public var room: String?
    /// Where a site hub places it (`nil` on a gateway, while unknown, or once gone).
    public var position: BeaconPosition?
    /// The floor of its room, on a site whose gateways name floors.
    public var floor: String?
    /// How sure a site hub is of ``room`` (0–1), `nil` on a gateway.
    public var roomConfidence: Double?
    /// How many gateways heard it in the cycle.
    public var gatewayCount: Int = 0

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

    /// The presence of a ranged (or, on a hub, fused) beacon.
    public init(_ beacon: RangedBeacon) {
        self.init(
            id: beacon.id, present: true, proximity: beacon.proximity, distance: beacon.distance,
            rssi: beacon.filteredRSSI, lastSeen: beacon.lastSeen)
        room = beacon.room
        position = beacon.position
        floor = beacon.floor
        roomConfidence = beacon.roomConfidence
        gatewayCount = beacon.gatewayCount
    }

    /// True when `other` is worth publishing after this one: another proximity band, room or
    /// floor, presence, or a position moved by `moved` metres or more.
    public func differsNotably(from other: BeaconPresence, moved: Double = 0.5) -> Bool {
        if present != other.present || proximity != other.proximity || room != other.room || floor != other.floor {
            return true
        }
        switch (position, other.position) {
        case (nil, nil): return false
        case (let a?, let b?):
            let (dx, dy, dz) = (a.x - b.x, a.y - b.y, a.z - b.z)
            return (dx * dx + dy * dy + dz * dz).squareRoot() >= moved
        default: return true
        }
    }

    /// The state's name: the proximity band while present, `away` once gone.
    public var state: String { present ? proximity.name : "away" }

    /// `{"id":…,"state":"near","present":true,"proximity":"near","distance":1.2,"rssi":-67.5,"lastSeen":…}`,
    /// and on a hub `room`, `x`, `y`, `floor`, `confidence` and `gateways` where known.
    public var json: String { json(named: nil) }

    /// ``json`` with the `name` and `tags` of a named beacon after its `id`.
    public func json(named: NamedBeacon?) -> String {
        var json = JSONWriter()
        json.object { object in
            object.member("id", id.description)
            if let named {
                object.member("name", named.name)
                object.key("tags")
                object.array { array in for tag in named.tags { array.value(tag) } }
            }
            object.member("state", state)
            object.member("present", present)
            object.member("proximity", proximity.name)
            object.member("distance", distance.map { ($0 * 100).rounded() / 100 })
            object.member("rssi", rssi.map { ($0 * 10).rounded() / 10 })
            object.member("lastSeen", lastSeen.rfc3339String)
            if let room { object.member("room", room) }
            if let position {
                object.member("x", (position.x * 100).rounded() / 100)
                object.member("y", (position.y * 100).rounded() / 100)
            }
            if let floor { object.member("floor", floor) }
            if let roomConfidence { object.member("confidence", (roomConfidence * 100).rounded() / 100) }
            if present && gatewayCount > 0 { object.member("gateways", gatewayCount) }
        }
        return json.string
    }
}
