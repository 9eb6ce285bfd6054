import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyPlugins

extension StrategyRegistry {
    /// The built-in strategies and those of each plugin at `plugins` (the commands' `--plugin`).
    /// - Throws: what loading a plugin throws (a library that cannot be opened, or registers
    ///   nothing).
    static func builtIn(plugins: [String]) throws -> StrategyRegistry {
        var registry = StrategyRegistry.builtIn()
        for path in plugins { try StrategyPluginLoader.load(path: path, into: &registry) }
        return registry
    }
}
