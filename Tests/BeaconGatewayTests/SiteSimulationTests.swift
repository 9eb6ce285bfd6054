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

    /// The bundled site, its first `duration` only when given.
    static func run(duration: Duration? = nil, perCycle: Bool = false) throws -> (
        events: [RoutedEvent], report: SiteScoring.Report, scenario: Scenario, summary: SiteSimulation.Summary
    ) {
        var scenario = try Scenario.load(path: TestPaths.scenario("site"))
        if let duration { scenario.duration = duration }
        let configuration = try GatewayConfiguration.load(
            path: TestPaths.repositoryRoot + "/Simulator/Scenarios/site.alerts.yaml")
        var presence = ""
        var fusion = try #require(configuration.siteFusion)
        if perCycle { fusion.positioning.gridByDefault = false }
        let site = try SiteSimulation(
            scenario: scenario, ranging: configuration.ranging, fusion: fusion,
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

    /// One run shared by the tests that only read it: the bundled site is 15 minutes of six
    /// visitors and four gateways, about 14 s of CPU in a debug build, on a thread of its own.
    static let shared = SharedComputation { try run() }

    /// ``run(duration:perCycle:)`` on a thread of its own: minutes of CPU on a loaded machine,
    /// which the cooperative pool's two threads must not give to one test.
    static func runOwnThread(duration: Duration? = nil, perCycle: Bool = false) async throws -> (
        events: [RoutedEvent], report: SiteScoring.Report, scenario: Scenario, summary: SiteSimulation.Summary
    ) {
        try await onOwnThread { try run(duration: duration, perCycle: perCycle) }
    }

    @Test(
        "every visitor alerts once per alert: 45 s into its true shop stay, on entering the café, at the counter; rooms and positions match the truth"
    )
    func bundledSite() async throws {
        let (events, report, scenario, summary) = try await Self.shared.value
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

    @Test("the grid filter (the default) places the shop's visitors closer than per-cycle fixes do, rooms at least as right")
    func gridFilter() async throws {
        let fixes = try await Self.runOwnThread(perCycle: true)
        let tracked = try await Self.shared.value
        let before = fixes.report
        let after = tracked.report
        #expect(try #require(after.medianPositionError) < (try #require(before.medianPositionError)) - 0.1, "\(after.text)")
        #expect(try #require(after.p90PositionError) < (try #require(before.p90PositionError)) - 0.2, "\(after.text)")
        #expect(try #require(after.radiusCoverage) >= 0.85, "\(after.text)")
        // The scenario's rooms are outlined for the hub: the tracked visitors' rooms come from the
        // posterior's share in each outline, and are at least as right, with no more flaps.
        let rooms = (try #require(after.roomAccuracy), try #require(before.roomAccuracy))
        #expect(rooms.0 >= rooms.1 && after.flaps <= before.flaps, "\(after.text)")
        #expect(tracked.summary.hub.site?.tracked ?? 0 > 0)
    }

    /// The figure after `label` in the score's text (`position error median      1.56 m` → "1.56").
    static func figure(_ label: String, in text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(label) }) else { return nil }
        return line.dropFirst(label.count).split(separator: " ").first.map(String.init)
    }

    @Test("the figures README.md and Docs/Site.md quote for the bundled site are the ones its run gives")
    func documentedFigures() async throws {
        let report = try await Self.shared.value.report
        let rooms = try #require(Self.figure("room right while staying", in: report.text), "\(report.text)")
        let median = try #require(Self.figure("position error median", in: report.text), "\(report.text)")
        let p90 = try #require(Self.figure("position error p90", in: report.text), "\(report.text)")
        let readme = try String(contentsOfFile: TestPaths.repositoryRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("# rooms \(rooms) %, median \(median) m"), "README.md: the score gives \(rooms) %, \(median) m")
        let site = try String(contentsOfFile: TestPaths.repositoryRoot + "/Docs/Site.md", encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        #expect(
            site.contains("room right \(rooms) % of the stay time")
                && site.contains("position error median \(median) m, p90 \(p90) m"),
            "Docs/Site.md: the score gives \(rooms) %, median \(median) m, p90 \(p90) m")
    }

    @Test("the same scenario and seed give the same events")
    func deterministic() async throws {
        // The first five minutes: the first visitors' every alert, at a third of the whole run's cost.
        let first = try await Self.runOwnThread(duration: .seconds(300)).events.map(\.event.jsonLine)
        let second = try await Self.runOwnThread(duration: .seconds(300)).events.map(\.event.jsonLine)
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
