import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("ProximityAlertStrategy: at or closer than a band for N cycles")
struct ProximityAlertStrategyTests {
    /// near or closer, 3 consecutive cycles, reset after 20 s not near.
    static let options = ProximityAlertStrategy.Configuration(
        proximity: .near, cycles: 3, base: .init(maxTimeBeforeReset: .seconds(20)))

    static let scenarios: [Scenario] = [
        // Runs 1, 2, 3 at seconds 0, 1, 2: fires at 2.
        Scenario(name: "fires at the Nth consecutive near cycle", script: [Segment(0...5, .near)], expectedFires: [2]),
        // immediate counts as near-or-closer.
        Scenario(name: "closer bands count", script: [Segment(0...2, .immediate)], expectedFires: [2]),
        // Runs 1, 2, 0 (far), 1, 2, 3: fires at 5.
        Scenario(
            name: "a far cycle breaks the run",
            script: [Segment(0...1, .near), Segment(2...2, .far), Segment(3...6, .near)], expectedFires: [5]),
        // A grace cycle breaks the run the same way.
        Scenario(
            name: "an unseen cycle breaks the run",
            script: [Segment(0...1, .near), Segment(2...2, .grace), Segment(3...6, .near)], expectedFires: [5]),
        // Fired at 2; far 11…15 is only 5 s "unseen" (< 20 s): no second alert.
        Scenario(
            name: "never twice without a reset",
            script: [Segment(0...10, .near), Segment(11...15, .far), Segment(16...20, .near)], expectedFires: [2]),
        // Last near at 5; far from 6: reset at 25 (5 + 20). Near again from 31: run 3 at 33.
        Scenario(
            name: "fires again after maxTimeBeforeReset out of range",
            script: [Segment(0...5, .near), Segment(6...30, .far), Segment(31...35, .near)], expectedFires: [2, 33]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        #expect(fireSeconds(of: ProximityAlertStrategy(Self.options), scenario.script) == scenario.expectedFires)
    }
}
