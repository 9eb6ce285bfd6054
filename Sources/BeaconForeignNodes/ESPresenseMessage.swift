import BeaconCore
import FoundationEssentials

/// What an ESPresense node publishes for a beacon it hears, written as the firmware writes it
/// (`BleFingerprint::fill`): a simulated node, and a test's node, publish exactly what a real
/// one would, so that the hub reads them through the same ``ForeignNodeKind/read(_:_:)``.
public enum ESPresenseMessage {
    /// The firmware's device id of a beacon: `iBeacon:<uuid>-<major>-<minor>` (lowercase UUID
    /// with dashes), `altBeacon:…`, or `eddy:<namespace>-<instance>` with the namespace's fifth
    /// byte printed twice, as the firmware does.
    public static func deviceID(of beacon: BeaconID) -> String {
        switch beacon.kind {
        case .iBeacon:
            return "iBeacon:\(beacon.uuid.uuidString.lowercased())-\(beacon.major)-\(beacon.minor)"
        case .altBeacon:
            return "altBeacon:\(beacon.uuid.uuidString.lowercased())-\(beacon.major)-\(beacon.minor)"
        case .eddystoneUID:
            let namespace = beacon.eddystoneNamespaceHex.lowercased()
            let repeated = namespace.prefix(10) + namespace.dropFirst(8).prefix(2) + namespace.dropFirst(10)
            return "eddy:\(repeated)-\(beacon.eddystoneInstanceHex.lowercased())"
        case .device:
            // The firmware names a device it resolves `irk:<its key>`; a simulated node holds no
            // key, so it publishes the enrolled name.
            return "device:\(beacon.deviceName ?? "")"
        }
    }

    /// The topic and payload of a node in `room` (its slug) hearing `beacon` at `rssi` dBm.
    /// - Parameters:
    ///   - beacon: the beacon heard.
    ///   - rssi: the RSSI the node publishes, dBm.
    ///   - measuredPower: the node's `rssi@1m` (the beacon's measured power), if known.
    ///   - address: the sender's MAC.
    ///   - room: the node's room slug (the topic's last level).
    ///   - prefix: the node's base topic.
    public static func device(
        _ beacon: BeaconID, rssi: Int8, measuredPower: Int8?, address: BluetoothAddress, room: String,
        prefix: String = "espresense"
    ) -> (topic: String, payload: [UInt8]) {
        let id = deviceID(of: beacon)
        var mac = ""
        for index in 0..<6 {
            let byte = address[displayIndex: index]
            mac += (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
        var json = JSONWriter()
        json.object { json in
            json.member("mac", mac)
            json.member("id", id)
            json.member("rssi@1m", measuredPower.map(Int.init))
            json.member("rssi", Int(rssi))
            json.member("rxAdj", 0)
        }
        return ("\(prefix)/devices/\(id)/\(room)", json.bytes)
    }
}
