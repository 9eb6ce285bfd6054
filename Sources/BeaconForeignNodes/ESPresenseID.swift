import BeaconCore

/// The device ids an ESPresense node gives beacons (`BleFingerprint::fingerprint…` in the
/// firmware), mapped onto ``BeaconCore/BeaconID`` where they carry one:
///
/// - `iBeacon:<uuid>-<major>-<minor>`: the UUID lowercase with dashes, major and minor in
///   decimal (`%u`, never negative);
/// - `altBeacon:<id1>-<id2>-<id3>`: the same layout;
/// - `eddy:<namespace>-<instance>`: Eddystone-UID, where the firmware writes the namespace's
///   fifth byte twice (22 hex digits for 10 bytes); the repeat is dropped. 20 digits are taken too.
///
/// Every other form (`apple:…`, `name:…`, a bare MAC, `sd:…`, `md:…`, `tile:…` …) names no
/// beacon identity.
enum ESPresenseID {
    enum Parsed: Hashable {
        case beacon(BeaconID)
        case other
    }

    static func parse(_ id: String) throws(ForeignPayloadRefusal) -> Parsed {
        if let rest = dropPrefix("iBeacon:", of: id) {
            let (high, low, major, minor) = try uuidMajorMinor(rest, id: id)
            return .beacon(.iBeacon(uuidHigh: high, uuidLow: low, major: major, minor: minor))
        }
        if let rest = dropPrefix("altBeacon:", of: id) {
            let (high, low, id2, id3) = try uuidMajorMinor(rest, id: id)
            return .beacon(.altBeacon(id1High: high, id1Low: low, id2: id2, id3: id3))
        }
        if let rest = dropPrefix("eddy:", of: id) {
            return .beacon(try eddystone(rest, id: id))
        }
        return .other
    }

    private static func dropPrefix(_ prefix: String, of id: String) -> Substring? {
        guard id.utf8.count > prefix.utf8.count, id.lowercased().hasPrefix(prefix.lowercased()) else { return nil }
        return id.dropFirst(prefix.count)
    }

    private static func uuidMajorMinor(
        _ text: Substring, id: String
    ) throws(ForeignPayloadRefusal) -> (UInt64, UInt64, UInt16, UInt16) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 7, let words = ForeignValues.uuidWords(parts[0..<5].joined(separator: "-")),
            let major = UInt16(parts[5]), let minor = UInt16(parts[6])
        else {
            throw ForeignPayloadRefusal(
                .malformed, "id '\(id.prefix(120))' is not <uuid>-<major>-<minor> (major and minor 0…65535)")
        }
        return (words.high, words.low, major, minor)
    }

    private static func eddystone(_ text: Substring, id: String) throws(ForeignPayloadRefusal) -> BeaconID {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let bad = ForeignPayloadRefusal(
            .malformed, "id '\(id.prefix(120))' is not eddy:<namespace, 20 or 22 hex digits>-<instance, 12 hex digits>")
        guard parts.count == 2, parts[1].count == 12, parts.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { throw bad }
        var namespace = String(parts[0])
        if namespace.count == 22 {
            // The firmware prints byte 6 of the frame twice: hex digits 8–9 and 10–11 are the same byte.
            let chars = Array(namespace)
            guard chars[8] == chars[10], chars[9] == chars[11] else { throw bad }
            namespace = String(chars[0..<10] + chars[12...])
        }
        guard namespace.count == 20, let high = UInt16(namespace.prefix(4), radix: 16),
            let low = UInt64(namespace.suffix(16), radix: 16), let instance = UInt64(parts[1], radix: 16)
        else { throw bad }
        return .eddystoneUID(namespaceHigh: high, namespaceLow: low, instance: instance)
    }
}
