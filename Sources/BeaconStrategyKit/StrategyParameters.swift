/// The parameters configuration gives a strategy: string keys to plain values, exactly the
/// shape of a YAML or JSON mapping (`dwell: 60s`, `gap: 3s`, `proximity: near`).
///
/// They are checked against the strategy's ``ParameterDeclaration``s by
/// ``StrategyRegistry/makeStrategy(key:parameters:)``, which yields ``ResolvedParameters``.
public struct StrategyParameters: Hashable, Sendable, Codable, ExpressibleByDictionaryLiteral {
    /// The values by parameter name.
    public var values: [String: StrategyValue]

    /// Parameters from a mapping.
    public init(_ values: [String: StrategyValue] = [:]) { self.values = values }

    public init(dictionaryLiteral elements: (String, StrategyValue)...) {
        self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The value given for `name`, if any.
    public subscript(name: String) -> StrategyValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    public init(from decoder: any Decoder) throws {
        values = try [String: StrategyValue](from: decoder)
    }

    public func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
}
