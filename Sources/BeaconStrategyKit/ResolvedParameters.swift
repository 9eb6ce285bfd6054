import BeaconCore

/// A strategy's parameters after checking against its declarations: every value has its
/// declared type, defaults are filled in, unknown names were rejected. Factories read them with
/// the typed accessors.
public struct ResolvedParameters: Hashable, Sendable {
    /// The strategy key the parameters are for (used in error messages).
    public let strategy: String
    /// The typed values by name (parameters without value and without default are absent).
    public let values: [String: ParameterValue]

    /// Checks `parameters` against `declarations` for the strategy `key`.
    public init(
        strategy key: String, parameters: StrategyParameters,
        declarations: [ParameterDeclaration]
    ) throws(StrategyConfigurationError) {
        let known = declarations.map(\.name)
        for name in parameters.values.keys.sorted() where !known.contains(name) {
            throw .unknownParameter(strategy: key, parameter: name, known: known)
        }
        var values: [String: ParameterValue] = [:]
        for declaration in declarations {
            if let raw = parameters[declaration.name] {
                values[declaration.name] = try declaration.read(raw, strategy: key)
            } else if let value = declaration.defaultValue {
                values[declaration.name] = value
            } else if declaration.isRequired {
                throw .missingParameter(strategy: key, parameter: declaration.name)
            }
        }
        self.strategy = key
        self.values = values
    }

    private func value(_ name: String) throws(StrategyConfigurationError) -> ParameterValue {
        guard let value = values[name] else { throw .missingParameter(strategy: strategy, parameter: name) }
        return value
    }

    private func mismatch(_ name: String, _ kind: ParameterKind) -> StrategyConfigurationError {
        .wrongType(
            strategy: strategy, parameter: name, expected: kind,
            found: values[name].map { "a \($0.kind.rawValue)" } ?? "missing")
    }

    /// The duration `name` (declared `.duration` with a default or required).
    public func duration(_ name: String) throws(StrategyConfigurationError) -> Duration {
        guard case .duration(let value) = try value(name) else { throw mismatch(name, .duration) }
        return value
    }

    /// The proximity `name`, or nil when optional and not given.
    public func proximity(_ name: String) throws(StrategyConfigurationError) -> Proximity? {
        guard let raw = values[name] else { return nil }
        guard case .proximity(let value) = raw else { throw mismatch(name, .proximity) }
        return value
    }

    /// The whole number `name`.
    public func integer(_ name: String) throws(StrategyConfigurationError) -> Int {
        guard case .integer(let value) = try value(name) else { throw mismatch(name, .integer) }
        return value
    }

    /// The number `name`.
    public func number(_ name: String) throws(StrategyConfigurationError) -> Double {
        guard case .number(let value) = try value(name) else { throw mismatch(name, .number) }
        return value
    }

    /// The boolean `name`.
    public func boolean(_ name: String) throws(StrategyConfigurationError) -> Bool {
        guard case .boolean(let value) = try value(name) else { throw mismatch(name, .boolean) }
        return value
    }

    /// The text `name`.
    public func string(_ name: String) throws(StrategyConfigurationError) -> String {
        guard case .string(let value) = try value(name) else { throw mismatch(name, .string) }
        return value
    }

    /// The strategy list `name`.
    public func strategies(_ name: String) throws(StrategyConfigurationError) -> [StrategySpec] {
        guard case .strategies(let value) = try value(name) else { throw mismatch(name, .strategies) }
        return value
    }

    /// An ``StrategyConfigurationError/invalidValue(strategy:parameter:value:reason:)`` for `name`.
    public func invalid(_ name: String, _ reason: String) -> StrategyConfigurationError {
        .invalidValue(
            strategy: strategy, parameter: name,
            value: values[name]?.configurationText ?? "(none)", reason: reason)
    }
}
