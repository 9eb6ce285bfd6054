import BeaconCore
import FoundationEssentials

/// The members of a record's identity object, read in place, and the identity they name — with
/// the checks and errors of `BeaconID(jsonObject:)`, the identity's one reader elsewhere.
struct BeaconMembers {
    private static let names = JSONCursor.Names(["type", "uuid", "major", "minor", "namespace", "instance", "device"])

    var type: JSONCursor.Text?
    var uuid: JSONCursor.Text?
    var major: Int?
    var minor: Int?
    var namespace: JSONCursor.Text?
    var instance: JSONCursor.Text?
    var device: JSONCursor.Text?

    /// Reads an identity object: its JSON must be right (else it throws); the identity it names
    /// may still be wrong (the failure).
    static func read(_ cursor: inout JSONCursor) throws(GatewayReportError) -> Result<BeaconID, BeaconIDJSONError> {
        var members = BeaconMembers()
        // A member may come twice (the first counts) or be `null` (absent).
        var seen: UInt8 = 0
        try cursor.forEachMember { (cursor: inout JSONCursor, key) throws(GatewayReportError) in
            guard let index = cursor.index(of: key, in: names), seen & 1 << index == 0 else {
                try cursor.skipValue(depth: 4)
                return
            }
            seen |= 1 << index
            if try cursor.takeNull() { return }
            switch index {
            case 0: members.type = try cursor.text()
            case 1: members.uuid = try cursor.text()
            case 2: members.major = try cursor.integer()
            case 3: members.minor = try cursor.integer()
            case 4: members.namespace = try cursor.text()
            case 5: members.instance = try cursor.text()
            default: members.device = try cursor.text()
            }
        }
        do throws(BeaconIDJSONError) {
            return .success(try members.identity(cursor))
        } catch {
            return .failure(error)
        }
    }

    /// The identity, checked as `BeaconID(jsonObject:)` checks it (in its order).
    func identity(_ cursor: JSONCursor) throws(BeaconIDJSONError) -> BeaconID {
        let kind: BeaconID.Kind
        if let type {
            if cursor.equals(type, "altbeacon") {
                kind = .altBeacon
            } else if cursor.equals(type, "eddystone-uid") {
                kind = .eddystoneUID
            } else if cursor.equals(type, "device") {
                kind = .device
            } else {
                throw .unknownType(cursor.string(type))
            }
        } else {
            kind = .iBeacon
        }
        // The first member, in sorted order, that this kind does not have.
        let extra: String? =
            switch kind {
            case .eddystoneUID:
                device != nil ? "device" : major != nil ? "major" : minor != nil ? "minor" : uuid != nil ? "uuid" : nil
            case .device:
                instance != nil
                    ? "instance"
                    : major != nil
                        ? "major" : minor != nil ? "minor" : namespace != nil ? "namespace" : uuid != nil ? "uuid" : nil
            case .iBeacon, .altBeacon:
                device != nil ? "device" : instance != nil ? "instance" : namespace != nil ? "namespace" : nil
            }
        if let extra { throw .unexpectedMember(extra, kind: kind) }
        switch kind {
        case .iBeacon, .altBeacon:
            guard let uuid else { throw .missingMember("uuid") }
            guard let (high, low) = Self.uuidWords(uuid, cursor) else {
                throw .invalidMember("uuid", value: "\"\(cursor.string(uuid))\"", expected: "a UUID")
            }
            let major = try Self.uint16("major", major)
            let minor = try Self.uint16("minor", minor)
            return kind == .iBeacon
                ? .iBeacon(uuidHigh: high, uuidLow: low, major: major, minor: minor)
                : .altBeacon(id1High: high, id1Low: low, id2: major, id3: minor)
        case .eddystoneUID:
            guard let namespace else { throw .missingMember("namespace") }
            guard let instance else { throw .missingMember("instance") }
            guard let namespaceDigits = Self.hex(namespace, digits: 20, cursor) else {
                throw .invalidMember("namespace", value: "\"\(cursor.string(namespace))\"", expected: "20 hex digits")
            }
            guard let instanceDigits = Self.hex(instance, digits: 12, cursor) else {
                throw .invalidMember("instance", value: "\"\(cursor.string(instance))\"", expected: "12 hex digits")
            }
            return .eddystoneUID(
                namespaceHigh: UInt16(truncatingIfNeeded: namespaceDigits.high),
                namespaceLow: namespaceDigits.low, instance: instanceDigits.low)
        case .device:
            guard let device else { throw .missingMember("device") }
            guard let id = BeaconID.device(named: cursor.string(device)) else {
                throw .invalidMember(
                    "device", value: "\"\(cursor.string(device))\"", expected: "1 to 20 letters, digits, '-', '_' or '.'")
            }
            return id
        }
    }

