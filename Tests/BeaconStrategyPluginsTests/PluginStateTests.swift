import BeaconCore
import BeaconStrategyKit
import BeaconStrategyPlugins
import BeaconStrategyTestSupport
import Testing

/// Strategies from plugins save and restore their per-beacon state through the C interface,
/// for a plugin written in C against `beacond_plugin.h` alone and for one written in Swift.
@Suite("Plugin strategies: a C plugin, and state saved across the boundary")
struct PluginStateTests {
    private func cStreak(cycles: Int = 3, resetSeconds: Int = 10) throws -> any BeaconAlertStrategy {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: PluginPaths.exampleCPlugin, into: &registry)
        return try registry.makeStrategy(
            key: "c-streak", parameters: ["cycles": .integer(cycles), "reset_seconds": .integer(resetSeconds)])
    }

    @Test("the C plugin registers its strategy with the parameters its JSON declares, tuning values included")
    func cRegistration() throws {
        var registry = StrategyRegistry()
        let keys = try StrategyPluginLoader.load(path: PluginPaths.exampleCPlugin, into: &registry)
        #expect(keys == ["c-streak"])
        let parameters = try #require(registry.registration(for: "c-streak")?.parameters)
        #expect(parameters.map(\.name) == ["cycles", "reset_seconds"])
        #expect(parameters.map(\.defaultValue) == [.integer(3), .integer(10)])
        // The values beacond tune tries, declared in the JSON (absent for reset_seconds).
        #expect(parameters.map(\.tuning) == [TuningRange([1, 2, 3, 5, 8].map { .integer($0) }), nil])
    }

    @Test(
        "the C strategy fires on its third sighting in a row",
        arguments: [
            // Seen at 0 and 1, in grace at 2 (streak back to 0), seen 3, 4, 5: the third in a row is 5.
            Scenario(
                name: "grace breaks the streak", script: [Segment(0...1, .near), Segment(2...2, .grace), Segment(3...8, .near)],
                expectedFires: [5]),
            // Absent at 2 (no step at all): the gap breaks the streak the same way.
            Scenario(
                name: "absence breaks the streak",
                script: [Segment(0...1, .near), Segment(2...2, .absent), Segment(3...8, .near)], expectedFires: [5]),
            // Action done at 2; last seen 5, forgotten at 16 (over 10 s unseen), then a new streak 17, 18, 19.
            Scenario(
                name: "re-alerts after reset_seconds unseen",
                script: [Segment(0...5, .near), Segment(6...16, .absent), Segment(17...20, .near)], expectedFires: [2, 19]),
        ])
    func cFires(_ scenario: Scenario) throws {
        #expect(fireSeconds(of: try cStreak(), scenario.script) == scenario.expectedFires)
    }

    @Test("a bad parameter is refused by the C plugin with its own message")
    func cParameterError() {
        #expect(
            throws: StrategyConfigurationError.factoryFailed(
                strategy: "c-streak", message: "c-streak: cycles must be between 1 and 100000")
        ) {
            _ = try cStreak(cycles: 0)
        }
    }

    @Test("the C strategy's state survives a restart: the streak continues, a done action stays done")
    func cStateSurvivesRestart() throws {
        let first = try cStreak()
        #expect(first.stateDurability == .saved)
        #expect(fireSeconds(of: first, [Segment(0...1, .near)]) == [])
        var saved: [StrategyStateEntry] = []
        first.collectStateChanges(into: &saved)
        #expect(saved.map(\.beacon) == [.scripted])

        // Restored, the streak of two continues: the third sighting (2) fires.
        let restored = try cStreak()
        try restored.restoreState(saved)
        #expect(fireSeconds(of: restored, [Segment(2...4, .near)]) == [2])
        // Without the state it would have needed three more sightings.
        #expect(fireSeconds(of: try cStreak(), [Segment(2...4, .near)]) == [4])

        // After the alert, a restart does not repeat it while the beacon stays.
        var afterAlert: [StrategyStateEntry] = []
        restored.collectStateChanges(into: &afterAlert)
        let again = try cStreak()
        try again.restoreState(afterAlert)
        #expect(fireSeconds(of: again, [Segment(5...9, .near)]) == [])
    }

    @Test("a beacon the C strategy forgets is reported with no state, so its saved state is removed")
    func cForgets() throws {
        let strategy = try cStreak(resetSeconds: 5)
        _ = fireSeconds(of: strategy, [Segment(0...0, .near)])
        var entries: [StrategyStateEntry] = []
        strategy.collectStateChanges(into: &entries)
        #expect(entries.count == 1 && entries[0].state != nil)
        // Unseen for more than 5 s after 0: forgotten at 6.
        _ = fireSeconds(of: strategy, [Segment(1...6, .absent)])
        entries.removeAll()
        strategy.collectStateChanges(into: &entries)
        #expect(entries == [StrategyStateEntry(beacon: .scripted, state: nil)])
    }

    @Test("damaged saved state is refused with the plugin's reason")
    func cRefusesDamagedState() throws {
        let strategy = try cStreak()
        #expect {
            try strategy.restoreState([StrategyStateEntry(beacon: .scripted, state: [1, 2, 3])])
        } throws: { error in
            "\(error)".contains("c-streak: saved state is not 14 bytes of version 1")
        }
    }

    @Test("a Swift plugin's base-class strategy saves and restores through the same interface")
    func swiftStateSurvivesRestart() throws {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: PluginPaths.examplePlugin, into: &registry)
        let first = try registry.makeStrategy(key: "sighting-count", parameters: ["count": 3])
        #expect(first.stateDurability == .saved)
        #expect(fireSeconds(of: first, [Segment(0...1, .near)]) == [])
        var saved: [StrategyStateEntry] = []
        first.collectStateChanges(into: &saved)
        #expect(saved.map(\.beacon) == [.scripted])

        let restored = try registry.makeStrategy(key: "sighting-count", parameters: ["count": 3])
        try restored.restoreState(saved)
        // Two sightings were restored: the third (2) fires.
        #expect(fireSeconds(of: restored, [Segment(2...3, .near)]) == [2])
    }
}
