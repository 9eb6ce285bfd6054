/// Why configuration could not make a strategy. Every message names the strategy key and, where
/// relevant, the parameter and the valid choices.
public enum StrategyConfigurationError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// No strategy is registered under `key`.
    case unknownStrategy(key: String, known: [String])
    /// The strategy has no parameter called `parameter`.
    case unknownParameter(strategy: String, parameter: String, known: [String])
    /// The value of `parameter` is not of the declared kind.
    case wrongType(strategy: String, parameter: String, expected: ParameterKind, found: String)
    /// The value has the right type but is out of range or otherwise unusable.
    case invalidValue(strategy: String, parameter: String, value: String, reason: String)
    /// A required parameter is missing.
    case missingParameter(strategy: String, parameter: String)
    /// A mapping that should describe a strategy has no `strategy` entry.
    case missingStrategyKey(context: String, found: String)
    /// Two registrations use the same key.
    case duplicateKey(String)
    /// A strategy's factory failed for another reason (for example inside a plugin).
    case factoryFailed(strategy: String, message: String)

    public var description: String {
        switch self {
        case .unknownStrategy(let key, let known):
            "unknown strategy \"\(key)\"; valid strategies: \(known.joined(separator: ", "))"
        case .unknownParameter(let strategy, let parameter, let known):
            "strategy \"\(strategy)\": unknown parameter \"\(parameter)\"; valid parameters: "
                + (known.isEmpty ? "none" : known.joined(separator: ", "))
        case .wrongType(let strategy, let parameter, let expected, let found):
            "strategy \"\(strategy)\": parameter \"\(parameter)\" is \(found); expected \(expected.expectation)"
        case .invalidValue(let strategy, let parameter, let value, let reason):
            "strategy \"\(strategy)\": parameter \"\(parameter)\" = \(value) is invalid: \(reason)"
        case .missingParameter(let strategy, let parameter):
            "strategy \"\(strategy)\": parameter \"\(parameter)\" is required"
        case .missingStrategyKey(let context, let found):
            "\(context): \(found) has no `\(StrategySpec.keyField)` entry naming the strategy key"
        case .duplicateKey(let key):
            "strategy key \"\(key)\" is registered twice; choose another key for one of them"
        case .factoryFailed(let strategy, let message):
            "strategy \"\(strategy)\": \(message)"
        }
    }
}
