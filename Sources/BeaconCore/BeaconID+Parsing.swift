import FoundationEssentials

extension BeaconID {
    /// Reads an identity in the form ``description`` writes it: `ibeacon:UUID:major:minor`,
    /// `altbeacon:UUID:id2:id3`, `eddystone-uid:NAMESPACE:INSTANCE` (20 and 12 hex digits) or
    /// `device:NAME` (the name is case-sensitive).
    /// A bare `UUID:major:minor` is an iBeacon. Case does not matter; `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        var parts = String(text).split(separator: ":", omittingEmptySubsequences: false).map { String($0) }
        var kind = Kind.iBeacon
        if let first = parts.first, let named = Kind.allCases.first(where: { $0.name == first.lowercased() }) {
            kind = named
            parts.removeFirst()
        }
        switch kind {
        case .iBeacon, .altBeacon:
            guard parts.count == 3, let uuid = UUID(uuidString: parts[0]),
                let major = UInt16(parts[1]), let minor = UInt16(parts[2])
            else { return nil }
            self =
                kind == .iBeacon
                ? .iBeacon(uuid: uuid, major: major, minor: minor)
                : .altBeacon(id1: uuid, id2: major, id3: minor)
        case .eddystoneUID:
            guard parts.count == 2, parts[0].count == 20, parts[1].count == 12,
                parts.allSatisfy({ part in part.allSatisfy { $0.isHexDigit } }),
                let namespaceHigh = UInt16(parts[0].prefix(4), radix: 16),
                let namespaceLow = UInt64(parts[0].suffix(16), radix: 16),
                let instance = UInt64(parts[1], radix: 16)
            else { return nil }
            self = .eddystoneUID(namespaceHigh: namespaceHigh, namespaceLow: namespaceLow, instance: instance)
        case .device:
            guard parts.count == 1, let device = BeaconID.device(named: parts[0]) else { return nil }
            self = device
        }
    }
}
