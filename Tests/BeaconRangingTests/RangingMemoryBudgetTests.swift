import BeaconCore
import Testing

@testable import BeaconRanging

/// The memory a tracked beacon costs (issue 30): the budget is 512 bytes per beacon at 100,000
/// tracked beacons, counted from the loop's buffers (``RangingLoop/reservedHeapBytes``). These
/// are sizes, not timings: they fail when a field added to a record or a change in how the
/// tables grow takes the loop over its budget, on any machine.
@Suite("RangingLoop: memory per tracked beacon")
struct RangingMemoryBudgetTests {
    static let budget = 512

    @Test("100,000 beacons, each heard in one cycle and listed at its end, reserve at most 512 bytes each")
    func hundredThousand() throws {
        let n = 100_000
        // All of them new in one cycle: past the default cap on newcomers, on purpose.
        var loop = try RangingLoop(configuration: .init(maxNewPerCycle: n))
        var listed = 0
        for i in 0..<n {
            let sighting = Fixture.sighting(Double(i) / Double(n), UInt16(truncatingIfNeeded: i), address: UInt64(i))
            loop.ingest(sighting.with(major: i >> 16)) { listed += $0.beacons.count }
        }
        loop.advance(to: Fixture.time(1.0)) { listed += $0.beacons.count }
        try #require(loop.trackedCount == n && listed == n)
        let perBeacon = loop.reservedHeapBytes / n
        #expect(perBeacon <= Self.budget, "\(perBeacon) bytes reserved per tracked beacon")
    }

    @Test("the per-beacon records keep their sizes: 64 + 152 bytes of tracked state, 232 of ranged output")
    func recordSizes() {
        #expect(RangingLoop.hotStateStride == 64)
        #expect(RangingLoop.trackedBeaconStride <= 216)
        #expect(MemoryLayout<RangedBeacon>.stride <= 232)
    }

    @Test("the tables grow by an eighth, so a large table reserves at most 12.5 % more than it holds")
    func growthStep() {
        #expect(HotStateTable.grown(0) == 16)
        #expect(HotStateTable.grown(16) == 18)
        #expect(HotStateTable.grown(100_000) == 112_500)
        var table = HotStateTable()
        for i in 0..<10_000 {
            table.append(
                HotBeaconState(
                    id: Fixture.beacon(UInt16(truncatingIfNeeded: i)), time: Fixture.time(0),
                    address: BluetoothAddress(rawValue: 1), inRegions: false, confirmed: true))
            #expect(table.capacity * 8 <= table.count * 9 + 16 * 8)
        }
    }
}
