import BeaconCore

/// A checked, typed parameter value.
public enum ParameterValue: Hashable, Sendable {
    case duration(Duration)
    case proximity(Proximity)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case string(String)
    case strategies([StrategySpec])

    /// The value's kind.
    public var kind: ParameterKind {
        switch self {
        case .duration: .duration
        case .proximity: .proximity
        case .integer: .integer
        case .number: .number
        case .boolean: .boolean
        case .string: .string
        case .strategies: .strategies
        }
    }

    /// The value as configuration writes it (`3s`, `near`, `60`, `true`).
    public var configurationText: String {
        switch self {
        case .duration(let duration): duration.humanReadable
        case .proximity(let proximity): proximity.name
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .boolean(let value): "\(value)"
        case .string(let value): value
        case .strategies(let specs): "[" + specs.map(\.key).joined(separator: ", ") + "]"
        }
    }
}
