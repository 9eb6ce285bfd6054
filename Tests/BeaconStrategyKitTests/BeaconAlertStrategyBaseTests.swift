import BeaconCore
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

/// A minimal subclass: the condition holds at every cycle the beacon is seen; it counts its
/// updates so tests can check the order of calls.
private final class SeenNowStrategy: BeaconAlertStrategyBase<SeenNowStrategy.Memory> {
    struct Memory {
        var seenNow = false
        var updates = 0
        var absentUpdates = 0
    }

    override var key: String { "seen-now" }

    override func updateAlertParameter(_ memory: inout Memory, beacon: RangedBeacon?, now: Timestamp) {
        memory.seenNow = beacon?.seenThisCycle ?? false
        memory.updates += 1
        if beacon == nil { memory.absentUpdates += 1 }
    }

    override func isConditionValid(_ memory: Memory, now: Timestamp) -> Bool { memory.seenNow }
}

@Suite("BeaconAlertStrategyBase: bookkeeping")
struct BeaconAlertStrategyBaseTests {
    @Test("isReadyForAction is condition valid and waiting for action")
    func readiness() throws {
        let strategy = SeenNowStrategy(initialValue: .init())
        let now = Timestamp.at(0)
        strategy.update(beacon: try #require(RangedBeacon.scripted(.near, now: now)), now: now)
        let fresh = try #require(strategy.parameter(for: .scripted))
        #expect(fresh.actionStatus == .waitingForAction)
        #expect(strategy.isConditionValid(fresh, now: now))
        #expect(strategy.isReadyForAction(fresh, now: now))
        strategy.markActionDone(for: .scripted, now: now)
        let done = try #require(strategy.parameter(for: .scripted))
        #expect(done.actionStatus == .actionDone)
        #expect(!strategy.isReadyForAction(done, now: now))
    }

    @Test("state is created on first sight; updateAlertParameter runs before the condition, absent beacons included")
    func updates() throws {
        let strategy = SeenNowStrategy(initialValue: .init())
        #expect(strategy.parameter(for: .scripted) == nil)
        // 0…2 seen (3 updates with a beacon), 3…4 absent (2 updates without).
        _ = fireSeconds(of: strategy, [Segment(0...2, .near), Segment(3...4, .absent)])
        let parameter = try #require(strategy.parameter(for: .scripted))
        #expect(parameter.value.updates == 5)
        #expect(parameter.value.absentUpdates == 2)
        #expect(parameter.conditionValid == false)
        #expect(parameter.lastSeen == .at(2))
    }

    /// Rows: seen 0…2, absent 3, seen 4…5.
    static let flicker = [Segment(0...2, .near), Segment(3...3, .absent), Segment(4...5, .near)]

    @Test("by default an invalid condition does not reset the action")
    func noConditionReset() {
        // Fired at 0; unseen only 1 s < 60 s: still done at 4.
        #expect(fireSeconds(of: SeenNowStrategy(initialValue: .init()), Self.flicker) == [0])
    }

    @Test("resetWhenConditionInvalid re-arms as soon as the condition lapses")
    func conditionReset() {
        // Condition invalid at 3 → waiting; valid again at 4 → fires.
        let strategy = SeenNowStrategy(initialValue: .init(), configuration: .init(resetWhenConditionInvalid: true))
        #expect(fireSeconds(of: strategy, Self.flicker) == [0, 4])
    }

    @Test(
        "maxTimeBeforeReset counts unseen time from the last sighting",
        arguments: [
            // (unseen seconds before the return, fires) with maxTimeBeforeReset 5 s; last seen at 0,
            // back at 1 + gap: reset happens at an absent cycle with now - 0 ≥ 5.
            (4, [0]), (5, [0, 6]), (8, [0, 9]),
        ])
    func unseenReset(absentSeconds: Int, expected: [Int]) {
        let strategy = SeenNowStrategy(initialValue: .init(), configuration: .init(maxTimeBeforeReset: .seconds(5)))
        let script = [
            Segment(0...0, .near), Segment(1...absentSeconds, .absent),
            Segment((absentSeconds + 1)...(absentSeconds + 1), .near),
        ]
        #expect(fireSeconds(of: strategy, script) == expected)
    }

    @Test(
        "beacons unseen for longer than the retention are evicted",
        arguments: [
            // (retention, maxTimeBeforeReset, last second still remembered): the effective retention
            // is the larger of the two; eviction happens once unseen for strictly longer.
            (10, 5, 10), (5, 20, 20), (0, 0, 0),
        ])
    func eviction(retention: Int, maxTimeBeforeReset: Int, lastRemembered: Int) {
        let strategy = SeenNowStrategy(
            initialValue: .init(),
            configuration: .init(
                maxTimeBeforeReset: .seconds(maxTimeBeforeReset), retention: .seconds(retention)))
        var triggers: [AlertTrigger] = []
        let beacons = (0..<100).map { RangedBeacon.scripted(.near, id: .numbered($0), now: .at(0))! }
        strategy.evaluate(beacons, now: .at(0), into: &triggers)
        #expect(triggers.count == 100)
        #expect(strategy.trackedBeaconCount == 100)
        for second in stride(from: 1, through: lastRemembered, by: 1) {
            strategy.evaluate([], now: .at(second), into: &triggers)
        }
        #expect(strategy.trackedBeaconCount == 100)
        strategy.evaluate([], now: .at(lastRemembered + 1), into: &triggers)
        #expect(strategy.trackedBeaconCount == 0)
    }

    @Test("an evicted beacon starts afresh")
    func evictedStartsAfresh() {
        // Default maxTimeBeforeReset 60 s is also the retention: the beacon seen at 0 is
        // forgotten at 61 (unseen longer than 60 s) and fires at 62 as a new beacon.
        let strategy = SeenNowStrategy(initialValue: .init())
        #expect(
            fireSeconds(of: strategy, [Segment(0...0, .near), Segment(1...61, .absent), Segment(62...62, .near)])
                == [0, 62])
    }

    @Test("several beacons are independent")
    func independentBeacons() {
        let strategy = SeenNowStrategy(initialValue: .init())
        var triggers: [AlertTrigger] = []
        let a = RangedBeacon.scripted(.near, id: .numbered(1), now: .at(0))!
        let b = RangedBeacon.scripted(.grace, id: .numbered(2), now: .at(0))!
        strategy.evaluate([a, b], now: .at(0), into: &triggers)
        let b1 = RangedBeacon.scripted(.near, id: .numbered(2), now: .at(1))!
        strategy.evaluate([b1], now: .at(1), into: &triggers)
        #expect(
            triggers == [
                AlertTrigger(beacon: .numbered(1), strategy: "seen-now", time: .at(0)),
                AlertTrigger(beacon: .numbered(2), strategy: "seen-now", time: .at(1)),
            ])
    }
}
