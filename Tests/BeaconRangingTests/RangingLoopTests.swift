import BeaconCore
import Testing

@testable import BeaconRanging

@Suite("RangingLoop")
struct RangingLoopTests {
    @Test("ingest closes every cycle crossed, empty ones included, at the right times")
    func cycleEmissionAcrossGap() throws {
        var loop = try RangingLoop(configuration: .init(missedScanGrace: .seconds(3), retention: .seconds(30)))
        #expect(loop.ingest(Fixture.sighting(0.2)).isEmpty)
        #expect(loop.ingest(Fixture.sighting(0.7)).isEmpty)
        let first = loop.ingest(Fixture.sighting(1.1))
        try #require(first.count == 1)
        #expect(Fixture.seconds(first[0].cycleStart) == 0)
        #expect(Fixture.seconds(first[0].time) == 1)
        #expect(first[0].beacons.map(\.sampleCount) == [2])

        // A gap: the sighting at 5.3 s closes the cycles ending at 2, 3, 4 and 5 s.
        let gap = loop.ingest(Fixture.sighting(5.3))
        #expect(gap.map { Fixture.seconds($0.time) } == [2, 3, 4, 5])
        // Seen in [1, 2); then unseen for 1.9 s and 2.9 s (< 3 s grace); then 3.9 s: not listed.
        #expect(gap.map { $0.beacons.map(\.seenThisCycle) } == [[true], [false], [false], []])
        #expect(gap.allSatisfy { $0.evicted.isEmpty })
    }

    @Test("advance(to:) emits only cycles whose end has been reached")
    func advanceEmitsCompletedCycles() throws {
        var loop = try RangingLoop()
        _ = loop.ingest(Fixture.sighting(0.5))
        #expect(loop.advance(to: Fixture.time(0.999)).isEmpty)
        let updates = loop.advance(to: Fixture.time(3.0))
        #expect(updates.map { Fixture.seconds($0.time) } == [1, 2, 3])
        #expect(loop.advance(to: Fixture.time(3.5)).isEmpty)
    }

    @Test("grace then eviction after the retention period, listed once")
    func graceAndEviction() throws {
        var loop = try RangingLoop(configuration: .init(missedScanGrace: .seconds(2), retention: .seconds(5)))
        _ = loop.ingest(Fixture.sighting(0.5))
        let updates = loop.advance(to: Fixture.time(10))
        // Unseen at the end of each cycle: 0.5 (seen), 1.5, 2.5, 3.5, 4.5, 5.5 (≥ 5: evicted);
        // nothing tracked afterwards, so no further updates.
        #expect(updates.map { Fixture.seconds($0.time) } == [1, 2, 3, 4, 5, 6])
        #expect(updates.map(\.beacons.count) == [1, 1, 0, 0, 0, 0])
        #expect(updates.map(\.evicted) == [[], [], [], [], [], [Fixture.beacon(1)]])
        #expect(loop.trackedCount == 0)
    }

    @Test("a returning beacon within retention keeps its first-seen time")
    func returnWithinRetention() throws {
        var loop = try RangingLoop(configuration: .init(missedScanGrace: .seconds(1), retention: .seconds(10)))
        _ = loop.ingest(Fixture.sighting(0.5))
        _ = loop.ingest(Fixture.sighting(4.5))
        let update = try #require(loop.advance(to: Fixture.time(5)).last)
        #expect(update.beacons.map { Fixture.seconds($0.firstSeen) } == [0.5])
        #expect(update.beacons.map { Fixture.seconds($0.lastSeen) } == [4.5])
    }

    @Test("sightings older than the current cycle are counted and dropped; older ones within it are kept")
    func outOfOrderSightings() throws {
        var loop = try RangingLoop()
        _ = loop.ingest(Fixture.sighting(2.5, rssi: -60))
        _ = loop.ingest(Fixture.sighting(1.5, rssi: -90)) // before the cycle [2, 3): late
        _ = loop.ingest(Fixture.sighting(2.1, rssi: -70)) // out of order but inside the cycle
        #expect(loop.lateSightings == 1)
        let update = try #require(loop.advance(to: Fixture.time(3)).first)
        let beacon = try #require(update.beacons.first)
        #expect(beacon.sampleCount == 2)
        #expect(beacon.meanRSSI == -65)
        #expect(beacon.lastRSSI == -70)
        #expect(Fixture.seconds(beacon.lastSeen) == 2.5)
    }

    @Test("one identity from many addresses: one beacon, the last 8 distinct addresses counted")
    func rotatingAddresses() throws {
        var loop = try RangingLoop()
        for i in 0..<10 { _ = loop.ingest(Fixture.sighting(0.1 + 0.01 * Double(i), address: 0xC0_0000_0000 + UInt64(i))) }
        _ = loop.ingest(Fixture.sighting(0.5, address: 0xC0_0000_0009)) // already known
        let beacon = try #require(loop.advance(to: Fixture.time(1)).first?.beacons.first)
        #expect(loop.trackedCount == 1)
        #expect(beacon.addressCount == 8)
        #expect(beacon.lastAddress == BluetoothAddress(rawValue: 0xC0_0000_0009))
        #expect(beacon.sampleCount == 11)
    }

