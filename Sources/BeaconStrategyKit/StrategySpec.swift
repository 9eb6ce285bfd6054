/// A strategy as configuration names it: a key plus its parameters. In a mapping the key is the
/// `strategy` entry and the parameters are the other entries: `{strategy: time, dwell: 30s}`.
public struct StrategySpec: Hashable, Sendable {
    /// The name of the entry that holds the key in a mapping.
    public static let keyField = "strategy"

    /// The strategy's key (`time`, `proximity`, `all-of` …).
    public var key: String
    /// The strategy's parameters.
    public var parameters: StrategyParameters

    /// Creates a spec.
    public init(key: String, parameters: StrategyParameters = [:]) {
        self.key = key
        self.parameters = parameters
    }

    /// Reads a mapping whose `strategy` entry is the key and other entries the parameters.
    /// `context` names where the mapping comes from, for the error.
    public init(table: [String: StrategyValue], context: String) throws(StrategyConfigurationError) {
        guard case .string(let key)? = table[Self.keyField] else {
            throw .missingStrategyKey(context: context, found: StrategyValue.table(table).description)
        }
        var parameters = table
        parameters[Self.keyField] = nil
        self.init(key: key, parameters: StrategyParameters(parameters))
    }
}
