import BeaconConfiguration
import BeaconRanging
import BeaconSite
import FoundationEssentials

/// The file `beacond replay --site` reads: the site's gateways, each with its capture, and
/// optionally the hub's settings and the gateways' ranging.
///
/// ```yaml
/// gateways:
///   - {id: Room201, room: Room201, position: [0, 0, 2], capture: Room201.btsnoop}
///   - {id: esp-office, kind: espresense, room: office, capture: nodes.jsonl}   # beacond record-mqtt
///   - …
/// walls: [[[0, 0], [10, 0]]]                 # optional, as for beacond hub: the grid filter's floor plan
/// blocks: [{min: [2, 2], max: [4, 6]}]
/// rooms: [{name: Room201, min: [0, 0], max: [5, 4]}]   # optional: rooms' outlines
/// hub: {room: {margin: 4, minDwell: 2s}}     # optional, as for beacond hub
/// ranging: {filter: arma}                    # optional: every gateway's ranging
/// ```
/// Capture paths are relative to the file. A foreign node's capture (`kind:`, see
/// `Docs/ForeignNodes.md`) is its recorded MQTT traffic, one JSON message a line.
public struct SiteReplayDocument: Sendable {
    /// The gateways, their rooms and positions, and the hub's settings.
    public var hub: HubSettings
    /// Each gateway's capture (absolute, or relative to the working directory), in gateway order.
    public var captures: [String]
    /// The gateways' ranging.
    public var ranging: RangingConfiguration

    /// Reads a site replay file.
    public static func load(path: String) throws(ConfigurationError) -> SiteReplayDocument {
        let node = try ConfigNode.load(path: path)
        try node.checkKeys(allowed: ["gateways", "hub", "ranging", "anchors"] + HubSettings.floorPlanKeys)
        let gatewaysNode = try node.required("gateways")
        let hub = try HubSettings.read(
            gateways: gatewaysNode, hub: node["hub"], anchors: node["anchors"], walls: node["walls"], blocks: node["blocks"],
            rooms: node["rooms"], gatewayKeys: ["capture"])
        var captures: [String] = []
        for entry in try gatewaysNode.sequence() { captures.append(try entry.required("capture").filePath()) }
        let ranging =
            try node["ranging"].map { n throws(ConfigurationError) in try RangingConfiguration(node: n) }
            ?? RangingConfiguration()
        return SiteReplayDocument(hub: hub, captures: captures, ranging: ranging)
    }
}
