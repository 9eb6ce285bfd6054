import BeaconCore
import FoundationEssentials

/// The frame a simulated beacon broadcasts and the identity it carries.
public enum BeaconIdentity: Hashable, Sendable {
    /// Apple iBeacon: proximity UUID, major, minor.
    case iBeacon(uuid: UUID, major: UInt16, minor: UInt16)
    /// AltBeacon: id1 (16 bytes), id2, id3, under a manufacturer id (Radius Networks' 0x0118 by default).
    case altBeacon(id1: UUID, id2: UInt16, id3: UInt16, manufacturer: UInt16)
    /// Eddystone-UID: 10-byte namespace and 6-byte instance (low 80 / 48 bits of the values).
    case eddystoneUID(namespace: [UInt8], instance: [UInt8])
    /// A phone or watch: no beacon frame, a resolvable private address that changes every
    /// `rotation`, made with its identity resolving key (`irk`, 16 bytes most significant first;
    /// `nil`: a stranger's phone, with a key of its own that nobody enrolled). Its identity is
    /// `device:NAME`, what a gateway that has the key enrolled under that name ranges it as.
    case phone(name: String, irk: [UInt8]?, rotation: Duration)

    /// The identity as Core's `BeaconID` (what the parser will report).
    public var beaconID: BeaconID {
        switch self {
        case let .iBeacon(uuid, major, minor):
            return .iBeacon(uuid: uuid, major: major, minor: minor)
        case let .altBeacon(id1, id2, id3, _):
            return .altBeacon(id1: id1, id2: id2, id3: id3)
        case let .eddystoneUID(namespace, instance):
            let nsHigh = UInt16(namespace[0]) << 8 | UInt16(namespace[1])
            let nsLow = namespace[2...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let inst = instance.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .eddystoneUID(namespaceHigh: nsHigh, namespaceLow: nsLow, instance: inst)
        case let .phone(name, _, _):
            // The scenario reader accepts only names a device identity can hold.
            return .device(named: name)!
        }
    }

    /// This identity with its last number increased by `offset` (minor, id3, or instance):
    /// how `count:` groups give each member its own identity.
    public func offset(by offset: Int) -> BeaconIdentity {
        switch self {
        case let .iBeacon(uuid, major, minor):
            return .iBeacon(uuid: uuid, major: major, minor: minor &+ UInt16(truncatingIfNeeded: offset))
        case let .altBeacon(id1, id2, id3, manufacturer):
            return .altBeacon(
                id1: id1, id2: id2, id3: id3 &+ UInt16(truncatingIfNeeded: offset),
                manufacturer: manufacturer)
        case let .eddystoneUID(namespace, instance):
            var value = instance.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } &+ UInt64(offset)
            var bytes = [UInt8](repeating: 0, count: 6)
            for i in (0..<6).reversed() {
                bytes[i] = UInt8(truncatingIfNeeded: value)
                value >>= 8
            }
            return .eddystoneUID(namespace: namespace, instance: bytes)
        case .phone:
            // Members of a group of phones are renamed by the scenario reader.
            return self
        }
    }
}
