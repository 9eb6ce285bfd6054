import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("EnterAlertStrategy: first sighting after an absence")
struct EnterAlertStrategyTests {
    /// An absence of 10 s makes the next sighting an arrival; reset when the condition lapses (default).
    static let options = EnterAlertStrategy.Configuration(absence: .seconds(10))

    static let scenarios: [Scenario] = [
        // Never seen before: the first sighting is an arrival.
        Scenario(name: "the first sighting ever is an arrival", script: [Segment(0...3, .near)], expectedFires: [0]),
        // Last seen 3, seen again at 14: unseen 11 s ≥ 10 s — arrival.
        Scenario(
            name: "a sighting after the absence is an arrival",
            script: [Segment(0...3, .near), Segment(4...13, .absent), Segment(14...15, .near)],
            expectedFires: [0, 14]),
        // Last seen 3, seen at 13: exactly 10 s — arrival ("at least").
        Scenario(
            name: "an absence of exactly the threshold counts",
            script: [Segment(0...3, .near), Segment(4...12, .absent), Segment(13...13, .near)],
            expectedFires: [0, 13]),
        // Last seen 3, seen at 12: 9 s — not an arrival.
        Scenario(
            name: "a shorter absence is not an arrival",
            script: [Segment(0...3, .near), Segment(4...11, .absent), Segment(12...13, .near)],
            expectedFires: [0]),
        // Grace cycles are absence: last seen 3, seen at 15 (12 s).
        Scenario(
            name: "missed-scan grace counts as absence",
            script: [Segment(0...3, .near), Segment(4...14, .grace), Segment(15...15, .near)],
            expectedFires: [0, 15]),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        #expect(fireSeconds(of: EnterAlertStrategy(Self.options), scenario.script) == scenario.expectedFires)
    }

    @Test("without reset on invalid condition, a second arrival within maxTimeBeforeReset is silent")
    func withoutConditionReset() {
        // Arrival at 14 (unseen 11 s) but only 11 s < 60 s unseen: action still done.
        let strategy = EnterAlertStrategy(.init(absence: .seconds(10), base: .init(maxTimeBeforeReset: .seconds(60))))
        let script = [Segment(0...3, .near), Segment(4...13, .absent), Segment(14...15, .near)]
        #expect(fireSeconds(of: strategy, script) == [0])
    }
}
