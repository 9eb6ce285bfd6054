import BeaconRanging
import BeaconAlerting

/// The gateway configuration file: alerts today; source, ranging, engine and sinks as they land.
public struct GatewayConfiguration: Sendable {
    /// The alert definitions, in file order.
    public var alerts: [AlertDefinition]
    /// At most this many alerts are scheduled at once (what the cap refuses is an `error` event).
    public var maxPending: Int
    /// Ranging: cycle, filter, distance model, proximity bands, regions.
    public var ranging: RangingConfiguration

    public init(alerts: [AlertDefinition] = [], maxPending: Int = AlertEngineConfiguration.defaultMaxPending,
                ranging: RangingConfiguration = RangingConfiguration()) {
        self.alerts = alerts
        self.maxPending = maxPending
        self.ranging = ranging
    }

    static let keys = ["alerts", "maxPending", "ranging"]

    /// Reads and validates a configuration document.
    public init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: Self.keys)
        var alerts: [AlertDefinition] = []
        if let list = node["alerts"] {
            for item in try list.sequence() {
                let definition = try AlertDefinition(node: item)
                if alerts.contains(where: { $0.id == definition.id }) {
                    throw item.error("duplicate alert id '\(definition.id)'; ids must be unique")
                }
                alerts.append(definition)
            }
        }
        self.alerts = alerts
        maxPending = try node["maxPending"]?.integer(in: 1...100_000) ?? AlertEngineConfiguration.defaultMaxPending
        ranging = try node["ranging"].map { n throws(ConfigurationError) in try RangingConfiguration(node: n) }
            ?? RangingConfiguration()
    }

    /// Loads a configuration file.
    public static func load(path: String) throws(ConfigurationError) -> GatewayConfiguration {
        try GatewayConfiguration(node: ConfigNode.load(path: path))
    }
}
