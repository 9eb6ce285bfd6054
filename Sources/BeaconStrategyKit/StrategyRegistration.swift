/// How to make one kind of strategy from configuration: its key, a summary, its parameter
/// declarations and a factory. The factory receives checked parameters and the registry (so
/// that compositions can make their children).
public struct StrategyRegistration: Sendable {
    /// Makes a strategy from checked parameters.
    public typealias Factory = @Sendable (ResolvedParameters, StrategyRegistry) throws -> any BeaconAlertStrategy

    /// The key configuration uses.
    public var key: String
    /// One sentence on what the strategy does.
    public var summary: String
    /// The parameters it accepts.
    public var parameters: [ParameterDeclaration]
    /// Makes an instance.
    public var factory: Factory

    /// Creates a registration.
    public init(
        key: String, summary: String, parameters: [ParameterDeclaration],
        factory: @escaping Factory
    ) {
        self.key = key
        self.summary = summary
        self.parameters = parameters
        self.factory = factory
    }
}
