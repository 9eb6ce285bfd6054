import FoundationEssentials

/// The identity of a beacon, independent of the (possibly rotating) addresses it advertises from.
///
/// Three frame families carry an identity: iBeacon (proximity UUID, major, minor), AltBeacon
/// (a 20-byte beacon id, conventionally read as a 16-byte id1 plus 2-byte id2 and id3, the same
/// shape as iBeacon) and Eddystone-UID (10-byte namespace, 6-byte instance). A fourth kind is not
/// in the frame: an enrolled device (a phone, a watch) whose private addresses resolve under its
/// key, named by the name it is enrolled under (``device(named:)``). The value is stored
/// inline in three words so that hashing and comparing cost a few instructions on the hot path.
public struct BeaconID: Hashable, Sendable, Comparable {
    /// The frame family an identity comes from.
    public enum Kind: UInt8, Hashable, Sendable, Comparable, CaseIterable {
        case iBeacon = 0
        case altBeacon = 1
        case eddystoneUID = 2
        /// A phone, watch or other device recognised by its identity resolving key: its identity
        /// is the name it is enrolled under (``BeaconID/device(named:)``).
        case device = 3

        public var name: String {
            switch self {
            case .iBeacon: "ibeacon"
            case .altBeacon: "altbeacon"
            case .eddystoneUID: "eddystone-uid"
            case .device: "device"
            }
        }

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// Which frame family this identity comes from.
    public let kind: Kind
    /// Bytes 0–7 of the identity, big-endian (first byte in the top bits).
    public let high: UInt64
    /// Bytes 8–15 of the identity, big-endian.
    public let low: UInt64
    /// Bytes 16–19 of the identity, big-endian (iBeacon/AltBeacon: major << 16 | minor; Eddystone: 0).
    public let tail: UInt32

    /// Compares the three words and the kind, inlined where identities are compared per beacon
    /// per cycle (the derived `==` is a call across modules).
    @inlinable
    public static func == (a: BeaconID, b: BeaconID) -> Bool {
        a.high == b.high && a.low == b.low && a.tail == b.tail && a.kind.rawValue == b.kind.rawValue
    }

    @inlinable
    init(kind: Kind, high: UInt64, low: UInt64, tail: UInt32) {
        self.kind = kind
        self.high = high
        self.low = low
        self.tail = tail
    }

    /// An iBeacon identity from its 16 UUID bytes as two big-endian words.
    @inlinable
    public static func iBeacon(uuidHigh: UInt64, uuidLow: UInt64, major: UInt16, minor: UInt16) -> BeaconID {
        BeaconID(kind: .iBeacon, high: uuidHigh, low: uuidLow, tail: UInt32(major) << 16 | UInt32(minor))
    }

    /// An iBeacon identity.
    public static func iBeacon(uuid: UUID, major: UInt16, minor: UInt16) -> BeaconID {
        let (h, l) = uuid.words
        return .iBeacon(uuidHigh: h, uuidLow: l, major: major, minor: minor)
    }

    /// An AltBeacon identity from its 20-byte beacon id split as id1 (16 bytes), id2, id3.
    @inlinable
    public static func altBeacon(id1High: UInt64, id1Low: UInt64, id2: UInt16, id3: UInt16) -> BeaconID {
        BeaconID(kind: .altBeacon, high: id1High, low: id1Low, tail: UInt32(id2) << 16 | UInt32(id3))
    }

    /// An AltBeacon identity.
    public static func altBeacon(id1: UUID, id2: UInt16, id3: UInt16) -> BeaconID {
        let (h, l) = id1.words
        return .altBeacon(id1High: h, id1Low: l, id2: id2, id3: id3)
    }

    /// An Eddystone-UID identity: `namespace` is the 10-byte namespace in the low 80 bits
    /// (given as its top 2 bytes and low 8 bytes), `instance` the 6-byte instance in the low 48 bits.
    @inlinable
    public static func eddystoneUID(namespaceHigh: UInt16, namespaceLow: UInt64, instance: UInt64) -> BeaconID {
        // Layout: namespace bytes 0..9 then instance bytes 0..5, as 16 big-endian bytes.
        let high = UInt64(namespaceHigh) << 48 | namespaceLow >> 16
        let low = (namespaceLow & 0xFFFF) << 48 | (instance & 0xFFFF_FFFF_FFFF)
        return BeaconID(kind: .eddystoneUID, high: high, low: low, tail: 0)
    }

    /// The 16 leading identity bytes as a UUID: the proximity UUID of an iBeacon, id1 of an
    /// AltBeacon, namespace followed by instance for Eddystone-UID.
    public var uuid: UUID { UUID(words: (high, low)) }

    /// iBeacon major / AltBeacon id2 (0 for Eddystone).
    @inlinable public var major: UInt16 { UInt16(truncatingIfNeeded: tail >> 16) }
    /// iBeacon minor / AltBeacon id3 (0 for Eddystone).
    @inlinable public var minor: UInt16 { UInt16(truncatingIfNeeded: tail) }

    /// Eddystone namespace (10 bytes) as 20 lower-case hex digits.
    public var eddystoneNamespaceHex: String {
        hexString(high, bytes: 8) + hexString(low >> 48, bytes: 2)
    }

    /// Eddystone instance (6 bytes) as 12 lower-case hex digits.
    public var eddystoneInstanceHex: String { hexString(low & 0xFFFF_FFFF_FFFF, bytes: 6) }

    public static func < (a: BeaconID, b: BeaconID) -> Bool {
        (a.kind, a.high, a.low, a.tail) < (b.kind, b.high, b.low, b.tail)
    }
}

extension BeaconID: CustomStringConvertible {
    /// `ibeacon:UUID:major:minor`, `altbeacon:UUID:id2:id3`, `eddystone-uid:namespace:instance` or
    /// `device:NAME`.
    public var description: String {
        switch kind {
        case .iBeacon, .altBeacon: "\(kind.name):\(uuid.uuidString):\(major):\(minor)"
        case .eddystoneUID: "\(kind.name):\(eddystoneNamespaceHex):\(eddystoneInstanceHex)"
        case .device: "\(kind.name):\(deviceName ?? "")"
        }
    }
}

func hexString(_ value: UInt64, bytes: Int) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes * 2)
    for i in (0..<(bytes * 2)).reversed() {
        out.append(digits[Int((value >> UInt64(4 * i)) & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
}

extension UUID {
    /// The 16 bytes as two big-endian words.
    @usableFromInline
    var words: (UInt64, UInt64) {
        let u = uuid
        let h = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let l = [u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (h, l)
    }

    /// A UUID from two big-endian words.
    init(words: (UInt64, UInt64)) {
        func b(_ w: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: w >> UInt64(56 - 8 * i)) }
        let (h, l) = words
        self.init(
            uuid: (
                b(h, 0), b(h, 1), b(h, 2), b(h, 3), b(h, 4), b(h, 5), b(h, 6), b(h, 7),
                b(l, 0), b(l, 1), b(l, 2), b(l, 3), b(l, 4), b(l, 5), b(l, 6), b(l, 7)
            ))
    }
}
