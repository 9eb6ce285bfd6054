// JSONCursor's strings: taking one (escapes, UTF-8 and control characters checked in place), and
// reading what it took — as bytes, as a String, or compared with a known name without a copy.
extension JSONCursor {
    /// Takes a string: validates its escapes (surrogates paired), its UTF-8 and the absence of
    /// raw control characters, and returns where it lies.
    mutating func text() throws(GatewayReportError) -> Text {
        guard peek() == 0x22 else { throw failure("expected a string") }
        offset += 1
        let start = offset
        var escaped = false
        var ascii = true
        while true {
            // Eight bytes at a time to the first that needs a look.
            while offset + 8 <= bytes.count {
                let look = Self.needsLook(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
                if look != 0 {
                    offset += look.trailingZeroBitCount >> 3
                    break
                }
                offset += 8
            }
            guard offset < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[offset]
            if byte == 0x22 {
                if !ascii, !Self.isValidUTF8(UnsafeRawBufferPointer(rebasing: bytes[start..<offset])) {
                    throw failure("invalid UTF-8 in a string")
                }
                offset += 1
                return Text(start: start, end: offset - 1, escaped: escaped)
            } else if byte == 0x5C {
                escaped = true
                try escape()
            } else if byte < 0x20 {
                throw failure("a control character in a string")
            } else {
                if byte >= 0x80 { ascii = false }
                offset += 1
            }
        }
    }

    /// The top bit of each of eight bytes (the first in the low byte) that is a quote, a
    /// backslash, a control character or not ASCII. Lanes hold no carries below the first such
    /// byte, so the lowest bit set is exact.
    @inline(__always)
    private static func needsLook(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let control = ~(word &+ (ones &* 0x60)) // top bit set where a lane is below 0x20
        let quote = ~((word ^ (ones &* 0x22)) &+ (ones &* 0x7F)) // where a lane is 0x22
        let backslash = ~((word ^ (ones &* 0x5C)) &+ (ones &* 0x7F)) // where a lane is 0x5C
        return (word | control | quote | backslash) & high
    }

    /// Checks one escape at `offset` (a backslash) and moves past it.
    private mutating func escape() throws(GatewayReportError) {
        guard offset + 1 < bytes.count else { throw failure("unterminated string") }
        switch bytes[offset + 1] {
        case 0x22, 0x5C, 0x2F, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
            UInt8(ascii: "t"):
            offset += 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: offset + 2)
            offset += 6
            if (0xDC00...0xDFFF).contains(unit) { throw failure("an unpaired surrogate") }
            if (0xD800...0xDBFF).contains(unit) {
                guard offset + 1 < bytes.count, bytes[offset] == 0x5C, bytes[offset + 1] == UInt8(ascii: "u"),
                    (0xDC00...0xDFFF).contains(try hexUnit(at: offset + 2))
                else { throw failure("an unpaired surrogate") }
                offset += 6
            }
        default:
            throw failure("an invalid escape")
        }
    }

    /// The four hex digits at `at`.
    private func hexUnit(at: Int) throws(GatewayReportError) -> UInt16 {
        guard bytes.count - at >= 4 else { throw failure("unterminated string") }
        var unit: UInt16 = 0
        for i in at..<(at + 4) {
            guard let digit = Self.hexValue(bytes[i]) else { throw failure("an invalid \\u escape") }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// The value of a hexadecimal digit (either case), or `nil`.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// A string's value as bytes (its escapes resolved; it was validated by ``text()``).
    func utf8(_ text: Text) -> [UInt8] {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.end])
        guard text.escaped else { return Array(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func unit(_ at: Int) -> UInt32 {
            (at..<(at + 4)).reduce(0) { $0 << 4 | UInt32(Self.hexValue(raw[$1])!) }
        }
        while i < raw.count {
            guard raw[i] == 0x5C else {
                out.append(raw[i])
                i += 1
                continue
            }
            let kind = raw[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = unit(i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (unit(i + 2) - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: out.append(kind) // " \ /
            }
        }
        return out
    }

    /// A string's value.
    func string(_ text: Text) -> String {
        if text.escaped { return String(decoding: utf8(text), as: UTF8.self) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[text.start..<text.end]), as: UTF8.self)
    }

    /// Whether a string's value is `name` (ASCII).
    @inline(__always)
    func equals(_ text: Text, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        if text.escaped { return utf8(text).elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: count)) }
        guard text.end - text.start == count else { return false }
        for i in 0..<count where bytes[text.start + i] != name.utf8Start[i] { return false }
        return true
    }
}
