import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("RangingConfiguration")
struct RangingConfigurationTests {
    @Test("documented defaults")
    func defaults() {
        let c = RangingConfiguration()
        #expect(c.cycleLength == .seconds(1))
        #expect(c.missedScanGrace == .seconds(3))
        #expect(c.retention == .seconds(30))
        #expect(c.filter == .arma(.init(speed: 0.1)))
        #expect(c.spikeClamp == nil)
        #expect(c.defaultMeasuredPower == -59)
        #expect(c.defaultExitTimeout == .seconds(10))
        #expect(c.proximity == ProximityBands(immediateBelow: 0.5, nearBelow: 3, enterMargin: 0.1, leaveMargin: 0.1))
        if case .logDistance(let model) = c.distanceModel {
            #expect(model.exponent == 1.5)
        } else {
            Issue.record("not log-distance")
        }
    }

    @Test(
        "invalid values are typed errors",
        arguments: [
            (RangingConfiguration(cycleLength: .zero), RangingConfigurationError.nonPositiveCycle(.zero)),
            (
                RangingConfiguration(missedScanGrace: .seconds(5), retention: .seconds(2)),
                .retentionShorterThanGrace(grace: .seconds(5), retention: .seconds(2))
            ),
            (
                RangingConfiguration(regions: [BeaconRegion(id: "a", match: .any), BeaconRegion(id: "a", match: .any)]),
                .duplicateRegion("a")
            ),
            (RangingConfiguration(regions: (0...64).map { BeaconRegion(id: "r\($0)", match: .any) }), .tooManyRegions(65)),
            (RangingConfiguration(filter: .arma(.init(speed: 0))), .invalidFilter("ARMA speed 0.0 must be in (0, 1]")),
        ])
    func invalid(configuration: RangingConfiguration, expected: RangingConfigurationError) {
        #expect(throws: expected) { try RangingLoop(configuration: configuration) }
    }

    @Test("the spike clamp from configuration limits each RSSI step")
    func spikeClampInLoop() throws {
        var loop = try RangingLoop(configuration: .init(filter: .arma(.init(speed: 1)), spikeClamp: 4))
        _ = loop.ingest(Fixture.sighting(0.1, rssi: -60))
        _ = loop.ingest(Fixture.sighting(0.2, rssi: -90))
        let beacon = try #require(loop.advance(to: Fixture.time(1)).first?.beacons.first)
        #expect(beacon.filteredRSSI == -64) // −60 then −90 clamped to −64; raw figures stay raw
        #expect(beacon.lastRSSI == -90)
        #expect(beacon.meanRSSI == -75)
    }

    @Test("many beacons evicted at different times leave the others tracked and findable")
    func staggeredEviction() throws {
        var loop = try RangingLoop(configuration: .init(missedScanGrace: .seconds(1), retention: .seconds(2)))
        // Every beacon is seen at 0.5 s; even ones again at 1.5 s and 3.5 s.
        var evicted: [BeaconID] = []
        for m in 0..<200 { _ = loop.ingest(Fixture.sighting(0.5, UInt16(m))) }
        for t in [1.5, 3.5] {
            for m in stride(from: 0, to: 200, by: 2) {
                for update in loop.ingest(Fixture.sighting(t, UInt16(m))) { evicted += update.evicted }
            }
        }
        // At the 3 s boundary odd beacons are unseen for 2.5 s ≥ 2 s retention (evicted), even
        // ones for 1.5 s (kept, but past the 1 s grace).
        #expect(evicted.count == 100 && evicted.allSatisfy { $0.minor % 2 == 1 })
        let update = try #require(loop.advance(to: Fixture.time(4)).last)
        #expect(update.beacons.map(\.id.minor).sorted() == stride(from: 0, to: 200, by: 2).map(UInt16.init))
        #expect(update.beacons.allSatisfy { $0.firstSeen == Fixture.time(0.5) && $0.sampleCount == 1 })
    }
}
