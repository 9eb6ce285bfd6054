import BeaconCore

/// A beacon frame described declaratively, in the AltBeacon library's layout syntax, so that a
/// vendor's frame is added by configuration rather than code.
///
/// A layout is comma-separated terms `letter:start-end[=hex][:correction]`; offsets count from
/// the first byte after the AD type: the company id of manufacturer data, the 16-bit service
/// UUID of service data.
///
/// | term | meaning |
/// |---|---|
/// | `m:2-3=beac` | these bytes must be `BE AC` (a matching prefix; several allowed) |
/// | `s:0-1=feaa` | the frame is service data (AD type 0x16) of this 16-bit UUID, written big-endian as usual (`feaa` matches the wire's `AA FE`) |
/// | `i:4-19` | an identifier, big-endian (in order: the identity's parts) |
/// | `p:24-24[:-41]` | the power byte (int8), plus a correction to make it the RSSI at 1 m |
/// | `d:25-25` | a data field (must be present; its value is not used) |
///
/// Without an `s:` term the frame is manufacturer-specific data (AD type 0xFF). The identifiers
/// fill a `BeaconID` of the layout's `kind`: 16, 2 and 2 bytes for iBeacon and AltBeacon, 10
/// and 6 for Eddystone-UID. The built-in frames are ``iBeacon``, ``altBeacon`` and
/// ``eddystoneUID``. Decoding (``frame(inAdvertisingData:)``) reads borrowed bytes and allocates
/// nothing.
public struct BeaconLayout: Hashable, Sendable, CustomStringConvertible {
    /// The layout as written.
    public let text: String
    /// The identity the identifiers fill.
    public let kind: BeaconID.Kind
    /// True for service data (an `s:` term), false for manufacturer-specific data.
    public let isServiceData: Bool
    /// The bytes that must match: offsets and values, in the order written.
    @usableFromInline let matchOffsets: [Int]
    @usableFromInline let matchBytes: [UInt8]
    /// The identifiers' byte ranges (`start`, `end` inclusive).
    @usableFromInline let identifiers: [ClosedRange<Int>]
    /// The power byte's offset and correction, if any.
    @usableFromInline let powerOffset: Int?
    @usableFromInline let powerCorrection: Int
    /// The shortest data that holds every term.
    @usableFromInline let minimumLength: Int

    /// Apple's iBeacon: company 0x004C, `02 15`, UUID, major, minor, measured power.
    public static let iBeacon = try! BeaconLayout("m:0-3=4c000215,i:4-19,i:20-21,i:22-23,p:24-24", kind: .iBeacon)
    /// AltBeacon: any company, `BE AC`, a 20-byte id (16 + 2 + 2), reference RSSI, reserved byte.
    public static let altBeacon = try! BeaconLayout("m:2-3=beac,i:4-19,i:20-21,i:22-23,p:24-24,d:25-25", kind: .altBeacon)
    /// Eddystone-UID: service 0xFEAA, frame type 0x00, 0 m power (−41 dB gives 1 m), namespace, instance.
    public static let eddystoneUID = try! BeaconLayout("s:0-1=feaa,m:2-2=00,p:3-3:-41,i:4-13,i:14-19", kind: .eddystoneUID)

    /// The three built-in frames, as layouts.
    public static let builtIn: [BeaconLayout] = [iBeacon, altBeacon, eddystoneUID]

    /// Reads `text`; throws ``BeaconLayoutError`` naming the term that cannot work.
    public init(_ text: String, kind: BeaconID.Kind) throws(BeaconLayoutError) {
        func fail(_ term: some StringProtocol, _ reason: String) -> BeaconLayoutError {
            BeaconLayoutError(layout: text, term: String(term), reason: reason)
        }
        var offsets: [Int] = [], bytes: [UInt8] = [], ids: [ClosedRange<Int>] = []
        var power: Int?, correction = 0, service = false, longest = 0
        for term in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = term.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, let letter = parts[0].first, parts[0].count == 1 else {
                throw fail(term, "write letter:start-end, e.g. i:4-19")
            }
            let rangeAndValue = parts[1].split(separator: "=", omittingEmptySubsequences: false)
            let bounds = rangeAndValue[0].split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let start = Int(bounds[0]), let end = Int(bounds[1]), start >= 0, end >= start,
                end < 256
            else {
                throw fail(term, "the byte range must be start-end with 0 ≤ start ≤ end < 256")
            }
            longest = max(longest, end + 1)
            let value = rangeAndValue.count == 2 ? rangeAndValue[1] : nil
            switch letter {
            case "m", "s":
                guard let value, value.count == (end - start + 1) * 2, value.allSatisfy(\.isHexDigit) else {
                    throw fail(term, "a match needs =HEX with two hex digits per byte of its range")
                }
                var matched: [UInt8] = []
                var index = value.startIndex
                while index < value.endIndex {
                    let next = value.index(index, offsetBy: 2)
                    matched.append(UInt8(value[index..<next], radix: 16)!)
                    index = next
                }
                if letter == "s" {
                    guard !service else { throw fail(term, "one s: term at most") }
                    service = true
                    matched.reverse() // UUIDs are little-endian on the wire
                }
                offsets += Array(start...end)
                bytes += matched
            case "i":
                guard value == nil, parts.count == 2 else { throw fail(term, "an identifier is i:start-end") }
                ids.append(start...end)
            case "p":
                guard value == nil, start == end, parts.count <= 3 else {
                    throw fail(term, "the power is one byte: p:24-24, optionally with a correction p:3-3:-41")
                }
                guard power == nil else { throw fail(term, "one p: term at most") }
                power = start
                if parts.count == 3 {
                    guard let c = Int(parts[2]), (-128...127).contains(c) else {
                        throw fail(term, "the correction is a whole number of dB")
                    }
                    correction = c
                }
            case "d":
                guard value == nil, parts.count == 2 else { throw fail(term, "a data field is d:start-end") }
            default:
                throw fail(
                    term, "unknown term '\(letter)'; valid: m (match), s (service UUID), i (identifier), p (power), d (data)")
            }
        }
        guard !offsets.isEmpty else { throw fail("", "give at least one m: or s: term, so that other frames do not match") }
        guard kind != .device else {
            throw fail(
                "",
                "a device's identity comes from its resolving key (devices:), not from a frame; use ibeacon, altbeacon or eddystone-uid"
            )
        }
        let sizes = ids.map(\.count)
        let expected: [Int] = kind == .eddystoneUID ? [10, 6] : [16, 2, 2]
        guard sizes == expected else {
            throw fail(
                "",
                "a \(kind.name) identity needs identifiers of \(expected.map(String.init).joined(separator: ", ")) bytes; "
                    + "these are \(sizes.isEmpty ? "none" : sizes.map(String.init).joined(separator: ", "))")
        }
        self.text = text
        self.kind = kind
        isServiceData = service
        matchOffsets = offsets
        matchBytes = bytes
        identifiers = ids
        powerOffset = power
        powerCorrection = correction
        minimumLength = longest
    }

    public var description: String { "\(text) (\(kind.name))" }

    public static func == (a: BeaconLayout, b: BeaconLayout) -> Bool { a.text == b.text && a.kind == b.kind }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(kind)
    }
}
