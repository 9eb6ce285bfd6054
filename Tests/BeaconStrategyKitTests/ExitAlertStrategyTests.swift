import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("ExitAlertStrategy: unseen for a while")
struct ExitAlertStrategyTests {
    /// Gone after 10 s unseen; reset when the condition lapses (default).
    static let options = ExitAlertStrategy.Configuration(away: .seconds(10))

    static let scenarios: [Scenario] = [
        // Last seen 5; at 15 unseen 10 s: departure, once.
        Scenario(
            name: "fires once when unseen for the away time, out of the update",
            script: [Segment(0...5, .near), Segment(6...40, .absent)], expectedFires: [15]),
        // Same while the beacon is still in the update (grace).
        Scenario(
            name: "fires the same during missed-scan grace",
            script: [Segment(0...5, .near), Segment(6...20, .grace)], expectedFires: [15]),
        // Back at 15 after 9 s: no departure.
        Scenario(
            name: "a shorter absence is not a departure",
            script: [Segment(0...5, .near), Segment(6...14, .absent), Segment(15...20, .near)], expectedFires: []),
        // Departs at 15 (last 5), returns 21…25, departs at 35 (last 25).
        Scenario(
            name: "every departure fires",
            script: [
                Segment(0...5, .near), Segment(6...20, .absent), Segment(21...25, .near),
                Segment(26...40, .absent),
            ], expectedFires: [15, 35]),
        // Unseen from 6 to 90: one departure at 15; the base's reset at 65 (5 + 60 s) does not
        // repeat it because the condition is an event, and the beacon is forgotten after 65.
        Scenario(
            name: "a long absence fires once",
            script: [Segment(0...5, .near), Segment(6...90, .absent)], expectedFires: [15]),
        // Never seen (only grace): never departs.
        Scenario(name: "a beacon never seen does not depart", script: [Segment(0...30, .grace)], expectedFires: []),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        #expect(fireSeconds(of: ExitAlertStrategy(Self.options), scenario.script) == scenario.expectedFires)
    }
}
