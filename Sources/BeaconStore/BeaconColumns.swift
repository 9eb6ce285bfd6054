import BeaconCore
import GRDB

/// A beacon identity as four integer columns: its kind and its three identity words (stored as
/// signed 64-bit bit patterns), which ``BeaconID``'s public constructors rebuild exactly.
struct BeaconColumns {
    var kind: Int64
    var high: Int64
    var low: Int64
    var tail: Int64

    init(kind: Int64, high: Int64, low: Int64, tail: Int64) {
        self.kind = kind
        self.high = high
        self.low = low
        self.tail = tail
    }

    init(_ beacon: BeaconID) {
        kind = Int64(beacon.kind.rawValue)
        high = Int64(bitPattern: beacon.high)
        low = Int64(bitPattern: beacon.low)
        tail = Int64(beacon.tail)
    }

    /// The values in column order.
    var values: [any DatabaseValueConvertible] { [kind, high, low, tail] }

    /// The identity, or `nil` for an unknown kind.
    var beacon: BeaconID? {
        let high = UInt64(bitPattern: high)
        let low = UInt64(bitPattern: low)
        let tail = UInt32(truncatingIfNeeded: tail)
        switch BeaconID.Kind(rawValue: UInt8(truncatingIfNeeded: kind)) {
        case .iBeacon:
            return .iBeacon(uuidHigh: high, uuidLow: low, major: UInt16(tail >> 16), minor: UInt16(tail & 0xFFFF))
        case .altBeacon:
            return .altBeacon(id1High: high, id1Low: low, id2: UInt16(tail >> 16), id3: UInt16(tail & 0xFFFF))
        case .eddystoneUID:
            return .eddystoneUID(
                namespaceHigh: UInt16(high >> 48), namespaceLow: high << 16 | low >> 48,
                instance: low & 0xFFFF_FFFF_FFFF)
        case .device:
            return .device(high: high, low: low, tail: tail)
        case nil:
            return nil
        }
    }
}
