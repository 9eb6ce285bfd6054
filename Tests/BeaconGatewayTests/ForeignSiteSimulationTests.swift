import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// The bundled mixed site (Simulator/Scenarios/site-espresense.yaml): three simulated ESPresense
/// nodes, publishing every beacon they hear as the firmware does, and one beacond gateway, fused
/// by one hub — with site.yaml's alerts (site-espresense.alerts.yaml), against the truth.
@Suite("A mixed site of ESPresense nodes and a beacond gateway, simulated")
struct ForeignSiteSimulationTests {
    @Test("every visitor alerts once per alert; rooms right ≥ 90 % of stays, no flap, positions within 2 m (median)")
    func mixedSite() async throws {
        let scenario = try Scenario.load(path: TestPaths.scenario("site-espresense"))
        #expect(scenario.gateways.map { $0.kind ?? "beacond" } == ["espresense", "beacond", "espresense", "espresense"])
        let configuration = try GatewayConfiguration.load(
            path: TestPaths.repositoryRoot + "/Simulator/Scenarios/site-espresense.alerts.yaml")
        let fusion = try #require(configuration.siteFusion)
        // Minutes of CPU on a loaded machine: on a thread of its own, not the cooperative pool's.
        let (events, reporters, presence) = try await onOwnThread {
            var presence = ""
            let site = try SiteSimulation(
                scenario: scenario, ranging: configuration.ranging, fusion: fusion,
                alerts: try configuration.pipelineAlerts(), registry: .builtIn(), presence: { presence += $0 })
            var events: [RoutedEvent] = []
            var reporters: Set<String> = []
            site.gatewayReports = { gateway, records in if !records.isEmpty { reporters.insert(gateway) } }
            _ = try site.run { events.append($0) }
            return (events, reporters, presence)
        }
        #expect(reporters == ["entrance", "shop-west", "shop-east", "cafe"])
        for alert in ["shop-browse", "shop-to-cafe", "at-the-counter"] {
            let created = events.filter { $0.event.kind == .created && $0.event.alertID == alert }
            #expect(Set(created.compactMap(\.event.beacon)).count == 6, "\(alert)")
            #expect(created.count == 6, "\(alert)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-sim-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truth = directory.appendingPathComponent("truth.jsonl").path
        let presencePath = directory.appendingPathComponent("presence.jsonl").path
        try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: false)
        try presence.write(toFile: presencePath, atomically: true, encoding: .utf8)
        let report = try SiteScoring.score(presence: presencePath, truth: truth)
        #expect(try #require(report.roomAccuracy) >= 0.9, "\(report.text)")
        #expect(report.flaps == 0, "\(report.text)")
        #expect(try #require(report.medianPositionError) <= 2.0, "\(report.text)")
    }

    @Test("kind: espresense on a scenario without rooms, or an unknown kind, is refused at its line")
    func badKind() {
        let base = "name: x\nstart: 2025-01-01T10:00:00Z\nduration: 1m\n"
        let cases = [
            base + "gateways:\n  - {name: a, position: [0, 0, 2], kind: espresense}\n",
            base
                + "rooms:\n  - {name: r, area: {min: [0, 0], max: [5, 5]}}\ngateways:\n  - {name: a, position: [1, 1, 2], kind: omg}\n",
        ]
        for (text, line) in zip(cases, [5, 7]) {
            #expect {
                _ = try Scenario.parse(yaml: text, file: "s.yaml")
            } throws: { error in
                "\(error)".hasPrefix("s.yaml:\(line):")
            }
        }
    }
}
