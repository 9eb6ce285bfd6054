import BeaconConfiguration
import BeaconCore
import BeaconSite
import BeaconSiteReport

/// What a hub's configuration says about calibrating its radio model: `hub.calibration` and
/// the reference tags of `anchors:`.
extension HubSettings {
    /// Reads `hub.calibration`: `off`, or `{enabled, interval, window, minFixes, requiredGain}`.
    static func readCalibration(_ node: ConfigNode, _ base: SelfCalibration) throws(ConfigurationError) -> SelfCalibration {
        var calibration = base
        if let text = node.scalarText {
            guard text == "off" || text == "on" else { throw node.error("hub.calibration is on, off or a mapping") }
            calibration.enabled = text == "on"
            return calibration
        }
        try node.checkKeys(
            allowed: ["enabled", "interval", "window", "minFixes", "requiredGain", "file"], in: "hub.calibration")
        if let n = node["enabled"] { calibration.enabled = try n.bool() }
        if let n = node["interval"] {
            let interval = try n.positiveDuration()
            guard interval >= .seconds(1) else { throw n.error("hub.calibration.interval must be at least 1s") }
            calibration.interval = interval
        }
        if let n = node["window"] { calibration.window = try n.integer(in: 10...100_000) }
        if let n = node["minFixes"] { calibration.minimumFixes = try n.integer(in: 4...100_000) }
        if let n = node["requiredGain"] { calibration.requiredGain = try n.number(in: 0...0.9, "a share from 0 to 0.9") }
        return calibration
    }

    /// Reads `anchors: [{beacon: ibeacon:UUID:MAJOR:MINOR, position: [x, y, z], floor: …}]`:
    /// reference tags at known positions.
    static func readAnchors(_ node: ConfigNode) throws(ConfigurationError) -> [SiteAnchor] {
        var anchors: [SiteAnchor] = []
        for entry in try node.sequence(of: "anchors") {
            try entry.checkKeys(allowed: ["beacon", "position", "floor"], in: "anchors[]")
            let beaconNode = try entry.required("beacon")
            let text = try beaconNode.string()
            guard let id = BeaconID(text) else {
                throw beaconNode.error(
                    "'\(text)' is not a beacon id; write ibeacon:UUID:MAJOR:MINOR, "
                        + "altbeacon:UUID:ID2:ID3 or eddystone-uid:NAMESPACE:INSTANCE")
            }
            let values = try entry.required("position").numbers(count: 3...3, "a position [x, y, z] in metres")
            anchors.append(
                SiteAnchor(
                    id: id, position: Vector3(x: values[0], y: values[1], z: values[2]),
                    floor: try entry["floor"]?.string()))
        }
        return anchors
    }
}
