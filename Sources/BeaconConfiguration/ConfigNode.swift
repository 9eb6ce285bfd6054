import BeaconCore
import Foundation
import FoundationEssentials
import Yams

/// A node of a YAML configuration document that remembers where it came from, with typed
/// readers whose errors name the file, line, key and the values that would be accepted.
public struct ConfigNode: @unchecked Sendable {
    // Yams.Node is a value type tree of strings; it is safe to share read-only.
    let node: Yams.Node
    /// The file the node was read from.
    public let file: String
    /// The dotted path of keys from the document root, e.g. `alerts[0].parameters`.
    public let path: String

    init(node: Yams.Node, file: String, path: String) {
        self.node = node
        self.file = file
        self.path = path
    }

    /// Parses YAML text. An empty document is an empty mapping.
    public init(yaml: String, file: String = "<string>") throws(ConfigurationError) {
        do {
            let parsed = try Yams.compose(yaml: yaml)
            self.init(node: parsed ?? Yams.Node.mapping(.init([])), file: file, path: "")
        } catch let error as YamlError {
            throw ConfigurationError.fromYams(error, file: file)
        } catch {
            throw ConfigurationError(file: file, message: "cannot parse YAML: \(error)")
        }
    }

    /// 1-based line of this node.
    public var line: Int? { node.mark.map(\.line) }

    /// 1-based column of this node.
    public var column: Int? { node.mark.map(\.column) }

    /// An error located at this node (a node without a place of its own, the mapping an empty
    /// document stands for, is at line 1).
    public func error(_ message: String) -> ConfigurationError {
        ConfigurationError(
            file: file, line: node.mark?.line ?? 1, column: node.mark?.column,
            message: (path.isEmpty ? "" : "\(path): ") + message)
    }

    // MARK: Structure

    /// True when the node is a mapping.
    public var isMapping: Bool { node.mapping != nil }

    /// The key/value pairs of a mapping, in document order.
    public func mapping() throws(ConfigurationError) -> [(key: String, value: ConfigNode)] {
        guard let mapping = node.mapping else { throw error("expected a mapping (key: value pairs), found \(kindName)") }
        return mapping.map { pair in
            let key = pair.key.string ?? "\(pair.key)"
            return (key, ConfigNode(node: pair.value, file: file, path: child(key)))
        }
    }

    /// The elements of a sequence.
    public func sequence() throws(ConfigurationError) -> [ConfigNode] {
        guard let sequence = node.sequence else { throw error("expected a list, found \(kindName)") }
        return sequence.enumerated().map { ConfigNode(node: $1, file: file, path: "\(path)[\($0)]") }
    }

    /// The value at `key` of a mapping, or `nil` when absent (or explicitly `null`).
    public subscript(key: String) -> ConfigNode? {
        guard let value = node.mapping?[key], !value.isNull else { return nil }
        return ConfigNode(node: value, file: file, path: child(key))
    }

    /// The value at `key`, which must be present.
    public func required(_ key: String) throws(ConfigurationError) -> ConfigNode {
        guard isMapping else { throw error("expected a mapping with '\(key)', found \(kindName)") }
        guard let value = self[key] else { throw error("missing '\(key)'") }
        return value
    }

    /// Fails on any key not in `allowed`, naming the valid keys (and the closest one); `context`
    /// says what the mapping is (`"a beacon"`: "unknown key 'x' in a beacon").
    public func checkKeys(allowed: [String], in context: String? = nil) throws(ConfigurationError) {
        for (key, value) in try mapping() where !allowed.contains(key) {
            var message = "unknown key '\(key)'" + (context.map { " in \($0)" } ?? "")
            message += "; valid keys: \(allowed.joined(separator: ", "))"
            if let suggestion = allowed.min(by: { key.editDistance(to: $0) < key.editDistance(to: $1) }),
                key.editDistance(to: suggestion) <= 2
            {
                message += " (did you mean '\(suggestion)'?)"
            }
            let mark = keyMark(key) ?? value.node.mark
            throw ConfigurationError(
                file: file, line: mark?.line, column: mark?.column, message: (path.isEmpty ? "" : "\(path): ") + message)
        }
    }

