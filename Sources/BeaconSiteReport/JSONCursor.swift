/// A strict RFC 8259 reader over borrowed bytes: the tokens of one JSON text, read in place.
///
/// Nothing is allocated on the way except to unescape a string that holds escapes. Every
/// malformed input — a truncation, a stray byte, an unpaired surrogate, invalid UTF-8, a raw
/// control character in a string, nesting deeper than ``maxDepth`` — throws an
/// `invalidField("JSON: …")` naming the byte offset; no byte sequence traps.
struct JSONCursor {
    /// The deepest nesting read (the outermost object counts 1), as `JSONDecoder` allows.
    static let maxDepth = 512

    /// A string as it lies in the input, between its quotes.
    struct Text {
        /// The offset of its first byte (after the opening quote).
        var start: Int
        /// The offset of the closing quote.
        var end: Int
        /// Whether it holds a backslash escape (its bytes are then not its value).
        var escaped: Bool
    }

    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The refusal of the input at the current offset.
    func failure(_ message: String) -> GatewayReportError {
        .invalidField("JSON: \(message) at byte \(offset)")
    }

    /// Skips whitespace, then returns the next byte without taking it (`nil` at the end).
    @inline(__always)
    mutating func peek() -> UInt8? {
        while offset < bytes.count {
            let byte = bytes[offset]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
            offset += 1
        }
        return nil
    }

    /// Skips whitespace and takes `byte`, or throws.
    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(GatewayReportError) {
        guard peek() == byte else {
            throw failure(offset < bytes.count ? "expected '\(Character(Unicode.Scalar(byte)))'" : "unexpected end")
        }
        offset += 1
    }

    /// Reads an object: `{`, then for each member its key and `:` (taken) before `body` reads
    /// the value, then `}`. Throws on anything that is not an object.
    @inline(__always)
    mutating func forEachMember(
        _ body: (inout JSONCursor, Text) throws(GatewayReportError) -> Void
    ) throws(GatewayReportError) {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        repeat {
            let key = try text()
            try expect(UInt8(ascii: ":"))
            try body(&self, key)
        } while try next(close: UInt8(ascii: "}"))
    }

    /// After a member or an element: `true` when a `,` follows (taken), `false` at `close`
    /// (taken); throws on anything else.
    @inline(__always)
    mutating func next(close: UInt8) throws(GatewayReportError) -> Bool {
        switch peek() {
        case 0x2C:
            offset += 1
            return true
        case close:
            offset += 1
            return false
        default:
            throw failure(offset < bytes.count ? "expected ',' or '\(Character(Unicode.Scalar(close)))'" : "unexpected end")
        }
    }

    /// Takes `null` when it comes next (`true`), else takes nothing.
    @inline(__always)
    mutating func takeNull() throws(GatewayReportError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Takes `true` or `false`.
    mutating func bool() throws(GatewayReportError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default: throw failure("expected true or false")
        }
    }

    private mutating func literal(_ word: StaticString) throws(GatewayReportError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw failure("unexpected end") }
        for i in 0..<count where bytes[offset + i] != word.utf8Start[i] {
            throw failure("expected \(word)")
        }
        offset += count
    }

    // MARK: Skipping

    /// Takes any one value (checked as strictly as the rest), `depth` being the nesting it is in.
    mutating func skipValue(depth: Int) throws(GatewayReportError) {
        switch peek() {
        case 0x22: _ = try text()
        case UInt8(ascii: "{"):
            guard depth < Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth)") }
            try forEachMember { (cursor: inout JSONCursor, _) throws(GatewayReportError) in
                try cursor.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            guard depth < Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth)") }
            offset += 1
            if peek() == UInt8(ascii: "]") {
                offset += 1
                return
            }
            repeat { try skipValue(depth: depth + 1) } while try next(close: UInt8(ascii: "]"))
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): _ = try takeNull()
        case nil: throw failure("unexpected end")
        default: _ = try number()
        }
    }
}
