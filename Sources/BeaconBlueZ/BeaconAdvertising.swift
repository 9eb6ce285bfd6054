import BeaconCore

/// What an adapter advertises while it scans: an iBeacon frame in non-connectable, non-scannable
/// undirected advertising (ADV_NONCONN_IND) on all three primary channels, from the controller's
/// public address.
///
/// A site gateway advertises its own identity this way (`site.advertise: true`), so that the
/// other gateways of the site measure it at a known distance.
public struct BeaconAdvertising: Hashable, Sendable {
    /// The shortest advertising interval: 100 ms, the least a Bluetooth 4.x controller accepts for
    /// non-connectable advertising (5.0 lowered it to 20 ms).
    public static let minimumInterval = Duration.milliseconds(100)
    /// The longest advertising interval: 10.24 s (0x4000 × 0.625 ms), the legacy maximum.
    public static let maximumInterval = Duration.milliseconds(10_240)
    /// The measured power range accepted: the RSSI at 1 m of a real transmitter.
    public static let measuredPowerRange = -100...0
    /// The default interval: 100 ms, Apple's recommendation for an iBeacon. Ten advertisements a
    /// second give each peer gateway several samples per ranging cycle even at a scan duty cycle
    /// below 100 %, and one advertising event (three PDUs, about 1.5 ms on air) costs the
    /// gateway's own scanner about 1.5 % of its listening time.
    public static let defaultInterval = Duration.milliseconds(100)
    /// The default measured power: -59 dBm, the usual calibration of an iBeacon at 1 m.
    public static let defaultMeasuredPower = -59

    /// The iBeacon identity advertised.
    public let identity: BeaconID
    /// The RSSI at 1 m written in the frame, dBm.
    public let measuredPower: Int
    /// The advertising interval, in 0.625 ms units (the controller adds its own 0–10 ms
    /// advDelay to every event).
    public let intervalUnits: UInt32

    /// Checks and converts an advertisement (the interval is rounded to 0.625 ms).
    ///
    /// - Throws: ``BlueZScannerError/invalidAdvertising(_:)`` when the identity is not an
    ///   iBeacon, the interval is outside 100 ms … 10.24 s, or the measured power outside
    ///   -100 … 0 dBm.
    public init(
        identity: BeaconID, measuredPower: Int = Self.defaultMeasuredPower, interval: Duration = Self.defaultInterval
    ) throws(BlueZScannerError) {
        guard identity.kind == .iBeacon else {
            throw .invalidAdvertising("only an iBeacon identity can be advertised, not \(identity.kind.name)")
        }
        guard Self.measuredPowerRange.contains(measuredPower) else {
            throw .invalidAdvertising("measured power \(measuredPower) dBm is outside -100 … 0 dBm")
        }
        guard interval >= Self.minimumInterval, interval <= Self.maximumInterval else {
            throw .invalidAdvertising("advertising interval \(interval) is outside 100 ms … 10.24 s")
        }
        self.identity = identity
        self.measuredPower = measuredPower
        let unit = ScanTiming.timeUnit.nanoseconds
        intervalUnits = UInt32((interval.nanoseconds + unit / 2) / unit)
    }

    /// The advertising interval.
    public var interval: Duration { ScanTiming.timeUnit * Int(intervalUnits) }

    /// The advertising data (30 bytes): a Flags structure (LE General Discoverable, BR/EDR not
    /// supported) and Apple's iBeacon manufacturer data: company 0x004C, type 0x02, length 0x15,
    /// UUID, major and minor (big-endian), measured power (signed).
    public var advertisingData: [UInt8] {
        var bytes: [UInt8] = [
            0x02, 0x01, 0x06, // Flags: LE General Discoverable | BR/EDR Not Supported
            0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15, // Manufacturer Specific (26 bytes): Apple, iBeacon, 21 bytes
        ]
        bytes.reserveCapacity(30)
        for word in [identity.high, identity.low] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes += [
            UInt8(identity.major >> 8), UInt8(identity.major & 0xFF), UInt8(identity.minor >> 8),
            UInt8(identity.minor & 0xFF), UInt8(bitPattern: Int8(measuredPower)),
        ]
        return bytes
    }
}
