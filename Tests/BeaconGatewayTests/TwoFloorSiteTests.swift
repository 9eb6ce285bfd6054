import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// The bundled two-floor scenario (Simulator/Scenarios/two-floors.yaml) simulated whole, against
/// its truth; and a gateway of it that stops reporting mid-run.
@Suite("A two-floor site simulated in one process")
struct TwoFloorSiteTests {
    static let staff = 4

    struct Run {
        var events: [RoutedEvent]
        var report: SiteScoring.Report
        var scenario: Scenario
        var summary: SiteSimulation.Summary
        var presence: [[String: Any]]
        var statuses: [SiteGatewayStatus]
        var changes: [String]
    }

    static func run(seed: UInt64? = nil, prepare: (SiteSimulation) throws -> Void = { _ in }) throws -> Run {
        let scenario = try Scenario.load(path: TestPaths.scenario("two-floors"))
        let configuration = try GatewayConfiguration.load(
            path: TestPaths.repositoryRoot + "/Simulator/Scenarios/two-floors.alerts.yaml")
        var presence = ""
        var changes: [String] = []
        let site = try SiteSimulation(
            scenario: scenario, seed: seed, ranging: configuration.ranging, fusion: try #require(configuration.siteFusion),
            alerts: try configuration.pipelineAlerts(), registry: .builtIn(), presence: { presence += $0 })
        let hub = site.hub
        let write = hub.cycleObserver
        try hub.observeSiteCycles(evidence: false) { update, facts in
            write?(update) // the presence lines
            changes += facts.gatewayChanges.map { "\($0.gateway) \($0.online ? "online" : "offline") \($0.since)" }
        }
        try prepare(site)
        var events: [RoutedEvent] = []
        let summary = try site.run { events.append($0) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("two-floors-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truth = directory.appendingPathComponent("truth.jsonl").path
        let presencePath = directory.appendingPathComponent("presence.jsonl").path
        try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: false)
        try presence.write(toFile: presencePath, atomically: true, encoding: .utf8)
        let lines = presence.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return Run(
            events: events, report: try SiteScoring.score(presence: presencePath, truth: truth), scenario: scenario,
            summary: summary, presence: lines, statuses: hub.inspect().gatewayStatuses, changes: changes)
    }

    @Test(
        "floors are right ≥ 95 % of the stay time, rooms ≥ 90 %, and the floor changes only as walked: twice per person, no flapping",
        arguments: [nil, 3] as [UInt64?])
    func floorsAsWalked(seed: UInt64?) throws {
        let run = try Self.run(seed: seed)
        let report = run.report
        #expect(try #require(report.floorAccuracy) >= 0.95, "\(report.text)")
        #expect(try #require(report.roomAccuracy) >= 0.9, "\(report.text)")
        #expect(report.flaps == 0, "\(report.text)")
        // Up the stairs and down again, per person: the hub's floor changes are the walked ones.
        #expect(report.trueFloorChanges == 2 * Self.staff)
        #expect(report.floorChanges == report.trueFloorChanges, "\(report.text)")
        #expect(run.summary.hub.site?.floorChanges == 2 * Self.staff)
        // Positions upstairs are solved on the upper floor, at its tag height (1.2 m above it).
        let upstairs = run.presence.filter { ($0["floor"] as? String) == "upper" }
        #expect(!upstairs.isEmpty)
        #expect(
            upstairs.allSatisfy { (($0["position"] as? [String: Any])?["z"] as? Double).map { abs($0 - 5.2) < 0.01 } ?? true })
        // Each person's meeting dwell and the coffee after it, once each.
        for index in 0..<Self.staff {
            let id = run.scenario.beacons[index].identity.beaconID
            for alert in ["in-the-meeting", "coffee-after-meeting"] {
                let created = run.events.map(\.event).filter { $0.kind == .created && $0.alertID == alert && $0.beacon == id }
                #expect(created.count == 1, "\(alert), person \(index)")
            }
        }
    }

    @Test("a gateway that stops reporting goes offline; the tag in its room becomes unknown and is not moved by the silence")
    func gatewayStopsReporting() throws {
        let scenario = try Scenario.load(path: TestPaths.scenario("two-floors"))
        let stays = SiteTruth(scenario: scenario).stays()
        let meeting = try #require(stays.first { $0.beaconIndex == 0 && $0.room == "meeting" })
        let dies = meeting.from + .seconds(20)
        let run = try Self.run { try $0.silence(gateway: "meeting", from: dies) }
        // Offline 10 s after its last report (the default: the longer of 10 s and 3 × staleness).
        // (At the end, once everyone has left, the other gateways hear nothing, send nothing and go
        // offline too: a simulated gateway sends no report while it tracks nothing.)
        #expect(run.changes.first?.hasPrefix("meeting offline 2025-01-01T09:02:59") == true, "\(run.changes)")
        #expect(run.changes.dropFirst().allSatisfy { $0.hasSuffix("T09:12:25.000Z") }, "\(run.changes)")
        #expect(run.statuses.first { $0.gateway == "meeting" }?.online == false)
        // Person 1, in the meeting room when its gateway died, until the stay ends.
        let id = scenario.beacons[0].identity.beaconID
        var rooms: [(Timestamp, String)] = []
        for line in run.presence {
            guard let time = (line["time"] as? String).flatMap(Timestamp.init(rfc3339:)),
                let beacon = line["beacon"] as? [String: Any], (try? BeaconID(jsonObject: beacon)) == id,
                time > dies, time <= meeting.to
            else { continue }
            rooms.append((time, line["room"] as? String ?? "-"))
        }
        #expect(!rooms.isEmpty)
        // Never moved elsewhere by the silence: the meeting room while the gateway is quiet, then unknown.
        #expect(rooms.allSatisfy { $0.1 == "meeting" || $0.1 == "unknown" }, "\(rooms.map(\.1))")
        #expect(rooms.filter { $0.0 >= dies + .seconds(12) }.allSatisfy { $0.1 == "unknown" }, "\(rooms.map(\.1))")
        #expect(rooms.contains { $0.1 == "unknown" })
    }
}
