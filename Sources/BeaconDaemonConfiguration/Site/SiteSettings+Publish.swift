import BeaconConfiguration
import BeaconForeignNodes

extension SiteSettings {
    /// Reads `site.publish` (`beacond`, the default: ranged reports; `espresense`: every beacon
    /// heard, as an ESPresense node publishes it) and `site.node` (the room slug it publishes
    /// under, default the gateway id). A simulated gateway so stands in for an ESPresense node.
    static func readPublish(_ node: ConfigNode, gateway: String) throws(ConfigurationError) -> ForeignNodeEndpoint? {
        let kind = try node["publish"]?.choice(["beacond", "espresense"]) ?? "beacond"
        guard kind == "espresense" else {
            if let field = node["node"] { throw field.error("site.node is the room of a gateway with publish: espresense") }
            return nil
        }
        for key in ["key", "keyFile", "format"] where node[key] != nil {
            throw node[key]!.error(
                "site.\(key) is for ranged reports: a gateway with publish: espresense sends ESPresense messages")
        }
        let name = try node["node"]?.string() ?? gateway
        guard ForeignNodeEndpoint.isValidTopicLevel(name) else {
            throw (node["node"] ?? node).error("site.node '\(name)' cannot be a topic level: the room slug, e.g. kitchen")
        }
        return ForeignNodeEndpoint(kind: .espresense, name: name)
    }
}
