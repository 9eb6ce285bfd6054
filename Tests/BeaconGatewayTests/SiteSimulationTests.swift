import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconSite
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// The bundled site scenario (Simulator/Scenarios/site.yaml) simulated whole in one process —
/// four gateways, each with its own ranging, and a hub — with its alerts file, against the truth.
@Suite("A whole site simulated in one process")
struct SiteSimulationTests {
    static let visitors = 6

    static func run() throws -> (
        events: [RoutedEvent], report: SiteScoring.Report, scenario: Scenario, summary: SiteSimulation.Summary
    ) {
        let scenario = try Scenario.load(path: TestPaths.scenario("site"))
        let configuration = try GatewayConfiguration.load(
            path: TestPaths.repositoryRoot + "/Simulator/Scenarios/site.alerts.yaml")
        var presence = ""
        let site = try SiteSimulation(
            scenario: scenario, ranging: configuration.ranging, fusion: try #require(configuration.siteFusion),
            alerts: try configuration.pipelineAlerts(), registry: .builtIn(), presence: { presence += $0 })
        var events: [RoutedEvent] = []
        let summary = try site.run { events.append($0) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("site-sim-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truth = directory.appendingPathComponent("truth.jsonl").path
        let presencePath = directory.appendingPathComponent("presence.jsonl").path
        try GroundTruth(scenario: scenario).write(toFile: truth, includeDistances: false)
        try presence.write(toFile: presencePath, atomically: true, encoding: .utf8)
        return (events, try SiteScoring.score(presence: presencePath, truth: truth), scenario, summary)
    }

    @Test(
        "every visitor alerts once per alert: 45 s into its true shop stay, on entering the café, at the counter; rooms and positions match the truth"
    )
    func bundledSite() throws {
        let (events, report, scenario, summary) = try Self.run()
        let stays = SiteTruth(scenario: scenario).stays()
        for index in 0..<Self.visitors {
            let id = scenario.beacons[index].identity.beaconID
            func created(_ alert: String) -> [AlertEvent] {
                events.map(\.event).filter { $0.kind == .created && $0.alertID == alert && $0.beacon == id }
            }
            let shop = try #require(stays.first { $0.beaconIndex == index && $0.room == "shop" })
            let cafe = try #require(stays.first { $0.beaconIndex == index && $0.room == "cafe" })
            let browse = created("shop-browse")
            #expect(browse.count == 1, "visitor \(index)")
            if let time = browse.first?.time {
                // The hub follows the tag into the shop a few seconds late (hysteresis, then a cycle).
                #expect(time >= shop.from + .seconds(45) && time <= shop.from + .seconds(53), "visitor \(index)")
            }
            let moved = created("shop-to-cafe")
            #expect(moved.count == 1, "visitor \(index)")
            if let time = moved.first?.time {
                #expect(time >= cafe.from && time <= cafe.from + .seconds(8), "visitor \(index)")
            }
            #expect(created("at-the-counter").count == 1, "visitor \(index)")
        }
        #expect(events.allSatisfy { $0.event.kind == .created || $0.event.kind == .delivered })
        let accuracy = try #require(report.roomAccuracy)
        #expect(accuracy >= 0.9, "\(report.text)")
        #expect(report.flaps == 0, "\(report.text)")
        let median = try #require(report.medianPositionError)
        #expect(median <= 2.0, "\(report.text)")
        // Each visitor goes entrance → shop → café → (through the shop) → entrance: four changes.
        #expect(summary.hub.site?.roomChanges == 4 * Self.visitors)
    }

    @Test("the same scenario and seed give the same events")
    func deterministic() throws {
        let first = try Self.run().events.map(\.event.jsonLine)
        let second = try Self.run().events.map(\.event.jsonLine)
        #expect(first == second && !first.isEmpty)
    }

    @Test("a simulated gateway that the scenario does not have is refused by check-config, listing the scenario's gateways")
    func unknownGateway() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("site-gw-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gw.yaml").path
        try "source: {simulate: \(TestPaths.scenario("site")), gateway: cellar, speed: wall}\nalerts: []\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect { try checkGatewayConfiguration(path: path) } throws: {
            "\($0)".contains("no gateway 'cellar'") && "\($0)".contains("entrance, shop-west, shop-east, cafe")
        }
    }
}
