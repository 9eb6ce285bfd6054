/// Why a record of a capture yielded no (or not all of its) advertising reports: a container
/// error, an HCI parse error or a sniffer-header / link-layer error, with the record it concerns.
public struct CaptureDecodeError: Error, Sendable, CustomStringConvertible {
    /// The layer that failed and its own error (whose offset is relative to that layer's input).
    public enum Cause: Sendable {
        /// The capture container (offsets are file offsets).
        case capture(CaptureError)
        /// The HCI event parser (offsets count from the H4 type byte of the record's packet).
        case hci(WireError)
        /// The sniffer header or link-layer packet (offsets count from the record's first byte).
        case linkLayer(LinkLayerError)
    }

    /// What failed.
    public let cause: Cause
    /// 0-based number of the record, when known.
    public let recordIndex: Int?
    /// File offset of the record (header), when known.
    public let recordOffset: Int?

    /// Creates a value.
    public init(cause: Cause, recordIndex: Int?, recordOffset: Int?) {
        self.cause = cause
        self.recordIndex = recordIndex
        self.recordOffset = recordOffset
    }

    /// A stable name for counting errors by kind, e.g. `capture.truncated`, `hci.truncatedReport`,
    /// `link_layer.truncatedPacket`.
    public var kindName: String {
        switch cause {
        case .capture(let error): "capture.\(error.kind.rawValue)"
        case .hci(let error): "hci.\(error.kind.rawValue)"
        case .linkLayer(let error): "link_layer.\(error.kind.rawValue)"
        }
    }

    public var description: String {
        switch cause {
        case .capture(let error):
            return error.description
        case .hci(let error):
            return "record \(recordIndex.map { String($0 + 1) } ?? "?") at file offset \(recordOffset ?? 0): HCI: \(error)"
        case .linkLayer(let error):
            return "record \(recordIndex.map { String($0 + 1) } ?? "?") at file offset \(recordOffset ?? 0): \(error)"
        }
    }
}
