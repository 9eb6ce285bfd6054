/// The LE feature mask from HCI_LE_Read_Local_Supported_Features (§7.8.3; bits in Vol 6,
/// Part B, §4.6).
public struct LEFeatures: RawRepresentable, Hashable, Sendable {
    /// The 64 feature bits (bit 0 = LE Encryption).
    public let rawValue: UInt64

    /// Wraps a feature mask.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 12: LE Extended Advertising (the controller has the extended scanning commands).
    public static let extendedAdvertisingBit = 12

    /// Whether bit 12, LE Extended Advertising, is set.
    public var supportsExtendedAdvertising: Bool { rawValue & (1 << UInt64(Self.extendedAdvertisingBit)) != 0 }

    /// Reads the 8-byte little-endian LE_Features after the status.
    public init(returnParameters p: [UInt8]) throws(HCIEventError) {
        guard p.count >= 8 else {
            throw HCIEventError(
                .shortReturnParameters(
                    opcode: .leReadLocalSupportedFeatures, needed: 8,
                    actual: p.count), bytes: p)
        }
        var value: UInt64 = 0
        for i in (0..<8).reversed() { value = value << 8 | UInt64(p[i]) }
        rawValue = value
    }
}
