import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("RSSIThresholdAlertStrategy: filtered RSSI at least X for N cycles")
struct RSSIThresholdAlertStrategyTests {
    /// threshold -70 dBm, 2 consecutive cycles.
    static let options = RSSIThresholdAlertStrategy.Configuration(threshold: -70, cycles: 2)

    static let scenarios: [Scenario] = [
        // -60 ≥ -70 at 0 and 1: fires at 1.
        Scenario(
            name: "fires at the Nth strong cycle", script: [Segment(0...3, .seen(.near, rssi: -60))],
            expectedFires: [1]),
        // Exactly the threshold counts ("at least").
        Scenario(
            name: "the threshold itself counts", script: [Segment(0...1, .seen(.far, rssi: -70))],
            expectedFires: [1]),
        // Runs 1, 0 (-75 < -70), 1, 2: fires at 3.
        Scenario(
            name: "a weak cycle breaks the run",
            script: [
                Segment(0...0, .seen(.near, rssi: -60)), Segment(1...1, .seen(.far, rssi: -75)),
                Segment(2...3, .seen(.near, rssi: -60)),
            ], expectedFires: [3]),
        // A cycle without a filtered RSSI breaks the run: 1, 0, 1, 2 → 3.
        Scenario(
            name: "no filtered RSSI breaks the run",
            script: [
                Segment(0...0, .seen(.near, rssi: -60)), Segment(1...1, .seen(.near, rssi: nil)),
                Segment(2...3, .seen(.near, rssi: -60)),
            ], expectedFires: [3]),
        // Runs 1, 0 (unseen), 1, 2 → 3.
        Scenario(
            name: "an unseen cycle breaks the run",
            script: [
                Segment(0...0, .seen(.near, rssi: -60)), Segment(1...1, .absent),
                Segment(2...3, .seen(.near, rssi: -60)),
            ], expectedFires: [3]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        #expect(fireSeconds(of: RSSIThresholdAlertStrategy(Self.options), scenario.script) == scenario.expectedFires)
    }
}
