import BeaconCore
import BeaconStrategies
import BeaconStrategyKit
import BeaconStrategyTestSupport
import Testing

@Suite("AlertTrigger: what one ranging update yields")
struct AlertTriggerTests {
    @Test("evaluating a RangingUpdate yields one trigger per firing beacon, in update order, then absent ones")
    func fromRangingUpdate() {
        // enter fires at the first sighting; exit (2 s) for beacon 3, last seen at 0, fires at 2
        // from the end-of-cycle pass because beacon 3 is no longer in the update.
        let enter = EnterAlertStrategy(.init(absence: .seconds(10)))
        let exit = ExitAlertStrategy(.init(away: .seconds(2)))
        let first = [1, 2, 3].map { RangedBeacon.scripted(.near, id: .numbered($0), now: .at(0))! }
        var triggers: [AlertTrigger] = []
        enter.evaluate(RangingUpdate(cycleStart: .at(-1), time: .at(0), beacons: first), into: &triggers)
        exit.evaluate(RangingUpdate(cycleStart: .at(-1), time: .at(0), beacons: first), into: &triggers)
        #expect(triggers == [1, 2, 3].map { AlertTrigger(beacon: .numbered($0), strategy: "enter", time: .at(0)) })

        triggers.removeAll()
        let later = [2, 1].map { RangedBeacon.scripted(.near, id: .numbered($0), now: .at(2))! }
        exit.evaluate(RangingUpdate(cycleStart: .at(1), time: .at(2), beacons: later), into: &triggers)
        #expect(triggers == [AlertTrigger(beacon: .numbered(3), strategy: "exit", time: .at(2))])
    }
}
