import BeaconCore

/// Reads pcapng files: sections (Section Header Blocks in either byte order), Interface
/// Description Blocks (link type, `if_tsresol`, `if_tsoffset`), Enhanced, Simple and obsolete
/// Packet Blocks. Other blocks are skipped by their length. A block whose length fields disagree
/// is reported and reading resumes at the next block whose leading and trailing lengths match.
struct PcapngReader {
    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D

    /// A reader for a file whose first section header was checked before.
    init() {}

    /// Validates the first Section Header Block of `file`.
    init(file: UnsafeRawBufferPointer) throws(CaptureError) {
        guard file.count >= 28 else {
            throw CaptureError(.truncated, at: 0, in: file, detail: "a section header block needs 28 bytes", isFileLevel: true)
        }
        let magic = file.bigEndianUInt32(at: 8)
        guard magic == Self.byteOrderMagic || magic == Self.byteOrderMagic.byteSwapped else {
            throw CaptureError(.badMagic, at: 8, in: file, detail: "pcapng byte-order magic", isFileLevel: true)
        }
        let major = file.uint16(at: 12, bigEndian: magic == Self.byteOrderMagic)
        guard major == 1 else {
            throw CaptureError(
                .unsupportedVersion, at: 12, in: file, detail: "pcapng version \(major), expected 1",
                isFileLevel: true)
        }
    }

    /// Calls `body` with every packet of `file`, or the error that stands in for it.
    func forEachItem(
        in file: UnsafeRawBufferPointer, framing: PacketFraming,
        _ body: (CaptureItem) throws -> Void
    ) rethrows {
        var offset = 0
        var index = 0
        var bigEndian = true
        var interfaces: [PcapngInterface] = []
        var lastTimestamp = Timestamp.epoch
        while offset < file.count {
            guard file.count - offset >= 12 else {
                try body(
                    .error(
                        CaptureError(
                            .truncated, at: offset, recordIndex: index, in: file,
                            detail: "\(file.count - offset) bytes left, a block needs at least 12")))
                return
            }
            if file.bigEndianUInt32(at: offset) == Self.sectionHeaderType {
                let magic = file.count - offset >= 12 ? file.bigEndianUInt32(at: offset + 8) : 0
                if magic == Self.byteOrderMagic || magic == Self.byteOrderMagic.byteSwapped {
                    bigEndian = magic == Self.byteOrderMagic
                    interfaces.removeAll(keepingCapacity: true)
                }
            }
            let type = file.uint32(at: offset, bigEndian: bigEndian)
            let length = Int(file.uint32(at: offset + 4, bigEndian: bigEndian))
            if length >= 12, length % 4 == 0, offset + length > file.count {
                try body(
                    .error(
                        CaptureError(
                            .truncated, at: offset, recordIndex: index, in: file,
                            detail: "block announces \(length) bytes, \(file.count - offset) left")))
                return
            }
            guard length >= 12, length % 4 == 0,
                Int(file.uint32(at: offset + length - 4, bigEndian: bigEndian)) == length
            else {
                try body(
                    .error(
                        CaptureError(
                            .badLength, at: offset, recordIndex: index, in: file,
                            detail: "block type 0x\(String(type, radix: 16)) with total length \(length)")))
                guard let next = resync(in: file, after: offset, bigEndian: bigEndian) else { return }
                offset = next
                continue
            }
            switch type {
            case 1 where length >= 20:
                interfaces.append(PcapngInterface(file: file, offset: offset, length: length, bigEndian: bigEndian))
            case 2, 6:
                try packetBlock(
                    file: file, offset: offset, length: length, type: type, index: index,
                    bigEndian: bigEndian, interfaces: interfaces, framing: framing,
                    lastTimestamp: &lastTimestamp, body)
                index += 1
            case 3:
                try simplePacketBlock(
                    file: file, offset: offset, length: length, index: index, bigEndian: bigEndian,
                    interfaces: interfaces, framing: framing, timestamp: lastTimestamp, body)
                index += 1
            default:
                break
            }
            offset += length
        }
    }

