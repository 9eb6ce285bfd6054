/// Writes one JSON value into a byte buffer, fields in the order they are written.
///
/// Output is compact and stable (no key sorting, no floating-point surprises), which makes it
/// suitable for JSON-lines logs that people diff and grep. Only what beacond emits is supported:
/// objects, arrays, strings, integers, doubles, booleans and null.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    public init() {}

    /// The JSON text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes an object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a member key; the next value written is its value.
    public mutating func key(_ key: String) {
        separator()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    public mutating func value(_ text: String) {
        separator()
        appendQuoted(text)
    }
    public mutating func value(_ number: Int) {
        separator()
        bytes.append(contentsOf: String(number).utf8)
    }
    public mutating func value(_ flag: Bool) {
        separator()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }
    public mutating func null() {
        separator()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes a finite double in its shortest round-tripping form (`null` when not finite).
    public mutating func value(_ number: Double) {
        guard number.isFinite else {
            null()
            return
        }
        separator()
        if number == number.rounded(), abs(number) < 1e15 {
            bytes.append(contentsOf: String(Int64(number)).utf8)
        } else {
            bytes.append(contentsOf: "\(number)".utf8)
        }
    }

    /// Writes a finite double rounded to `decimals` places (0…15) with exactly that many digits
    /// after the point — `1.000`, `-0.250`, `2.236` for 3 — for measurements of a known precision
    /// whose lines should line up; `null` when not finite. A value too large to be written that
    /// way (|value|·10^decimals ≥ 2^53) is written as ``value(_:)-(Double)`` writes it.
    public mutating func value(_ number: Double, decimals: Int) {
        precondition((0...15).contains(decimals), "JSONWriter: decimals must be 0…15")
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (number * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 0x1p53 else {
            value(number)
            return
        }
        separator()
        let units = Int64(scaled)
        if units < 0 { bytes.append(UInt8(ascii: "-")) }
        let (whole, fraction) = units.magnitude.quotientAndRemainder(dividingBy: scale)
        bytes.append(contentsOf: String(whole).utf8)
        guard decimals > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        let digits = String(fraction)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals - digits.utf8.count))
        bytes.append(contentsOf: digits.utf8)
    }

    /// Writes `key: value` for a string, skipping the member when `value` is nil.
    public mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    /// Writes `key: value` for an integer, skipping the member when `value` is nil.
    public mutating func member(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    /// Writes `key: value` for a double, skipping the member when `value` is nil.
    public mutating func member(_ name: String, _ value: Double?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    /// Writes `key: value` for a boolean, skipping the member when `value` is nil.
    public mutating func member(_ name: String, _ value: Bool?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 { JSONStringEscape.write(byte) { bytes.append($0) } }
        bytes.append(UInt8(ascii: "\""))
    }
}
