extension JSONCursor {
    /// A number as it lies in the input: its first 19 significant digits as an integer and the
    /// power of ten that scales them.
    struct Number {
        var start: Int
        var end: Int
        var negative: Bool
        /// The first 19 significant digits.
        var digits: UInt64
        /// The value is `digits` × 10^`exponent` (exactly so unless `truncated`).
        var exponent: Int
        /// Whether significant digits beyond the 19th were dropped.
        var truncated: Bool
    }

    /// Powers of ten exactly representable as doubles.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// Takes a number (RFC 8259's grammar: no leading zeros, `+`, bare `.` or hex).
    mutating func number() throws(GatewayReportError) -> Number {
        _ = peek()
        let start = offset
        let negative = offset < bytes.count && bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var digits: UInt64 = 0
        var significant = 0
        var exponent = 0
        var truncated = false
        guard offset < bytes.count, bytes[offset] &- 0x30 < 10 else { throw failure("expected a value") }
        if bytes[offset] == 0x30 {
            offset += 1
            if offset < bytes.count, bytes[offset] &- 0x30 < 10 { throw failure("a number with a leading zero") }
        } else {
            while offset < bytes.count, case let d = bytes[offset] &- 0x30, d < 10 {
                if significant < 19 {
                    digits = digits &* 10 &+ UInt64(d)
                    significant += 1
                } else {
                    exponent += 1
                    if d != 0 { truncated = true }
                }
                offset += 1
            }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard offset < bytes.count, bytes[offset] &- 0x30 < 10 else { throw failure("a number without fraction digits") }
            while offset < bytes.count, case let d = bytes[offset] &- 0x30, d < 10 {
                if significant < 19 {
                    // Zeros before the first significant digit only scale.
                    if digits != 0 || d != 0 {
                        digits = digits &* 10 &+ UInt64(d)
                        significant += 1
                    }
                    exponent -= 1
                } else if d != 0 {
                    truncated = true
                }
                offset += 1
            }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            var negativeExponent = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") || bytes[offset] == UInt8(ascii: "+") {
                negativeExponent = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            guard offset < bytes.count, bytes[offset] &- 0x30 < 10 else { throw failure("a number without exponent digits") }
            var value = 0
            while offset < bytes.count, case let d = bytes[offset] &- 0x30, d < 10 {
                value = min(value * 10 + Int(d), 1_000_000)
                offset += 1
            }
            exponent += negativeExponent ? -value : value
        }
        return Number(
            start: start, end: offset, negative: negative, digits: digits, exponent: digits == 0 ? 0 : exponent,
            truncated: truncated)
    }

    /// Takes a number as a double, correctly rounded; refuses one that overflows to infinity
    /// or underflows to zero (as `JSONDecoder` does).
    mutating func double() throws(GatewayReportError) -> Double {
        let number = try number()
        if number.digits == 0 { return number.negative ? -0.0 : 0 }
        var value: Double
        if !number.truncated, number.digits <= 1 << 53, (-22...22).contains(number.exponent) {
            // Both operands exact: one correctly rounded operation (Clinger's fast path).
            value = Double(number.digits)
            value = number.exponent < 0 ? value / Self.powersOfTen[-number.exponent] : value * Self.powersOfTen[number.exponent]
            if number.negative { value = -value }
        } else {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[number.start..<number.end]), as: UTF8.self)
            guard let parsed = Double(text) else { throw failure("an unreadable number") }
            value = parsed
        }
        guard value.isFinite, value != 0 else { throw failure("a number a double cannot hold") }
        return value
    }

    /// Takes a number as an integer: it may be written with a fraction or an exponent but must
    /// be whole and fit in 64 bits.
    mutating func integer() throws(GatewayReportError) -> Int {
        let number = try number()
        guard !number.truncated else { throw failure("an integer out of range") }
        var magnitude = number.digits
        if number.exponent < 0 {
            for _ in 0..<(-number.exponent) {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                guard remainder == 0 else { throw failure("expected an integer") }
                magnitude = quotient
            }
        } else {
            for _ in 0..<number.exponent {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { throw failure("an integer out of range") }
                magnitude = product
            }
        }
        if number.negative {
            guard magnitude <= UInt64(Int.max) + 1 else { throw failure("an integer out of range") }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { throw failure("an integer out of range") }
        return Int(magnitude)
    }
}
