import BeaconStrategyKit

/// One parameter a tune varies, with the values it tries: the strategy's declared
/// `TuningRange` or values given on the command line, each read as the parameter's kind.
public struct TunedParameter: Hashable, Sendable {
    /// The parameter's name (`dwell`).
    public var name: String
    /// The values tried, in order.
    public var values: [ParameterValue]

    /// A parameter and its values.
    public init(name: String, values: [ParameterValue]) {
        self.name = name
        self.values = values
    }
}
