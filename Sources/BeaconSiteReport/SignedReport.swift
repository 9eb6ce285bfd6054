import BeaconCore

/// A gateway report sealed with its gateway's key, so that a hub can tell it from a forgery or
/// a replay. This is the framing; sealing and verifying (`seal`, `Parts.verifies`) are in
/// BeaconSite, with the HMAC of BeaconCrypto, so that the fuzzer links this module alone.
///
/// | bytes | field |
/// |---|---|
/// | 2 | magic `bS` (0x62 0x53) |
/// | 1 | version (1) |
/// | 1 | reserved (0) |
/// | 8 | sequence, little-endian: strictly increasing per gateway (the gateway's wall clock in ns, or one more than the last) |
/// | 32 | HMAC-SHA-256 with the gateway's key over the 12 bytes above and the report |
/// | n | the report, in either format (``GatewayReportEncoder``) |
///
/// The hub checks the code before it reads anything of the report, refuses a sequence not above
/// the last it took from that gateway (a replay), and one whose time is further than
/// `hub.signatureWindow` from its own clock (a replay from before the hub started).
public enum SignedReport {
    package static let magic: (UInt8, UInt8) = (0x62, 0x53)
    package static let version: UInt8 = 1
    /// Bytes before the report.
    public static let overhead = 44

    /// Whether `bytes` are a sealed report (by their first two bytes).
    public static func isSealed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == magic.0 && bytes[1] == magic.1
    }

    /// The parts of a sealed report, not yet verified.
    public struct Parts {
        /// The sequence it claims.
        public var sequence: UInt64
        /// The report inside.
        public var report: UnsafeRawBufferPointer
        /// The bytes the code covers before the report: magic, version and sequence.
        package let head: UnsafeRawBufferPointer
        /// The code the report carries.
        package let code: UnsafeRawBufferPointer
    }

    /// Splits a sealed report; `nil` when it is too short or of another version.
    public static func open(_ bytes: UnsafeRawBufferPointer) -> Parts? {
        guard isSealed(bytes), bytes.count > overhead, bytes[2] == version else { return nil }
        return Parts(
            sequence: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt64.self)),
            report: UnsafeRawBufferPointer(rebasing: bytes[overhead...]),
            head: UnsafeRawBufferPointer(rebasing: bytes[0..<12]),
            code: UnsafeRawBufferPointer(rebasing: bytes[12..<overhead]))
    }
}
