import BeaconCore
import FoundationEssentials
import Yams

/// A YAML value being read into a typed field, with what is needed to say where it is when it is
/// wrong: the file, the key path and the node's line.
struct YAMLField {
    let node: Node
    /// Where the value sits, for messages: `beacons[2].interval`.
    let path: String
    let file: String

    var line: Int { node.mark?.line ?? 0 }

    func invalid(_ expected: String) -> ScenarioError {
        .invalidValue(file: file, line: line, key: path, found: foundDescription, expected: expected)
    }

    var foundDescription: String {
        switch node {
        case .scalar(let scalar): scalar.string.isEmpty ? "empty" : "'\(scalar.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// The value as a mapping whose keys must all be in `allowed`.
    func mapping(_ context: String, allowed: [String]) throws -> YAMLMapping {
        guard case .mapping(let mapping) = node else { throw invalid("a mapping (\(context))") }
        var pairs: [(String, Node)] = []
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard allowed.contains(key) else {
                throw ScenarioError.unknownKey(
                    file: file, line: keyNode.mark?.line ?? line, key: key,
                    context: context, expected: allowed)
            }
            pairs.append((key, value))
        }
        return YAMLMapping(field: self, context: context, pairs: pairs)
    }

    func sequence(_ expected: String) throws -> [YAMLField] {
        guard case .sequence(let items) = node else { throw invalid("a list of \(expected)") }
        return items.enumerated().map { YAMLField(node: $1, path: "\(path)[\($0)]", file: file) }
    }

    func scalarText() -> String? {
        if case .scalar(let scalar) = node { return scalar.string }
        return nil
    }

    func string() throws -> String {
        guard let text = scalarText(), !text.isEmpty else { throw invalid("a text value") }
        return text
    }

    func double() throws -> Double {
        guard let text = scalarText(), let value = Double(text), value.isFinite else { throw invalid("a number") }
        return value
    }

    func double(in range: ClosedRange<Double>, _ expected: String) throws -> Double {
        guard let text = scalarText(), let value = Double(text), range.contains(value) else { throw invalid(expected) }
        return value
    }

    func int(in range: ClosedRange<Int>, _ expected: String) throws -> Int {
        guard let text = scalarText(), let value = Int(text), range.contains(value) else { throw invalid(expected) }
        return value
    }

    func bool() throws -> Bool {
        switch scalarText()?.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw invalid("true or false")
        }
    }

    func duration() throws -> Duration {
        guard let text = scalarText(), let value = Duration(parsing: text) else {
            throw invalid("a duration such as 90s, 10m, 24h or 250ms")
        }
        return value
    }

    func positiveDuration() throws -> Duration {
        let value = try duration()
        guard value > .zero else { throw invalid("a positive duration such as 1s or 100ms") }
        return value
    }

    func vector() throws -> Vector3 {
        guard case .sequence(let items) = node, items.count == 3 || items.count == 2 else {
            throw invalid("a position [x, y, z] in metres")
        }
        var values: [Double] = []
        for item in items {
            guard let text = item.string, let value = Double(text), value.isFinite else {
                throw invalid("a position [x, y, z] in metres")
            }
            values.append(value)
        }
        return Vector3(values[0], values[1], values.count == 3 ? values[2] : 0)
    }

    func uuid() throws -> UUID {
        guard let text = scalarText(), let value = UUID(uuidString: text) else {
            throw invalid("a UUID such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        }
        return value
    }

    func timestamp() throws -> Timestamp {
        guard let text = scalarText(), let value = Timestamp(rfc3339: text) else {
            throw invalid("an RFC 3339 time such as 2025-01-01T09:00:00Z")
        }
        return value
    }

    func uint16() throws -> UInt16 {
        UInt16(try int(in: 0...65_535, "an integer from 0 to 65535"))
    }

    func hexBytes(count: Int) throws -> [UInt8] {
        let expected = "\(count * 2) hexadecimal digits"
        guard var text = scalarText() else { throw invalid(expected) }
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
}

/// A YAML mapping whose keys have been checked against the format.
struct YAMLMapping {
    let field: YAMLField
    let context: String
    let pairs: [(String, Node)]

    func optional(_ key: String) -> YAMLField? {
        guard let node = pairs.first(where: { $0.0 == key })?.1 else { return nil }
        return YAMLField(node: node, path: field.path.isEmpty ? key : "\(field.path).\(key)", file: field.file)
    }

    func required(_ key: String) throws -> YAMLField {
        guard let value = optional(key) else {
            throw ScenarioError.missingField(file: field.file, line: field.line, key: key, context: context)
        }
        return value
    }

    func has(_ key: String) -> Bool { pairs.contains { $0.0 == key } }
}
