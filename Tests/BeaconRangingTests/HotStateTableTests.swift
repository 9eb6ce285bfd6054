import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("HotStateTable")
struct HotStateTableTests {
    static func record(_ i: Int) -> HotBeaconState {
        HotBeaconState(
            id: Fixture.beacon(UInt16(i)), time: Fixture.time(Double(i)),
            address: BluetoothAddress(rawValue: UInt64(i)), inRegions: false)
    }

    @Test("records are cache-line aligned and keep their values through growth, swaps and removals")
    func alignmentAndGrowth() {
        var table = HotStateTable()
        for i in 0..<1_000 { table.append(Self.record(i)) }
        #expect(table.count == 1_000 && table.capacity >= 1_000)
        table.withUnsafeBufferPointer { #expect(UInt(bitPattern: $0.baseAddress) % 64 == 0) }
        table.swapAt(3, 999)
        table.removeLast()
        #expect(table.count == 999)
        #expect(table[3].matches(Fixture.beacon(999)))
        #expect((0..<999).allSatisfy { $0 == 3 || table[$0].matches(Fixture.beacon(UInt16($0))) })
    }

    @Test("a copy is independent of the original (copy on write)")
    func valueSemantics() {
        var original = HotStateTable()
        for i in 0..<10 { original.append(Self.record(i)) }
        var copy = original
        copy[2].cycleSamples = 7
        copy.append(Self.record(10))
        copy.swapAt(0, 1)
        #expect(original.count == 10 && copy.count == 11)
        #expect(original[2].cycleSamples == 0 && copy[2].cycleSamples == 7)
        #expect(original[0].matches(Fixture.beacon(0)) && copy[0].matches(Fixture.beacon(1)))
        original.removeLast()
        #expect(copy.count == 11 && copy[9].matches(Fixture.beacon(9)))
    }

    @Test("a copied loop ranges independently of the original")
    func loopCopies() throws {
        var a = try RangingLoop()
        _ = a.ingest(Fixture.sighting(0.1, 1, rssi: -60))
        var b = a
        _ = b.ingest(Fixture.sighting(0.2, 1, rssi: -80))
        _ = b.ingest(Fixture.sighting(0.3, 2, rssi: -80))
        let fromA = try #require(a.advance(to: Fixture.time(1)).first)
        let fromB = try #require(b.advance(to: Fixture.time(1)).first)
        #expect(fromA.beacons.map(\.sampleCount) == [1])
        #expect(fromA.beacons.first?.filteredRSSI == -60)
        #expect(fromB.beacons.map(\.sampleCount) == [2, 1])
        #expect(a.trackedCount == 1 && b.trackedCount == 2)
    }
}
