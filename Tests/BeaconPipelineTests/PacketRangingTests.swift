import BeaconCore
import BeaconPipeline
import BeaconStrategies
import Testing

private typealias F = PipelineFixtures

/// One gateway's front end on its own, without strategies or engine: what a site run's gateways
/// use to report to their hub.
@Suite("PacketRanging")
struct PacketRangingTests {
    static let batch = [(0.2, 1), (0.4, 2), (1.2, 1), (1.4, 2), (2.1, 1)] as [(seconds: Double, minor: UInt16)]

    /// Each update's end and its beacons' minors, in order.
    typealias Cycle = (time: Timestamp, minors: Set<UInt16>)

    @Test("alone, it closes one cycle per boundary the packets pass, with the beacons heard, and counts what it decoded")
    func alone() throws {
        let ranging = try PacketRanging()
        var cycles: [Cycle] = []
        let newest = ranging.ingest(F.batch(Self.batch)) { cycles.append(($0.time, Set($0.beacons.map(\.id.minor)))) }
        #expect(newest == F.t0 + .milliseconds(2100))
        #expect(cycles.map(\.time) == [F.t0 + .seconds(1), F.t0 + .seconds(2)])
        #expect(cycles.map(\.minors) == [[1, 2], [1, 2]])
        ranging.advance(to: F.t0 + .milliseconds(3500)) { cycles.append(($0.time, Set($0.beacons.map(\.id.minor)))) }
        #expect(cycles.map(\.time).last == F.t0 + .seconds(3))
        #expect(ranging.cycleClock == F.t0 + .seconds(3))
        #expect(ranging.trackedCount == 2)
        var statistics = PipelineStatistics()
        ranging.contribute(to: &statistics)
        #expect(statistics.packets == 5)
        #expect(statistics.advertisements == 5)
        #expect(statistics.sightings == 5)
        #expect(statistics.malformed == 0)
        #expect(statistics.cycles == 0) // the decision stage counts cycles, not the front end
    }

    @Test("it hands on exactly the updates a gateway's pipeline shows its cycle observer")
    func sameAsPipeline() throws {
        let ranging = try PacketRanging()
        var alone: [Timestamp] = []
        ranging.ingest(F.batch(Self.batch)) { alone.append($0.time) }
        ranging.advance(to: F.t0 + .seconds(9)) { alone.append($0.time) }

        let pipeline = try AlertPipeline(alerts: [F.enterAlert()], registry: .builtIn())
        var observed: [Timestamp] = []
        pipeline.cycleObserver = { observed.append($0.time) }
        try pipeline.ingest(F.batch(Self.batch)) { _ in }
        try pipeline.advance(to: F.t0 + .seconds(9)) { _ in }
        #expect(alone == observed)
        #expect(alone.count >= 3)
    }

    @Test("one sighting at a time, it closes the cycles that ended before each")
    func sightings() throws {
        let ranging = try PacketRanging()
        var times: [Timestamp] = []
        for second in [0.5, 1.5, 3.5] {
            let sighting = BeaconSighting(
                timestamp: F.t0 + .milliseconds(Int64(second * 1000)),
                id: .iBeacon(uuid: F.uuid, major: 1, minor: 7), address: BluetoothAddress(rawValue: 0xA1),
                rssi: -60, measuredPower: -59)
            ranging.ingest(sighting) { times.append($0.time) }
        }
        #expect(times == [F.t0 + .seconds(1), F.t0 + .seconds(2), F.t0 + .seconds(3)])
        var statistics = PipelineStatistics()
        ranging.contribute(to: &statistics)
        #expect(statistics.packets == 0) // sightings are not packets
    }
}
