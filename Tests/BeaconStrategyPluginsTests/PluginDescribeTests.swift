import BeaconCore
import BeaconStrategyKit
import BeaconStrategyTestSupport
import CBeacondPlugin
import Testing

@testable import BeaconStrategyPlugins

/// A plugin's strategy explains itself through `describe`, the function appended to the table:
/// where a beacon stands, in its own words, for `beacond explain` and the status page.
@Suite("Plugin strategies explain themselves")
struct PluginDescribeTests {
    private func strategy(_ key: String, from path: String, _ parameters: StrategyParameters) throws
        -> any BeaconAlertStrategy
    {
        var registry = StrategyRegistry()
        try StrategyPluginLoader.load(path: path, into: &registry)
        return try registry.makeStrategy(key: key, parameters: parameters)
    }

    @Test("the C plugin's describe gives action, condition, progress, reset and its own words")
    func cDescribes() throws {
        let streak = try strategy(
            "c-streak", from: PluginPaths.exampleCPlugin, ["cycles": .integer(3), "reset_seconds": .integer(10)])
        #expect(streak.status(of: .scripted, now: .at(0)) == nil, "a beacon it has not seen")
        _ = fireSeconds(of: streak, [Segment(0...1, .near)])
        let counting = try #require(streak.status(of: .scripted, now: .at(1)))
        #expect(counting.actionStatus == .waitingForAction)
        #expect(counting.conditionValid == false)
        #expect(counting.lastSeen == .at(1))
        #expect(counting.resetsAt == nil)
        #expect(counting.progress == StrategyProgress(value: 2, threshold: 3, unit: "cycles"))
        #expect(counting.explanation == "in a streak of sightings, 3 cycles wanted")
        #expect(fireSeconds(of: streak, [Segment(2...2, .near)]) == [2])
        let fired = try #require(streak.status(of: .scripted, now: .at(2)))
        #expect(fired.actionStatus == .actionDone)
        #expect(fired.conditionValid)
        #expect(fired.resetsAt == .at(12))
        #expect(fired.explanation == "alerted; resets after 10 s unseen")
        #expect(streak.status(of: .scripted, now: .at(5))?.explanation == "alerted; resets after 10 s unseen")
    }

    @Test("a Swift plugin answers describe from its strategy's status, its own words included")
    func swiftDescribes() throws {
        let counter = try strategy("sighting-count", from: PluginPaths.examplePlugin, ["count": 3])
        _ = fireSeconds(of: counter, [Segment(0...1, .near)])
        let counting = try #require(counter.status(of: .scripted, now: .at(1)))
        #expect(counting.progress == StrategyProgress(value: 2, threshold: 3, unit: "sightings"))
        #expect(counting.explanation == "counting the cycles it is seen in")
        #expect(counting.actionStatus == .waitingForAction && counting.conditionValid == false)
        #expect(fireSeconds(of: counter, [Segment(2...2, .near)]) == [2])
        let fired = try #require(counter.status(of: .scripted, now: .at(2)))
        #expect(fired.actionStatus == .actionDone)
        #expect(fired.explanation == "seen often enough (3 cycles)")
    }

    @Test("a table built before describe loads without it; a shorter one is refused")
    func olderTables() throws {
        var table = beacond_strategy_functions()
        table.create = { _, _, _, _ in nil }
        table.destroy = { _ in }
        table.step = { _, _, _, _ in false }
        table.finish_cycle = { _, _, _, _ in }
        table.condition_valid = { _, _, _ in false }
        table.mark_done = { _, _, _ in }
        table.state_durability = { _, _ in 1 }
        table.save_state = { _, _, _ in }
        table.restore_state = { _, _, _, _ in 0 }
        table.describe = { _, _, _, _, _ in true }
        table.size = UInt32(MemoryLayout<beacond_strategy_functions>.size)
        #expect(try PluginFunctions(plugin: nil, table: &table).describe != nil)
        // A plugin built against the header before describe: its table ends at restore_state,
        // and nothing past it is readable (an allocation of exactly that size).
        let oldSize = PluginFunctions.firstTableSize
        #expect(oldSize < MemoryLayout<beacond_strategy_functions>.size)
        table.size = UInt32(oldSize)
        let old = UnsafeMutableRawPointer.allocate(byteCount: oldSize, alignment: 8)
        defer { old.deallocate() }
        withUnsafeBytes(of: &table) { old.copyMemory(from: $0.baseAddress!, byteCount: oldSize) }
        let oldTable = old.bindMemory(to: beacond_strategy_functions.self, capacity: 1)
        #expect(try PluginFunctions(plugin: nil, table: oldTable).describe == nil)
        table.size = UInt32(oldSize - 8)
        #expect(throws: PluginTableError.self) { try PluginFunctions(plugin: nil, table: &table) }
    }
}
