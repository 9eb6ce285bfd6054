/// One reception of a beacon frame: what the ranging loop consumes.
///
/// The wire stage turns each advertising report that carries an iBeacon, AltBeacon or
/// Eddystone-UID frame into a sighting. It is a small value with no references, so producing
/// and consuming sightings allocates nothing.
public struct BeaconSighting: Hashable, Sendable {
    /// When the report was received (capture time, virtual time or wall-clock time).
    public var timestamp: Timestamp
    /// The beacon's identity.
    public var id: BeaconID
    /// The address the frame came from.
    public var address: BluetoothAddress
    /// The type of that address.
    public var addressType: AddressType
    /// Received signal strength in dBm, or `nil` when the controller reported 127 (not available).
    public var rssi: Int8?
    /// The frame's calibrated power: expected RSSI at 1 m in dBm (Eddystone's 0 m value is
    /// converted by the wire stage), or `nil` when the frame carries none.
    public var measuredPower: Int8?

    @inlinable
    public init(
        timestamp: Timestamp, id: BeaconID, address: BluetoothAddress,
        addressType: AddressType = .public, rssi: Int8?, measuredPower: Int8?
    ) {
        self.timestamp = timestamp
        self.id = id
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.measuredPower = measuredPower
    }
}
