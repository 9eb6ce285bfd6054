import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("CooldownAlertStrategy: no new alert within a period")
struct CooldownAlertStrategyTests {
    /// enter (absence 5 s) fires at every arrival; the cooldown is 30 s.
    static func make() -> CooldownAlertStrategy {
        CooldownAlertStrategy(EnterAlertStrategy(.init(absence: .seconds(5))), period: .seconds(30))
    }

    static let scenarios: [Scenario] = [
        // Arrivals at 0, 8 (last seen 1, unseen 7 s) and 40 (last seen 9): 8 is within 30 s of 0
        // and dropped; 40 is 40 s after 0 and passes.
        Scenario(
            name: "drops alerts within the period",
            script: [
                Segment(0...1, .near), Segment(2...7, .absent), Segment(8...9, .near),
                Segment(10...39, .absent), Segment(40...40, .near),
            ], expectedFires: [0, 40]),
        // Arrivals at 0, 20 (dropped) and 35: the period counts from the last alert let through
        // (0), so 35 passes; had 20 restarted it, 35 would be dropped.
        Scenario(
            name: "a dropped alert does not restart the period",
            script: [
                Segment(0...0, .near), Segment(1...19, .absent), Segment(20...20, .near),
                Segment(21...34, .absent), Segment(35...35, .near),
            ], expectedFires: [0, 35]),
        // Arrivals at 0 and 30 (last seen 0, unseen 30 s): exactly the period — passes.
        Scenario(
            name: "the period is half-open",
            script: [Segment(0...0, .near), Segment(1...29, .absent), Segment(30...30, .near)],
            expectedFires: [0, 30]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        #expect(fireSeconds(of: Self.make(), scenario.script) == scenario.expectedFires)
    }

    @Test("decisions from absent beacons are filtered too")
    func absentDecisions() {
        // exit (5 s) departures at 7 (last seen 2) and 17 (last seen 12): 17 is within 30 s of 7.
        let strategy = CooldownAlertStrategy(ExitAlertStrategy(.init(away: .seconds(5))), period: .seconds(30))
        let script = [Segment(0...2, .near), Segment(3...9, .absent), Segment(10...12, .near), Segment(13...20, .absent)]
        #expect(fireSeconds(of: strategy, script) == [7])
    }
}
