import BeaconSiteReport

/// A foreign node's message that is not what its kind sends: not JSON, a member of the wrong
/// type, an RSSI no radio reports, a malformed beacon id, too large. Nothing of it is fused.
public struct ForeignPayloadRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, in the terms of the hub's refusal counter (`beacond_site_reports_refused_total`).
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// Not JSON, not an object, a member missing or of the wrong type, an id of a known
        /// form that does not parse, more than ``ForeignPayloadRefusal/maxPayloadBytes``.
        case malformed
        /// A value no radio produces (RSSI outside −127…+20 dBm, a negative distance …).
        case outOfRange = "out_of_range"
        /// The payload contradicts its topic (another device id than the topic's).
        case wrongTopic = "wrong_topic"
    }

    /// The largest payload taken (bytes): the firmwares send a few hundred.
    public static let maxPayloadBytes = 4096

    /// Why.
    public var reason: Reason
    /// What exactly was wrong (the member, the value).
    public var detail: String

    /// Creates a refusal.
    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue): \(detail)" }

    /// The refusal as the hub counts and logs it, for the node `gateway`.
    public func reportRefusal(gateway: String, kind: ForeignNodeKind) -> ReportRefusal {
        let counted: ReportRefusal.Reason =
            switch reason {
            case .malformed: .malformed
            case .outOfRange: .outOfRange
            case .wrongTopic: .wrongTopic
            }
        return ReportRefusal(counted, gateway: gateway, "\(kind.rawValue) message: \(detail)")
    }
}
