import BeaconCore

extension ConfigNode {
    /// An error saying what was expected here and what was found: `beacons[2].interval: expected
    /// an advertising interval from 20ms to 10485s, found '5ms'`.
    public func invalid(_ expected: String) -> ConfigurationError {
        error("expected \(expected), found \(foundDescription)")
    }

    /// The mapping's keys checked against `allowed` (see ``checkKeys(allowed:in:)``); returns
    /// the node, to read its values.
    @discardableResult
    public func mapping(_ context: String, allowed: [String]) throws(ConfigurationError) -> ConfigNode {
        guard isMapping else { throw invalid("a mapping (\(context))") }
        try checkKeys(allowed: allowed, in: context)
        return self
    }

    /// Whether a mapping has `key` (with a value other than null).
    public func has(_ key: String) -> Bool { self[key] != nil }

    /// The elements of a list of `what` ("a list of gateways" when it is not one).
    public func sequence(of what: String) throws(ConfigurationError) -> [ConfigNode] {
        guard isSequence else { throw invalid("a list of \(what)") }
        return try sequence()
    }

    /// A number in `range`; `expected` says what is valid ("a probability from 0 to 1").
    public func number(in range: ClosedRange<Double>, _ expected: String) throws(ConfigurationError) -> Double {
        guard let text = scalarText, let value = Double(text), range.contains(value) else { throw invalid(expected) }
        return value
    }

    /// A whole number in `range`; `expected` says what is valid ("a count from 1 to 1000000").
    public func integer(in range: ClosedRange<Int>, _ expected: String) throws(ConfigurationError) -> Int {
        guard let text = scalarText, let value = Int(text), range.contains(value) else { throw invalid(expected) }
        return value
    }

    /// A 16-bit unsigned integer (a major, a minor, a company id).
    public func uint16() throws(ConfigurationError) -> UInt16 {
        UInt16(try integer(in: 0...65_535, "an integer from 0 to 65535"))
    }

    /// A duration greater than zero.
    public func positiveDuration() throws(ConfigurationError) -> Duration {
        let value = try duration()
        guard value > .zero else { throw invalid("a positive duration such as 1s or 100ms") }
        return value
    }

    /// An RFC 3339 time.
    public func timestamp() throws(ConfigurationError) -> Timestamp {
        guard let text = scalarText, let value = Timestamp(rfc3339: text) else {
            throw invalid("an RFC 3339 time in the years 1900–2200, such as 2025-01-01T09:00:00Z")
        }
        return value
    }

    /// Exactly `count` bytes written as hexadecimal digits (an optional `0x` first).
    public func hexBytes(count: Int) throws(ConfigurationError) -> [UInt8] {
        let expected = "\(count * 2) hexadecimal digits"
        guard var text = scalarText else { throw invalid(expected) }
        if text.hasPrefix("0x") { text.removeFirst(2) }
        let digits = Array(text.utf8)
        guard digits.count == count * 2 else { throw invalid(expected) }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16) else {
                throw invalid(expected)
            }
            bytes.append(byte)
        }
        return bytes
    }

    /// A list of 2 or 3 numbers (`[x, y]` or `[x, y, z]`); `expected` names it.
    public func numbers(count: ClosedRange<Int>, _ expected: String) throws(ConfigurationError) -> [Double] {
        guard isSequence else { throw invalid(expected) }
        var values: [Double] = []
        for item in try sequence() {
            guard let text = item.scalarText, let value = Double(text), value.isFinite else { throw invalid(expected) }
            values.append(value)
        }
        guard count.contains(values.count) else { throw invalid(expected) }
        return values
    }

    /// What the node is, for "found …" in messages: `'ninety'`, `an empty value`, `a list`.
    var foundDescription: String {
        if let text = scalarText { return text.isEmpty ? "an empty value" : "'\(text)'" }
        if isSequence { return "a list" }
        if isMapping { return "a mapping" }
        return "an alias"
    }
}
