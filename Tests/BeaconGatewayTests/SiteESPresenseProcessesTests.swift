import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SiteProcessesTests' site with two of its three gateways standing in for ESPresense nodes
/// (`site.publish: espresense`: every beacon heard published as the firmware publishes it), all
/// separate `beacond` processes over mosquitto, and a hub that takes them as `kind: espresense`
/// next to the beacond gateway: the same rooms and the same single dwell alert.
@Suite("A site of ESPresense stand-ins and a beacond gateway, as separate processes", .serialized)
struct SiteESPresenseProcessesTests {
    /// (gateway, room, position, ESPresense room slug or nil for a beacond gateway)
    static let gateways: [(String, String, String, String?)] = [
        ("hall-a", "hall", "[1, 1, 2.5]", "hall"), ("hall-b", "hall", "[5, 9, 2.5]", nil),
        ("shop", "shop", "[14, 5, 2.5]", "shop"),
    ]

    @Test("two ESPresense stand-ins and a beacond gateway: rooms match the truth, the shop dwell alerts once")
    func mixedProcesses() async throws {
        try await ChildProcessSlots.siteRuns.withSlot { try await runMixedProcesses() }
    }

    private func runMixedProcesses() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let scenarioFile = directory.appendingPathComponent("site.yaml")
        try SiteProcessesTests.scenario(start: Timeline.start).write(to: scenarioFile, atomically: true, encoding: .utf8)
        let startFile = directory.appendingPathComponent("start")

        let site = "site: {name: e2e, broker: {host: 127.0.0.1, port: \(broker.port)}"
        let hubConfiguration = directory.appendingPathComponent("hub.yaml")
        let events = directory.appendingPathComponent("hub-events.jsonl")
        let presence = directory.appendingPathComponent("presence.jsonl")
        let entries = Self.gateways.map { gateway in
            "  - {id: \(gateway.0), room: \(gateway.1), position: \(gateway.2)"
                + (gateway.3.map { ", kind: espresense, node: \($0)" } ?? "") + "}"
        }
        try """
        \(site)}
        gateways:
        \(entries.joined(separator: "\n"))
        hub:
          position: {tagHeight: 1.2, pathLossExponent: 2.0}
          presence: \(presence.path)
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: shop-dwell, match: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A}, strategy: time, parameters: {dwell: 8s, room: shop}}

        """.write(to: hubConfiguration, atomically: true, encoding: .utf8)
        let hubLog = directory.appendingPathComponent("hub.log")
        let hub = try SiteProcesses.start(["hub", "--config", hubConfiguration.path], log: hubLog)
        defer { if hub.isRunning { kill(hub.processIdentifier, SIGKILL) } }

        var processes: [Process] = []
        for gateway in Self.gateways {
            let extra = gateway.3.map { ", publish: espresense, node: \($0)" } ?? ""
            processes += try SiteProcesses.startGateways(
                [gateway.0], scenario: scenarioFile, site: site + extra, startFile: startFile, in: directory)
        }
        defer { for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The walk starts once the hub is subscribed and every gateway and stand-in is connected.
        let logs = [hubLog] + Self.gateways.map { directory.appendingPathComponent("\($0.0).log") }
        await SiteProcesses.waitUntilReady(logs)
        let scenario = try SiteProcesses.released(
            scenarioFile, at: try await SiteProcesses.release(startFile, watching: Array(logs.dropFirst())))
        for (process, gateway) in zip(processes, Self.gateways) {
            await waitForExit(process)
            #expect(
                process.terminationStatus == 0,
                "\(gateway.0): \(SiteProcesses.lines(directory.appendingPathComponent("\(gateway.0).log")).suffix(10))")
        }
        let end = scenario.end.rfc3339String
        let caughtUp = await realWorkFinishes(within: SiteProcesses.hang) {
            SiteProcesses.lines(presence).last.map { $0 >= #"{"time":""# + end } ?? false
        }
        kill(hub.processIdentifier, SIGTERM)
        await waitForExit(hub)
        let log = SiteProcesses.lines(hubLog)
        #expect(caughtUp, "the hub's presence never reached the scenario's end: \(log.suffix(20))")
        // The stand-ins' messages were read as ESPresense messages, none refused.
        for node in ["hall-a", "shop"] {
            let line = log.first { $0.contains("espresense node \(node) ") }
            #expect(
                line?.contains(" 0 refused") == true && line?.contains(" 0 beacon sightings") == false,
                "\(String(describing: line))")
        }

        let created = SiteProcesses.lines(events).filter { $0.contains(#""event":"created""#) }
        #expect(created.count == 1, "\(created)")
        #expect(created.first?.contains(#""alert":"shop-dwell""#) == true && created.first?.contains(#""minor":1}"#) == true)
        let truthFile = directory.appendingPathComponent("truth.jsonl")
        try GroundTruth(scenario: scenario).write(toFile: truthFile.path)
        let report = try SiteScoring.score(presence: presence.path, truth: truthFile.path)
        #expect(try #require(report.roomAccuracy) >= 0.85, "\(report.text)")
        #expect(report.flaps == 0, "\(report.text)")
    }
}
