import BeaconCore
import BeaconWire

/// A receiver of the simulated site: where it is and how its controller scans.
public struct GatewaySpec: Hashable, Sendable {
    /// The report kinds a simulated controller can deliver: the legacy and the extended
    /// advertising report (directed reports carry no data; link-layer captures are a sniffer's).
    public static let reportKinds: [AdvertisingReportKind] = [.legacy, .extended]

    /// The gateway's name (in the truth file and logs).
    public var name: String
    /// Antenna position, metres.
    public var position: Vector3
    /// Scan interval and window (within the HCI range: what a controller would accept).
    public var scan: ScanTiming
    /// Which HCI event the controller reports advertisements with: one of ``reportKinds``.
    public var reportKind: AdvertisingReportKind
    /// The room the gateway stands for on a site (`nil` off a site).
    public var room: String?
    /// The floor the gateway is on (its position's), `nil` without floors.
    public var floor: String?
    /// Whether the gateway advertises its site identity (`SiteGatewayBeacon`) from its position,
    /// as a gateway with `site.advertise: true` does: the other gateways hear it like a beacon.
    public var advertise: Bool
    /// The measured power of its advertisements (RSSI at 1 m, dBm).
    public var advertisePower: Int
    /// How much higher (+) or lower (−) than the radio model the gateway's receiver reads, dB:
    /// a deaf dongle reads low (`rssi_bias: -6`). The hub's self-calibration should find it as a
    /// receive offset of the opposite sign.
    public var rssiBias: Double
    /// What the gateway is on a site: `nil` a beacond gateway (it publishes ranged records);
    /// `espresense` an ESPresense node (it publishes each beacon it hears as the firmware does,
    /// and the hub ranges it: `kind: espresense` in the scenario).
    public var kind: String?

    /// Creates a gateway; `reportKind` must be one of ``reportKinds``.
    public init(
        name: String, position: Vector3, scan: ScanTiming = .continuous,
        reportKind: AdvertisingReportKind = .legacy, room: String? = nil,
        floor: String? = nil, advertise: Bool = false, advertisePower: Int = -59, rssiBias: Double = 0
    ) {
        precondition(
            Self.reportKinds.contains(reportKind),
            "a simulated gateway reports legacy or extended advertising reports, not \(reportKind.name)")
        self.name = name
        self.position = position
        self.scan = scan
        self.reportKind = reportKind
        self.room = room
        self.floor = floor
        self.advertise = advertise
        self.advertisePower = advertisePower
        self.rssiBias = rssiBias
    }
}