    @Test("every tracked beacon is listed once; RSSI-less sightings give unknown proximity")
    func orderingAndMissingRSSI() throws {
        var loop = try RangingLoop()
        _ = loop.ingest(Fixture.sighting(0.1, 7))
        _ = loop.ingest(Fixture.sighting(0.2, 3, rssi: nil))
        _ = loop.ingest(Fixture.sighting(0.3, 5))
        let update = try #require(loop.advance(to: Fixture.time(1)).first)
        #expect(update.beacons.map(\.id.minor).sorted() == [3, 5, 7])
        let silent = try #require(update.beacons.first { $0.id.minor == 3 })
        #expect(silent.filteredRSSI == nil && silent.distance == nil && silent.proximity == .unknown)
        #expect(silent.sampleCount == 1 && silent.meanRSSI == nil)
    }

    @Test("distance uses the calibration override, then the frame's power, then the default")
    func measuredPowerPrecedence() throws {
        let overridden = Fixture.beacon(2)
        let config = RangingConfiguration(
            distanceModel: .logDistance(.init(exponent: 2)), defaultMeasuredPower: -65,
            calibrations: [overridden: .init(measuredPower: -50, pathLossExponent: 4)])
        var loop = try RangingLoop(configuration: config)
        _ = loop.ingest(Fixture.sighting(0.1, 1, rssi: -79, power: -59))
        _ = loop.ingest(Fixture.sighting(0.2, 2, rssi: -70, power: -59))
        _ = loop.ingest(Fixture.sighting(0.3, 3, rssi: -65, power: nil))
        let beacons = try #require(loop.advance(to: Fixture.time(1)).first).beacons
        // 1: 10^((−59+79)/20) = 10 m; 2: 10^((−50+70)/40) = √10 m; 3: 10^0 = 1 m.
        #expect(beacons.map(\.measuredPower) == [-59, -50, -65])
        #expect(abs(try #require(beacons[0].distance) - 10) < 1e-9)
        #expect(abs(try #require(beacons[1].distance) - 3.1622776601683795) < 1e-9)
        #expect(abs(try #require(beacons[2].distance) - 1) < 1e-9)
        #expect(beacons.map(\.proximity) == [.far, .far, .near])
    }

    @Test("accuracy is the distance spread of one RSSI standard deviation (2 dB before any innovation)")
    func accuracyFromPrior() throws {
        var loop = try RangingLoop(configuration: .init(distanceModel: .logDistance(.init(exponent: 2))))
        _ = loop.ingest(Fixture.sighting(0.1, rssi: -59, power: -59))
        let beacon = try #require(loop.advance(to: Fixture.time(1)).first?.beacons.first)
        // d(−59) = 1 m; d(−61) = 10^(2/20) = 1.258925… m.
        #expect(abs(try #require(beacon.accuracy) - 0.2589254117941673) < 1e-9)
    }
}

@Suite("RangingLoop batches")
struct RangingLoopBatchTests {
    /// A stream with new beacons, repeats, a late sighting, a gap with evictions and re-tracking.
    static var stream: [BeaconSighting] {
        var out: [BeaconSighting] = []
        for i in 0..<60 { out.append(Fixture.sighting(0.01 * Double(i), UInt16(i % 23), rssi: Int8(-50 - i % 17))) }
        out.append(Fixture.sighting(0.2, 3)) // out of order, but inside the current cycle
        for i in 0..<40 { out.append(Fixture.sighting(1.0 + 0.02 * Double(i), UInt16(i % 7), rssi: Int8(-60 - i % 5))) }
        out.append(Fixture.sighting(0.5, 4)) // late: older than the cycle [1, 2)
        for i in 0..<40 { out.append(Fixture.sighting(45 + 0.03 * Double(i), UInt16(i % 31), rssi: Int8(-70 + i % 9))) }
        return out
    }

    static func summary(_ updates: [RangingUpdate]) -> [String] {
        updates.map { u in
            "\(u.time) " + u.beacons.map { "\($0.id.minor):\($0.sampleCount):\($0.filteredRSSI ?? 0)" }.joined(separator: ",")
                + " evicted " + u.evicted.map { "\($0.minor)" }.joined(separator: ",")
        }
    }

    @Test("a batch gives exactly the updates of one-by-one ingestion")
    func batchEqualsSingles() throws {
        let stream = Self.stream
        var single = try RangingLoop()
        var one: [RangingUpdate] = []
        for s in stream { single.ingest(s) { one.append($0) } }
        one += single.advance(to: Fixture.time(50))
        var batched = try RangingLoop()
        var many: [RangingUpdate] = []
        stream.withUnsafeBufferPointer { batched.ingest(contentsOf: $0) { many.append($0) } }
        many += batched.advance(to: Fixture.time(50))
        #expect(Self.summary(many) == Self.summary(one))
        #expect(batched.lateSightings == single.lateSightings)
        #expect(batched.lateSightings == 1)
        #expect(!one.isEmpty && one.contains { !$0.evicted.isEmpty })
    }
}
