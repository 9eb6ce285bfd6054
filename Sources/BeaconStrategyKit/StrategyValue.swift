/// A plain configuration value, as a YAML or JSON document gives it: the raw material of
/// ``StrategyParameters``. Interpretation (durations such as `3s`, proximities such as `near`)
/// happens when parameters are checked against a strategy's ``ParameterDeclaration``s.
public enum StrategyValue: Hashable, Sendable {
    /// Text: `"3s"`, `"near"`, `"time"`.
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A number with a fractional part.
    case number(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// A sequence, e.g. the strategies of a composition.
    case list([StrategyValue])
    /// A mapping, e.g. one strategy inside a composition (`{strategy: time, dwell: 30s}`).
    case table([String: StrategyValue])

    /// Interprets untyped text the way a YAML scalar or a `name=value` command-line option is
    /// read: `true`/`false`, then a whole number, then a number, otherwise the text itself.
    public init(inferringFrom text: String) {
        if text == "true" {
            self = .boolean(true)
        } else if text == "false" {
            self = .boolean(false)
        } else if let integer = Int(text) {
            self = .integer(integer)
        } else if let number = Double(text), number.isFinite {
            self = .number(number)
        } else {
            self = .string(text)
        }
    }
}

extension StrategyValue: CustomStringConvertible {
    /// The value as it would be written in configuration (`3s`, `60`, `true`, `[a, b]`).
    public var description: String {
        switch self {
        case .string(let text): text
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .boolean(let value): "\(value)"
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .table(let table):
            "{" + table.keys.sorted().map { "\($0): \(table[$0]!)" }.joined(separator: ", ") + "}"
        }
    }

    /// What kind of value this is, for error messages.
    public var kindName: String {
        switch self {
        case .string: "text"
        case .integer: "whole number"
        case .number: "number"
        case .boolean: "boolean"
        case .list: "list"
        case .table: "mapping"
        }
    }
}

extension StrategyValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: StrategyValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, StrategyValue)...) {
        self = .table(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
