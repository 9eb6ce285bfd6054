import BeaconCore

/// Checks and conversions of the values foreign payloads carry.
enum ForeignValues {
    /// An RSSI as a radio reports it (−127…+20 dBm, like a beacond gateway's records), rounded.
    static func rssi(_ value: Double, member: String = "rssi") throws(ForeignPayloadRefusal) -> Int8 {
        guard value.isFinite, (-127...20).contains(value) else {
            throw ForeignPayloadRefusal(.outOfRange, "'\(member)' \(value) dBm is outside −127…+20")
        }
        return Int8(value.rounded())
    }

    /// A measured power (RSSI at 1 m): `nil` outside −127…0 dBm. Some tags advertise the
    /// magnitude (+59 for −59, ESPresense issue #1286): the sighting is kept, without it.
    static func measuredPower(_ value: Double?) -> Int8? {
        guard let value, value.isFinite, (-127...0).contains(value) else { return nil }
        return Int8(value.rounded())
    }

    /// A distance or variance: finite, 0…10,000.
    static func checkNonNegative(_ value: Double?, member: String) throws(ForeignPayloadRefusal) {
        guard let value else { return }
        guard value.isFinite, (0...10_000).contains(value) else {
            throw ForeignPayloadRefusal(.outOfRange, "'\(member)' \(value) is not within 0…10000")
        }
    }

    /// A 16-bit identifier (major, minor): a whole number 0…65535.
    static func uint16(_ value: Double, member: String) throws(ForeignPayloadRefusal) -> UInt16 {
        guard value.isFinite, value == value.rounded(), (0...65535).contains(value) else {
            throw ForeignPayloadRefusal(.outOfRange, "'\(member)' \(value) is not a whole number 0…65535")
        }
        return UInt16(value)
    }

    /// The 16 bytes of a UUID written as 32 hex digits, with or without the four dashes.
    static func uuidWords(_ text: some StringProtocol) -> (high: UInt64, low: UInt64)? {
        let digits = String(text.filter { $0 != "-" })
        guard digits.count == 32, text.count == 32 || text.count == 36, digits.allSatisfy(\.isHexDigit),
            let high = UInt64(digits.prefix(16), radix: 16), let low = UInt64(digits.suffix(16), radix: 16)
        else { return nil }
        return (high, low)
    }

    /// Bytes from hex digits (no separators), at most `maxBytes`; `nil` for anything else.
    static func hexBytes(_ text: String, maxBytes: Int = 255) -> [UInt8]? {
        guard text.utf8.count / 2 <= maxBytes else { return nil }
        return HexDigits.bytes(text.utf8)
    }

    /// A MAC as ESPresense writes it (12 hex digits) or OpenMQTTGateway (`AA:BB:…`).
    static func address(_ text: String?) -> BluetoothAddress? {
        guard let text else { return nil }
        if text.utf8.count == 12, let bytes = hexBytes(text, maxBytes: 6) {
            return BluetoothAddress(rawValue: bytes.reduce(0) { $0 << 8 | UInt64($1) })
        }
        return BluetoothAddress(text)
    }
}
