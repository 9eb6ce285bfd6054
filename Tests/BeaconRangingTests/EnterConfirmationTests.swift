import BeaconCore
import Testing

@testable import BeaconRanging

/// Enter-side hysteresis (issue 26): a single stray packet made a beacon appear, enter its
/// regions and fire `enter`. With `ranging.enter` it must be heard enough, loud enough, first.
@Suite("Enter confirmation")
struct EnterConfirmationTests {
    typealias F = Fixture
    static let lobby = BeaconRegion(id: "lobby", match: .any)

    /// Runs `sightings` and closes the cycles up to `end`; returns per cycle end (seconds) the
    /// beacons listed (minors) and the region events.
    static func run(
        _ enter: EnterConfirmation, _ sightings: [BeaconSighting], until end: Double
    ) throws -> [(Double, [UInt16], [String])] {
        var loop = try RangingLoop(configuration: RangingConfiguration(regions: [lobby], enter: enter))
        var cycles: [(Double, [UInt16], [String])] = []
        let record = { (update: RangingUpdate) in
            cycles.append(
                (
                    F.seconds(update.time), update.beacons.map(\.id.minor).sorted(),
                    update.regionEvents.map { "\($0.kind) \($0.beacon.minor)" }
                ))
        }
        for sighting in sightings { loop.ingest(sighting, onUpdate: record) }
        loop.advance(to: F.time(end), onUpdate: record)
        return cycles
    }

    /// Beacon 1 is heard every 200 ms from 0.1 s; beacon 2 once, at 0.5 s (the stray packet).
    static let steadyAndStray: [BeaconSighting] =
        (0..<20).map { F.sighting(0.1 + Double($0) * 0.2, 1, rssi: -70) }.sorted { $0.timestamp < $1.timestamp }

    static var withStray: [BeaconSighting] {
        (steadyAndStray + [F.sighting(0.5, 2, rssi: -92)]).sorted { $0.timestamp < $1.timestamp }
    }

    @Test("by default a single packet is an arrival: listed and entered (the old behaviour)")
    func defaultConfirmsAtOnce() throws {
        let cycles = try Self.run(EnterConfirmation(), Self.withStray, until: 4)
        #expect(cycles.first?.1 == [1, 2])
        #expect(cycles.first?.2.sorted() == ["enter 1", "enter 2"])
    }

    @Test("three sightings within 2 s: the stray packet is never listed nor entered; the steady beacon is, at its third")
    func strayPacketIsNoArrival() throws {
        let cycles = try Self.run(EnterConfirmation(minimumSightings: 3, window: .seconds(2)), Self.withStray, until: 6)
        #expect(cycles.allSatisfy { !$0.1.contains(2) })
        #expect(!cycles.contains { $0.2.contains("enter 2") })
        let entered = try #require(cycles.first { $0.2.contains("enter 1") })
        #expect(entered.0 == 1, "the third sighting (0.5 s) falls in the first cycle")
        #expect(cycles.first?.1 == [1])
    }

    @Test("sightings below minRSSI do not count; louder ones do")
    func minimumRSSI() throws {
        let quiet = (0..<10).map { F.sighting(0.1 + Double($0) * 0.2, 3, rssi: -95) }
        let loud = (0..<10).map { F.sighting(2.1 + Double($0) * 0.2, 3, rssi: -80) }
        let cycles = try Self.run(
            EnterConfirmation(minimumSightings: 2, window: .seconds(5), minimumRSSI: -90), quiet + loud, until: 5)
        let first = try #require(cycles.first { !$0.1.isEmpty })
        #expect(first.0 == 3, "listed from the cycle of its second loud sighting (2.3 s)")
        #expect(first.2 == ["enter 3"])
    }

    @Test("sightings spread wider than the window start the count again")
    func windowRestarts() throws {
        // One sighting every 3 s with a 2 s window: never two within it.
        let sparse = (0..<5).map { F.sighting(0.5 + Double($0) * 3, 4) }
        let cycles = try Self.run(EnterConfirmation(minimumSightings: 2, window: .seconds(2)), sparse, until: 16)
        #expect(cycles.allSatisfy { $0.1.isEmpty && $0.2.isEmpty })
    }

    @Test("a confirmed beacon that drops out past the grace needs confirming again")
    func droppedOutConfirmsAgain() throws {
        let first = (0..<10).map { F.sighting(0.1 + Double($0) * 0.2, 5) }
        let stray = [F.sighting(10.5, 5)]
        let cycles = try Self.run(EnterConfirmation(minimumSightings: 3, window: .seconds(2)), first + stray, until: 14)
        #expect(cycles.contains { $0.0 == 2 && $0.1 == [5] })
        #expect(!cycles.contains { $0.0 == 11 && $0.1 == [5] }, "the lone sighting at 10.5 s lists it again")
    }

    @Test("the configuration refuses a rule that cannot work")
    func validation() {
        for rule in [
            EnterConfirmation(minimumSightings: 0), EnterConfirmation(minimumSightings: 256),
            EnterConfirmation(window: .zero), EnterConfirmation(minimumRSSI: 30),
        ] {
            #expect(throws: RangingConfigurationError.self) { try RangingLoop(configuration: RangingConfiguration(enter: rule)) }
        }
    }
}
