import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("CompositeAlertStrategy: all-of and any-of")
struct CompositeAlertStrategyTests {
    @Test("all-of fires when every child's condition holds at the same cycle")
    func allOf() {
        // proximity (near, 1 cycle) holds at every near/immediate cycle; rssi (≥ -50 dBm, 1 cycle)
        // holds only at immediate cycles (-45 dBm). Both first hold at 4.
        let strategy = CompositeAlertStrategy(
            .allOf,
            of: [
                ProximityAlertStrategy(.init(proximity: .near, cycles: 1)),
                RSSIThresholdAlertStrategy(.init(threshold: -50, cycles: 1)),
            ])
        #expect(strategy.key == "all-of")
        #expect(fireSeconds(of: strategy, [Segment(0...3, .near), Segment(4...6, .immediate)]) == [4])
    }

    @Test("any-of fires when one child's condition holds")
    func anyOf() {
        // enter holds at 0 (first sighting); the composite fires then, and not again at 5 when
        // proximity(immediate) holds, because its own action is done.
        let strategy = CompositeAlertStrategy(
            .anyOf,
            of: [
                ProximityAlertStrategy(.init(proximity: .immediate, cycles: 1)),
                EnterAlertStrategy(.init(absence: .seconds(10))),
            ])
        #expect(strategy.key == "any-of")
        #expect(fireSeconds(of: strategy, [Segment(0...4, .near), Segment(5...6, .immediate)]) == [0])
    }

    @Test("children see absent beacons before the composite decides")
    func absentChildren() {
        // exit (5 s) for a beacon last seen at 2 holds at 7, when the beacon is out of the update.
        let strategy = CompositeAlertStrategy(.anyOf, of: [ExitAlertStrategy(.init(away: .seconds(5)))])
        #expect(fireSeconds(of: strategy, [Segment(0...2, .near), Segment(3...10, .absent)]) == [7])
    }

    @Test("all-of with one child failing never fires")
    func allOfNever() {
        let strategy = CompositeAlertStrategy(
            .allOf,
            of: [
                ProximityAlertStrategy(.init(proximity: .near, cycles: 1)),
                RSSIThresholdAlertStrategy(.init(threshold: -50, cycles: 1)),
            ])
        #expect(fireSeconds(of: strategy, [Segment(0...10, .near)]) == [])
    }
}
