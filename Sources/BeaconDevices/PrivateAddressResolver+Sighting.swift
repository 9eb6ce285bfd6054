import BeaconCore
import BeaconWire

extension PrivateAddressResolver {
    /// The sighting an advertising report from an enrolled device amounts to: its identity, the
    /// report's RSSI and the device's measured power; `nil` when the address is not taken for a
    /// device (``device(for:type:at:)``). Allocates nothing once the address is known.
    public mutating func sighting(_ report: AdvertisingReport, at timestamp: Timestamp) -> BeaconSighting? {
        guard let index = device(for: report.address, type: report.addressType, at: timestamp) else { return nil }
        let device = devices[index]
        return BeaconSighting(
            timestamp: timestamp, id: device.id, address: report.address, addressType: report.addressType,
            rssi: report.rssi, measuredPower: device.measuredPower)
    }
}