    private static func uint16(_ name: String, _ value: Int?) throws(BeaconIDJSONError) -> UInt16 {
        guard let value else { throw .missingMember(name) }
        guard let number = UInt16(exactly: value) else {
            throw .invalidMember(name, value: "\(value)", expected: "an integer from 0 to 65535")
        }
        return number
    }

    /// A UUID's two big-endian words: read in place when it is in the canonical 8-4-4-4-12 form
    /// (either case), else by `UUID(uuidString:)`.
    private static func uuidWords(_ text: JSONCursor.Text, _ cursor: JSONCursor) -> (UInt64, UInt64)? {
        let bytes = cursor.bytes
        let s = text.start
        if !text.escaped, text.end - s == 36, bytes[s + 8] == 0x2D, bytes[s + 13] == 0x2D, bytes[s + 18] == 0x2D,
            bytes[s + 23] == 0x2D
        {
            // 8-4-4-4-12: the 4-digit groups as the two halves of one load.
            let group1 = hex8(bytes.loadUnaligned(fromByteOffset: s, as: UInt64.self).littleEndian)
            let middle = hex8(
                UInt64(bytes.loadUnaligned(fromByteOffset: s + 9, as: UInt32.self).littleEndian)
                    | UInt64(bytes.loadUnaligned(fromByteOffset: s + 14, as: UInt32.self).littleEndian) << 32)
            let group4 = hex8(
                UInt64(bytes.loadUnaligned(fromByteOffset: s + 19, as: UInt32.self).littleEndian)
                    | UInt64(bytes.loadUnaligned(fromByteOffset: s + 24, as: UInt32.self).littleEndian) << 32)
            let last = hex8(bytes.loadUnaligned(fromByteOffset: s + 28, as: UInt64.self).littleEndian)
            if let group1, let middle, let group4, let last {
                return (
                    UInt64(group1) << 32 | UInt64(middle),
                    UInt64(group4) << 32 | UInt64(last)
                )
            }
        }
        guard let uuid = UUID(uuidString: cursor.string(text)) else { return nil }
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    /// Eight ASCII hex digits (either case; the first in the low byte) as their 32-bit value, or
    /// `nil` when one is not a hex digit.
    @inline(__always)
    static func hex8(_ word: UInt64) -> UInt32? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard word & high == 0 else { return nil }
        // Per lane (all below 0x80, so no carries): top bit set where lane >= k is lane + (0x80 - k).
        let digit = (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x80 - 0x3A)) & high
        let lower = word | (ones &* 0x20)
        let letter = (lower &+ ones &* (0x80 - 0x61)) & ~(lower &+ ones &* (0x80 - 0x67)) & high
        guard digit | letter == high else { return nil }
        let nibbles = (word & (ones &* 0x0F)) &+ (letter >> 7) &* 9
        // Pairs of nibbles into bytes, then the four bytes together; the first digit is the top.
        let pairs = (nibbles & 0x000F_000F_000F_000F) << 4 | (nibbles >> 8) & 0x000F_000F_000F_000F
        let packed = pairs & 0xFF | (pairs >> 8) & 0xFF00 | (pairs >> 16) & 0xFF_0000 | (pairs >> 24) & 0xFF00_0000
        return UInt32(truncatingIfNeeded: packed).byteSwapped
    }

    /// `digits` ASCII hex digits (at most 32) as a 128-bit number's two words.
    private static func hex(_ text: JSONCursor.Text, digits: Int, _ cursor: JSONCursor) -> (high: UInt64, low: UInt64)? {
        if text.escaped { return hex(cursor.utf8(text), digits: digits) }
        return hex(UnsafeRawBufferPointer(rebasing: cursor.bytes[text.start..<text.end]), digits: digits)
    }

    private static func hex(_ bytes: some Collection<UInt8>, digits: Int) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == digits else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for byte in bytes {
            guard let digit = JSONCursor.hexValue(byte) else { return nil }
            high = high << 4 | low >> 60
            low = low << 4 | UInt64(digit)
        }
        return (high, low)
    }
}
