import BeaconCore

/// A growing byte buffer for writing records without building a `String` per field: decimal
/// numbers, hex, addresses, UUIDs and timestamps are written digit by digit. Reuse one buffer
/// (``removeAll()`` keeps its capacity) and nothing is allocated per record in steady state.
public struct OutputBuffer: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 16) {
        bytes.reserveCapacity(capacity)
    }

    /// Number of bytes written.
    public var count: Int { bytes.count }

    /// Forgets the bytes, keeping the storage.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends ASCII text (a literal).
    public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one byte.
    public mutating func append(byte: UInt8) { bytes.append(byte) }

    /// Appends a signed decimal integer.
    public mutating func append(decimal value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(unsigned: value.magnitude)
        } else {
            append(unsigned: UInt(value))
        }
    }

    /// Appends an unsigned decimal integer.
    public mutating func append(unsigned value: UInt) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    /// Appends `value` zero-padded to `width` digits.
    public mutating func append(unsigned value: UInt, width: Int) {
        var divisor: UInt = 1
        for _ in 1..<max(width, 1) { divisor *= 10 }
        var rest = value % (divisor * 10)
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends a byte as two lower-case hex digits.
    public mutating func append(hexByte byte: UInt8) {
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0x0F)])
    }

    /// Appends `0x` and `value` as `digits` lower-case hex digits.
    public mutating func append(hex value: UInt64, digits: Int) {
        append("0x")
        append(hexDigitsOf: value, digits: digits)
    }

    /// Appends `value` as `digits` lower-case hex digits, without a prefix.
    public mutating func append(hexDigitsOf value: UInt64, digits: Int) {
        for i in stride(from: digits - 1, through: 0, by: -1) {
            bytes.append(Self.hexDigits[Int((value >> UInt64(4 * i)) & 0xF)])
        }
    }

    /// Appends every byte of `data` as lower-case hex, no separators.
    public mutating func append(hexBytes data: UnsafeRawBufferPointer) {
        for byte in data { append(hexByte: byte) }
    }

    /// Appends an address as `aa:bb:cc:dd:ee:ff` (lower case, most significant byte first).
    public mutating func append(address: BluetoothAddress) {
        for i in 0..<6 {
            if i > 0 { bytes.append(UInt8(ascii: ":")) }
            append(hexByte: address[displayIndex: i])
        }
    }

    /// Appends a 128-bit UUID given as two big-endian words as upper-case 8-4-4-4-12.
    public mutating func append(uuidHigh high: UInt64, low: UInt64) {
        for i in 0..<16 {
            if i == 4 || i == 6 || i == 8 || i == 10 { bytes.append(UInt8(ascii: "-")) }
            let word = i < 8 ? high : low
            let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * (7 - i % 8)))
            bytes.append(Self.upperHexDigits[Int(byte >> 4)])
            bytes.append(Self.upperHexDigits[Int(byte & 0x0F)])
        }
    }

    /// Appends Unix seconds with six decimals, e.g. `1612150079.789053`.
    public mutating func append(unixSeconds timestamp: Timestamp) {
        let micros = timestamp.microsecondsSinceEpoch
        var (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        if fraction < 0 { seconds -= 1; fraction += 1_000_000 }
        append(decimal: Int(seconds))
        bytes.append(UInt8(ascii: "."))
        append(unsigned: UInt(fraction), width: 6)
    }

    /// Appends `text` as a JSON string literal (quotes included; control characters, quotes and
    /// backslashes escaped; invalid UTF-8 replaced by U+FFFD).
    public mutating func append(jsonString text: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        var valid = true
        for byte in text where byte >= 0x80 { valid = false; break }
        if valid {
            appendEscaped(text)
        } else {
            var repaired = String(decoding: text, as: UTF8.self)
            repaired.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0)) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ text: UnsafeRawBufferPointer) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0..<0x20:
                append("\\u00")
                append(hexByte: byte)
            default:
                bytes.append(byte)
            }
        }
    }
}
