import BeaconConfiguration
import BeaconStrategyKit

extension ConfigNode {
    /// The node as a plain strategy value: scalars are inferred (`true`, `12`, `1.5`, else text),
    /// lists and mappings keep their structure.
    public var strategyValue: StrategyValue {
        if let text = scalarText {
            // Quoted scalars stay text: `"12"` is the string 12.
            return isQuotedScalar ? .string(text) : StrategyValue(inferringFrom: text)
        }
        if isSequence, let items = try? sequence() { return .list(items.map(\.strategyValue)) }
        if isMapping, let pairs = try? mapping() {
            var table: [String: StrategyValue] = [:]
            for (key, value) in pairs { table[key] = value.strategyValue }
            return .table(table)
        }
        return .string("")
    }

    /// A `parameters:` mapping as strategy parameters.
    public func strategyParameters() throws(ConfigurationError) -> StrategyParameters {
        var values: [String: StrategyValue] = [:]
        for (key, value) in try mapping() { values[key] = value.strategyValue }
        return StrategyParameters(values)
    }
}
