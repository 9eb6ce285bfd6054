import BeaconCore
import FoundationEssentials

/// An Apple iBeacon frame: manufacturer data of company 0x004C (little-endian on the wire),
/// then `02 15`, the 16-byte proximity UUID, major and minor (big-endian) and the measured
/// power (int8, RSSI at 1 m).
public struct IBeaconFrame: Hashable, Sendable {
    /// Apple's company identifier.
    public static let companyID: UInt16 = 0x004C
    /// Bytes of manufacturer data an iBeacon needs: company id (2) + 23.
    public static let manufacturerDataLength = 25

    /// Proximity UUID bytes 0–7, big-endian.
    public var uuidHigh: UInt64
    /// Proximity UUID bytes 8–15, big-endian.
    public var uuidLow: UInt64
    /// Major.
    public var major: UInt16
    /// Minor.
    public var minor: UInt16
    /// Calibrated RSSI at 1 m, dBm.
    public var measuredPower: Int8

    /// Creates a frame from the UUID as two big-endian words.
    @inlinable
    public init(uuidHigh: UInt64, uuidLow: UInt64, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.uuidHigh = uuidHigh
        self.uuidLow = uuidLow
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// Creates a frame.
    public init(uuid: UUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        let (high, low) = uuid.bigEndianWords
        self.init(uuidHigh: high, uuidLow: low, major: major, minor: minor, measuredPower: measuredPower)
    }

    /// Decodes the data of a manufacturer-specific AD structure (starting at the company id);
    /// `nil` when it is not an iBeacon. Extra bytes after the 25 are ignored.
    @inlinable
    public init?(manufacturerData d: UnsafeRawBufferPointer) {
        // 4C 00 02 15 (company 0x004C, type 0x02, length 0x15) read as one little-endian word.
        guard d.count >= Self.manufacturerDataLength, d.word32(at: 0) == 0x1502_004C else { return nil }
        self.init(
            uuidHigh: d.bigEndianUInt64(at: 4), uuidLow: d.bigEndianUInt64(at: 12),
            major: d.bigEndianUInt16(at: 20), minor: d.bigEndianUInt16(at: 22),
            measuredPower: Int8(bitPattern: d.byte(at: 24)))
    }

    /// The proximity UUID.
    public var uuid: UUID { UUID(bigEndianWords: uuidHigh, uuidLow) }

    /// The beacon's identity.
    @inlinable
    public var beaconID: BeaconID { .iBeacon(uuidHigh: uuidHigh, uuidLow: uuidLow, major: major, minor: minor) }
}
