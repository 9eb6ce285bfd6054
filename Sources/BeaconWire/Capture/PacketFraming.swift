import BeaconCore

/// Converts a container's packet bytes into the framing ``CaptureRecord`` promises: H4 for every
/// HCI packet, the sniffer framings unchanged. Conversions that need a prefix byte copy into a
/// scratch buffer owned by the caller (allocated once per file), so nothing is allocated per record.
struct PacketFraming {
    /// The converted packet.
    struct Packet {
        var linkType: LinkType
        var direction: CaptureDirection
        var controllerIndex: UInt16
        var bytes: UnsafeRawBufferPointer
    }

    /// The largest packet the scratch buffer holds: an H4 type byte plus the biggest HCI packet
    /// (ACL: 4-byte header + 65 535 bytes), with room for a monitor header.
    static let scratchCapacity = 65_536 + 16

    let scratch: UnsafeMutableRawBufferPointer

    /// Runs `body` with a framing whose scratch buffer lives for the call.
    static func withFraming<R>(_ body: (PacketFraming) throws -> R) rethrows -> R {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: scratchCapacity, alignment: 8)
        defer { scratch.deallocate() }
        return try body(PacketFraming(scratch: scratch))
    }

    /// `type` followed by `payload`, in the scratch buffer; `nil` if it does not fit.
    func prefixed(_ type: UInt8, _ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard payload.count < scratch.count else { return nil }
        scratch[0] = type
        if payload.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: scratch[1..<(1 + payload.count)]).copyMemory(from: payload)
        }
        return UnsafeRawBufferPointer(rebasing: scratch[0..<(1 + payload.count)])
    }

    /// A Linux monitor record (opcode, controller index, payload) as H4, or in
    /// ``LinkType/bluetoothLinuxMonitor`` framing when it is not an HCI packet.
    func monitor(opcode: UInt16, index: UInt16, payload: UnsafeRawBufferPointer) -> Packet? {
        if let known = MonitorOpcode(rawValue: opcode), let (type, direction) = known.h4PacketType {
            guard let bytes = prefixed(type, payload) else { return nil }
            return Packet(linkType: .hciH4, direction: direction, controllerIndex: index, bytes: bytes)
        }
        guard payload.count + 4 <= scratch.count else { return nil }
        scratch[0] = UInt8(index >> 8)
        scratch[1] = UInt8(index & 0xFF)
        scratch[2] = UInt8(opcode >> 8)
        scratch[3] = UInt8(opcode & 0xFF)
        if payload.count > 0 {
            UnsafeMutableRawBufferPointer(rebasing: scratch[4..<(4 + payload.count)]).copyMemory(from: payload)
        }
        return Packet(
            linkType: .bluetoothLinuxMonitor, direction: .unknown, controllerIndex: index,
            bytes: UnsafeRawBufferPointer(rebasing: scratch[0..<(4 + payload.count)]))
    }

    /// A pcap / pcapng packet of `linkType`, or `nil` when the link type is not supported or the
    /// packet is too short for its pseudo-header.
    func pcapPacket(linkType: LinkType, bytes: UnsafeRawBufferPointer) -> Packet? {
        switch linkType {
        case .hciH4:
            return Packet(linkType: .hciH4, direction: .unknown, controllerIndex: 0, bytes: bytes)
        case .hciH4WithPHDR:
            guard bytes.count >= 4 else { return nil }
            let direction: CaptureDirection = bytes.bigEndianUInt32(at: 0) & 1 == 1 ? .received : .sent
            return Packet(
                linkType: .hciH4, direction: direction, controllerIndex: 0,
                bytes: UnsafeRawBufferPointer(rebasing: bytes[4...]))
        case .bluetoothLinuxMonitor:
            guard bytes.count >= 4 else { return nil }
            return monitor(
                opcode: bytes.bigEndianUInt16(at: 2), index: bytes.bigEndianUInt16(at: 0),
                payload: UnsafeRawBufferPointer(rebasing: bytes[4...]))
        case .leLinkLayerWithPHDR, .nordicBLE:
            return Packet(linkType: linkType, direction: .unknown, controllerIndex: 0, bytes: bytes)
        default:
            return nil
        }
    }

    /// Whether ``pcapPacket(linkType:bytes:)`` understands `linkType`.
    static func supports(_ linkType: LinkType) -> Bool {
        [LinkType.hciH4, .hciH4WithPHDR, .bluetoothLinuxMonitor, .leLinkLayerWithPHDR, .nordicBLE].contains(linkType)
    }
}
