import BeaconCore
import FoundationEssentials

/// An identity resolving key as people find it written, read into the keys it may stand for.
///
/// Three forms are read:
/// - **hexadecimal**, 32 digits, with or without `0x`, spaces, `:` or `-` between bytes. Home
///   Assistant and ESPresense write most significant byte first, BlueZ and Theengs the reverse,
///   and nothing in the digits says which: both orders are candidates, most significant first
///   ahead.
/// - **base64** of the 16 bytes (24 characters, as the Apple keychain's "Remote IRK" gives it,
///   least significant byte first); both orders are candidates, least significant first ahead.
/// - **a BlueZ `info` file** (`/var/lib/bluetooth/ADAPTER/DEVICE/info`), whose
///   `[IdentityResolvingKey]` section's `Key=` is least significant byte first: one candidate.
///
/// The text is a secret: errors describe its shape, never its characters.
public struct IdentityResolvingKeyText: Sendable {
    /// How the text was written.
    public enum Form: String, Sendable, Hashable {
        /// 32 hexadecimal digits.
        case hex
        /// Base64 of the 16 bytes.
        case base64
        /// A BlueZ `info` file's `[IdentityResolvingKey]` section.
        case blueZInfo = "bluez-info"
    }

    /// One key the text may stand for, with the byte order that reads it so.
    public struct Candidate: Sendable {
        /// The order the text was read in.
        public var order: IdentityResolvingKeyOrder
        /// The key under that order.
        public var key: IdentityResolvingKey

        /// A candidate: `key`, as read in `order`.
        public init(order: IdentityResolvingKeyOrder, key: IdentityResolvingKey) {
            self.order = order
            self.key = key
        }
    }

    /// How the text was written.
    public let form: Form
    /// The keys the text may stand for, the likelier first; one when the form settles the order.
    public let candidates: [Candidate]

    /// Whether the form leaves the byte order open (both orders are candidates).
    public var isOrderAmbiguous: Bool { candidates.count > 1 }

    /// Reads `text` in any of the three forms.
    /// - Throws: ``IdentityResolvingKeyTextError`` saying what the text looks like and what was expected.
    public init(parsing text: String) throws(IdentityResolvingKeyTextError) {
        if text.contains("[IdentityResolvingKey]") {
            form = .blueZInfo
            let bytes = try Self.blueZKey(in: text)
            candidates = [Self.candidate(bytes, .leastSignificantFirst)]
            return
        }
        let trimmed = Self.trimmed(Substring(text))
        if let bytes = Self.hexBytes(trimmed) {
            form = .hex
            candidates = [Self.candidate(bytes, .mostSignificantFirst), Self.candidate(bytes, .leastSignificantFirst)]
        } else if trimmed.utf8.count == 24, let data = Data(base64Encoded: trimmed), data.count == 16 {
            form = .base64
            let bytes = Array(data)
            candidates = [Self.candidate(bytes, .leastSignificantFirst), Self.candidate(bytes, .mostSignificantFirst)]
        } else {
            throw IdentityResolvingKeyTextError(found: Self.shape(of: trimmed))
        }
    }

    /// The candidate reading `written` (as it appears in the text) in `order`.
    private static func candidate(_ written: [UInt8], _ order: IdentityResolvingKeyOrder) -> Candidate {
        let bytes = order == .mostSignificantFirst ? written : written.reversed()
        // 16 bytes by construction.
        return Candidate(order: order, key: IdentityResolvingKey(bytes: bytes)!)
    }

    /// The 16 bytes of 32 hex digits (an optional `0x`; spaces, `:` and `-` between digits ignored).
    private static func hexBytes(_ text: String) -> [UInt8]? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        let nibbles = digits.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "-") }
        guard nibbles.count == 32 else { return nil }
        return HexDigits.bytes(nibbles)
    }

    /// The `Key=` of a BlueZ `info` file's `[IdentityResolvingKey]` section, as written.
    private static func blueZKey(in text: String) throws(IdentityResolvingKeyTextError) -> [UInt8] {
        var inSection = false
        for line in text.split(whereSeparator: \.isNewline) {
            let line = Self.trimmed(line)
            if line.hasPrefix("[") {
                inSection = line == "[IdentityResolvingKey]"
            } else if inSection, line.hasPrefix("Key=") {
                guard let bytes = hexBytes(String(line.dropFirst(4))) else {
                    throw IdentityResolvingKeyTextError(
                        found: "a BlueZ info file whose [IdentityResolvingKey] Key= is \(shape(of: String(line.dropFirst(4))))")
                }
                return bytes
            }
        }
        throw IdentityResolvingKeyTextError(found: "a BlueZ info file whose [IdentityResolvingKey] section has no Key= line")
    }

    /// `text` without leading and trailing white space.
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// What a text looks like, without its characters.
    private static func shape(of text: String) -> String {
        if text.isEmpty { return "empty" }
        let hexDigits = text.utf8.filter { HexDigits.value(of: $0) != nil }.count
        return "\(text.count) characters (\(hexDigits) of them hexadecimal digits)"
    }
}

/// Why a text is not an identity resolving key, in words that never repeat the text (a secret).
public struct IdentityResolvingKeyTextError: Error, Sendable, CustomStringConvertible {
    /// What the text looks like.
    public let found: String

    public var description: String {
        "an identity resolving key must be 32 hexadecimal digits (Home Assistant, ESPresense, BlueZ), 24 base64 "
            + "characters (the Apple keychain) or a BlueZ info file with an [IdentityResolvingKey] section; found \(found)"
    }
}
