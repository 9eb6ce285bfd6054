/// Why a received gateway report was refused (nothing of it is used).
public enum GatewayReportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Shorter than its header or its records say.
    case truncated(expected: Int, got: Int)
    /// Longer than its records say.
    case trailingBytes(Int)
    /// Not a gateway report at all.
    case notAReport
    /// A version this hub does not read.
    case unsupportedVersion(Int)
    /// A field holds an impossible value.
    case invalidField(String)

    public var description: String {
        switch self {
        case .truncated(let expected, let got):
            "truncated gateway report: \(got) bytes where \(expected) are needed"
        case .trailingBytes(let count):
            "gateway report has \(count) bytes after its last record"
        case .notAReport:
            "not a gateway report (neither the binary format nor JSON): is something else publishing under the site's records topic?"
        case .unsupportedVersion(let version):
            "gateway report version \(version); this hub reads version \(GatewayReportEncoder.version): upgrade the hub before the gateways"
        case .invalidField(let message):
            "invalid gateway report: \(message)"
        }
    }
}
