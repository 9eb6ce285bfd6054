/// Where an ``AdvertisingReport`` came from.
public enum AdvertisingReportKind: UInt8, Hashable, Sendable, CaseIterable {
    /// HCI LE Advertising Report (LE Meta subevent 0x02).
    case legacy = 0x02
    /// HCI LE Directed Advertising Report (LE Meta subevent 0x0B); carries no data.
    case directed = 0x0B
    /// HCI LE Extended Advertising Report (LE Meta subevent 0x0D).
    case extended = 0x0D
    /// A link-layer advertising PDU captured by a sniffer.
    case linkLayer = 0xFF

    /// The name used in CSV and JSON output.
    public var name: String {
        switch self {
        case .legacy: "legacy"
        case .directed: "directed"
        case .extended: "extended"
        case .linkLayer: "link_layer"
        }
    }
}
