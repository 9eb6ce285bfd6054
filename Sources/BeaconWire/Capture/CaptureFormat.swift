import BeaconCore

/// The container format of a capture file, recognised by its first bytes.
public enum CaptureFormat: Hashable, Sendable, CustomStringConvertible {
    /// btsnoop version 1 with the given datalink.
    case btsnoop(BtsnoopDatalink)
    /// Classic pcap with one link type for the whole file.
    case pcap(LinkType)
    /// pcapng (link types per interface).
    case pcapng

    public var description: String {
        switch self {
        case .btsnoop(let datalink): "btsnoop (datalink \(datalink.rawValue))"
        case .pcap(let linkType): "pcap (\(linkType))"
        case .pcapng: "pcapng"
        }
    }
}
