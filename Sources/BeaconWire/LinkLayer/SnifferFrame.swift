import BeaconCore

/// A link-layer packet received by a sniffer, with what the sniffer said about it.
///
/// Two framings are read:
/// - `LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR` (256): a 10-byte little-endian header — RF channel,
///   signal power (dBm), noise power, access-address offenses, reference access address, flags
///   (0x0002 signal power valid, 0x0400 CRC checked, 0x0800 CRC valid, bits 14–15 PHY) — then the
///   packet.
/// - `LINKTYPE_NORDIC_BLE` (272, nRF Sniffer protocol versions 1–3): board ID, a 6-byte UART
///   header (lengths, protocol version at byte 3, packet counter, packet ID 0x06 = EVENT_PACKET),
///   then the event header — its length, flags (bit 0 CRC OK, bits 4–6 PHY), channel index,
///   RSSI negated, event counter, time — then the packet.
///
/// ``packet`` is the link-layer packet: access address (4 bytes), PDU header (2), payload, CRC (3).
public struct SnifferFrame {
    /// The advertising or data channel index (37, 38, 39 for primary advertising channels).
    public var channel: UInt8
    /// The RF channel (0 = 2402 MHz … 39 = 2480 MHz).
    public var rfChannel: UInt8
    /// Received signal strength in dBm, when the sniffer measured it.
    public var rssi: Int8?
    /// Whether the packet's CRC is correct: as the sniffer says, or computed here when it does
    /// not say (advertising-channel packets only; data-channel packets need the connection's CRC
    /// init and count as not OK when unchecked).
    public var crcOK: Bool
    /// The PHY: 0 = LE 1M, 1 = LE 2M, 2 = LE Coded.
    public var phy: UInt8
    /// The link-layer packet, borrowed from the record.
    public var packet: UnsafeRawBufferPointer

    /// The access address of advertising-channel packets.
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    /// Decodes the sniffer header of `bytes`, framed as `linkType` (256 or 272).
    public static func parse(_ bytes: UnsafeRawBufferPointer, linkType: LinkType) throws(LinkLayerError) -> SnifferFrame {
        switch linkType {
        case .nordicBLE: try parseNordic(bytes)
        default: try parseWithPHDR(bytes)
        }
    }

    /// The channel index of RF channel `rf` (0 → 37, 12 → 38, 39 → 39, the others data channels).
    public static func channelIndex(rfChannel rf: UInt8) -> UInt8 {
        switch rf {
        case 0: 37
        case 12: 38
        case 39: 39
        case 1...11: rf - 1
        case 13...38: rf - 2
        default: rf
        }
    }

    /// The RF channel of channel index `index` (the inverse of ``channelIndex(rfChannel:)``).
    public static func rfChannel(channelIndex index: UInt8) -> UInt8 {
        switch index {
        case 37: 0
        case 38: 12
        case 39: 39
        case 0...10: index + 1
        case 11...36: index + 2
        default: index
        }
    }

    private static func parseWithPHDR(_ bytes: UnsafeRawBufferPointer) throws(LinkLayerError) -> SnifferFrame {
        guard bytes.count >= 10 else { throw LinkLayerError(.truncatedHeader, at: 0, in: bytes) }
        let flags = bytes.littleEndianUInt16(at: 8)
        let packet = UnsafeRawBufferPointer(rebasing: bytes[10...])
        let crcOK = flags & 0x0400 != 0 ? flags & 0x0800 != 0 : computedCRCOK(packet)
        return SnifferFrame(
            channel: channelIndex(rfChannel: bytes[0]), rfChannel: bytes[0],
            rssi: flags & 0x0002 != 0 ? Int8(bitPattern: bytes[1]) : nil,
            crcOK: crcOK, phy: UInt8(flags >> 14), packet: packet)
    }

    private static func parseNordic(_ bytes: UnsafeRawBufferPointer) throws(LinkLayerError) -> SnifferFrame {
        guard bytes.count >= 8 else { throw LinkLayerError(.truncatedHeader, at: 0, in: bytes) }
        guard !(bytes[0] == 0xBE && bytes[1] == 0xEF), (1...3).contains(bytes[3]) else {
            throw LinkLayerError(.unsupportedSnifferVersion, at: 0, in: bytes)
        }
        guard bytes[6] == 0x06 else { throw LinkLayerError(.notARadioPacket, at: 6, in: bytes) }
        let eventHeader = 7
        let eventLength = Int(bytes[eventHeader])
        guard eventLength >= 10, bytes.count >= eventHeader + eventLength else {
            throw LinkLayerError(.truncatedHeader, at: eventHeader, in: bytes)
        }
        let flags = bytes[eventHeader + 1]
        let channel = bytes[eventHeader + 2]
        let rssi = Int8(truncatingIfNeeded: -Int(bytes[eventHeader + 3]))
        return SnifferFrame(
            channel: channel, rfChannel: rfChannel(channelIndex: channel), rssi: rssi,
            crcOK: flags & 1 == 1, phy: (flags >> 4) & 7,
            packet: UnsafeRawBufferPointer(rebasing: bytes[(eventHeader + eventLength)...]))
    }

    private static func computedCRCOK(_ packet: UnsafeRawBufferPointer) -> Bool {
        guard packet.count >= 9, packet.littleEndianUInt32(at: 0) == advertisingAccessAddress else { return false }
        let pduEnd = 6 + Int(packet[5])
        guard pduEnd + 3 <= packet.count else { return false }
        return BLECRC24.isValid(
            pdu: UnsafeRawBufferPointer(rebasing: packet[4..<pduEnd]),
            crc: UnsafeRawBufferPointer(rebasing: packet[pduEnd..<(pduEnd + 3)]))
    }
}
