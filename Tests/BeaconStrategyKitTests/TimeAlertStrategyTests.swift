import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("TimeAlertStrategy: dwell time")
struct TimeAlertStrategyTests {
    /// dwell 10 s, gap 3 s, reset after 20 s unseen; one cycle per second.
    static let options = TimeAlertStrategy.Configuration(
        dwell: .seconds(10), gap: .seconds(3), base: .init(maxTimeBeforeReset: .seconds(20)))

    static let scenarios: [Scenario] = [
        // Visit starts at 0; at 10 it has lasted 10 s ≥ dwell: ready on that first cycle.
        Scenario(
            name: "fires on the first cycle the visit has lasted dwell",
            script: [Segment(0...12, .near)], expectedFires: [10]),
        // At 9 the visit has lasted 9 s < 10 s: nothing yet.
        Scenario(name: "nothing before dwell", script: [Segment(0...9, .near)], expectedFires: []),
        // Last detection 5, next at 8: unseen 3 s, not longer than gap — same visit from 0, fires at 10.
        Scenario(
            name: "an absence of exactly gap keeps the visit",
            script: [Segment(0...5, .near), Segment(6...7, .absent), Segment(8...12, .near)],
            expectedFires: [10]),
        // Last detection 5, next at 9: unseen 4 s > gap — new visit from 9, fires at 19.
        Scenario(
            name: "an absence longer than gap starts a new visit",
            script: [Segment(0...5, .near), Segment(6...8, .absent), Segment(9...20, .near)],
            expectedFires: [19]),
        // Grace cycles (in the update, not seen) are absence: new visit at 9, fires at 19.
        Scenario(
            name: "missed-scan grace counts as unseen",
            script: [Segment(0...5, .near), Segment(6...8, .grace), Segment(9...20, .near)],
            expectedFires: [19]),
        // Fired at 10; a new visit from 17 reaches dwell at 27 but the action is still done
        // (never unseen 20 s): no second alert.
        Scenario(
            name: "never twice without a reset",
            script: [Segment(0...12, .near), Segment(13...16, .absent), Segment(17...30, .near)],
            expectedFires: [10]),
        // Fired at 10, last seen 30; unseen from 31: reset at 50 (30 + 20). New visit at 53,
        // lasts 10 s at 63: fires again.
        Scenario(
            name: "fires again after maxTimeBeforeReset unseen",
            script: [Segment(0...30, .near), Segment(31...52, .absent), Segment(53...65, .near)],
            expectedFires: [10, 63]),
        // Unseen only 19 s (31…49, back at 50): no reset; visit from 50 reaches dwell at 60, still done.
        Scenario(
            name: "no reset when unseen for less than maxTimeBeforeReset",
            script: [Segment(0...30, .near), Segment(31...49, .absent), Segment(50...65, .near)],
            expectedFires: [10]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        #expect(fireSeconds(of: TimeAlertStrategy(Self.options), scenario.script) == scenario.expectedFires)
    }

    /// With a minimum proximity of `near`, far cycles count as unseen.
    static let proximityScenarios: [Scenario] = [
        // Far at 0…4 does not start a visit; near from 5: fires at 15.
        Scenario(
            name: "far cycles do not count",
            script: [Segment(0...4, .far), Segment(5...16, .near)], expectedFires: [15]),
        // Near 0…5, far 6…9 (4 s without a near cycle > gap): new visit at 10, fires at 20.
        Scenario(
            name: "far for longer than gap ends the visit",
            script: [Segment(0...5, .near), Segment(6...9, .far), Segment(10...21, .near)],
            expectedFires: [20]),
        // Immediate is closer than near: counts; fires at 10.
        Scenario(
            name: "closer bands count",
            script: [Segment(0...10, .immediate)], expectedFires: [10]),
    ]

    @Test(arguments: proximityScenarios)
    func minimumProximity(_ scenario: Scenario) {
        var options = Self.options
        options.minimumProximity = .near
        #expect(fireSeconds(of: TimeAlertStrategy(options), scenario.script) == scenario.expectedFires)
    }

    @Test("the tutorial's defaults: dwell 60 s, gap 3 s, reset after 60 s")
    func defaults() {
        let strategy = TimeAlertStrategy()
        #expect(strategy.options.dwell == .seconds(60))
        #expect(strategy.options.gap == .seconds(3))
        #expect(strategy.configuration.maxTimeBeforeReset == .seconds(60))
        #expect(strategy.key == "time")
        #expect(fireSeconds(of: strategy, [Segment(0...61, .near)]) == [60])
    }
}
