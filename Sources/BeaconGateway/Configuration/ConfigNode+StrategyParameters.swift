import BeaconStrategyKit
import Yams

extension ConfigNode {
    /// The node as a plain strategy value: scalars are inferred (`true`, `12`, `1.5`, else text),
    /// lists and mappings keep their structure.
    public var strategyValue: StrategyValue {
        switch node {
        case .scalar(let scalar):
            // Quoted scalars stay text: `"12"` is the string 12.
            return scalar.style == .plain ? StrategyValue(inferringFrom: scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            return .list(sequence.map { ConfigNode(node: $0, file: file, path: path).strategyValue })
        case .mapping(let mapping):
            var table: [String: StrategyValue] = [:]
            for pair in mapping {
                table[pair.key.string ?? "\(pair.key)"] = ConfigNode(node: pair.value, file: file, path: path).strategyValue
            }
            return .table(table)
        case .alias:
            return .string("")
        }
    }

    /// A `parameters:` mapping as strategy parameters.
    public func strategyParameters() throws(ConfigurationError) -> StrategyParameters {
        var values: [String: StrategyValue] = [:]
        for (key, value) in try mapping() { values[key] = value.strategyValue }
        return StrategyParameters(values)
    }
}
