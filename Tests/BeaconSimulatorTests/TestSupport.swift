import BeaconCore
import BeaconSimulator
import BeaconWire
import FoundationEssentials

/// Paths and small scenarios shared by the simulator tests.
enum TestSupport {
    /// The repository root, found from this file's path.
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/BeaconSimulatorTests/TestSupport.swift
        return parts.joined(separator: "/")
    }()

    static func scenarioPath(_ name: String) -> String { root + "/Simulator/Scenarios/" + name }
    static func fixturePath(_ name: String) -> String { root + "/Tests/BeaconSimulatorTests/Fixtures/" + name }

    static let start = Timestamp(rfc3339: "2025-01-01T00:00:00Z")!
    static let uuid = UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!

    /// One gateway at the origin and `count` fixed iBeacons `distance` metres away along x.
    static func fixedScenario(
        count: Int = 1, distance: Double = 4, interval: Duration = .milliseconds(100),
        duration: Duration = .seconds(100), radio: RadioModel,
        scan: ScanTiming = .continuous, format: AdvertisingReportKind = .legacy
    ) -> Scenario {
        let beacons = (0..<count).map { index in
            BeaconSpec(
                name: "b\(index)", identity: .iBeacon(uuid: uuid, major: 7, minor: UInt16(index + 1)),
                measuredPower: -59, interval: interval, placement: .fixed(Vector3(distance, 0, 0)),
                address: BeaconSpec.defaultAddress(index: index))
        }
        return Scenario(
            name: "test", start: start, duration: duration, seed: 1, radio: radio,
            gateways: [GatewaySpec(name: "gw", position: .zero, scan: scan, reportKind: format)],
            beacons: beacons, walkers: [])
    }

    /// Runs the engine to the end, returning every packet (timestamp, bytes) and the statistics.
    static func runAll(_ scenario: Scenario, seed: UInt64? = nil, gateway: Int = 0)
        -> (packets: [(Timestamp, [UInt8])], statistics: SimulationStatistics)
    {
        var engine = SimulationEngine(scenario: scenario, gatewayIndex: gateway, seed: seed)
        var batch = PacketBatch()
        var packets: [(Timestamp, [UInt8])] = []
        var more = true
        while more {
            batch.removeAll()
            more = engine.fill(&batch, until: scenario.end, maxPackets: 500)
            batch.forEachPacket { record, bytes in packets.append((record.timestamp, Array(bytes))) }
        }
        return (packets, engine.statistics)
    }
}
