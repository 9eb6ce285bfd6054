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
        let utf8 = Array(digits.utf8)
        guard utf8.count % 2 == 0,
            (Self.minimumByteCount * 2...Self.maximumByteCount * 2).contains(utf8.count)
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for i in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = Self.nibble(utf8[i]), let low = Self.nibble(utf8[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// A key of these bytes (16 to 64 of them).
    public init?(bytes: [UInt8]) {
        guard (Self.minimumByteCount...Self.maximumByteCount).contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    public var description: String { "GatewayKey(\(bytes.count) bytes)" }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
