import ArgumentParser
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyPlugins
import Synchronization

/// `--plugin PATH` (repeatable), the one way every command that runs strategies loads them:
/// the built-in strategies, those a custom build adds (``Beacond/main(adding:)``), then each
/// plugin's, into one registry.
struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp("Also load the strategies of this plugin (a shared library); repeatable.", valueName: "path"))
    var paths: [String] = []

    /// The built-in strategies and those of each plugin.
    /// - Throws: what loading a plugin throws (a library that cannot be opened, or registers
    ///   nothing).
    func registry() throws -> StrategyRegistry {
        var registry = StrategyRegistry.builtIn()
        for registration in Beacond.extraStrategies.withLock({ $0 }) { try registry.register(registration) }
        for path in paths { try StrategyPluginLoader.load(path: path, into: &registry) }
        return registry
    }
}
