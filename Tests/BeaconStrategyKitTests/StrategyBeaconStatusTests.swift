import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

/// What a strategy tells the status page about each beacon: the dwell's progress, the action
/// status and when a done action resets.
@Suite("Strategy statuses for the status page")
struct StrategyBeaconStatusTests {
    /// dwell 10 s, gap 3 s, reset after 20 s unseen; one cycle per second.
    static func strategy() -> TimeAlertStrategy {
        TimeAlertStrategy(.init(dwell: .seconds(10), gap: .seconds(3), base: .init(maxTimeBeforeReset: .seconds(20))))
    }

    static func run(_ strategy: TimeAlertStrategy, _ script: [Segment]) {
        _ = fireSeconds(of: strategy, script)
    }

    static func status(of strategy: TimeAlertStrategy, at second: Int) throws -> StrategyBeaconStatus {
        var statuses: [StrategyBeaconStatus] = []
        strategy.collectStatuses(now: .at(second), into: &statuses)
        try #require(statuses.count == 1)
        return statuses[0]
    }

    @Test("a visit under way reports its length against the dwell, waiting for action")
    func progressTowardsDwell() throws {
        let strategy = Self.strategy()
        Self.run(strategy, [Segment(0...4, .near)])
        let status = try Self.status(of: strategy, at: 4)
        #expect(status.beacon == .scripted)
        #expect(status.actionStatus == .waitingForAction)
        #expect(!status.conditionValid)
        #expect(status.progress == StrategyProgress(value: 4, threshold: 10, unit: "s"))
        #expect(status.progress?.fraction == 0.4)
        #expect(status.resetsAt == nil)
    }

    @Test("once fired: action done, and it resets maxTimeBeforeReset after the last sighting")
    func doneAndResetTime() throws {
        let strategy = Self.strategy()
        Self.run(strategy, [Segment(0...12, .near), Segment(13...15, .absent)])
        let status = try Self.status(of: strategy, at: 15)
        #expect(status.actionStatus == .actionDone)
        #expect(status.lastSeen == .at(12))
        #expect(status.resetsAt == .at(32))
        #expect(status.progress?.fraction == 1)
    }

    @Test("an absence longer than the gap ends the visit: progress back to zero")
    func visitEnded() throws {
        let strategy = Self.strategy()
        Self.run(strategy, [Segment(0...5, .near), Segment(6...10, .absent)])
        let status = try Self.status(of: strategy, at: 10)
        #expect(status.progress?.value == 0)
        #expect(status.actionStatus == .waitingForAction)
    }

    @Test("a strategy that keeps no base state reports nothing, and says so")
    func protocolDefault() {
        final class Silent: BeaconAlertStrategy {
            var key: String { "silent" }
            func update(beacon: RangedBeacon, now: Timestamp) {}
            func parameter(for id: BeaconID) -> Int? { nil }
            func isConditionValid(_ parameter: Int, now: Timestamp) -> Bool { false }
            func isReadyForAction(_ parameter: Int, now: Timestamp) -> Bool { false }
            func markActionDone(for id: BeaconID, now: Timestamp) {}
            func finishCycle(now: Timestamp, fired: (BeaconID) -> Void) {}
        }
        let silent = Silent()
        var statuses: [StrategyBeaconStatus] = []
        silent.collectStatuses(now: .at(0), into: &statuses)
        #expect(statuses.isEmpty)
        #expect(!silent.reportsStatuses)
        #expect(Self.strategy().reportsStatuses)
    }
}
