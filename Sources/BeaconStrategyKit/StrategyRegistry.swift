/// Maps strategy keys to factories: the one place configuration turns into strategies. Built-in
/// strategies are added by `StrategyRegistry.builtIn()` (module BeaconStrategies), a Swift
/// package adds its own with ``register(_:)``, and shared-library plugins with
/// `StrategyPluginLoader` (module BeaconStrategyPlugins). No reflection: a key is known only once registered.
public struct StrategyRegistry: Sendable {
    private var registrations: [String: StrategyRegistration] = [:]

    /// An empty registry.
    public init() {}

    /// Adds a registration; its key must be new.
    public mutating func register(_ registration: StrategyRegistration) throws(StrategyConfigurationError) {
        guard registrations[registration.key] == nil else { throw .duplicateKey(registration.key) }
        registrations[registration.key] = registration
    }

    /// Every registered key, sorted.
    public var keys: [String] { registrations.keys.sorted() }

    /// Every registration, sorted by key.
    public var allRegistrations: [StrategyRegistration] { keys.map { registrations[$0]! } }

    /// The registration for `key`, if any.
    public func registration(for key: String) -> StrategyRegistration? { registrations[key] }

    /// Makes the strategy `key` from configuration parameters, checked against its declarations.
    public func makeStrategy(key: String, parameters: StrategyParameters = [:])
        throws(StrategyConfigurationError) -> any BeaconAlertStrategy
    {
        guard let registration = registrations[key] else { throw .unknownStrategy(key: key, known: keys) }
        let resolved = try ResolvedParameters(
            strategy: key, parameters: parameters,
            declarations: registration.parameters)
        do {
            return try registration.factory(resolved, self)
        } catch let error as StrategyConfigurationError {
            throw error
        } catch {
            throw .factoryFailed(strategy: key, message: "\(error)")
        }
    }

    /// Makes the strategy a spec names.
    public func makeStrategy(_ spec: StrategySpec) throws(StrategyConfigurationError) -> any BeaconAlertStrategy {
        try makeStrategy(key: spec.key, parameters: spec.parameters)
    }

    /// Makes the strategy a configuration mapping describes (`{strategy: time, dwell: 30s}`).
    public func makeStrategy(table: [String: StrategyValue], context: String = "strategy")
        throws(StrategyConfigurationError) -> any BeaconAlertStrategy
    {
        try makeStrategy(StrategySpec(table: table, context: context))
    }
}
