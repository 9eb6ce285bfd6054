import BeaconCore
import Testing

@testable import BeaconRanging

/// The cap on beacons new in one cycle (issue 37, item 3): a flood of spoofed identities grows
/// the tables by at most the cap a cycle, keeps the loudest, never touches the beacons already
/// tracked, and gives its memory back once its identities have gone.
@Suite("RangingLoop: the cap on newcomers per cycle")
struct NewcomerCapTests {
    /// Flood identity `n` (major 2 and up: apart from the real beacon, major 1 minor 1).
    static func flooded(_ n: Int, at seconds: Double, rssi: Int8) -> BeaconSighting {
        Fixture.sighting(seconds, UInt16(truncatingIfNeeded: n), rssi: rssi, address: UInt64(n + 100)).with(major: 2 + n >> 16)
    }

    @Test("past the cap a newcomer gets in only louder than the cycle's weakest, which it displaces")
    func strongestKept() throws {
        var loop = try RangingLoop(configuration: .init(maxNewPerCycle: 3))
        for (n, rssi) in [(0, -80), (1, -70), (2, -90)] { _ = loop.ingest(Self.flooded(n, at: 0.1, rssi: Int8(rssi))) }
        #expect(loop.trackedCount == 3)
        _ = loop.ingest(Self.flooded(3, at: 0.2, rssi: -95)) // weaker than all: refused
        #expect(loop.refusedNewcomers == 1 && loop.trackedCount == 3)
        _ = loop.ingest(Self.flooded(4, at: 0.3, rssi: -60)) // louder: displaces the -90 one
        #expect(loop.refusedNewcomers == 2 && loop.trackedCount == 3)
        let update = try #require(loop.advance(to: Fixture.time(1.0)).first)
        let kept = Set(update.beacons.map(\.id))
        #expect(kept == Set([0, 1, 4].map { Self.flooded($0, at: 0, rssi: 0).id }))
        // A new cycle: room again.
        _ = loop.ingest(Self.flooded(5, at: 1.1, rssi: -99))
        #expect(loop.trackedCount == 4 && loop.refusedNewcomers == 2)
    }

    @Test("5,000 new identities a cycle against a cap of 1,000: the real beacon heard every cycle, the memory back after")
    func flood() throws {
        var loop = try RangingLoop(configuration: .init(retention: .seconds(10), maxNewPerCycle: 1000))
        let real = Fixture.beacon(1)
        var realCycles = 0
        var cycles = 0
        var most = 0
        var n = 0
        let baseline = loop.reservedHeapBytes
        for second in 0..<60 {
            // The real beacon, every 100 ms, all along.
            for tenth in 0..<10 {
                let t = Double(second) + Double(tenth) / 10
                for update in loop.ingest(Fixture.sighting(t + 0.001, 1, rssi: -65)) {
                    cycles += 1
                    if update.beacons.contains(where: { $0.id == real }) { realCycles += 1 }
                }
                // From 2 s to 22 s: 500 spoofed identities every 100 ms, each heard once.
                guard (2..<22).contains(second) else { continue }
                for _ in 0..<500 {
                    _ = loop.ingest(Self.flooded(n, at: t + 0.002, rssi: Int8(-40 - n % 50)))
                    n += 1
                }
            }
            most = max(most, loop.trackedCount)
        }
        _ = loop.advance(to: Fixture.time(61))
        #expect(n == 100_000)
        // At most 1,000 newcomers a cycle, held for the 10 s retention (and the cycle they came in).
        #expect(most <= 11 * 1000 + 1, "\(most) tracked at most")
        #expect(most >= 10 * 1000, "the cap lets 1,000 a cycle in: \(most) tracked at most")
        #expect(loop.refusedNewcomers >= 100_000 - 20 * 1000, "\(loop.refusedNewcomers) refused")
        #expect(
            realCycles == cycles, "the real beacon, tracked before the flood, was listed in \(realCycles) of \(cycles) cycles")
        // The flood's identities are gone: the tables shrank and hold the real beacon alone.
        #expect(loop.trackedCount == 1)
        #expect(loop.shrinks >= 1)
        #expect(
            loop.reservedHeapBytes <= max(baseline, 64 * 1024), "\(loop.reservedHeapBytes) bytes reserved (\(baseline) before)")
    }
}
