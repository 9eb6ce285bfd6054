import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyPlugins
import BeaconStrategyTestSupport
import FoundationEssentials
import Testing

@Suite("StrategyPluginLoader: strategies from shared libraries")
struct StrategyPluginLoaderTests {
    @Test("the example plugin registers its strategies, with their parameters")
    func loads() throws {
        var registry = StrategyRegistry.builtIn()
        let keys = try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        #expect(keys == ["quiet-exit", "sighting-count"])
        #expect(registry.keys.contains("sighting-count"))
        let count = try #require(registry.registration(for: "sighting-count")?.parameters.first)
        #expect(count.name == "count")
        #expect(count.kind == .integer)
        #expect(count.defaultValue == .integer(5))
        #expect(registry.listingText().contains("    count (integer, default 5): Cycles with a sighting before the alert."))
    }

    @Test(
        "a plugin strategy fires through the C boundary",
        arguments: [
            // count 3: sightings at 0, 1, 4 (absent 2…3 between) — the third at 4.
            Scenario(
                name: "counts sightings", script: [Segment(0...1, .near), Segment(2...3, .absent), Segment(4...6, .near)],
                expectedFires: [4]),
            // Never three sightings.
            Scenario(name: "not enough sightings", script: [Segment(0...1, .near), Segment(2...9, .grace)], expectedFires: []),
        ])
    func fires(_ scenario: Scenario) throws {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        let strategy = try registry.makeStrategy(key: "sighting-count", parameters: ["count": 3])
        #expect(strategy.key == "sighting-count")
        #expect(fireSeconds(of: strategy, scenario.script) == scenario.expectedFires)
    }

    @Test("decisions made at the end of a cycle (absent beacons) cross the boundary too")
    func absentDecisions() throws {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        let strategy = try registry.makeStrategy(key: "quiet-exit", parameters: ["away": "5s", "period": "1m"])
        // Departures at 7 (last seen 2) and 17 (last seen 12): 17 is within 1 min of 7.
        let script = [Segment(0...2, .near), Segment(3...9, .absent), Segment(10...12, .near), Segment(13...20, .absent)]
        #expect(fireSeconds(of: strategy, script) == [7])
    }

    @Test("a plugin strategy composes with built-in ones (conditions cross the boundary)")
    func composes() throws {
        var registry = StrategyRegistry.builtIn()
        try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        let strategy = try registry.makeStrategy(table: [
            "strategy": "all-of",
            "of": [["strategy": "sighting-count", "count": 2], ["strategy": "proximity", "proximity": "immediate"]],
        ])
        // Two sightings by 1, immediate from 3: both hold at 3.
        #expect(fireSeconds(of: strategy, [Segment(0...2, .near), Segment(3...4, .immediate)]) == [3])
    }

    @Test("a configuration error inside the plugin reads like a built-in one")
    func pluginConfigurationError() throws {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        #expect(
            throws: StrategyConfigurationError.invalidValue(
                strategy: "sighting-count", parameter: "count",
                value: "0", reason: "must be at least 1")
        ) {
            _ = try registry.makeStrategy(key: "sighting-count", parameters: ["count": 0])
        }
        #expect(
            throws: StrategyConfigurationError.unknownParameter(
                strategy: "sighting-count", parameter: "cnt",
                known: [
                    "count", "maxTimeBeforeReset",
                    "resetWhenConditionInvalid", "retention",
                ])
        ) {
            _ = try registry.makeStrategy(key: "sighting-count", parameters: ["cnt": 1])
        }
    }

    @Test("a missing file is reported as such")
    func missingFile() {
        var registry = StrategyRegistry()
        let path = "/nonexistent/libNoSuchPlugin.so"
        #expect(throws: StrategyPluginError.fileMissing(path: path)) {
            try StrategyPluginLoader.load(path: path, into: &registry)
        }
        #expect(
            "\(StrategyPluginError.fileMissing(path: path))"
                == "strategy plugin /nonexistent/libNoSuchPlugin.so: no such file; check the --plugin path")
    }

    @Test("a file that is not a shared library is reported with the loader's reason")
    func notALibrary() throws {
        let path = try PluginPaths.writeNotALibrary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var registry = StrategyRegistry()
        #expect {
            try StrategyPluginLoader.load(path: path, into: &registry)
        } throws: { error in
            guard case .notASharedLibrary(let reported, let reason) = error as? StrategyPluginError else { return false }
            return reported == path && !reason.isEmpty
                && "\(error)".hasPrefix("strategy plugin \(path): cannot be loaded as a shared library (")
        }
    }

    @Test("a library without the entry point is reported")
    func symbolMissing() throws {
        let path = try #require(PluginPaths.libraryWithoutEntryPoint)
        var registry = StrategyRegistry()
        #expect(throws: StrategyPluginError.symbolMissing(path: path, symbol: "beacond_register_strategies")) {
            try StrategyPluginLoader.load(path: path, into: &registry)
        }
        #expect(
            "\(StrategyPluginError.symbolMissing(path: path, symbol: "beacond_register_strategies"))"
                == "strategy plugin \(path): does not export beacond_register_strategies; "
                + "define it with @_cdecl(\"beacond_register_strategies\")")
    }

    @Test("an ABI version mismatch is refused by the plugin and reported with both versions")
    func abiMismatch() {
        var registry = StrategyRegistry()
        let path = PluginPaths.examplePlugin
        #expect(throws: StrategyPluginError.abiMismatch(path: path, host: 99, plugin: StrategyPluginABI.version)) {
            try StrategyPluginLoader.load(path: path, into: &registry, hostABIVersion: 99)
        }
        #expect(registry.keys.isEmpty)
        #expect(
            "\(StrategyPluginError.abiMismatch(path: "p.so", host: 2, plugin: 1))"
                == "strategy plugin p.so: built for plugin ABI version 1, but this beacond speaks version 2; "
                + "rebuild the plugin against this version's beacond_plugin.h (or BeaconStrategyPlugins)")
    }

    @Test("a key clash leaves the registry unchanged")
    func keyClash() throws {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        let before = registry.keys
        #expect(
            throws: StrategyPluginError.registrationFailed(
                path: PluginPaths.examplePlugin,
                reason: "strategy key \"quiet-exit\" is registered twice; choose another key for one of them")
        ) {
            try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        }
        #expect(registry.keys == before)
    }
}
