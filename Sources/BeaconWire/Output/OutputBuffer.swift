import BeaconCore

/// A growing byte buffer for writing records without building a `String` per field: decimal
/// numbers, hex, addresses, UUIDs and timestamps are written digit by digit straight into the
/// storage. Reuse one buffer (``removeAll()`` keeps its storage) and nothing is allocated per
/// record in steady state. A reference type: use it from one task.
public final class OutputBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Number of bytes written.
    public private(set) var count = 0

    /// Creates an empty buffer with room for `capacity` bytes.
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A copy of the bytes written so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the bytes written so far (valid only during the call).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes, keeping the storage.
    public func removeAll() { count = 0 }

    /// Room for `extra` more bytes; returns where they go. The caller advances ``count``.
    @inline(__always)
    private func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(to: count + extra) }
        return base + count
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }

    @inline(__always)
    private static func upperHexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }

    /// Appends ASCII text (a literal).
    public func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length).update(from: text.utf8Start, count: length)
        count += length
    }

    /// Appends one byte.
    public func append(byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    /// Appends a signed decimal integer.
    public func append(decimal value: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        append(unsigned: value.magnitude)
    }

    /// Appends an unsigned decimal integer.
    public func append(unsigned value: UInt) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        append(unsigned: value, width: digits)
    }

    /// Appends the last `width` decimal digits of `value`, zero-padded.
    public func append(unsigned value: UInt, width: Int) {
        let out = reserve(width)
        var rest = value
        for i in stride(from: width - 1, through: 0, by: -1) {
            out[i] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += width
    }

    /// Appends a byte as two lower-case hex digits.
    public func append(hexByte byte: UInt8) {
        let out = reserve(2)
        out[0] = Self.hexDigit(byte >> 4)
        out[1] = Self.hexDigit(byte & 0x0F)
        count += 2
    }

    /// Appends `0x` and `value` as `digits` lower-case hex digits.
    public func append(hex value: UInt64, digits: Int) {
        append("0x")
        append(hexDigitsOf: value, digits: digits)
    }

    /// Appends `value` as `digits` lower-case hex digits, without a prefix.
    public func append(hexDigitsOf value: UInt64, digits: Int) {
        let out = reserve(digits)
        for i in 0..<digits {
            out[i] = Self.hexDigit(UInt8(truncatingIfNeeded: value >> UInt64(4 * (digits - 1 - i))) & 0xF)
        }
        count += digits
    }

    /// Appends every byte of `data` as lower-case hex, no separators.
    public func append(hexBytes data: UnsafeRawBufferPointer) {
        let out = reserve(2 * data.count)
        for (i, byte) in data.enumerated() {
            out[2 * i] = Self.hexDigit(byte >> 4)
            out[2 * i + 1] = Self.hexDigit(byte & 0x0F)
        }
        count += 2 * data.count
    }

    /// Appends an address as `aa:bb:cc:dd:ee:ff` (lower case, most significant byte first).
    public func append(address: BluetoothAddress) {
        let out = reserve(17)
        let value = address.rawValue
        for i in 0..<6 {
            let byte = UInt8(truncatingIfNeeded: value >> UInt64(8 * (5 - i)))
            out[3 * i] = Self.hexDigit(byte >> 4)
            out[3 * i + 1] = Self.hexDigit(byte & 0x0F)
            if i < 5 { out[3 * i + 2] = UInt8(ascii: ":") }
        }
        count += 17
    }

    /// Appends a 128-bit UUID given as two big-endian words as upper-case 8-4-4-4-12.
    public func append(uuidHigh high: UInt64, low: UInt64) {
        let out = reserve(36)
        var position = 0
        for i in 0..<16 {
            if i == 4 || i == 6 || i == 8 || i == 10 {
                out[position] = UInt8(ascii: "-")
                position += 1
            }
            let word = i < 8 ? high : low
            let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * (7 - i % 8)))
            out[position] = Self.upperHexDigit(byte >> 4)
            out[position + 1] = Self.upperHexDigit(byte & 0x0F)
            position += 2
        }
        count += 36
    }

    /// Appends Unix seconds with six decimals, e.g. `1612150079.789053`.
    public func append(unixSeconds timestamp: Timestamp) {
        let micros = timestamp.microsecondsSinceEpoch
        var (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000
        }
        append(decimal: Int(seconds))
        append(byte: UInt8(ascii: "."))
        append(unsigned: UInt(fraction), width: 6)
    }

    /// Appends `text` as a JSON string literal (quotes included; control characters, quotes and
    /// backslashes escaped; invalid UTF-8 replaced by U+FFFD).
    public func append(jsonString text: UnsafeRawBufferPointer) {
        append(byte: UInt8(ascii: "\""))
        var valid = true
        for byte in text where byte >= 0x80 {
            valid = false
            break
        }
        if valid {
            appendEscaped(text)
        } else {
            var repaired = String(decoding: text, as: UTF8.self)
            repaired.withUTF8 { appendEscaped(UnsafeRawBufferPointer($0)) }
        }
        append(byte: UInt8(ascii: "\""))
    }

    private func appendEscaped(_ text: UnsafeRawBufferPointer) {
        for byte in text { JSONStringEscape.write(byte) { append(byte: $0) } }
    }
}
