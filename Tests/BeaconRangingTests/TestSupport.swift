import BeaconCore

@testable import BeaconRanging

/// Shared builders for the ranging tests: times are seconds after a fixed, cycle-aligned origin.
enum Fixture {
    static let origin: Int64 = 1_700_000_000 * 1_000_000_000

    static func time(_ seconds: Double) -> Timestamp {
        Timestamp(nanosecondsSinceEpoch: origin + Int64((seconds * 1e9).rounded()))
    }

    static func beacon(_ minor: UInt16, major: UInt16 = 1) -> BeaconID {
        .iBeacon(uuidHigh: 0xE2C5_6DB5_DFFB_48D2, uuidLow: 0xB060_D0F5_A710_96E0, major: major, minor: minor)
    }

    static func sighting(
        _ seconds: Double, _ minor: UInt16 = 1, rssi: Int8? = -60, power: Int8? = -59,
        address: UInt64 = 0xAABB_CCDD_EE01
    ) -> BeaconSighting {
        BeaconSighting(
            timestamp: time(seconds), id: beacon(minor), address: BluetoothAddress(rawValue: address),
            addressType: .random, rssi: rssi, measuredPower: power)
    }

    /// Seconds after the origin of a timestamp.
    static func seconds(_ t: Timestamp) -> Double { Double(t.nanosecondsSinceEpoch - origin) / 1e9 }
}

extension BeaconSighting {
    /// The same sighting with another major (to make more than 65,536 identities).
    func with(major: Int) -> BeaconSighting {
        BeaconSighting(
            timestamp: timestamp,
            id: .iBeacon(uuidHigh: id.high, uuidLow: id.low, major: UInt16(truncatingIfNeeded: major), minor: id.minor),
            address: address, addressType: addressType, rssi: rssi, measuredPower: measuredPower)
    }
}
