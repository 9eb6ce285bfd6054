/// How the bytes of a captured packet are framed: the pcap LINKTYPE numbering, which also names
/// the framings btsnoop datalinks map to.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `LINKTYPE_BLUETOOTH_HCI_H4`: an H4 packet-type byte (0x01 command, 0x02 ACL, 0x03 SCO,
    /// 0x04 event, 0x05 ISO) followed by the HCI packet. What a raw HCI socket reads.
    @inlinable public static var hciH4: LinkType { LinkType(rawValue: 187) }
    /// `LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR`: a 4-byte big-endian direction word, then H4.
    @inlinable public static var hciH4WithPHDR: LinkType { LinkType(rawValue: 201) }
    /// `LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR`: a 10-byte radio header, then the LE link-layer packet.
    @inlinable public static var leLinkLayerWithPHDR: LinkType { LinkType(rawValue: 256) }
    /// `LINKTYPE_NORDIC_BLE`: nRF Sniffer for Bluetooth LE framing.
    @inlinable public static var nordicBLE: LinkType { LinkType(rawValue: 272) }

    public var description: String {
        switch self {
        case .hciH4: "HCI H4 (187)"
        case .hciH4WithPHDR: "HCI H4 with direction header (201)"
        case .leLinkLayerWithPHDR: "LE link layer with radio header (256)"
        case .nordicBLE: "nRF Sniffer (272)"
        default: "link type \(rawValue)"
        }
    }
}
