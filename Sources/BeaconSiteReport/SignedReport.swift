import BeaconCore

/// A gateway report sealed with its gateway's key, so that a hub can tell it from a forgery or
/// a replay.
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
    static let magic: (UInt8, UInt8) = (0x62, 0x53)
    static let version: UInt8 = 1
    /// Bytes before the report.
    public static let overhead = 44

    /// Whether `bytes` are a sealed report (by their first two bytes).
    public static func isSealed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == magic.0 && bytes[1] == magic.1
    }

    /// Seals `report` (a whole encoded report) with `sequence` and `key`.
    public static func seal(_ report: some Collection<UInt8>, sequence: UInt64, key: GatewayKey) -> [UInt8] {
        var sealed: [UInt8] = [magic.0, magic.1, version, 0]
        sealed.reserveCapacity(overhead + report.count)
        withUnsafeBytes(of: sequence.littleEndian) { sealed.append(contentsOf: $0) }
        var code = HMACSHA256(key: key.bytes)
        code.update(sealed)
        code.update(report)
        sealed.append(contentsOf: code.finalize())
        sealed.append(contentsOf: report)
        return sealed
    }

    /// The parts of a sealed report, not yet verified.
    public struct Parts {
        /// The sequence it claims.
        public var sequence: UInt64
        /// The report inside.
        public var report: UnsafeRawBufferPointer
        let head: UnsafeRawBufferPointer
        let code: UnsafeRawBufferPointer

        /// Whether the code is right for `key` (compared in constant time).
        public func verifies(with key: GatewayKey) -> Bool {
            var expected = HMACSHA256(key: key.bytes)
            expected.update(head)
            expected.update(report)
            return HMACSHA256.constantTimeEqual(expected.finalize(), code)
        }
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
