import BeaconCore
import Testing

@testable import BeaconRanging

/// A tracked beacon's cold state alone: the count towards its enter confirmation.
/// (`EnterConfirmationTests` drive the same rule through the ranging loop.)
@Suite("ColdBeaconState")
struct ColdBeaconStateTests {
    @Test(
        "sightings count towards the confirmation within the window of the first counted",
        arguments: [
            // (sighting times in s, needed, window in s, which sightings confirm)
            ([0.0, 0.5, 1.0], 3, 2.0, [false, false, true]),
            ([0.0, 0.5, 2.5, 3.0, 3.5], 3, 2.0, [false, false, false, false, true]),
            ([0.0, 2.0, 4.0], 2, 2.0, [false, true, false]),
            ([0.0, 0.1, 0.2, 0.3], 2, 2.0, [false, true, false, true]),
            ([0.0, 5.0], 1, 2.0, [true, true]),
        ] as [([Double], Int, Double, [Bool])])
    func confirmation(times: [Double], needed: Int, window: Double, confirms: [Bool]) {
        var state = ColdBeaconState(
            id: Fixture.beacon(1), time: Fixture.time(0), address: BluetoothAddress(rawValue: 1), regionMask: 0)
        let outcomes = times.map {
            state.countTowardsConfirmation(
                at: Fixture.time($0).nanosecondsSinceEpoch, window: Int64(window * 1e9), needed: needed)
        }
        #expect(outcomes == confirms)
    }
}
