import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A site as it runs for real: a mosquitto broker, three gateways and a hub, each a `beacond`
/// process of its own. The gateways simulate one scenario on the wall clock (each hears it from
/// its own position) and publish what they range; the hub fuses their reports into rooms and
/// positions and alerts once, for the site, on a dwell in a room. Checked against the truth the
/// scenario gives.
@Suite("A site of separate processes over mosquitto", .serialized)
struct SiteProcessesTests {
    /// The walker (minor 1) dwells 15 s at (4, 5) in the hall, walks 11 m to (15, 5) in the shop
    /// (crossing into it 6 s later, at 21 s) and dwells there 15 s; the tag on the hall's desk
    /// (minor 2) does not move. Three gateways: two in the hall, one in the shop.
    static func scenario(start: Timestamp) -> String {
        """
        name: e2e-site
        start: \(start.rfc3339String)
        duration: 40s
        seed: 5
        radio: {path_loss_exponent: 2.0, shadowing_sigma: 2.0, fading: none, packet_loss: 0.02}
        rooms:
          - {name: hall, area: {min: [0, 0], max: [10, 10]}}
          - {name: shop, area: {min: [10, 0], max: [20, 10]}}
        gateways:
          - {name: hall-a, position: [1, 1, 2.5]}
          - {name: hall-b, position: [5, 9, 2.5]}
          - {name: shop, position: [14, 5, 2.5]}
        walkers:
          - {name: visitor, speed: 1.0, dwell: 15s, waypoints: [[4, 5, 1.2], [15, 5, 1.2]]}
        beacons:
          - {name: visitor-tag, ibeacon: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A, major: 1, minor: 1}, interval: 200ms, carried_by: visitor}
          - {name: desk-tag, ibeacon: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A, major: 1, minor: 2}, interval: 200ms, position: [3, 8, 1.2]}

        """
    }

    static let gateways = [
        ("hall-a", "hall", "[1, 1, 2.5]"), ("hall-b", "hall", "[5, 9, 2.5]"), ("shop", "shop", "[14, 5, 2.5]"),
    ]

    @Test(
        "three gateway processes and a hub: rooms and positions match the truth, and the shop dwell alerts once, for the site"
    )
    func gatewaysAndHub() async throws {
        try await ChildProcessSlots.siteRuns.withSlot { try await runGatewaysAndHub() }
    }

    private func runGatewaysAndHub() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let scenarioFile = directory.appendingPathComponent("site.yaml")
        try Self.scenario(start: Timeline.start).write(to: scenarioFile, atomically: true, encoding: .utf8)
        let startFile = directory.appendingPathComponent("start")

        let site = "site: {name: e2e, broker: {host: 127.0.0.1, port: \(broker.port)}"
        let hubConfiguration = directory.appendingPathComponent("hub.yaml")
        let events = directory.appendingPathComponent("hub-events.jsonl")
        let presence = directory.appendingPathComponent("presence.jsonl")
        try """
        \(site)}
        gateways:
        \(Self.gateways.map { "  - {id: \($0.0), room: \($0.1), position: \($0.2)}" }.joined(separator: "\n"))
        hub:
          position: {tagHeight: 1.2, pathLossExponent: 2.0}
          presence: \(presence.path)
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: shop-dwell, match: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A}, strategy: time, parameters: {dwell: 8s, room: shop}}

        """.write(to: hubConfiguration, atomically: true, encoding: .utf8)
        let hub = try SiteProcesses.start(
            ["hub", "--config", hubConfiguration.path], log: directory.appendingPathComponent("hub.log"))
        defer { if hub.isRunning { kill(hub.processIdentifier, SIGKILL) } }

