import BeaconCore

/// Reads classic pcap files in either byte order, with microsecond (`a1b2c3d4`) or nanosecond
/// (`a1b23c4d`) timestamps: a 24-byte file header (magic, version, zone, sigfigs, snaplen,
/// link type), then records of a 16-byte header (seconds, fraction, captured and original length).
struct PcapReader {
    /// Size of the file header.
    static let fileHeaderSize = 24
    /// Size of a record header.
    static let recordHeaderSize = 16
    /// Records longer than this are taken for a lying length when the header gives no snaplen.
    static let maximumRecordLength = 262_144

    let bigEndian: Bool
    let nanosecond: Bool
    let linkType: LinkType
    let snapLength: Int

    /// A reader with the settings of an already checked file header.
    init(bigEndian: Bool, nanosecond: Bool, linkType: LinkType, snapLength: Int) {
        self.bigEndian = bigEndian
        self.nanosecond = nanosecond
        self.linkType = linkType
        self.snapLength = snapLength
    }

    /// Validates the file header of `file` (whose first four bytes are a pcap magic).
    init(file: UnsafeRawBufferPointer) throws(CaptureError) {
        guard file.count >= Self.fileHeaderSize else {
            throw CaptureError(.truncated, at: 0, in: file, detail: "pcap file header needs 24 bytes", isFileLevel: true)
        }
        switch file.bigEndianUInt32(at: 0) {
        case 0xA1B2_C3D4: (bigEndian, nanosecond) = (true, false)
        case 0xD4C3_B2A1: (bigEndian, nanosecond) = (false, false)
        case 0xA1B2_3C4D: (bigEndian, nanosecond) = (true, true)
        case 0x4D3C_B2A1: (bigEndian, nanosecond) = (false, true)
        default: throw CaptureError(.badMagic, at: 0, in: file, isFileLevel: true)
        }
        let major = file.uint16(at: 4, bigEndian: bigEndian)
        guard major == 2 else {
            throw CaptureError(
                .unsupportedVersion, at: 4, in: file, detail: "pcap version \(major), expected 2", isFileLevel: true)
        }
        snapLength = Int(file.uint32(at: 16, bigEndian: bigEndian))
        linkType = LinkType(rawValue: file.uint32(at: 20, bigEndian: bigEndian) & 0x0FFF_FFFF)
        guard PacketFraming.supports(linkType) else {
            throw CaptureError(.unsupportedLinkType, at: 20, in: file, detail: linkType.description, isFileLevel: true)
        }
    }

    private var lengthLimit: Int { snapLength > 0 ? max(snapLength, 65_540) : Self.maximumRecordLength }

    /// Calls `body` with every record of `file`, or the error that stands in for it.
    func forEachItem(
        in file: UnsafeRawBufferPointer, framing: PacketFraming,
        _ body: (CaptureItem) throws -> Void
    ) rethrows {
        var offset = Self.fileHeaderSize
        var index = 0
        var lastSeconds: UInt32?
        while offset < file.count {
            guard file.count - offset >= Self.recordHeaderSize else {
                try body(
                    .error(
                        CaptureError(
                            .truncated, at: offset, recordIndex: index, in: file,
                            detail: "\(file.count - offset) bytes left, a record header needs 16")))
                return
            }
            let seconds = file.uint32(at: offset, bigEndian: bigEndian)
            let fraction = file.uint32(at: offset + 4, bigEndian: bigEndian)
            let included = Int(file.uint32(at: offset + 8, bigEndian: bigEndian))
            let original = Int(file.uint32(at: offset + 12, bigEndian: bigEndian))
            if included > original || included > lengthLimit || fraction >= (nanosecond ? 1_000_000_000 : 1_000_000) {
                try body(
                    .error(
                        CaptureError(
                            .badLength, at: offset, recordIndex: index, in: file,
                            detail: "captured length \(included), original length \(original)")))
                index += 1
                guard let next = resync(in: file, after: offset, near: lastSeconds) else { return }
                offset = next
                continue
            }
            let start = offset + Self.recordHeaderSize
            guard start + included <= file.count else {
                try body(
                    .error(
                        CaptureError(
                            .truncated, at: offset, recordIndex: index, in: file,
                            detail: "record announces \(included) bytes, \(file.count - start) left")))
                return
            }
            let nanos = Int64(seconds) * 1_000_000_000 + Int64(fraction) * (nanosecond ? 1 : 1_000)
            let bytes = UnsafeRawBufferPointer(rebasing: file[start..<(start + included)])
            if let packet = framing.pcapPacket(linkType: linkType, bytes: bytes) {
                try body(
                    .record(
                        CaptureRecord(
                            index: index, offset: offset,
                            timestamp: Timestamp(nanosecondsSinceEpoch: nanos),
                            linkType: packet.linkType, direction: packet.direction,
                            controllerIndex: packet.controllerIndex, bytes: packet.bytes)))
            } else {
                try body(
                    .error(
                        CaptureError(
                            .badLength, at: offset, recordIndex: index, in: file,
                            detail: "\(included) bytes are too short for the \(linkType) pseudo-header")))
            }
            lastSeconds = seconds
            index += 1
            offset = start + included
        }
    }

    /// The next offset after `badOffset` holding two consecutive plausible record headers (or one
    /// that ends exactly at the end of the file).
    private func resync(in file: UnsafeRawBufferPointer, after badOffset: Int, near seconds: UInt32?) -> Int? {
        var candidate = badOffset + 1
        while candidate + Self.recordHeaderSize <= file.count {
            if let end = plausibleRecordEnd(in: file, at: candidate, near: seconds),
                end == file.count || plausibleRecordEnd(in: file, at: end, near: seconds) != nil
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private func plausibleRecordEnd(in file: UnsafeRawBufferPointer, at offset: Int, near seconds: UInt32?) -> Int? {
        guard offset + Self.recordHeaderSize <= file.count else { return nil }
        let recordSeconds = file.uint32(at: offset, bigEndian: bigEndian)
        let fraction = file.uint32(at: offset + 4, bigEndian: bigEndian)
        let included = Int(file.uint32(at: offset + 8, bigEndian: bigEndian))
        let original = Int(file.uint32(at: offset + 12, bigEndian: bigEndian))
        guard included <= original, included <= lengthLimit, fraction < (nanosecond ? 1_000_000_000 : 1_000_000),
            offset + Self.recordHeaderSize + included <= file.count
        else { return nil }
        if let seconds, recordSeconds > seconds &+ 86_400 || recordSeconds &+ 86_400 < seconds { return nil }
        return offset + Self.recordHeaderSize + included
    }
}
