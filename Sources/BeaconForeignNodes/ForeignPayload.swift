import BeaconCore

/// What one message of a foreign node amounts to, once read.
public enum ForeignPayload: Hashable, Sendable {
    /// A beacon heard: its identity, the RSSI and measured power the node gave, and the sender's
    /// address when the payload carries one (its timestamp is set by ``ForeignGatewayNode``).
    case sighting(id: BeaconID, rssi: Int8, measuredPower: Int8?, address: BluetoothAddress)
    /// A well-formed message about something that is not a beacon we track (a phone's
    /// `apple:…` fingerprint, a thermometer, an Eddystone-URL …), or that carries no signal.
    case ignored(String)
    /// The node's availability: `true` online, `false` offline (its last will).
    case status(online: Bool)
    /// A device that is not a beacon, heard from a resolvable private address (a phone or watch;
    /// the hub resolves it against its enrolled devices, ``ForeignGatewayNode``).
    case privateAddress(address: BluetoothAddress, rssi: Int8)
    /// A device the node resolved itself and names by its key (ESPresense's `irk:` ids): the hub
    /// takes it for the enrolled device with that key.
    case resolvedByNode(key: NodeNamedKey, rssi: Int8, measuredPower: Int8?)
}
