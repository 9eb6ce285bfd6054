import BeaconCore

/// Reads btsnoop version 1 files (Android HCI snoop logs, `btmon -w`): a 16-byte big-endian file
/// header (`btsnoop\0`, version, datalink), then records of a 24-byte header (original length,
/// included length, flags, cumulative drops, timestamp in µs since 0000-01-01) and the packet.
struct BtsnoopReader {
    /// Size of the file header.
    static let fileHeaderSize = 16
    /// Size of a record header.
    static let recordHeaderSize = 24
    /// Microseconds from 0000-01-01T00:00:00Z (btsnoop's epoch) to the Unix epoch.
    static let epochDeltaMicroseconds: Int64 = 0x00dc_ddb3_0f2f_8000
    /// The 8-byte identification pattern.
    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    /// Records longer than this are taken for a lying length (an HCI packet is at most 65 540 bytes).
    static let maximumRecordLength = 65_540
    /// Timestamps further than this from the last good record's make a header implausible when
    /// resynchronising (one day).
    static let resyncWindowMicroseconds: UInt64 = 86_400_000_000

    let datalink: BtsnoopDatalink

    /// A reader for records of `datalink` (the header was checked before).
    init(datalink: BtsnoopDatalink) {
        self.datalink = datalink
    }

    /// Validates the file header of `file`.
    init(file: UnsafeRawBufferPointer) throws(CaptureError) {
        guard file.count >= Self.fileHeaderSize else {
            throw CaptureError(.truncated, at: 0, in: file, detail: "btsnoop file header needs 16 bytes", isFileLevel: true)
        }
        let version = file.bigEndianUInt32(at: 8)
        guard version == 1 else {
            throw CaptureError(
                .unsupportedVersion, at: 8, in: file, detail: "btsnoop version \(version), expected 1",
                isFileLevel: true)
        }
        let raw = file.bigEndianUInt32(at: 12)
        guard let datalink = BtsnoopDatalink(rawValue: raw) else {
            throw CaptureError(
                .unknownDatalink, at: 12, in: file,
                detail: "datalink \(raw); supported: 1001 (H1), 1002 (H4), 2001 (monitor)", isFileLevel: true)
        }
        self.datalink = datalink
    }

    /// Calls `body` with every record of `file`, or the error that stands in for it.
    func forEachItem(
        in file: UnsafeRawBufferPointer, framing: PacketFraming,
        _ body: (CaptureItem) throws -> Void
    ) rethrows {
        var offset = Self.fileHeaderSize
        var index = 0
        var lastTimestamp: UInt64?
        while offset < file.count {
            guard file.count - offset >= Self.recordHeaderSize else {
                try body(
                    .error(
                        CaptureError(
                            .truncated, at: offset, recordIndex: index, in: file,
                            detail: "\(file.count - offset) bytes left, a record header needs 24")))
                return
            }
            let original = Int(file.bigEndianUInt32(at: offset))
            let included = Int(file.bigEndianUInt32(at: offset + 4))
            let flags = file.bigEndianUInt32(at: offset + 8)
            let micros = file.bigEndianUInt64(at: offset + 16)
            if included > original || included > Self.maximumRecordLength || !flagsArePlausible(flags) {
                try body(
                    .error(
                        CaptureError(
                            .badLength, at: offset, recordIndex: index, in: file,
                            detail:
                                "included length \(included), original length \(original), flags 0x\(String(flags, radix: 16))")))
                index += 1
                guard let next = resync(in: file, after: offset, near: lastTimestamp) else {
                    return
                }
                offset = next
                continue
            }
            let payloadStart = offset + Self.recordHeaderSize
            guard payloadStart + included <= file.count else {
                try body(
                    .error(
                        CaptureError(
                            .truncated, at: offset, recordIndex: index, in: file,
                            detail: "record announces \(included) bytes, \(file.count - payloadStart) left")))
                return
            }
            let payload = UnsafeRawBufferPointer(rebasing: file[payloadStart..<(payloadStart + included)])
            let timestamp = Timestamp(microsecondsSinceEpoch: Int64(bitPattern: micros) &- Self.epochDeltaMicroseconds)
            if let packet = packet(flags: flags, payload: payload, framing: framing) {
                try body(
                    .record(
                        CaptureRecord(
                            index: index, offset: offset, timestamp: timestamp,
                            linkType: packet.linkType, direction: packet.direction,
                            controllerIndex: packet.controllerIndex, bytes: packet.bytes)))
            } else {
                try body(
                    .error(
                        CaptureError(
                            .badLength, at: offset, recordIndex: index, in: file,
                            detail: "record of \(included) bytes does not fit an HCI packet")))
            }
            lastTimestamp = micros
            index += 1
            offset = payloadStart + included
        }
    }

    private func packet(flags: UInt32, payload: UnsafeRawBufferPointer, framing: PacketFraming) -> PacketFraming.Packet? {
        switch datalink {
        case .hciUART:
            return PacketFraming.Packet(
                linkType: .hciH4, direction: flags & 1 == 1 ? .received : .sent,
                controllerIndex: 0, bytes: payload)
        case .hciUnencapsulated:
            let isCommandOrEvent = flags & 2 != 0
            let received = flags & 1 == 1
            let type: UInt8 = isCommandOrEvent ? (received ? 0x04 : 0x01) : 0x02
            guard let bytes = framing.prefixed(type, payload) else { return nil }
            return PacketFraming.Packet(
                linkType: .hciH4, direction: received ? .received : .sent,
                controllerIndex: 0, bytes: bytes)
        case .linuxMonitor:
            return framing.monitor(opcode: UInt16(flags & 0xFFFF), index: UInt16(flags >> 16), payload: payload)
        }
    }

    private func flagsArePlausible(_ flags: UInt32) -> Bool {
        switch datalink {
        case .hciUART, .hciUnencapsulated: flags <= 3
        case .linuxMonitor: flags & 0xFFFF <= 0x40
        }
    }

    /// The offset of the next plausible record header after a bad one at `badOffset`: lengths
    /// consistent and inside the file, plausible flags, a timestamp within a day of the last good
    /// record, and followed by another plausible header or the end of the file.
    private func resync(in file: UnsafeRawBufferPointer, after badOffset: Int, near timestamp: UInt64?) -> Int? {
        var candidate = badOffset + 1
        while candidate + Self.recordHeaderSize <= file.count {
            if let end = plausibleRecordEnd(in: file, at: candidate, near: timestamp),
                end == file.count || plausibleRecordEnd(in: file, at: end, near: timestamp) != nil
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private func plausibleRecordEnd(in file: UnsafeRawBufferPointer, at offset: Int, near timestamp: UInt64?) -> Int? {
        guard offset + Self.recordHeaderSize <= file.count else { return nil }
        let original = Int(file.bigEndianUInt32(at: offset))
        let included = Int(file.bigEndianUInt32(at: offset + 4))
        let flags = file.bigEndianUInt32(at: offset + 8)
        let micros = file.bigEndianUInt64(at: offset + 16)
        guard included <= original, included <= Self.maximumRecordLength, flagsArePlausible(flags),
            offset + Self.recordHeaderSize + included <= file.count
        else { return nil }
        if let timestamp {
            let distance = micros > timestamp ? micros - timestamp : timestamp - micros
            guard distance <= Self.resyncWindowMicroseconds else { return nil }
        }
        return offset + Self.recordHeaderSize + included
    }
}
