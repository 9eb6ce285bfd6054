import BeaconCore

/// One packet of a capture file: a borrowed view, valid only inside the callback that received it.
///
/// HCI packets are always given as H4 bytes (`LinkType/hciH4`: the packet-type byte, then the
/// HCI packet) whatever the container framing was: btsnoop H1 (1001) and Linux monitor (2001)
/// records and pcap `LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR` (201) records are converted. Sniffer
/// records keep their own link type (`LinkType/leLinkLayerWithPHDR`, `LinkType/nordicBLE`)
/// with the radio header in place.
public struct CaptureRecord {
    /// 0-based position of the record in the file (tshark's frame number minus one).
    public var index: Int
    /// Byte offset of the record (or pcapng block) header in the file.
    public var offset: Int
    /// When the packet was captured. pcapng Simple Packet Blocks carry none and repeat the
    /// previous record's timestamp.
    public var timestamp: Timestamp
    /// How ``bytes`` are framed.
    public var linkType: LinkType
    /// Host → controller or controller → host, when the container says.
    public var direction: CaptureDirection
    /// The controller index of a Linux monitor (btsnoop 2001) record; 0 otherwise.
    public var controllerIndex: UInt16
    /// The packet, framed as ``linkType`` says.
    public var bytes: UnsafeRawBufferPointer

    /// Creates a record view.
    @inlinable
    public init(
        index: Int, offset: Int, timestamp: Timestamp, linkType: LinkType,
        direction: CaptureDirection, controllerIndex: UInt16 = 0, bytes: UnsafeRawBufferPointer
    ) {
        self.index = index
        self.offset = offset
        self.timestamp = timestamp
        self.linkType = linkType
        self.direction = direction
        self.controllerIndex = controllerIndex
        self.bytes = bytes
    }
}
