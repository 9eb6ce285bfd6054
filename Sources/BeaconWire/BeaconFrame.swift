import BeaconCore

/// The beacon identity an advertisement carries, whatever its frame family: iBeacon, AltBeacon
/// or Eddystone-UID, with the calibrated power at 1 m (Eddystone's 0 m power minus 41 dB).
public struct BeaconFrame: Hashable, Sendable {
    /// The beacon's identity.
    public var id: BeaconID
    /// Expected RSSI at 1 m, dBm.
    public var measuredPower: Int8?

    /// Creates a value.
    @inlinable
    public init(id: BeaconID, measuredPower: Int8?) {
        self.id = id
        self.measuredPower = measuredPower
    }

    /// The first beacon identity in `advertisingData` (AD structures), or `nil` when there is
    /// none. Malformed structures end the search; identities found before them count.
    /// Allocates nothing.
    @inlinable @inline(__always)
    public static func find(inAdvertisingData advertisingData: UnsafeRawBufferPointer) -> BeaconFrame? {
        var structures = ADStructureIterator(advertisingData)
        while let structure = try? structures.next() {
            let d = structure.data
            switch structure.type.rawValue {
            case 0xFF:
                if let frame = IBeaconFrame(manufacturerData: d) {
                    return BeaconFrame(id: frame.beaconID, measuredPower: frame.measuredPower)
                }
                if let frame = AltBeaconFrame(manufacturerData: d) {
                    return BeaconFrame(id: frame.beaconID, measuredPower: frame.referenceRSSI)
                }
            case 0x16:
                // AA FE (the Eddystone service UUID 0xFEAA) read as one little-endian word.
                if d.count >= 2 + EddystoneUID.minimumLength, d.word16(at: 0) == 0xFEAA,
                    let frame = EddystoneUID(frame: d.unsafeSlice(from: 2, count: d.count &- 2))
                {
                    return BeaconFrame(id: frame.beaconID, measuredPower: frame.measuredPowerAt1m)
                }
            default:
                continue
            }
        }
        return nil
    }
}
