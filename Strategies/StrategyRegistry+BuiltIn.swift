import BeaconStrategyKit

extension StrategyRegistry {
    /// A registry holding the stock strategies (`time`, `proximity`, `enter`, `exit`, `rssi`,
    /// `region`, `all-of`, `any-of`, `cooldown`).
    public static func builtIn() -> StrategyRegistry {
        var registry = StrategyRegistry()
        do { try registry.registerBuiltInStrategies() } catch {
            preconditionFailure("built-in strategy keys collide: \(error)")
        }
        return registry
    }

    /// Adds the stock strategies; fails with `StrategyConfigurationError/duplicateKey(_:)`
    /// if one of their keys is taken already.
    public mutating func registerBuiltInStrategies() throws(StrategyConfigurationError) {
        for registration in BuiltInStrategies.all { try register(registration) }
    }
}
