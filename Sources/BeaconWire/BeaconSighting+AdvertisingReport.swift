import BeaconCore

extension BeaconSighting {
    /// The sighting an advertising report amounts to, or `nil` when its data carries no beacon
    /// identity (iBeacon, AltBeacon or Eddystone-UID). Allocates nothing.
    @inlinable @inline(__always)
    public init?(report: AdvertisingReport, timestamp: Timestamp) {
        guard let frame = BeaconFrame.find(inAdvertisingData: report.data) else { return nil }
        self.init(
            timestamp: timestamp, id: frame.id, address: report.address, addressType: report.addressType,
            rssi: report.rssi, measuredPower: frame.measuredPower)
    }
}
