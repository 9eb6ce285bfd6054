import BeaconCore
import Testing

@testable import BeaconSite

@Suite("The fusion's beacon index")
struct BeaconIndexTests {
    @Test("inserts, updates, lookups and removals agree with a dictionary's")
    func againstDictionary() {
        var random = SplitMix64(seed: 30)
        var index = BeaconIndex()
        var reference: [BeaconID: Int] = [:]
        // A small pool of identities, so that removals hit and runs of collisions form.
        let pool = (0..<3000).map { i in
            switch i % 3 {
            case 0: BeaconID.iBeacon(uuidHigh: 7, uuidLow: 9, major: UInt16(i >> 8), minor: UInt16(i & 0xFF))
            case 1: BeaconID.altBeacon(id1High: 7, id1Low: 9, id2: UInt16(i >> 8), id3: UInt16(i & 0xFF))
            default: BeaconID.eddystoneUID(namespaceHigh: 7, namespaceLow: 9, instance: UInt64(i))
            }
        }
        for step in 0..<200_000 {
            let id = pool[Int(random.next() % UInt64(pool.count))]
            switch random.next() % 5 {
            case 0, 1:
                index[id] = step
                reference[id] = step
            case 2:
                index[id] = nil
                reference[id] = nil
            default:
                #expect(index[id] == reference[id])
            }
            #expect(index.count == reference.count)
        }
        for id in pool { #expect(index[id] == reference[id]) }
    }
}
