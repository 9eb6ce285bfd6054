/// A malformed or unexpected piece of input found while framing or parsing HCI / AD bytes.
///
/// Every error says what is wrong (`kind`), where (`offset`, in bytes from the start of the
/// buffer the parser was given — the stream for ``H4Framer``, the H4 packet for
/// ``HCIEventParser``, the AD payload for ``ADStructureIterator``) and shows up to eight of the
/// offending bytes. Creating one never allocates: the bytes are held inline.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// An H4 packet-type byte that is not 0x01…0x05 (the stream is out of step or not H4).
        case unknownPacketType
        /// An H4 packet whose header announces more bytes than the configured maximum.
        case oversizedPacket
        /// A packet that ends before its header or its announced length says it should.
        case truncatedPacket
        /// A packet with bytes beyond its announced length.
        case packetLengthMismatch
        /// An LE advertising event whose Num_Reports is 0 or above the spec's maximum.
        case invalidReportCount
        /// An advertising report that runs past the end of its event.
        case truncatedReport
        /// A legacy report whose Data_Length exceeds 31.
        case invalidDataLength
        /// An address type value the spec reserves.
        case invalidAddressType
        /// Bytes left over in an event after its last report.
        case trailingBytes
        /// An AD structure whose length byte runs past the end of the advertising data.
        case truncatedADStructure
    }

    /// What is wrong.
    public let kind: Kind
    /// Byte offset of the problem in the buffer the parser was given.
    public let offset: Int
    private let storedBytes: UInt64
    private let storedCount: UInt8

    /// Creates an error showing up to eight bytes of `window` (the bytes at `offset`).
    public init(_ kind: Kind, offset: Int, window: UnsafeRawBufferPointer) {
        self.kind = kind
        self.offset = offset
        var value: UInt64 = 0
        let count = min(8, window.count)
        for i in 0..<count { value |= UInt64(window[i]) << UInt64(8 * i) }
        storedBytes = value
        storedCount = UInt8(count)
    }

    /// Creates an error showing up to eight of `bytes`.
    public init(_ kind: Kind, offset: Int, bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { WireError(kind, offset: offset, window: $0) }
    }

    /// Creates an error showing `count` (at most eight) bytes of `buffer` from `offset`, clamped
    /// to the buffer.
    init(_ kind: Kind, at offset: Int, in buffer: UnsafeRawBufferPointer, count: Int = 8) {
        let start = min(max(offset, 0), buffer.count)
        let end = min(buffer.count, start + max(0, count))
        self.init(kind, offset: offset, window: UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
    }

    /// Up to eight bytes starting at ``offset`` (fewer when the input ended).
    public var bytes: [UInt8] {
        (0..<Int(storedCount)).map { UInt8(truncatingIfNeeded: storedBytes >> UInt64(8 * $0)) }
    }

    /// The same error with its offset moved by `base` (to express it relative to an enclosing buffer).
    public func shifted(by base: Int) -> WireError {
        WireError(kind: kind, offset: offset + base, storedBytes: storedBytes, storedCount: storedCount)
    }

    private init(kind: Kind, offset: Int, storedBytes: UInt64, storedCount: UInt8) {
        self.kind = kind
        self.offset = offset
        self.storedBytes = storedBytes
        self.storedCount = storedCount
    }

    /// What is wrong, where, the offending bytes, and what to do about it.
    public var description: String {
        let hex = bytes.map { byte -> String in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined(separator: " ")
        return "\(explanation) at offset \(offset) (bytes: \(hex.isEmpty ? "none" : hex)); \(advice)"
    }

    private var explanation: String {
        switch kind {
        case .unknownPacketType: "unknown H4 packet type (expected 0x01 command, 0x02 ACL, 0x03 SCO, 0x04 event or 0x05 ISO)"
        case .oversizedPacket: "H4 packet announces more bytes than the configured maximum"
        case .truncatedPacket: "packet ends before its header or announced length"
        case .packetLengthMismatch: "packet is longer than its announced parameter length"
        case .invalidReportCount: "Num_Reports is 0 or above the maximum the spec allows"
        case .truncatedReport: "advertising report runs past the end of its event"
        case .invalidDataLength: "legacy advertising report announces more than 31 data bytes"
        case .invalidAddressType: "reserved address type value"
        case .trailingBytes: "bytes left over after the last advertising report"
        case .truncatedADStructure: "AD structure length runs past the end of the advertising data"
        }
    }

    private var advice: String {
        switch kind {
        case .unknownPacketType, .oversizedPacket:
            "check that the input is an H4 stream (a raw HCI socket dump or btsnoop H4 payloads); the framer skips the bytes and resynchronises"
        case .truncatedPacket, .packetLengthMismatch:
            "the capture was cut or framed with the wrong length; the packet is skipped"
        case .invalidReportCount, .truncatedReport, .invalidDataLength, .invalidAddressType, .trailingBytes:
            "the controller (or the simulator) produced a malformed event; the rest of this event is skipped"
        case .truncatedADStructure:
            "the advertiser sent malformed AD data; structures before this one are kept"
        }
    }
}