    // MARK: Scalars

    /// The scalar text, if this is a scalar.
    public var scalarText: String? { node.scalar?.string }

    /// Whether this is a quoted scalar (`"12"` is text, `12` a number).
    public var isQuotedScalar: Bool {
        guard let scalar = node.scalar else { return false }
        return scalar.style != .plain
    }

    /// Whether this is a list.
    public var isSequence: Bool { node.sequence != nil }

    /// A string scalar.
    public func string() throws(ConfigurationError) -> String {
        guard let text = node.scalar?.string else { throw error("expected a text value, found \(kindName)") }
        return text
    }

    /// An integer in `range`.
    public func integer(in range: ClosedRange<Int> = Int.min...Int.max) throws(ConfigurationError) -> Int {
        guard let text = node.scalar?.string, let value = Int(text) else {
            throw error("expected a whole number, found '\(scalarText ?? kindName)'")
        }
        guard range.contains(value) else { throw error("\(value) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// A floating-point number.
    public func number() throws(ConfigurationError) -> Double {
        guard let text = node.scalar?.string, let value = Double(text), value.isFinite else {
            throw error("expected a number, found '\(scalarText ?? kindName)'")
        }
        return value
    }

    /// A boolean (`true`/`false`, `yes`/`no`, `on`/`off`).
    public func bool() throws(ConfigurationError) -> Bool {
        switch node.scalar?.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false, found '\(scalarText ?? kindName)'")
        }
    }

    /// A duration such as `500ms`, `3s`, `10m`, `2h`.
    public func duration() throws(ConfigurationError) -> Duration {
        guard let text = node.scalar?.string, let value = Duration(parsing: text) else {
            throw error("expected a duration such as 500ms, 3s, 10m or 2h, found '\(scalarText ?? kindName)'")
        }
        return value
    }

    /// A UUID in 8-4-4-4-12 form (either case) or as 32 hex digits.
    public func uuid() throws(ConfigurationError) -> UUID {
        guard let text = node.scalar?.string, let value = UUID(flexible: text) else {
            throw error("expected a UUID like E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, found '\(scalarText ?? kindName)'")
        }
        return value
    }

    /// One of `choices` (case-insensitive), returned as written in `choices`.
    public func choice(_ choices: [String]) throws(ConfigurationError) -> String {
        let text = try string()
        guard let match = choices.first(where: { $0.lowercased() == text.lowercased() }) else {
            throw error("'\(text)' is not one of: \(choices.joined(separator: ", "))")
        }
        return match
    }

    /// A plain Swift value tree of this node: `String` scalars, `[Any]` lists and ordered
    /// `[(String, Any)]` mappings are avoided in favour of ``ConfigValue``.
    public var value: ConfigValue {
        switch node {
        case .scalar(let scalar): return .scalar(scalar.string)
        case .sequence(let sequence): return .list(sequence.map { ConfigNode(node: $0, file: file, path: path).value })
        case .mapping(let mapping):
            return .map(mapping.map { ($0.key.string ?? "\($0.key)", ConfigNode(node: $0.value, file: file, path: path).value) })
        case .alias: return .scalar("")
        }
    }

    // MARK: Helpers

    var kindName: String {
        switch node {
        case .scalar(let scalar): return scalar.string.isEmpty ? "an empty value" : "the text '\(scalar.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    private func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func keyMark(_ key: String) -> Mark? {
        node.mapping?.first(where: { $0.key.string == key })?.key.mark
    }
}

extension Yams.Node {
    var isNull: Bool {
        if case .scalar(let scalar) = self { return scalar.style == .plain && (scalar.string == "null" || scalar.string == "~") }
        return false
    }
}
