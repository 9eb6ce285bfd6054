import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

/// ``BeaconAlertStrategyBase``'s saved state: what changed is handed out once, a strategy made
/// anew from it continues exactly where the first one was, and what cannot be saved or read is
/// said.
@Suite("BeaconAlertStrategyBase: durable state")
struct BeaconAlertStrategyBaseDurabilityTests {
    /// Runs `seconds` cycles with the scripted beacon as `sight`, returning the seconds it fired.
    @discardableResult
    static func run(_ strategy: any BeaconAlertStrategy, _ seconds: ClosedRange<Int>, _ sight: Sight) -> [Int] {
        fireSeconds(of: strategy, [Segment(seconds, sight)])
    }

    @Test("the article's strategy, restored from what it saved mid-visit, fires when the uninterrupted one does")
    func roundTripMidVisit() throws {
        let reference = TimeAlertStrategySecondWay(maxTimeBeforeReset: .seconds(30), delayBeforeCreatingAlert: .seconds(20))
        #expect(Self.run(reference, 0...40, .near) == [20])

        let first = TimeAlertStrategySecondWay(maxTimeBeforeReset: .seconds(30), delayBeforeCreatingAlert: .seconds(20))
        Self.run(first, 0...10, .near)
        var entries: [StrategyStateEntry] = []
        first.collectStateChanges(into: &entries)
        #expect(entries.count == 1)
        let restored = TimeAlertStrategySecondWay(maxTimeBeforeReset: .seconds(30), delayBeforeCreatingAlert: .seconds(20))
        try restored.restoreState(entries)
        let saved = try #require(first.parameter(for: .scripted))
        let back = try #require(restored.parameter(for: .scripted))
        #expect(back.value.timeToShowAlert == saved.value.timeToShowAlert)
        #expect(back.value.lastDetectionTime == saved.value.lastDetectionTime)
        #expect(back.actionStatus == saved.actionStatus && back.lastSeen == saved.lastSeen)
        #expect(Self.run(restored, 11...40, .near) == [20], "the visit goes on: due at 20 s, not 31 s")
    }

    @Test("restored after its alert, it does not fire again in the same visit; after the reset it does")
    func roundTripAfterAlert() throws {
        let first = TimeStrategyFactory.make()
        #expect(Self.run(first, 0...15, .near) == [10])
        var entries: [StrategyStateEntry] = []
        first.collectStateChanges(into: &entries)
        let restored = TimeStrategyFactory.make()
        try restored.restoreState(entries)
        #expect(restored.parameter(for: .scripted)?.actionStatus == .actionDone)
        #expect(Self.run(restored, 16...40, .near) == [])
        Self.run(restored, 41...80, .absent)
        #expect(Self.run(restored, 81...100, .near) == [91], "unseen 40 s > 30 s: reset, a new visit alerts 10 s in")
    }

    @Test("only what changed is handed out; a forgotten beacon is handed out as nil")
    func changesOnly() throws {
        let strategy = TimeStrategyFactory.make()
        Self.run(strategy, 0...2, .near)
        var entries: [StrategyStateEntry] = []
        strategy.collectStateChanges(into: &entries)
        #expect(entries.count == 1)
        entries.removeAll()
        strategy.collectStateChanges(into: &entries)
        #expect(entries.isEmpty, "nothing happened since")
        Self.run(strategy, 3...3, .near)
        strategy.collectStateChanges(into: &entries)
        #expect(entries.count == 1, "last seen moved")
        entries.removeAll()
        Self.run(strategy, 4...200, .absent) // past the retention (30 s)
        strategy.collectStateChanges(into: &entries)
        #expect(entries.last?.state == nil && entries.last?.beacon == .scripted)
        #expect(strategy.trackedBeaconCount == 0)
    }

    @Test("durability: Codable value saved; a value that is not Codable is said; savesValue false is fine")
    func durabilityReports() {
        #expect(TimeStrategyFactory.make().stateDurability == .saved)
        guard case .incomplete(let reason) = NotCodableStrategy(savesValue: true).stateDurability else {
            Issue.record("a value that is not Codable must be reported")
            return
        }
        #expect(reason.contains("not Codable") && reason.contains("savesValue"))
        #expect(NotCodableStrategy(savesValue: false).stateDurability == .saved)
    }

    @Test(
        "bytes that are not a saved state are refused with what is wrong",
        arguments: [
            ([UInt8](), "0 bytes"), ([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "format version 2"),
            ([1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0], "action status 7"), ([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x7B], "cannot be read"),
        ])
    func unreadable(_ bytes: [UInt8], _ message: String) {
        let strategy = TimeStrategyFactory.make()
        let error = #expect(throws: StrategyStateError.self) {
            try strategy.restoreState([StrategyStateEntry(beacon: .scripted, state: bytes)])
        }
        #expect(error.map { "\($0)".contains(message) && "\($0)".contains("starts afresh") } == true)
    }
}

/// `time` with dwell 10 s, gap 3 s, reset 30 s.
enum TimeStrategyFactory {
    static func make() -> TimeAlertStrategy {
        TimeAlertStrategy(.init(dwell: .seconds(10), gap: .seconds(3), base: .init(maxTimeBeforeReset: .seconds(30))))
    }
}

/// A strategy whose value is not Codable.
private final class NotCodableStrategy: BeaconAlertStrategyBase<NotCodableStrategy.Memory> {
    struct Memory { var seen = false }
    let saves: Bool

    init(savesValue: Bool) {
        saves = savesValue
        super.init(initialValue: Memory())
    }

    override var key: String { "not-codable" }
    override var savesValue: Bool { saves }
    override func updateAlertParameter(_ memory: inout Memory, beacon: RangedBeacon?, now: Timestamp) {
        memory.seen = beacon?.seenThisCycle ?? false
    }
    override func isConditionValid(_ memory: Memory, now: Timestamp) -> Bool { memory.seen }
}
