import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import BeaconWire
import Foundation
import Testing

/// The contract on real data with scanner pauses: the starksm64 recording (Data/rssi, 4
/// Raspberry Pi BlueZ scanners, one iBeacon walked between rooms for 264.6 s), all four
/// scanners heard as one gateway. `time` with dwell 30 s, gap 3 s, reset 5 s.
///
/// The expected alerts come from ``oracle(_:)``, a direct reading of Docs/Strategies.md's
/// contract (cycles of 1 s on whole seconds; a present cycle more than `gap` after the last
/// starts a visit; alert at the first present cycle `dwell` into a visit while waiting; unseen
/// for `maxTimeBeforeReset` resets), written independently of the strategy code. On this
/// recording it gives two alerts (at the cycles ending 31 s and 250 s after the first sighting's
/// second): the second is the one `once-per-beacon` (the former default) never delivers.
@Suite("Strategy contract on a real recording with scanner pauses")
struct RealScannerContractTests {
    static let csv = TestPaths.repositoryRoot + "/Data/rssi/starksm64_FourScannersBeacon5Run1-2015-03-13.csv"
    static let alert = """
        alerts:
          - {id: dwell, strategy: time, parameters: {dwell: 30s, gap: 3s, maxTimeBeforeReset: 5s}}

        """

    /// Every row as a sighting, in time order (rows are grouped per scanner in the file).
    static func sightings() throws -> [BeaconSighting] {
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst()
        return try lines.map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let hex = Array(f[2])
            let groups: [String] = [
                String(hex[0..<8]), String(hex[8..<12]), String(hex[12..<16]), String(hex[16..<20]),
                String(hex[20...]),
            ]
            let uuid = try #require(UUID(uuidString: groups.joined(separator: "-")))
            let milliseconds: Int64 = try #require(Int64(f[0]))
            let major: UInt16 = try #require(UInt16(f[3]))
            let minor: UInt16 = try #require(UInt16(f[4]))
            let id = BeaconID.iBeacon(uuid: uuid, major: major, minor: minor)
            return BeaconSighting(
                timestamp: Timestamp(nanosecondsSinceEpoch: milliseconds * 1_000_000), id: id,
                address: BluetoothAddress(rawValue: 0xB8_27EB_000005), rssi: Int8(f[5]), measuredPower: Int8(f[6]))
        }.sorted { $0.timestamp < $1.timestamp }
    }

    /// The documented contract, cycle by cycle (whole seconds since the epoch).
    static func oracle(_ sightings: [BeaconSighting], dwell: Int64 = 30, gap: Int64 = 3, reset: Int64 = 5) -> [Int64] {
        let present = Set(sightings.map { $0.timestamp.nanosecondsSinceEpoch / 1_000_000_000 + 1 })
        guard let first = present.min(), let last = present.max() else { return [] }
        var alerts: [Int64] = []
        var visitStart: Int64 = 0, lastPresent: Int64?, done = false
        for cycle in first...(last + reset + 5) {
            if present.contains(cycle) {
                if lastPresent.map({ cycle - $0 > gap }) ?? true { visitStart = cycle }
                lastPresent = cycle
                if cycle - visitStart >= dwell, !done {
                    alerts.append(cycle)
                    done = true
                }
            } else if done, let lastPresent, cycle - lastPresent >= reset {
                done = false
            }
        }
        return alerts
    }

    static func deliveredSeconds(_ events: [AlertEvent]) -> [Int64] {
        events.filter { $0.kind == .delivered }.map { $0.time.nanosecondsSinceEpoch / 1_000_000_000 }
    }

    @Test("the default policy delivers what the contract says: two alerts, the second at the last visit")
    func defaultPolicy() throws {
        let sightings = try Self.sightings()
        let expected = Self.oracle(sightings)
        let first = sightings[0].timestamp.nanosecondsSinceEpoch / 1_000_000_000
        #expect(expected.map { $0 - first } == [31, 250], "the oracle on this recording (cycle ends)")
        let pipeline = try AlertPipeline(
            configuration: GatewayConfiguration(node: ConfigNode(yaml: Self.alert)), registry: .builtIn())
        var events: [AlertEvent] = []
        for sighting in sightings { try pipeline.ingest(sighting) { events.append($0.event) } }
        try pipeline.advance(to: sightings.last!.timestamp + .seconds(30)) { events.append($0.event) }
        #expect(Self.deliveredSeconds(events) == expected)
    }

    @Test("replayed as a btsnoop capture of HCI events, the same alerts; once-per-beacon keeps only the first")
    func replayed() async throws {
        let sightings = try Self.sightings()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("starksm64-\(UUID()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopFileWriter(path: path)
        for sighting in sightings {
            try Timeline.h4Packet(for: sighting.id, rssi: sighting.rssi ?? -127, measuredPower: sighting.measuredPower ?? -59)
                .withUnsafeBytes { try writer.append(h4Packet: $0, direction: .received, timestamp: sighting.timestamp) }
        }
        try writer.close()
        for (firing, expected) in [("", Self.oracle(sightings)), ("    firing: once-per-beacon\n", [Self.oracle(sightings)[0]])] {
            let yaml =
                "alerts:\n  - id: dwell\n    strategy: time\n    parameters: {dwell: 30s, gap: 3s, maxTimeBeforeReset: 5s}\n"
            let configuration = try GatewayConfiguration(node: ConfigNode(yaml: yaml + firing))
            let pipeline = try AlertPipeline(configuration: configuration, registry: .builtIn())
            var events: [AlertEvent] = []
            try await PipelineRunner.run(source: CaptureReplaySource(path: path), pipeline: pipeline, closingAfter: .seconds(30))
            {
                events.append($0.event)
            }
            #expect(Self.deliveredSeconds(events) == expected, "firing: \(firing.isEmpty ? "default" : firing)")
        }
    }
}
