import BeaconCore
import FoundationEssentials

/// An AltBeacon frame: manufacturer data of any company, then `BE AC`, a 20-byte beacon id
/// (read as a 16-byte id1, 2-byte id2 and 2-byte id3, big-endian), the reference RSSI at 1 m
/// (int8) and one reserved byte.
public struct AltBeaconFrame: Hashable, Sendable {
    /// Bytes of manufacturer data an AltBeacon needs: company id (2) + code (2) + 20 + 1 + 1.
    public static let manufacturerDataLength = 26

    /// The manufacturer's company identifier.
    public var companyID: UInt16
    /// Beacon id bytes 0–7, big-endian.
    public var id1High: UInt64
    /// Beacon id bytes 8–15, big-endian.
    public var id1Low: UInt64
    /// Beacon id bytes 16–17.
    public var id2: UInt16
    /// Beacon id bytes 18–19.
    public var id3: UInt16
    /// Calibrated RSSI at 1 m, dBm.
    public var referenceRSSI: Int8
    /// The manufacturer-reserved byte.
    public var reserved: UInt8

    /// Creates a frame from id1 as two big-endian words.
    @inlinable
    public init(
        companyID: UInt16, id1High: UInt64, id1Low: UInt64, id2: UInt16, id3: UInt16,
        referenceRSSI: Int8, reserved: UInt8 = 0
    ) {
        self.companyID = companyID
        self.id1High = id1High
        self.id1Low = id1Low
        self.id2 = id2
        self.id3 = id3
        self.referenceRSSI = referenceRSSI
        self.reserved = reserved
    }

    /// Creates a frame.
    public init(companyID: UInt16, id1: UUID, id2: UInt16, id3: UInt16, referenceRSSI: Int8, reserved: UInt8 = 0) {
        let (high, low) = id1.bigEndianWords
        self.init(
            companyID: companyID, id1High: high, id1Low: low, id2: id2, id3: id3,
            referenceRSSI: referenceRSSI, reserved: reserved)
    }

    /// Decodes the data of a manufacturer-specific AD structure (starting at the company id);
    /// `nil` when it is not an AltBeacon.
    @inlinable
    public init?(manufacturerData d: UnsafeRawBufferPointer) {
        // BE AC read as one little-endian word.
        guard d.count >= Self.manufacturerDataLength, d.word16(at: 2) == 0xACBE else { return nil }
        self.init(
            companyID: d.littleEndianUInt16(at: 0), id1High: d.bigEndianUInt64(at: 4),
            id1Low: d.bigEndianUInt64(at: 12), id2: d.bigEndianUInt16(at: 20), id3: d.bigEndianUInt16(at: 22),
            referenceRSSI: Int8(bitPattern: d[24]), reserved: d[25])
    }

    /// id1 as a UUID.
    public var id1: UUID { UUID(bigEndianWords: id1High, id1Low) }

    /// The beacon's identity.
    @inlinable
    public var beaconID: BeaconID { .altBeacon(id1High: id1High, id1Low: id1Low, id2: id2, id3: id3) }
}
