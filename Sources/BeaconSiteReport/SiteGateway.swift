import BeaconCore

/// One gateway of a site, as the hub knows it: its id (what it publishes under), the room it
/// stands in, and where its antenna is.
public struct SiteGateway: Hashable, Sendable {
    /// The gateway's id: the `site.gateway` of its configuration, and the last level of its topics.
    public var id: String
    /// The room (or zone) the gateway covers; a beacon heard best by this gateway is in this room.
    public var room: String?
    /// Antenna position in the site's frame, metres; gateways without one still decide rooms,
    /// but take no part in positions.
    public var position: Vector3?
    /// Added to every RSSI this gateway reports (dB): evens out receivers of different
    /// sensitivity (a dongle that reads 4 dB low gets `rssiOffset: 4`). Default 0.
    public var rssiOffset: Double
    /// The key this gateway signs its reports with (``SignedReport``); when set, the hub takes
    /// only reports sealed with it. `nil`: unsigned reports are taken (the broker's access
    /// control is then the only protection).
    public var key: GatewayKey?
    /// The floor the gateway is on (any name: `ground`, `1`, …); `nil` for a single-floor site.
    /// Rooms take their gateways' floor; positions are solved per floor.
    public var floor: String?

    /// Whether `id` can name a gateway: 1–64 letters, digits, `-`, `_` or `.` (it is an MQTT
    /// topic level, so `/`, `+` and `#` are out).
    public static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }

    /// Creates a gateway.
    public init(
        id: String, room: String? = nil, position: Vector3? = nil, rssiOffset: Double = 0, key: GatewayKey? = nil,
        floor: String? = nil
    ) {
        self.id = id
        self.room = room
        self.position = position
        self.rssiOffset = rssiOffset
        self.key = key
        self.floor = floor
    }
}
