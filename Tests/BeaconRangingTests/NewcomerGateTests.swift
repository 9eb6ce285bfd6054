import BeaconCore
import Testing

@testable import BeaconRanging

/// The cap on a cycle's new beacons as a table: which admitted newcomer a louder one displaces.
/// (`NewcomerCapTests` drive the same rule through the ranging loop.)
@Suite("NewcomerGate")
struct NewcomerGateTests {
    /// A gate of capacity 4 holding newcomers heard at `rssis`, minors 0, 1, 2…
    static func gate(_ rssis: [Int8]) -> NewcomerGate {
        var gate = NewcomerGate(capacity: 4)
        for (n, rssi) in rssis.enumerated() { gate.admit(Fixture.beacon(UInt16(n)), rssi: rssi) }
        return gate
    }

    @Test(
        "the newcomer displaced is the quietest quieter than the arrival, the first of equals in the gate",
        arguments: [
            // (admitted, arrival's RSSI, position displaced)
            ([-80, -70, -90, -90], -60, 2),
            ([-80, -70, -90, -90], -85, 2),
            ([-80, -70, -90, -90], -75, 2),
            ([-80, -70, -90, -90], -90, nil),
            ([-80, -70, -90, -90], -95, nil),
            ([-50, -128, -60, -70], -127, 1),
            ([-70, -70, -70, -70], -69, 0),
        ] as [([Int8], Int8, Int?)])
    func weakest(admitted: [Int8], arrival: Int8, displaced: Int?) {
        #expect(Self.gate(admitted).weakest(quieterThan: arrival) == displaced)
    }

    @Test("the gate is full at its capacity; a displaced newcomer's place goes to the last one; a new cycle empties it")
    func fullRemoveAndCycle() {
        var gate = Self.gate([-80, -70, -90])
        #expect(!gate.isFull)
        gate.admit(Fixture.beacon(3), rssi: -85)
        #expect(gate.isFull)
        gate.remove(at: 0)
        #expect(!gate.isFull)
        #expect(gate.newcomers.map(\.id) == [3, 1, 2].map { Fixture.beacon($0) })
        #expect(gate[0] == NewcomerGate.Newcomer(id: Fixture.beacon(3), rssi: -85))
        let capacity = gate.newcomers.capacity
        gate.startCycle()
        #expect(gate.newcomers.isEmpty && gate.newcomers.capacity == capacity && gate.weakest(quieterThan: 0) == nil)
        gate.releaseMemory()
        #expect(gate.newcomers.capacity == 0)
        // After a displacement the gate's order is not the admission order: of two equals, the
        // one moved into the freed place comes first.
        var reordered = Self.gate([-90, -80, -70, -80])
        reordered.remove(at: 0)
        #expect(reordered.weakest(quieterThan: -75) == 0 && reordered[0].id == Fixture.beacon(3))
    }
}
