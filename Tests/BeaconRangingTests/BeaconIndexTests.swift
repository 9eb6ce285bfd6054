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

    @Test("random inserts and swap-removals of every identity kind agree with a dictionary's")
    func againstDictionary() {
        var random = SplitMix64(seed: 30)
        var index = BeaconIndex()
        var held: [BeaconID] = [] // the caller's array: slot → identity
        var reference: [BeaconID: Int] = [:]
        // A small pool of identities, so that removals hit and runs of collisions form.
        let pool = (0..<3000).map { i in
            switch i % 3 {
            case 0: BeaconID.iBeacon(uuidHigh: 7, uuidLow: 9, major: UInt16(i >> 8), minor: UInt16(i & 0xFF))
            case 1: BeaconID.altBeacon(id1High: 7, id1Low: 9, id2: UInt16(i >> 8), id3: UInt16(i & 0xFF))
            default: BeaconID.eddystoneUID(namespaceHigh: 7, namespaceLow: 9, instance: UInt64(i))
            }
        }
        for _ in 0..<200_000 {
            let id = pool[Int(random.next() % UInt64(pool.count))]
            let found = held.withUnsafeBufferPointer { all in index.slot(of: id) { all[$0] } }
            #expect(found == reference[id])
            switch (random.next() % 3, found) {
            case (0, nil), (1, nil):
                reference[id] = held.count
                held.withUnsafeBufferPointer { all in index.insert(id, slot: held.count) { all[$0] } }
                held.append(id)
            case (2, let slot?):
                held.withUnsafeBufferPointer { all in index.remove(id, slot: slot) { all[$0] } }
                reference[id] = nil
                let last = held.count - 1
                if slot != last {
                    index.move(held[last], from: last, to: slot)
                    reference[held[last]] = slot
                    held.swapAt(slot, last)
                }
                held.removeLast()
            default: break
            }
            #expect(index.count == reference.count)
        }
        for id in pool {
            #expect(held.withUnsafeBufferPointer { all in index.slot(of: id) { all[$0] } } == reference[id])
        }
    }
}
