import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("BeaconIndex")
struct BeaconIndexTests {
    @Test("finds every inserted identity through growth and swap-removals, and nothing else")
    func insertRemoveLookup() {
        var ids: [BeaconID] = []
        var index = BeaconIndex()
        for i in 0..<2_000 {
            let id = Fixture.beacon(UInt16(i % 500), major: UInt16(i / 500))
            ids.append(id)
            ids.withUnsafeBufferPointer { all in index.insert(id, slot: i) { all[$0] } }
        }
        // Remove every third identity the way the loop evicts: swap the last into the hole.
        var removed: [BeaconID] = []
        var slot = 0
        while slot < ids.count {
            if ids[slot].minor % 3 == 0 {
                let id = ids[slot]
                removed.append(id)
                ids.withUnsafeBufferPointer { all in index.remove(id, slot: slot) { all[$0] } }
                let last = ids.count - 1
                if slot != last {
                    index.move(ids[last], from: last, to: slot)
                    ids.swapAt(slot, last)
                }
                ids.removeLast()
            } else {
                slot += 1
            }
        }
        #expect(index.count == ids.count)
        for (i, id) in ids.enumerated() {
            #expect(ids.withUnsafeBufferPointer { all in index.slot(of: id) { all[$0] } } == i)
        }
        for id in removed {
            #expect(ids.withUnsafeBufferPointer { all in index.slot(of: id) { all[$0] } } == nil)
        }
    }
}
