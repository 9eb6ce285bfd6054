/// A sniffer record whose radio header or link-layer packet cannot be decoded.
///
/// `offset` counts from the start of the record's bytes (the sniffer pseudo-header); the
/// ``CaptureDecoder`` adds the record's position in the file. Up to eight bytes are kept inline.
public struct LinkLayerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The record is shorter than its sniffer pseudo-header.
        case truncatedHeader
        /// An nRF Sniffer header of a protocol version this reader does not know (legacy 0xBEEF framing, > 3).
        case unsupportedSnifferVersion
        /// An nRF Sniffer UART packet that is not a received radio packet (EVENT_PACKET, id 0x06).
        case notARadioPacket
        /// The link-layer packet ends before its access address, PDU header, payload length or CRC.
        case truncatedPacket
    }

    /// What is wrong.
    public let kind: Kind
    /// Offset of the problem from the start of the record's bytes.
    public let offset: Int
    private let stored: UInt64
    private let storedCount: UInt8

    /// Creates an error showing up to eight bytes of `buffer` starting at `offset`.
    public init(_ kind: Kind, at offset: Int, in buffer: UnsafeRawBufferPointer) {
        self.kind = kind
        self.offset = offset
        let window = buffer.clampedSlice(from: offset, count: 8)
        var value: UInt64 = 0
        for i in 0..<window.count { value |= UInt64(window[i]) << UInt64(8 * i) }
        stored = value
        storedCount = UInt8(window.count)
    }

    /// Up to eight bytes starting at ``offset``.
    public var bytes: [UInt8] {
        var result = [UInt8]()
        for i in 0..<Int(storedCount) { result.append(UInt8(truncatingIfNeeded: stored >> UInt64(8 * i))) }
        return result
    }

    public var description: String {
        let digits = Array("0123456789abcdef")
        let hex = bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 0xF)]]) }.joined(separator: " ")
        let what =
            switch kind {
            case .truncatedHeader: "sniffer record shorter than its pseudo-header"
            case .unsupportedSnifferVersion: "unsupported nRF Sniffer protocol version"
            case .notARadioPacket: "nRF Sniffer UART packet is not a received radio packet"
            case .truncatedPacket: "link-layer packet ends early"
            }
        return "\(what) at offset \(offset) (bytes: \(hex.isEmpty ? "none" : hex)); the record is skipped"
    }
}
