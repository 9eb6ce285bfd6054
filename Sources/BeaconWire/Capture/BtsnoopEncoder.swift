import BeaconCore

/// Encodes btsnoop v1 file headers and records (datalinks 1001 H1, 1002 H4 and 2001 Linux
/// monitor, the format `btmon -w` writes) into a byte array. Appending a record allocates only
/// when the array grows.
public struct BtsnoopEncoder: Hashable, Sendable {
    /// The datalink written.
    public let datalink: BtsnoopDatalink

    /// Creates an encoder for `datalink`.
    public init(datalink: BtsnoopDatalink) {
        self.datalink = datalink
    }

    /// The 16-byte file header: `btsnoop\0`, version 1, datalink (big-endian).
    public var fileHeader: [UInt8] {
        var bytes = BtsnoopReader.magic
        bytes.appendBigEndian(UInt32(1))
        bytes.appendBigEndian(datalink.rawValue)
        return bytes
    }

    /// Appends the record of `packet` (H4: type byte then HCI packet) to `buffer`.
    /// - Parameters:
    ///   - packet: the H4 packet (type byte first).
    ///   - direction: host → controller (`sent`) or controller → host (`received`); `unknown`
    ///     counts as received for events and as sent otherwise.
    ///   - timestamp: when the packet was seen.
    ///   - controllerIndex: the adapter index (monitor datalink only).
    ///   - buffer: where the record is appended.
    public func appendRecord(
        h4Packet packet: UnsafeRawBufferPointer, direction: CaptureDirection,
        timestamp: Timestamp, controllerIndex: UInt16 = 0,
        to buffer: inout [UInt8]
    ) throws(CaptureWriteError) {
        guard let type = packet.first else { throw CaptureWriteError(.unsupportedPacket, detail: "empty packet") }
        let resolved: CaptureDirection = direction != .unknown ? direction : (type == 0x04 ? .received : .sent)
        let payload: UnsafeRawBufferPointer
        let flags: UInt32
        switch datalink {
        case .hciUART, .hciUnencapsulated:
            guard (1...5).contains(type), datalink == .hciUART || [1, 2, 4].contains(type) else {
                throw CaptureWriteError(
                    .unsupportedPacket, detail: "H4 type 0x\(String(type, radix: 16)) in datalink \(datalink.rawValue)")
            }
            flags = (resolved == .received ? 1 : 0) | (type == 0x01 || type == 0x04 ? 2 : 0)
            payload = datalink == .hciUART ? packet : UnsafeRawBufferPointer(rebasing: packet[1...])
        case .linuxMonitor:
            guard let opcode = MonitorOpcode(h4PacketType: type, direction: resolved) else {
                throw CaptureWriteError(.unsupportedPacket, detail: "H4 type 0x\(String(type, radix: 16))")
            }
            flags = UInt32(controllerIndex) << 16 | UInt32(opcode.rawValue)
            payload = UnsafeRawBufferPointer(rebasing: packet[1...])
        }
        let micros = timestamp.microsecondsSinceEpoch &+ BtsnoopReader.epochDeltaMicroseconds
        buffer.appendBigEndian(UInt32(payload.count))
        buffer.appendBigEndian(UInt32(payload.count))
        buffer.appendBigEndian(flags)
        buffer.appendBigEndian(UInt32(0))
        buffer.appendBigEndian(UInt64(bitPattern: micros))
        buffer.append(contentsOf: payload)
    }
}
