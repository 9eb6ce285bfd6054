/// An Eddystone-URL frame (frame type 0x10): TX power at 0 m, a URL scheme prefix code and the
/// compressed URL (up to 17 bytes, with expansion codes 0x00–0x0D for common endings).
///
/// Decoding keeps the compressed bytes inline; ``url`` builds the string only when asked.
public struct EddystoneURL: Hashable, Sendable {
    /// The frame type byte.
    public static let frameType: UInt8 = 0x10
    /// The longest compressed URL a frame carries.
    public static let maximumEncodedLength = 17
    /// Scheme prefixes by code 0x00…0x03.
    public static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// Expansions by code 0x00…0x0D.
    public static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    /// Calibrated TX power at 0 m, dBm.
    public var txPowerAt0m: Int8
    /// The scheme prefix code (0x00…0x03).
    public var schemeCode: UInt8
    /// The compressed URL after the scheme.
    public var encodedURL: InlineBytes

    /// Creates a frame from its encoded parts; `nil` when the scheme code is above 0x03 or the
    /// encoded URL is longer than 17 bytes.
    public init?(txPowerAt0m: Int8, schemeCode: UInt8, encodedURL: [UInt8]) {
        guard schemeCode <= 0x03, encodedURL.count <= Self.maximumEncodedLength,
            let bytes = InlineBytes(encodedURL)
        else { return nil }
        self.txPowerAt0m = txPowerAt0m
        self.schemeCode = schemeCode
        self.encodedURL = bytes
    }

    /// Compresses `url`; `nil` when it starts with none of the four schemes or does not fit in 17 bytes.
    public init?(url: String, txPowerAt0m: Int8) {
        let text = Array(url.utf8)
        // Longest prefixes first, so that "https://www." wins over "https://".
        let order: [UInt8] = [1, 0, 3, 2]
        guard let scheme = order.first(where: { text.starts(with: Self.schemes[Int($0)].utf8) }) else { return nil }
        var encoded: [UInt8] = []
        var i = Self.schemes[Int(scheme)].utf8.count
        let byLength = Self.expansions.indices.sorted { Self.expansions[$0].utf8.count > Self.expansions[$1].utf8.count }
        while i < text.count {
            if let code = byLength.first(where: { text[i...].starts(with: Self.expansions[$0].utf8) }) {
                encoded.append(UInt8(code))
                i += Self.expansions[code].utf8.count
            } else {
                encoded.append(text[i])
                i += 1
            }
        }
        self.init(txPowerAt0m: txPowerAt0m, schemeCode: scheme, encodedURL: encoded)
    }

    /// Decodes a frame (the service data after the 0xFEAA UUID); `nil` when it is not a
    /// well-formed URL frame.
    public init?(frame f: UnsafeRawBufferPointer) {
        guard f.count >= 3, f.count - 3 <= Self.maximumEncodedLength, f[0] == Self.frameType, f[2] <= 0x03,
            let bytes = InlineBytes(UnsafeRawBufferPointer(rebasing: f[3...]))
        else { return nil }
        txPowerAt0m = Int8(bitPattern: f[1])
        schemeCode = f[2]
        encodedURL = bytes
    }

    /// The expanded URL (allocates). Bytes 0x0E–0x20 and 0x7F–0xFF, which the spec reserves,
    /// appear as U+FFFD.
    public var url: String {
        var out = Array(Self.schemes[Int(schemeCode & 0x03)].utf8)
        encodedURL.withUnsafeBytes { bytes in
            for byte in bytes {
                if Int(byte) < Self.expansions.count {
                    out.append(contentsOf: Self.expansions[Int(byte)].utf8)
                } else if byte > 0x20, byte < 0x7F {
                    out.append(byte)
                } else {
                    out.append(contentsOf: "\u{FFFD}".utf8)
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Expected RSSI at 1 m (0 m power − 41 dB), clamped to int8.
    public var measuredPowerAt1m: Int8 { Int8(clamping: Int(txPowerAt0m) - 41) }
}
