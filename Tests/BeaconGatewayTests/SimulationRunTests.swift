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

/// The bundled lobby through the whole pipeline (simulated HCI bytes → parser → ranging →
/// strategies → engine). The scenario's own comments state the answer: visitor 1 (minor 1)
/// walks 5 m to the desk at 1.2 m/s and waits there 90 s; visitor 2 (minor 2) crosses the lobby
/// in 10 s starting at 20 s; lobby.alerts.yaml asks for a 60 s dwell.
@Suite("Simulated lobby through the full pipeline")
struct SimulationRunTests {
    static let scenarioPath = TestPaths.repositoryRoot + "/Simulator/Scenarios/lobby.yaml"
    static let alertsPath = TestPaths.repositoryRoot + "/Simulator/Scenarios/lobby.alerts.yaml"

    static func run(seed: UInt64? = nil) async throws -> [AlertEvent] {
        let scenario = try Scenario.load(path: scenarioPath)
        let pipeline = try AlertPipeline(configuration: GatewayConfiguration.load(path: alertsPath), registry: .builtIn())
        var events: [AlertEvent] = []
        _ = try await SimulationRun(simulation: Simulation(scenario: scenario, seed: seed), pipeline: pipeline)
            .run { events.append($0.event) }
        return events
    }

    @Test("The dwell alert fires once, for visitor 1 only, about 60 s into the run")
    func dwellAlert() async throws {
        let delivered = try await Self.run().filter { $0.kind == .delivered }
        #expect(delivered.count == 1)
        let alert = try #require(delivered.first)
        #expect(alert.alertID == "lobby-dwell")
        #expect(alert.beacon.minor == 1)
        let start = try #require(Timestamp(rfc3339: "2025-01-01T09:00:00Z"))
        // Visitor 1 is in range from the first second; 60 s of dwell, plus at most a couple of
        // cycles for a lost advertisement at the boundary.
        #expect(alert.time - start >= .seconds(60))
        #expect(alert.time - start <= .seconds(63))
    }

    @Test("Every seed gives the same answer: one alert for visitor 1, none for visitor 2", arguments: [1, 2, 3, 99] as [UInt64])
    func robustAcrossSeeds(seed: UInt64) async throws {
        let delivered = try await Self.run(seed: seed).filter { $0.kind == .delivered }
        #expect(delivered.map(\.beacon.minor) == [1])
    }

    @Test("Scoring the run against its ground truth: precision and recall 100 %, latency under 65 s")
    func scoring() async throws {
        let scenario = try Scenario.load(path: Self.scenarioPath)
        let truth = GroundTruth(scenario: scenario, definition: VisitDefinition(radius: 3, minimumDuration: .seconds(60)))
        let visits = truth.visits()
        // The truth itself: one visit, by visitor 1 (beacon index 0), none by visitor 2.
        #expect(visits.count == 1)
        #expect(visits.first?.beaconIndex == 0)
        let delivered = try await Self.run().filter { $0.kind == .delivered }
        let visit = try #require(visits.first)
        let alert = try #require(delivered.first)
        #expect(alert.time >= visit.start && alert.time <= visit.end)
        #expect(alert.time - visit.start < .seconds(65))
    }

    @Test("simulate on the command line prints the alert and a summary")
    func commandLine() async throws {
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", Self.scenarioPath])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains(#""event":"delivered","alert":"lobby-dwell""#))
        #expect(run.standardError.contains("alerts lobby-dwell/delivered  1"), "\(run.standardError)")
        #expect(run.standardError.contains("speed-up over real time"))
    }

    @Test("A scenario that does not exist gives a clear error and a non-zero exit")
    func missingScenario() async throws {
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", "/nonexistent/site.yaml"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("/nonexistent/site.yaml"), "\(run.standardError)")
    }
}

/// `beacond simulate --help` is where a user learns which scenarios come with beacond: it must
/// name each one the repository (and the package) ships.
@Suite("beacond simulate --help")
struct SimulateHelpTests {
    @Test("names every bundled scenario in Simulator/Scenarios")
    func namesEveryScenario() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.repositoryRoot + "/Simulator/Scenarios")
        let scenarios = files.filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".alerts.yaml") }.map { String($0.dropLast(5)) }
        #expect(scenarios.count >= 10)
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", "--help"])
        #expect(run.status == 0)
        // The help wraps its text: compare it as one line of words.
        let words = run.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for scenario in scenarios {
            #expect(
                words.contains(" \(scenario),") || words.contains(" \(scenario).") || words.contains(" \(scenario);"),
                "\(scenario) is not named in: \(words)")
        }
    }
}