        let gatewayProcesses = try SiteProcesses.startGateways(
            Self.gateways.map(\.0), scenario: scenarioFile, site: site, startFile: startFile, in: directory)
        defer { for process in gatewayProcesses where process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The walk starts once the hub is subscribed and every gateway connected.
        let logs = ["hub"] + Self.gateways.map(\.0)
        let logFiles = logs.map { directory.appendingPathComponent("\($0).log") }
        await SiteProcesses.waitUntilReady(logFiles)
        let scenario = try SiteProcesses.released(
            scenarioFile, at: try await SiteProcesses.release(startFile, watching: Array(logFiles.dropFirst())))
        // The gateways end with the scenario.
        for (process, gateway) in zip(gatewayProcesses, Self.gateways) {
            await waitForExit(process)
            #expect(
                process.terminationStatus == 0,
                "\(gateway.0): \(SiteProcesses.lines(directory.appendingPathComponent("\(gateway.0).log")))")
        }
        // The hub's last cycles: the desk tag stays fused until its records go stale.
        let end = scenario.end.rfc3339String
        let caughtUp = await realWorkFinishes(within: SiteProcesses.hang) {
            SiteProcesses.lines(presence).last.map { $0 >= #"{"time":""# + end } ?? false
        }
        // The hub's status page knows the site: its gateways, their rooms, a schema-valid document.
        let announced = SiteProcesses.lines(directory.appendingPathComponent("hub.log"))
            .first { $0.contains("control endpoint on http://127.0.0.1:") }
        let url = try #require(announced?.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        let (siteStatus, siteDocument) = try await DaemonControlTests.get(url + "/api/site")
        #expect(siteStatus == 200)
        #expect(siteDocument.contains(#""site":true"#), "\(siteDocument)")
        for gateway in Self.gateways {
            #expect(siteDocument.contains(#"{"id":"\#(gateway.0)","room":"\#(gateway.1)","position":{"#), "\(siteDocument)")
        }
        try await StatusPageTests.validate(siteDocument, as: "site", in: directory)
        kill(hub.processIdentifier, SIGTERM)
        await waitForExit(hub)
        let hubLog = SiteProcesses.lines(directory.appendingPathComponent("hub.log"))
        #expect(caughtUp, "the hub's presence never reached the scenario's end: \(hubLog.suffix(20))")
        #expect(hub.terminationStatus == 0, "\(hubLog.suffix(20))")

        // One dwell alert, for the walker, 8 s after the hub has it in the shop; the shop entry
        // is the truth's, and the hub needs its room hysteresis (2 s) and a cycle or two more.
        let truth = SiteTruth(scenario: scenario)
        let shopStay = try #require(truth.stays().first { $0.beaconIndex == 0 && $0.room == "shop" })
        let created = SiteProcesses.lines(events).filter { $0.contains(#""event":"created""#) }
        #expect(created.count == 1, "\(created)")
        let alert = try #require(created.first)
        #expect(alert.contains(#""alert":"shop-dwell""#) && alert.contains(#""minor":1}"#), "\(alert)")
        let earliest = shopStay.from + .seconds(8)
        let latest = earliest + .seconds(6)
        let fired = try #require(SiteProcesses.time(of: alert))
        #expect(
            fired >= earliest && fired <= latest,
            "fired at \(fired.rfc3339String), truth allows \(earliest.rfc3339String)–\(latest.rfc3339String)")

        // Rooms and positions, scored against the truth.
        let truthFile = directory.appendingPathComponent("truth.jsonl")
        try GroundTruth(scenario: scenario).write(toFile: truthFile.path)
        let report = try SiteScoring.score(presence: presence.path, truth: truthFile.path)
        let accuracy = try #require(report.roomAccuracy)
        #expect(accuracy >= 0.85, "\(report.text)")
        #expect(report.flaps == 0, "\(report.text)")
        let median = try #require(report.medianPositionError)
        #expect(median <= 2.0, "\(report.text)")
        #expect(report.positionErrors.count >= 60, "\(report.text)")
    }

    @Test("a gateway whose site broker is unreachable still ranges, alerts and delivers to its own sinks")
    func gatewayWithoutBroker() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("site-nobroker-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Nothing listens there: the port was free a moment ago.
        let port = try MosquittoBroker.freePort()
        let events = directory.appendingPathComponent("events.jsonl")
        let configuration = directory.appendingPathComponent("gw.yaml")
        try """
        source: simulate:\(TestPaths.scenario("lobby"))
        site: {name: lobby, gateway: desk, broker: {host: 127.0.0.1, port: \(port)}}
        sinks:
          - {type: jsonl, path: \(events.path)}
        alerts:
          - {id: lobby-dwell, match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}, strategy: time, parameters: {dwell: 60s, gap: 10s}}

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("gw.log")
        let gateway = try SiteProcesses.start(["run", "--config", configuration.path], log: log)
        await waitForExit(gateway)
        #expect(gateway.terminationStatus == 0, "\(SiteProcesses.lines(log).suffix(10))")
        // The lobby visitor's dwell alert (Simulator/Scenarios/lobby.yaml), created and delivered locally.
        let lines = SiteProcesses.lines(events)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.allSatisfy { $0.contains(#""alert":"lobby-dwell""#) && $0.contains(#""minor":1}"#) })
        // And it says so, once.
        let warnings = SiteProcesses.lines(log).filter { $0.contains("site: the broker 127.0.0.1:\(port) is unreachable") }
        #expect(warnings.count == 1, "\(SiteProcesses.lines(log))")
    }
}
