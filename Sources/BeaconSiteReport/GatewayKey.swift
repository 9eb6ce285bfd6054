import BeaconCore

/// A gateway's secret for signing its reports (HMAC-SHA-256): 16 to 64 bytes, written in
/// configuration files as hexadecimal (`openssl rand -hex 32` makes one). The gateway and the hub
/// hold the same key; nobody else must.
///
/// Its description never shows the bytes.
public struct GatewayKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's bytes.
    public let bytes: [UInt8]

    /// The shortest key accepted: 16 bytes (128 bits).
    public static let minimumByteCount = 16
    /// The longest key accepted: 64 bytes (an HMAC-SHA-256 block).
    public static let maximumByteCount = 64

    /// The key of `hex` (an even number of hexadecimal digits, 32 to 128 of them, an optional
    /// `0x` first); `nil` for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("0x") { digits = digits.dropFirst(2) }
        guard (Self.minimumByteCount * 2...Self.maximumByteCount * 2).contains(digits.utf8.count),
            let bytes = HexDigits.bytes(digits.utf8)
        else { return nil }
        self.bytes = bytes
    }

    /// A key of these bytes (16 to 64 of them).
    public init?(bytes: [UInt8]) {
        guard (Self.minimumByteCount...Self.maximumByteCount).contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    public var description: String { "GatewayKey(\(bytes.count) bytes)" }
}
