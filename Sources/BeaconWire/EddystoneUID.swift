import BeaconCore

/// An Eddystone-UID frame (frame type 0x00): TX power at 0 m, a 10-byte namespace and a 6-byte
/// instance, then two reserved bytes (optional on receipt).
public struct EddystoneUID: Hashable, Sendable {
    /// The frame type byte.
    public static let frameType: UInt8 = 0x00
    /// Frame bytes needed (type, TX power, namespace, instance); the 2 reserved bytes may be absent.
    public static let minimumLength = 18

    /// Calibrated TX power at 0 m, dBm.
    public var txPowerAt0m: Int8
    /// Namespace bytes 0–1, big-endian.
    public var namespaceHigh: UInt16
    /// Namespace bytes 2–9, big-endian.
    public var namespaceLow: UInt64
    /// The 6-byte instance in the low 48 bits, big-endian.
    public var instance: UInt64

    /// Creates a frame.
    @inlinable
    public init(txPowerAt0m: Int8, namespaceHigh: UInt16, namespaceLow: UInt64, instance: UInt64) {
        self.txPowerAt0m = txPowerAt0m
        self.namespaceHigh = namespaceHigh
        self.namespaceLow = namespaceLow
        self.instance = instance & 0xFFFF_FFFF_FFFF
    }

    /// Decodes a frame (the service data after the 0xFEAA UUID); `nil` when it is not a UID frame.
    @inlinable
    public init?(frame f: UnsafeRawBufferPointer) {
        guard f.count >= Self.minimumLength, f.byte(at: 0) == Self.frameType else { return nil }
        self.init(
            txPowerAt0m: Int8(bitPattern: f.byte(at: 1)), namespaceHigh: f.bigEndianUInt16(at: 2),
            namespaceLow: f.bigEndianUInt64(at: 4),
            instance: UInt64(f.bigEndianUInt16(at: 12)) << 32 | UInt64(f.bigEndianUInt32(at: 14)))
    }

    /// The beacon's identity.
    @inlinable
    public var beaconID: BeaconID {
        .eddystoneUID(namespaceHigh: namespaceHigh, namespaceLow: namespaceLow, instance: instance)
    }

    /// The expected RSSI at 1 m: the 0 m power minus 41 dB (free-space loss at 2.4 GHz), clamped to int8.
    @inlinable
    public var measuredPowerAt1m: Int8 { Int8(clamping: Int(txPowerAt0m) - 41) }
}
