import BeaconCore

extension ParameterValue {
    /// The value as plain configuration (`.duration(3 s)` → `"3s"`), which reads back to itself.
    public var plainValue: StrategyValue {
        switch self {
        case .duration(let duration): .string(duration.humanReadable)
        case .proximity(let proximity): .string(proximity.name)
        case .integer(let value): .integer(value)
        case .number(let value): .number(value)
        case .boolean(let value): .boolean(value)
        case .string(let value): .string(value)
        case .strategies(let specs):
            .list(
                specs.map { spec in
                    var table = spec.parameters.values
                    table[StrategySpec.keyField] = .string(spec.key)
                    return .table(table)
                })
        }
    }
}

extension ResolvedParameters {
    /// The checked values as plain configuration (defaults included).
    public var plainParameters: StrategyParameters {
        StrategyParameters(values.mapValues(\.plainValue))
    }
}
