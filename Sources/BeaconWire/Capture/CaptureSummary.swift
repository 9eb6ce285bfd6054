/// What decoding a capture found: how many records, how many advertising reports, and the
/// errors by kind (``CaptureDecodeError/kindName``).
public struct CaptureSummary: Hashable, Sendable {
    /// Records (packets) read from the container, well-formed or not.
    public var recordsRead = 0
    /// Advertising reports and sniffer advertising PDUs delivered.
    public var advertisingReports = 0
    /// Errors by kind name.
    public var errorsByKind: [String: Int] = [:]

    /// Creates an empty summary.
    public init() {}

    /// All errors.
    public var errorCount: Int { errorsByKind.values.reduce(0, +) }

    /// Adds another file's counts to these.
    public mutating func add(_ other: CaptureSummary) {
        recordsRead += other.recordsRead
        advertisingReports += other.advertisingReports
        errorsByKind.merge(other.errorsByKind, uniquingKeysWith: +)
    }

    /// One line: `records 412, advertising reports 412, errors 0` plus ` (kind: n, …)`.
    public var line: String {
        var text = "records \(recordsRead), advertising reports \(advertisingReports), errors \(errorCount)"
        if !errorsByKind.isEmpty {
            text += " (" + errorsByKind.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }
}
