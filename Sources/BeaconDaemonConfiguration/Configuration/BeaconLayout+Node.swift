import BeaconConfiguration
import BeaconCore
import BeaconWire

extension BeaconLayout {
    /// Reads one entry of `layouts:`:
    ///
    /// ```yaml
    /// layouts:
    ///   - {layout: "m:2-3=acbe,i:4-19,i:20-21,i:22-23,p:24-24", as: altbeacon}
    /// ```
    ///
    /// `as` is the identity the identifiers fill: `ibeacon` or `altbeacon` (16, 2 and 2 bytes),
    /// `eddystone-uid` (10 and 6).
    init(node: ConfigNode) throws(ConfigurationError) {
        try node.checkKeys(allowed: ["layout", "as"])
        let layoutNode = try node.required("layout")
        let kindNode = try node.required("as")
        let kindName = try kindNode.string()
        let frameKinds = BeaconID.Kind.allCases.filter { $0 != .device }
        guard let kind = frameKinds.first(where: { $0.name == kindName.lowercased() }) else {
            throw kindNode.error(
                "'\(kindName)' is not an identity kind a frame carries; valid: " + frameKinds.map(\.name).joined(separator: ", "))
        }
        let text = try layoutNode.string()
        do throws(BeaconLayoutError) {
            try self.init(text, kind: kind)
        } catch {
            throw layoutNode.error(error.description)
        }
    }
}
