import BeaconConfiguration
import BeaconRanging

extension ProximityBands {
    /// Reads `{immediate: 0.5, near: 3, enterMargin: 0.1, leaveMargin: 0.1}` (every key optional).
    init(node bands: ConfigNode) throws(ConfigurationError) {
        try bands.checkKeys(allowed: ["immediate", "near", "enterMargin", "leaveMargin"])
        self.init(
            immediateBelow: try bands["immediate"]?.number() ?? 0.5,
            nearBelow: try bands["near"]?.number() ?? 3.0,
            enterMargin: try bands["enterMargin"]?.number() ?? 0.1,
            leaveMargin: try bands["leaveMargin"]?.number() ?? 0.1)
    }
}
