/// A gateway report a hub would not fuse, and why. Nothing of a refused report is used: no
/// record, no clock sample that could move the gateway's clock, no time that could advance the
/// hub's.
public struct ReportRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why a report was refused: the label of `beacond_site_reports_refused_total`.
    public enum Reason: String, CaseIterable, Hashable, Sendable {
        /// Not a complete and valid report in either format.
        case malformed
        /// From a gateway id that is not in the site's `gateways:`.
        case unknownGateway = "unknown_gateway"
        /// Its topic is not the site's records topic, or names another gateway than the report.
        case wrongTopic = "wrong_topic"
        /// Its topic's bucket is not one this hub takes, or a record's beacon belongs to another
        /// bucket than its topic's.
        case wrongBucket = "wrong_bucket"
        /// A value no radio produces (an RSSI above +20 or below −127 dBm, a negative distance …).
        case outOfRange = "out_of_range"
        /// More records than `hub.maxRecordsPerReport`.
        case tooManyRecords = "too_many_records"
        /// A time the gateway's other reports contradict (from the future of its clock).
        case clock
        /// Not signed, from a gateway whose reports must be (it has a `key:`).
        case unsigned
        /// Signed, but not with its gateway's key (forged or damaged).
        case badSignature = "bad_signature"
        /// Signed with a sequence the hub has taken already, or from outside `hub.signatureWindow`.
        case replayed
        /// Dropped before fusion: the hub's queue was full (it fell behind).
        case queueFull = "queue_full"
    }

    /// Why.
    public var reason: Reason
    /// The gateway the report claims to come from, when it could be read.
    public var gateway: String?
    /// What exactly was wrong.
    public var detail: String

    /// Creates a refusal.
    public init(_ reason: Reason, gateway: String? = nil, _ detail: String) {
        self.reason = reason
        self.gateway = gateway
        self.detail = detail
    }

    public var description: String {
        let from = gateway.map { "report from gateway '\($0)'" } ?? "report"
        return "\(from) refused (\(reason.rawValue)): \(detail)"
    }
}
