import BeaconConfiguration
import BeaconDevices
import BeaconForeignNodes
import BeaconRanging
import BeaconSite
import BeaconSiteReport

extension HubSettings {
    /// The keys of a foreign node's `gateways:` entry.
    static let foreignNodeKeys = ["kind", "node", "topic"]

    /// Reads a gateway entry's `kind:` (`beacond`, the default, `espresense`, `openmqttgateway`,
    /// `theengs`), `node:` (the name in its topics: ESPresense's room, default the entry's `room`
    /// then its `id`; an OpenMQTTGateway's or Theengs Gateway's name, default the `id`) and
    /// `topic:` (the first topic levels, default `espresense` or `home`). `nil` for a beacond
    /// gateway. Errors at the entry's line say what to write.
    static func readForeignNode(_ entry: ConfigNode, id: String) throws(ConfigurationError) -> ForeignNodeEndpoint? {
        let kinds = ["beacond"] + ForeignNodeKind.allCases.map(\.rawValue)
        let kindName = try entry["kind"]?.choice(kinds) ?? "beacond"
        guard let kind = ForeignNodeKind(rawValue: kindName) else {
            for key in ["node", "topic"] where entry[key] != nil {
                throw entry[key]!.error("\(key): is for a foreign node (kind: espresense, openmqttgateway or theengs)")
            }
            return nil
        }
        for key in ["key", "keyFile"] where entry[key] != nil {
            throw entry[key]!.error("a \(kind.rawValue) node cannot sign its messages: leave \(key): out")
        }
        let defaultName = kind == .espresense ? (try entry["room"]?.string() ?? id) : id
        let name = try entry["node"]?.string() ?? defaultName
        let isSlug = name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }
        if kind == .espresense, entry["node"] == nil, !isSlug {
            let slug = String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
            throw (entry["room"] ?? entry).error(
                "'\(name)' is not the slug an ESPresense node publishes its room under: write node: with it (e.g. node: \(slug))")
        }
        guard ForeignNodeEndpoint.isValidTopicLevel(name) else {
            throw (entry["node"] ?? entry["room"] ?? entry).error(
                "'\(name)' cannot be a topic level of the node: write node: with the \(kind == .espresense ? "room slug the node publishes under (espresense/devices/<id>/<room>)" : "gateway name it publishes under (home/<name>/BTtoMQTT)")"
            )
        }
        var prefix: String?
        if let node = entry["topic"] {
            let text = try node.string()
            let levels = text.split(separator: "/", omittingEmptySubsequences: false)
            guard !levels.isEmpty, levels.allSatisfy({ ForeignNodeEndpoint.isValidTopicLevel(String($0)) }) else {
                throw node.error(
                    "topic: '\(text)' is not a topic prefix: levels separated by '/', no '+' or '#' (e.g. espresense)")
            }
            prefix = text
        }
        return ForeignNodeEndpoint(kind: kind, name: name, prefix: prefix)
    }

    /// A ranging node for each foreign gateway, in gateway order, ranging on the hub's cycle and
    /// resolving the private addresses of `devices` (the hub's `devices:`).
    public func makeForeignNodes(devices: [EnrolledDevice] = []) throws -> [ForeignGatewayNode] {
        let ranging = RangingConfiguration(cycleLength: fusion.cycleLength)
        return try layout.gateways.compactMap { gateway in
            guard let endpoint = foreignNodes[gateway.id] else { return nil }
            return try ForeignGatewayNode(gateway: gateway.id, endpoint: endpoint, ranging: ranging, devices: devices)
        }
    }
}
