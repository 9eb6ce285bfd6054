import BeaconConfiguration
import BeaconCore

extension ConfigNode {
    /// A position `[x, y, z]` (or `[x, y]`, z = 0) in metres.
    func vector() throws(ConfigurationError) -> Vector3 {
        let values = try numbers(count: 2...3, "a position [x, y, z] in metres")
        return Vector3(values[0], values[1], values.count == 3 ? values[2] : 0)
    }
}
