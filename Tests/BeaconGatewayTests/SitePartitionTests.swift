import BeaconCore
import BeaconSimulator
import BeaconSite
import BeaconSiteReport
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two hubs share one site on one mosquitto, each taking half of the topic buckets
/// (`hub.partition`): every beacon is fused, and alerted, by exactly one of them.
@Suite("Two hubs splitting a site's beacons", .serialized)
struct SitePartitionTests {
    static let uuid = "7A1E0C33-52B4-4F6D-9E8A-2C3B4D5E6F70"
    static let beaconCount = 40

    /// Forty tags lie in the hall from the start; two gateways hear them.
    static func scenario(start: Timestamp) -> String {
        """
        name: partition
        start: \(start.rfc3339String)
        duration: 16s
        seed: 9
        radio: {path_loss_exponent: 2.0, shadowing_sigma: 2.0, fading: none}
        rooms:
          - {name: hall, area: {min: [0, 0], max: [12, 12]}}
        gateways:
          - {name: west, position: [1, 6, 2.5]}
          - {name: east, position: [11, 6, 2.5]}
        beacons:
          - {name: tag, count: \(beaconCount), ibeacon: {uuid: \(uuid), major: 3, minor: 1}, interval: 500ms, area: {min: [2, 2, 1], max: [10, 10, 1.5]}}

        """
    }

    @Test("partition 0 and 1 of 2: each of 40 beacons alerts once, on the hub that owns its bucket, none twice or never")
    func twoHubs() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let scenarioFile = directory.appendingPathComponent("site.yaml")
        // The scenario's own start is replaced by the release's.
        try Self.scenario(start: Timeline.start).write(to: scenarioFile, atomically: true, encoding: .utf8)
        let startFile = directory.appendingPathComponent("start")
        let site = "site: {name: split, broker: {host: 127.0.0.1, port: \(broker.port)}"

        var processes: [Process] = []
        defer { for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var events: [URL] = []
        for index in 0..<2 {
            let output = directory.appendingPathComponent("hub-\(index).jsonl")
            events.append(output)
            let configuration = directory.appendingPathComponent("hub-\(index).yaml")
            try """
            \(site)}
            gateways:
              - {id: west, room: hall, position: [1, 6, 2.5]}
              - {id: east, room: hall, position: [11, 6, 2.5]}
            hub: {partition: {index: \(index), of: 2}}
            sinks:
              - {type: jsonl, path: \(output.path)}
            alerts:
              - {id: hall-dwell, match: {uuid: \(Self.uuid)}, strategy: time, parameters: {dwell: 5s, room: hall}}

            """.write(to: configuration, atomically: true, encoding: .utf8)
            processes.append(
                try SiteProcesses.start(
                    ["hub", "--config", configuration.path], log: directory.appendingPathComponent("hub-\(index).log")))
        }
        let hubs = processes
        let gateways = try SiteProcesses.startGateways(
            ["west", "east"], scenario: scenarioFile, site: site, startFile: startFile, in: directory)
        processes += gateways
        // The tags lie there from the scenario's first second: it starts once both hubs are
        // subscribed and both gateways connected.
        let logs = ["hub-0", "hub-1", "west", "east"].map { directory.appendingPathComponent("\($0).log") }
        await SiteProcesses.waitUntilReady(logs)
        let scenario = try SiteProcesses.released(
            scenarioFile, at: try await SiteProcesses.release(startFile, watching: Array(logs.suffix(2))))
        for gateway in gateways {
            await waitForExit(gateway)
            #expect(gateway.terminationStatus == 0)
        }
        // Every beacon dwells from the start: its alert is due 5 s (and a cycle or two) in. By the
        // scenario's end both hubs have had ample time; wait for the expected count, not a time.
        let expected = Self.beaconCount
        _ = await realWorkFinishes(within: SiteProcesses.hang) {
            events.reduce(0) { $0 + SiteProcesses.lines($1).filter { $0.contains(#""event":"created""#) }.count } >= expected
        }
        for hub in hubs {
            kill(hub.processIdentifier, SIGTERM)
            await waitForExit(hub)
            #expect(hub.terminationStatus == 0)
        }

        let topics = SiteTopics(site: "split")
        var alertedBy: [BeaconID: [Int]] = [:]
        for (index, file) in events.enumerated() {
            for line in SiteProcesses.lines(file) where line.contains(#""event":"created""#) {
                let minor = try #require(Self.minor(in: line))
                let id = BeaconID.iBeacon(uuid: UUID(uuidString: Self.uuid)!, major: 3, minor: minor)
                alertedBy[id, default: []].append(index)
            }
        }
        let beacons = scenario.beacons.map(\.identity.beaconID)
        #expect(beacons.count == Self.beaconCount)
        let missing = beacons.filter { alertedBy[$0] == nil }
        #expect(missing.isEmpty, "never alerted: \(missing)")
        let twice = alertedBy.filter { $0.value.count != 1 }
        #expect(twice.isEmpty, "alerted more than once: \(twice)")
        let misplaced = alertedBy.filter { id, hubs in hubs.contains { $0 != topics.bucket(of: id) % 2 } }
        #expect(misplaced.isEmpty, "alerted by a hub that does not own the bucket: \(misplaced)")
        // Both hubs had work: the buckets split the forty beacons roughly in half.
        let perHub = (0..<2).map { hub in alertedBy.values.filter { $0 == [hub] }.count }
        #expect(perHub.allSatisfy { $0 >= 10 }, "\(perHub)")
    }

    static func minor(in line: String) -> UInt16? {
        guard let range = line.range(of: #""minor":"#) else { return nil }
        return UInt16(line[range.upperBound...].prefix { $0.isNumber })
    }
}
