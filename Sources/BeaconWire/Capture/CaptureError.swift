/// A capture file, or one record of it, that cannot be read as it claims to be.
///
/// File-level errors (``Kind/unreadableFile``, ``Kind/badMagic``, ``Kind/unsupportedVersion``,
/// ``Kind/unknownDatalink``) stop reading before the first record. Record-level errors carry the
/// byte offset of the offending record or block in the file and up to sixteen of its bytes;
/// readers skip the bad record and continue where the container allows it. Creating one never
/// allocates (the bytes are held inline); only `path` and `systemMessage` for file-level
/// errors are strings.
public struct CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The file could not be opened or read (missing, no permission, a directory …).
        case unreadableFile
        /// The file starts with neither the btsnoop, pcap nor pcapng magic.
        case badMagic
        /// A btsnoop version other than 1, or a pcap / pcapng major version the reader does not know.
        case unsupportedVersion
        /// A btsnoop datalink this reader does not support (only 1001, 1002 and 2001 are).
        case unknownDatalink
        /// The file ends inside a file header, record header or block.
        case truncated
        /// A record or block whose length fields contradict each other or the format's limits.
        case badLength
        /// A pcapng block that refers to an interface no Interface Description Block declared.
        case unknownInterface
        /// A record of a link type this reader cannot turn into HCI or link-layer bytes.
        case unsupportedLinkType
    }

    /// What is wrong.
    public let kind: Kind
    /// Byte offset in the file of the record, block or header at fault (0 for file-level errors).
    public let offset: Int
    /// The 0-based number of the record at fault, or `nil` for file-level errors.
    public let recordIndex: Int?
    /// Whether reading could not start at all (as opposed to one bad record).
    public let isFileLevel: Bool
    /// A detail for humans: the path for file errors, the conflicting values otherwise.
    public let detail: String
    private let low: UInt64
    private let high: UInt64
    private let count: UInt8

    /// Creates an error showing up to sixteen bytes of `window` (the bytes at `offset`).
    public init(
        _ kind: Kind, offset: Int, recordIndex: Int? = nil, window: UnsafeRawBufferPointer,
        detail: String = "", isFileLevel: Bool = false
    ) {
        self.kind = kind
        self.isFileLevel = isFileLevel
        self.offset = offset
        self.recordIndex = recordIndex
        self.detail = detail
        var low: UInt64 = 0
        var high: UInt64 = 0
        let count = min(16, window.count)
        for i in 0..<count {
            if i < 8 { low |= UInt64(window[i]) << UInt64(8 * i) } else { high |= UInt64(window[i]) << UInt64(8 * (i - 8)) }
        }
        self.low = low
        self.high = high
        self.count = UInt8(count)
    }

    /// Creates an error showing up to sixteen bytes of `file` starting at `offset`.
    init(
        _ kind: Kind, at offset: Int, recordIndex: Int? = nil, in file: UnsafeRawBufferPointer,
        detail: String = "", isFileLevel: Bool = false
    ) {
        self.init(
            kind, offset: offset, recordIndex: recordIndex,
            window: file.clampedSlice(from: offset, count: 16), detail: detail, isFileLevel: isFileLevel)
    }

    /// A file-level error that shows no bytes: the file at `path` could not be opened or read
    /// (the caller names the path in its own message).
    init(unreadable path: String, reason: String) {
        self.init(
            .unreadableFile, offset: 0, window: UnsafeRawBufferPointer(start: nil, count: 0),
            detail: reason, isFileLevel: true)
    }

    /// Up to sixteen bytes of the file starting at ``offset`` (fewer when the file ended).
    public var bytes: [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let word: UInt64 = i < 8 ? low : high
            let shift = UInt64(8 * (i % 8))
            result.append(UInt8(truncatingIfNeeded: word >> shift))
        }
        return result
    }

    /// What is wrong, where, the offending bytes and what to do.
    public var description: String {
        let digits = Array("0123456789abcdef")
        let hex = bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined(separator: " ")
        var text = explanation
        if !detail.isEmpty { text += " (\(detail))" }
        if kind != .unreadableFile {
            if let recordIndex { text += " in record \(recordIndex + 1)" }
            text += " at offset \(offset) (bytes: \(hex.isEmpty ? "none" : hex))"
        }
        return text + "; " + advice
    }

    private var explanation: String {
        switch kind {
        case .unreadableFile: "cannot read the capture file"
        case .badMagic: "not a capture file: no btsnoop, pcap or pcapng magic"
        case .unsupportedVersion: "unsupported capture format version"
        case .unknownDatalink: "unsupported btsnoop datalink"
        case .truncated: "the file ends inside a header or record"
        case .badLength: "record or block length fields are inconsistent"
        case .unknownInterface: "packet block refers to an undeclared interface"
        case .unsupportedLinkType: "unsupported link type"
        }
    }

    private var advice: String {
        switch kind {
        case .unreadableFile: "check the path and its permissions"
        case .badMagic: "give a btsnoop (btmon -w, Android HCI snoop), pcap or pcapng file"
        case .unsupportedVersion, .unknownDatalink:
            "convert it with `tshark -r IN -w OUT -F pcapng` or record with `btmon -w`"
        case .truncated: "the capture was cut short; records before this point were read"
        case .badLength: "the record is skipped and reading resumes at the next plausible record"
        case .unknownInterface: "the record is skipped"
        case .unsupportedLinkType:
            "only HCI H4 (187, 201, 254) and LE sniffer (256, 272) captures are decoded; other records are skipped"
        }
    }
}
