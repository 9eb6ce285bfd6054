import FoundationEssentials

/// A beacon identity as a JSON object: the one encoding that alert events, ground truth and
/// scoring share.
///
/// - iBeacon: `{"uuid":"…","major":1,"minor":2}` (no `type`)
/// - AltBeacon: `{"type":"altbeacon","uuid":"…","major":1,"minor":2}` (id1, id2, id3)
/// - Eddystone-UID: `{"type":"eddystone-uid","namespace":"…","instance":"…"}` (20 and 12 hex digits)
/// - an enrolled device: `{"type":"device","device":"ada-phone"}`
extension BeaconID {
    /// Writes the identity as its JSON object (see the extension's summary for the three forms).
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            switch kind {
            case .iBeacon, .altBeacon:
                if kind == .altBeacon { json.member("type", kind.name) }
                json.member("uuid", uuid.uuidString)
                json.member("major", Int(major))
                json.member("minor", Int(minor))
            case .eddystoneUID:
                json.member("type", kind.name)
                json.member("namespace", eddystoneNamespaceHex)
                json.member("instance", eddystoneInstanceHex)
            case .device:
                json.member("type", kind.name)
                json.member("device", deviceName ?? "")
            }
        }
    }

    /// Reads the JSON object that ``writeJSON(to:)`` writes, as a JSON parser hands it over
    /// (`JSONSerialization`: strings and numbers by member name). Exactly those members are
    /// accepted: a missing, mistyped or extra member, or an unknown `type`, throws.
    public init(jsonObject object: [String: Any]) throws(BeaconIDJSONError) {
        let kind: Kind
        switch try Self.string("type", in: object, required: false) {
        case nil: kind = .iBeacon
        case Kind.altBeacon.name?: kind = .altBeacon
        case Kind.eddystoneUID.name?: kind = .eddystoneUID
        case Kind.device.name?: kind = .device
        case let other?: throw .unknownType(other)
        }
        let members: Set<String> =
            switch kind {
            case .eddystoneUID: ["type", "namespace", "instance"]
            case .device: ["type", "device"]
            case .iBeacon, .altBeacon: ["type", "uuid", "major", "minor"]
            }
        if let extra = object.keys.sorted().first(where: { !members.contains($0) }) {
            throw .unexpectedMember(extra, kind: kind)
        }
        switch kind {
        case .iBeacon, .altBeacon:
            let text = try Self.string("uuid", in: object)
            guard let uuid = UUID(uuidString: text) else {
                throw .invalidMember("uuid", value: Self.describe(text), expected: "a UUID")
            }
            let major = try Self.uint16("major", in: object)
            let minor = try Self.uint16("minor", in: object)
            self =
                kind == .iBeacon
                ? .iBeacon(uuid: uuid, major: major, minor: minor) : .altBeacon(id1: uuid, id2: major, id3: minor)
        case .eddystoneUID:
            let namespace = try Self.string("namespace", in: object)
            let instance = try Self.string("instance", in: object)
            guard namespace.count == 20, namespace.allSatisfy(\.isHexDigit) else {
                throw .invalidMember("namespace", value: Self.describe(namespace), expected: "20 hex digits")
            }
            guard instance.count == 12, instance.allSatisfy(\.isHexDigit) else {
                throw .invalidMember("instance", value: Self.describe(instance), expected: "12 hex digits")
            }
            self = BeaconID("\(kind.name):\(namespace):\(instance)")!
        case .device:
            let name = try Self.string("device", in: object)
            guard let device = BeaconID.device(named: name) else {
                throw .invalidMember(
                    "device", value: Self.describe(name), expected: "1 to 20 letters, digits, '-', '_' or '.'")
            }
            self = device
        }
    }

    private static func string(_ name: String, in object: [String: Any]) throws(BeaconIDJSONError) -> String {
        guard let text = try string(name, in: object, required: true) else { throw .missingMember(name) }
        return text
    }

    private static func string(_ name: String, in object: [String: Any], required: Bool) throws(BeaconIDJSONError)
        -> String?
    {
        guard let value = object[name] else {
            if required { throw .missingMember(name) }
            return nil
        }
        guard let text = value as? String else { throw .invalidMember(name, value: describe(value), expected: "a string") }
        return text
    }

    private static func uint16(_ name: String, in object: [String: Any]) throws(BeaconIDJSONError) -> UInt16 {
        guard let value = object[name] else { throw .missingMember(name) }
        // A JSON parser's whole numbers cast to Int; 1.5, "1" and out-of-range numbers do not fit.
        guard let number = (value as? Int).flatMap(UInt16.init(exactly:)) else {
            throw .invalidMember(name, value: describe(value), expected: "an integer from 0 to 65535")
        }
        return number
    }

    /// A member's value for an error: a string quoted, a number as it is.
    private static func describe(_ value: Any) -> String {
        if let text = value as? String { return "\"\(text)\"" }
        return "\(value)"
    }
}
