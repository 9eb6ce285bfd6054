import BeaconCore

/// Reads what an ESPresense node publishes (see ``ForeignNodeKind/espresense``).
///
/// A device message is the JSON of the firmware's `BleFingerprint::fill`: `id` (required, and
/// the same as the topic's), `rssi` (the node's smoothed RSSI, dBm, −127…+20), `rssi@1m` (its
/// reference RSSI at 1 m: the measured power, kept when within −127…0), `mac` (12 hex digits),
/// and `distance`, `var`, `rxAdj` (checked: numbers, distances not negative; not used — the hub
/// ranges and calibrates itself). Other members are ignored. A status message is `online` or
/// `offline`.
enum ESPresenseTranslator {
    struct Message: Decodable {
        var mac: String?
        var id: String
        var rssi: Double?
        var rssiAt1m: Double?
        var rxAdj: Double?
        var distance: Double?
        var variance: Double?

        enum CodingKeys: String, CodingKey {
            case mac, id, rssi, rxAdj, distance
            case rssiAt1m = "rssi@1m"
            case variance = "var"
        }
    }

    static func translate(_ payload: UnsafeRawBufferPointer, _ topic: ForeignTopic) throws(ForeignPayloadRefusal)
        -> ForeignPayload
    {
        switch topic {
        case .status:
            let text = String(decoding: payload.prefix(64), as: UTF8.self).trimmingWhitespace()
            switch text {
            case "online": return .status(online: true)
            case "offline": return .status(online: false)
            default:
                throw ForeignPayloadRefusal(.malformed, "status \(ForeignJSON.preview(payload)) is neither online nor offline")
            }
        case .device(let topicID):
            let message = try ForeignJSON.decode(Message.self, from: payload)
            guard message.id == topicID else {
                throw ForeignPayloadRefusal(
                    .wrongTopic, "id '\(Self.shown(message.id))' is not the topic's '\(Self.shown(topicID))'")
            }
            try ForeignValues.checkNonNegative(message.distance, member: "distance")
            try ForeignValues.checkNonNegative(message.variance, member: "var")
            if let rxAdj = message.rxAdj, !(rxAdj.isFinite && (-100...100).contains(rxAdj)) {
                throw ForeignPayloadRefusal(.outOfRange, "'rxAdj' \(rxAdj) dB is outside −100…100")
            }
            let rssi = try message.rssi.map { value throws(ForeignPayloadRefusal) in try ForeignValues.rssi(value) }
            let address = ForeignValues.address(message.mac)
            if message.mac != nil, address == nil {
                throw ForeignPayloadRefusal(.malformed, "'mac' '\(message.mac!.prefix(40))' is not 12 hex digits")
            }
            // A device the node resolved with a key it was given: named by the key, never repeated.
            if message.id.lowercased().hasPrefix("irk:") {
                guard let key = NodeNamedKey(hex: message.id.dropFirst(4)) else {
                    throw ForeignPayloadRefusal(.malformed, "an irk: id that is not 32 hex digits")
                }
                guard let rssi else { return .ignored("an irk: device without an rssi") }
                return .resolvedByNode(key: key, rssi: rssi, measuredPower: ForeignValues.measuredPower(message.rssiAt1m))
            }
            guard case .beacon(let id) = try ESPresenseID.parse(message.id) else {
                return .ignored("\(message.id.prefix(40)) is not a beacon identity")
            }
            guard let rssi else { return .ignored("\(message.id.prefix(80)) without an rssi") }
            return .sighting(
                id: id, rssi: rssi, measuredPower: ForeignValues.measuredPower(message.rssiAt1m),
                address: address ?? BluetoothAddress(rawValue: 0))
        }
    }
}

extension ESPresenseTranslator {
    /// An id as a refusal may show it: at most 120 characters, and an `irk:` id (which carries a
    /// device's key) as `irk:…` alone.
    static func shown(_ id: String) -> Substring {
        id.lowercased().hasPrefix("irk:") ? "irk:…" : id.prefix(120)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
