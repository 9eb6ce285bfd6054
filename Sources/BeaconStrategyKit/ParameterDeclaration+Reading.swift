import BeaconCore

extension ParameterDeclaration {
    /// Reads a plain value as this parameter's kind, for the strategy `strategy` (error messages).
    public func read(_ raw: StrategyValue, strategy: String) throws(StrategyConfigurationError) -> ParameterValue {
        let declaration = self
        let wrongType = StrategyConfigurationError.wrongType(
            strategy: strategy, parameter: declaration.name, expected: declaration.kind,
            found: "\(raw.kindName) \(raw)")
        switch (declaration.kind, raw) {
        case (.duration, .string(let text)):
            guard let duration = Duration(parsing: text) else { throw wrongType }
            return .duration(duration)
        case (.proximity, .string(let text)):
            guard let proximity = Proximity(name: text), proximity != .unknown else { throw wrongType }
            return .proximity(proximity)
        case (.integer, .integer(let value)): return .integer(value)
        case (.number, .integer(let value)): return .number(Double(value))
        case (.number, .number(let value)): return .number(value)
        case (.boolean, .boolean(let value)): return .boolean(value)
        case (.string, .string(let value)): return .string(value)
        case (.strategies, .list(let items)):
            var specs: [StrategySpec] = []
            for (index, item) in items.enumerated() {
                let context = "strategy \"\(strategy)\": parameter \"\(declaration.name)\"[\(index)]"
                guard case .table(let table) = item else {
                    throw .missingStrategyKey(context: context, found: "\(item.kindName) \(item)")
                }
                specs.append(try StrategySpec(table: table, context: context))
            }
            return .strategies(specs)
        default:
            throw wrongType
        }
    }
}