    private func packetBlock(
        file: UnsafeRawBufferPointer, offset: Int, length: Int, type: UInt32, index: Int,
        bigEndian: Bool, interfaces: [PcapngInterface], framing: PacketFraming,
        lastTimestamp: inout Timestamp, _ body: (CaptureItem) throws -> Void
    ) rethrows {
        guard length >= 32 else {
            return try body(
                .error(
                    CaptureError(
                        .badLength, at: offset, recordIndex: index, in: file,
                        detail: "packet block of \(length) bytes")))
        }
        let interfaceID =
            type == 2
            ? Int(file.uint16(at: offset + 8, bigEndian: bigEndian))
            : Int(file.uint32(at: offset + 8, bigEndian: bigEndian))
        let units =
            UInt64(file.uint32(at: offset + 12, bigEndian: bigEndian)) << 32
            | UInt64(file.uint32(at: offset + 16, bigEndian: bigEndian))
        let captured = Int(file.uint32(at: offset + 20, bigEndian: bigEndian))
        guard 28 + captured + 4 <= length else {
            return try body(
                .error(
                    CaptureError(
                        .badLength, at: offset, recordIndex: index, in: file,
                        detail: "captured length \(captured) in a block of \(length) bytes")))
        }
        guard interfaceID < interfaces.count else {
            return try body(
                .error(
                    CaptureError(
                        .unknownInterface, at: offset, recordIndex: index, in: file,
                        detail: "interface \(interfaceID), \(interfaces.count) declared")))
        }
        let interface = interfaces[interfaceID]
        let timestamp = interface.timestamp(units: units)
        lastTimestamp = timestamp
        let bytes = UnsafeRawBufferPointer(rebasing: file[(offset + 28)..<(offset + 28 + captured)])
        try deliver(
            bytes, interface: interface, timestamp: timestamp, file: file, offset: offset, index: index,
            framing: framing, body)
    }

    private func simplePacketBlock(
        file: UnsafeRawBufferPointer, offset: Int, length: Int, index: Int,
        bigEndian: Bool, interfaces: [PcapngInterface], framing: PacketFraming,
        timestamp: Timestamp, _ body: (CaptureItem) throws -> Void
    ) rethrows {
        guard let interface = interfaces.first, length >= 16 else {
            return try body(
                .error(
                    CaptureError(
                        .unknownInterface, at: offset, recordIndex: index, in: file,
                        detail: "simple packet block before any interface")))
        }
        var captured = min(Int(file.uint32(at: offset + 8, bigEndian: bigEndian)), length - 16)
        if interface.snapLength > 0 { captured = min(captured, interface.snapLength) }
        let bytes = UnsafeRawBufferPointer(rebasing: file[(offset + 12)..<(offset + 12 + captured)])
        try deliver(
            bytes, interface: interface, timestamp: timestamp, file: file, offset: offset, index: index,
            framing: framing, body)
    }

    private func deliver(
        _ bytes: UnsafeRawBufferPointer, interface: PcapngInterface, timestamp: Timestamp,
        file: UnsafeRawBufferPointer, offset: Int, index: Int, framing: PacketFraming,
        _ body: (CaptureItem) throws -> Void
    ) rethrows {
        guard let packet = framing.pcapPacket(linkType: interface.linkType, bytes: bytes) else {
            let kind: CaptureError.Kind = PacketFraming.supports(interface.linkType) ? .badLength : .unsupportedLinkType
            return try body(
                .error(
                    CaptureError(
                        kind, at: offset, recordIndex: index, in: file,
                        detail: "\(interface.linkType), \(bytes.count) bytes")))
        }
        try body(
            .record(
                CaptureRecord(
                    index: index, offset: offset, timestamp: timestamp, linkType: packet.linkType,
                    direction: packet.direction, controllerIndex: packet.controllerIndex,
                    bytes: packet.bytes)))
    }

    /// The next 4-byte-aligned offset after `badOffset` where a block of a standard type has
    /// matching leading and trailing lengths inside the file.
    private func resync(in file: UnsafeRawBufferPointer, after badOffset: Int, bigEndian: Bool) -> Int? {
        var candidate = badOffset + 4
        while candidate + 12 <= file.count {
            let type = file.uint32(at: candidate, bigEndian: bigEndian)
            let length = Int(file.uint32(at: candidate + 4, bigEndian: bigEndian))
            if (1...10).contains(type) || type == Self.sectionHeaderType,
                length >= 12, length % 4 == 0, candidate + length <= file.count,
                Int(file.uint32(at: candidate + length - 4, bigEndian: bigEndian)) == length
            {
                return candidate
            }
            candidate += 4
        }
        return nil
    }
}
