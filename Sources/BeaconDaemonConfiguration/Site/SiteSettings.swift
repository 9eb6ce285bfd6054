import BeaconBlueZ
import BeaconConfiguration
import BeaconCore
import BeaconForeignNodes
import BeaconMQTT
import BeaconSite
import BeaconSiteReport

/// The `site:` section: which site a gateway belongs to, its id there, and the broker that
/// carries the site's reports. A gateway with it publishes each ranging cycle; a hub reads the
/// same section to subscribe.
///
/// ```yaml
/// site:
///   name: museum                     # a topic level
///   gateway: hall-nw                 # this gateway's id (a gateway; default: the host name)
///   broker: {host: 127.0.0.1, port: 1883, username: …, password: …, tls: {ca: …}}
///   topicPrefix: beacond/site        # default
///   buckets: 16                      # the same on every gateway and hub of the site
///   format: binary                   # or json
///   advertise: true                  # a gateway on a radio advertises its identity (default false)
///   advertisePower: -59              # the measured power in its frame, dBm (-100 … 0)
///   advertiseInterval: 100ms         # 100ms … 10.24s
/// ```
public struct SiteSettings: Hashable, Sendable {
    /// The site's topics (prefix, name, bucket count).
    public var topics: SiteTopics
    /// This gateway's id (what it publishes under).
    public var gateway: String
    /// The broker's host.
    public var host: String
    /// The broker's port.
    public var port: Int
    /// Credentials and TLS.
    public var connection: MQTTConnectionOptions
    /// How reports are encoded.
    public var format: GatewayReportFormat
    /// The key reports are signed with (`site.key` or `site.keyFile`), if any: the hub must hold
    /// the same under this gateway's entry.
    public var key: GatewayKey?
    /// Whether this gateway advertises its identity (`SiteGatewayBeacon`) from its adapter while
    /// it scans, so the other gateways of the site measure it at a known distance.
    public var advertise = false
    /// When set (`site.publish: espresense`), the gateway publishes every beacon it hears as this
    /// ESPresense node would, not ranged reports: a stand-in for a node (simulations, tests).
    public var publishAs: ForeignNodeEndpoint?
    /// The measured power (RSSI at 1 m, dBm) written in the advertised frame.
    public var advertisePower = BeaconAdvertising.defaultMeasuredPower
    /// The advertising interval.
    public var advertiseInterval = BeaconAdvertising.defaultInterval

    /// Creates settings.
    public init(
        topics: SiteTopics, gateway: String, host: String = "127.0.0.1", port: Int = 1883,
        connection: MQTTConnectionOptions = MQTTConnectionOptions(), format: GatewayReportFormat = .binary
    ) {
        self.topics = topics
        self.gateway = gateway
        self.host = host
        self.port = port
        self.connection = connection
        self.format = format
    }

    static let keys = [
        "name", "gateway", "broker", "topicPrefix", "buckets", "format", "key", "keyFile", "advertise", "advertisePower",
        "advertiseInterval", "publish", "node",
    ]

    /// The identity this gateway advertises: `SiteGatewayBeacon.identity(site:gateway:)` of its
    /// site's name and its id.
    public var advertisedIdentity: BeaconID { SiteGatewayBeacon.identity(site: topics.site, gateway: gateway) }

    /// What the adapter advertises (`nil` without `advertise: true`).
    package func advertising() throws(BlueZScannerError) -> BeaconAdvertising? {
        guard advertise else { return nil }
        return try BeaconAdvertising(
            identity: advertisedIdentity, measuredPower: advertisePower, interval: advertiseInterval)
    }

    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys, in: "site")
        let name = try node.required("name").string()
        let gatewayNode = node["gateway"]
        let gateway = try gatewayNode?.string() ?? SinkDefinition.hostName()
        guard SiteGateway.isValidID(gateway) else {
            throw (gatewayNode ?? node).error(
                "the gateway id '\(gateway)' cannot be a topic level: use 1–64 letters, digits, '-', '_' or '.'"
                    + (gatewayNode == nil ? " (it defaults to the host name: set site.gateway)" : ""))
        }
        var host = "127.0.0.1"
        var port = 1883
        var connection = MQTTConnectionOptions()
        if let broker = node["broker"] {
            try broker.checkKeys(allowed: ["host", "port", "username", "password", "tls", "keepAlive"], in: "site.broker")
            host = try broker["host"]?.string() ?? host
            port = try broker["port"]?.integer(in: 1...65535) ?? port
            connection = try MQTTConnectionOptions(node: broker)
        }
        let topics = SiteTopics(
            prefix: try node["topicPrefix"]?.string() ?? "beacond/site", site: name,
            bucketCount: try node["buckets"]?.integer(in: 1...SiteTopics.maxBucketCount) ?? SiteTopics.defaultBucketCount)
        do {
            try topics.validate()
        } catch {
            throw node.error(error.description)
        }
        let format = try node["format"].map { n throws(ConfigurationError) in
            GatewayReportFormat(rawValue: try n.choice(GatewayReportFormat.allCases.map(\.rawValue)))!
        }
        self.init(
            topics: topics, gateway: gateway, host: host, port: port, connection: connection, format: format ?? .binary)
        key = try GatewayKey.read(from: node)
        publishAs = try Self.readPublish(node, gateway: gateway)
        advertise = try node["advertise"]?.bool() ?? false
        if let field = node["advertisePower"] {
            advertisePower = try field.integer(in: BeaconAdvertising.measuredPowerRange)
        }
        if let field = node["advertiseInterval"] {
            advertiseInterval = try field.duration()
            guard advertiseInterval >= BeaconAdvertising.minimumInterval,
                advertiseInterval <= BeaconAdvertising.maximumInterval
            else {
                throw field.error(
                    "site.advertiseInterval must be from 100ms (the least a Bluetooth 4 controller accepts for "
                        + "non-connectable advertising) to 10.24s")
            }
        }
    }
}
