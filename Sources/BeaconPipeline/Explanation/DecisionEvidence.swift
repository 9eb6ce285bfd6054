import BeaconCore

/// What ranging said of a beacon in one cycle, as an explanation shows it beside a line: heard
/// or not, its signal, distance and proximity, and on a site its room and how sure the hub was.
public struct DecisionEvidence: Hashable, Sendable {
    /// Whether the beacon was in the cycle's update at all (ranging still tracked it).
    public var inRanging: Bool
    /// Whether it was heard during the cycle (false in ranging's missed-scan grace).
    public var heard: Bool
    /// The smoothed RSSI, dBm.
    public var filteredRSSI: Double?
    /// The estimated distance, metres.
    public var distance: Double?
    /// The proximity zone.
    public var proximity: Proximity
    /// The room a site hub placed it in.
    public var room: String?
    /// How sure the hub was of the room (0–1).
    public var roomConfidence: Double?
    /// True when the hub could not tell the room.
    public var roomUnknown: Bool
    /// How many gateways heard it (on a site).
    public var gateways: Int

    /// Evidence of a beacon ranging does not (or no longer) track.
    public static let absent = DecisionEvidence(
        inRanging: false, heard: false, filteredRSSI: nil, distance: nil, proximity: .unknown, room: nil,
        roomConfidence: nil, roomUnknown: false, gateways: 0)

    /// Creates evidence.
    public init(
        inRanging: Bool, heard: Bool, filteredRSSI: Double?, distance: Double?, proximity: Proximity, room: String?,
        roomConfidence: Double?, roomUnknown: Bool, gateways: Int
    ) {
        self.inRanging = inRanging
        self.heard = heard
        self.filteredRSSI = filteredRSSI
        self.distance = distance
        self.proximity = proximity
        self.room = room
        self.roomConfidence = roomConfidence
        self.roomUnknown = roomUnknown
        self.gateways = gateways
    }

    /// The evidence of a ranged beacon.
    public init(_ beacon: RangedBeacon) {
        self.init(
            inRanging: true, heard: beacon.seenThisCycle, filteredRSSI: beacon.filteredRSSI, distance: beacon.distance,
            proximity: beacon.proximity, room: beacon.room, roomConfidence: beacon.roomConfidence,
            roomUnknown: beacon.roomUnknown, gateways: beacon.gatewayCount)
    }

    /// The room as a person reads it: the name (with the hub's confidence), `unknown`, or nil
    /// when there is no site.
    public var roomText: String? {
        if roomUnknown { return "unknown" }
        guard let room else { return nil }
        guard let confidence = roomConfidence else { return room }
        return "\(room) (\(Int((confidence * 100).rounded())) %)"
    }

    /// One short line: `-67 dBm, 2.3 m, near, room shop (92 %), 2 gateways`, or `not heard`.
    public var summary: String {
        guard inRanging else { return "not tracked by ranging" }
        var parts: [String] = heard ? [] : ["not heard this cycle"]
        if let filteredRSSI { parts.append("\(Int(filteredRSSI.rounded())) dBm") }
        if let distance { parts.append(distance < 10 ? "\((distance * 10).rounded() / 10) m" : "\(Int(distance.rounded())) m") }
        parts.append(proximity.name)
        if let roomText { parts.append("room \(roomText)") }
        if gateways > 1 { parts.append("\(gateways) gateways") }
        return parts.joined(separator: ", ")
    }
}
