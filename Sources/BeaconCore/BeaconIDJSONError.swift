/// Why a JSON object is not a beacon identity in the form ``BeaconID/writeJSON(to:)`` writes.
public enum BeaconIDJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A member the identity's kind needs is absent.
    case missingMember(String)
    /// A member has the wrong type or value: its name, the offending value and what was expected.
    case invalidMember(String, value: String, expected: String)
    /// A member that the identity's kind does not have (an iBeacon is read when `type` is absent).
    case unexpectedMember(String, kind: BeaconID.Kind)
    /// `type` is neither `altbeacon` nor `eddystone-uid` (an iBeacon has no `type`).
    case unknownType(String)

    public var description: String {
        let forms =
            #"expected {"uuid","major","minor"} (iBeacon), {"type":"altbeacon","uuid","major","minor"} or "#
            + #"{"type":"eddystone-uid","namespace","instance"}"#
        return switch self {
        case .missingMember(let name):
            "beacon identity: missing \"\(name)\"; \(forms)"
        case let .invalidMember(name, value, expected):
            "beacon identity: \"\(name)\" is \(value); expected \(expected)"
        case let .unexpectedMember(name, kind):
            "beacon identity: unexpected \"\(name)\" in an \(kind.name) identity; \(forms)"
        case .unknownType(let type):
            "beacon identity: unknown \"type\" \"\(type)\"; an iBeacon has no \"type\", else \"altbeacon\" or \"eddystone-uid\""
        }
    }
}
