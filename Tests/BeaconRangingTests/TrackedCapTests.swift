import BeaconCore
import Testing

@testable import BeaconRanging

/// The cap on tracked beacons: a flood of identities cannot grow the loop's memory past it.
@Suite("RangingLoop: the cap on tracked beacons")
struct TrackedCapTests {
    @Test("at the cap a new beacon is refused and counted; the cycle's end evicts the least recently seen; the newcomer gets in")
    func refuseThenMakeRoom() throws {
        var loop = try RangingLoop(configuration: .init(maxTracked: 16))
        // Beacons 0…15 (the cap), beacon 0 seen first.
        for minor in 0..<16 { _ = loop.ingest(Fixture.sighting(0.1 + Double(minor) * 0.01, UInt16(minor))) }
        #expect(loop.trackedCount == 16)
        // A 17th is refused.
        _ = loop.ingest(Fixture.sighting(0.5, 16))
        #expect(loop.refusedBeacons == 1)
        // The cycle ends at the cap: 16 / 16 = 1 beacon, the least recently seen (beacon 0), goes.
        let updates = loop.advance(to: Fixture.time(1.0))
        try #require(updates.count == 1)
        #expect(updates[0].evicted == [Fixture.beacon(0)])
        #expect(!updates[0].beacons.contains { $0.id == Fixture.beacon(0) })
        #expect(updates[0].beacons.count == 15)
        #expect(loop.cappedEvictions == 1)
        // Next cycle the newcomer is tracked.
        _ = loop.ingest(Fixture.sighting(1.2, 16))
        #expect(loop.refusedBeacons == 1)
        #expect(loop.trackedCount == 16)
    }

    @Test("100,000 distinct identities against a cap of 1,000: tracked and reserved memory stay within the cap")
    func flood() throws {
        var loop = try RangingLoop(configuration: .init(maxTracked: 1_000))
        var most = 0
        for n in 0..<100_000 {
            // 10,000 new identities per second, each heard once.
            let seconds = Double(n) / 10_000
            _ = loop.ingest(Fixture.sighting(seconds, UInt16(truncatingIfNeeded: n), address: UInt64(n)).with(major: n >> 16))
            most = max(most, loop.trackedCount)
        }
        _ = loop.advance(to: Fixture.time(11))
        #expect(most <= 1_000 + 2) // the two-deep prefetch pipeline holds at most two more, not yet recorded
        #expect(loop.refusedBeacons > 90_000)
        #expect(loop.cappedEvictions > 0)
        // The documented budget: 512 bytes per tracked beacon (Docs/Ranging.md), here for the cap.
        #expect(loop.reservedHeapBytes <= 1_000 * 512 + 256 * 1024, "\(loop.reservedHeapBytes) bytes")
    }
}
