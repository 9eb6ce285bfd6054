import BeaconAlertEngine
import BeaconCore
import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// Tuning against the truth (issue 38, item 3): candidates drawn from declared ranges, run as
/// shadows of one pipeline per input, scored as `beacond score` scores, ranked under an objective.
@Suite("Alert tuning: beacond tune")
struct AlertTuningTests {
    static let dwell = TunedParameter(
        name: "dwell", values: [.duration(.seconds(30)), .duration(.seconds(45)), .duration(.seconds(60))])
    static let proximity = TunedParameter(name: "proximity", values: [.proximity(.near), .proximity(.far)])

    @Test("candidates: the configured values first, then every combination when they fit the limit")
    func everyCombination() {
        let candidates = TuningCandidate.candidates(
            parameters: [Self.dwell, Self.proximity], configured: ["dwell": .duration(.seconds(60))], limit: 50, seed: 1)
        #expect(candidates.count == 7)
        #expect(candidates[0].label == "dwell=1m proximity=(unset)")
        #expect(candidates.map(\.number) == Array(1...7))
        #expect(Set(candidates.map(\.label)).count == 7)
        #expect(candidates[1].label == "dwell=30s proximity=near")
        // The configured combination is not run twice.
        let configuredInRange = TuningCandidate.candidates(
            parameters: [Self.dwell], configured: ["dwell": .duration(.seconds(45))], limit: 50, seed: 1)
        #expect(configuredInRange.map(\.label) == ["dwell=45s", "dwell=30s", "dwell=1m"])
    }

    @Test("candidates: the configured values count once, beside the combinations when they are not one of them")
    func configuredBesideTheCombinations() {
        // Proximity unset is not one of the three bands: 1 + 3 candidates fit a limit of 4.
        let four = TuningCandidate.candidates(parameters: [Self.proximity3], configured: [:], limit: 4, seed: 1)
        #expect(four.map(\.label) == ["proximity=(unset)", "proximity=immediate", "proximity=near", "proximity=far"])
        let three = TuningCandidate.candidates(parameters: [Self.proximity3], configured: [:], limit: 3, seed: 1)
        #expect(three.count == 3 && three[0].label == "proximity=(unset)" && Set(three.map(\.label)).count == 3)
    }

    static let proximity3 = TunedParameter(
        name: "proximity", values: [.proximity(.immediate), .proximity(.near), .proximity(.far)])

    @Test("candidates: a draw of the limit when there are more, the same for a seed, another for another seed")
    func drawnCandidates() throws {
        let registration = try #require(StrategyRegistry.builtIn().registration(for: "time"))
        let parameters = registration.parameters.compactMap { declaration in
            declaration.tuning.map { TunedParameter(name: declaration.name, values: $0.values) }
        }
        #expect(parameters.map(\.name) == ["dwell", "gap", "proximity", "maxTimeBeforeReset"])
        let draw = { (seed: UInt64) in TuningCandidate.candidates(parameters: parameters, configured: [:], limit: 50, seed: seed)
        }
        #expect(draw(7).count == 50)
        #expect(Set(draw(7).map(\.settings)).count == 50)
        #expect(draw(7) == draw(7))
        #expect(draw(7) != draw(8))
    }

    @Test("tuning ranges: durations, integers and numbers by step, repeats dropped")
    func ranges() {
        #expect(
            TuningRange.durations(from: .seconds(10), through: .seconds(40), by: .seconds(15)).configurationText
                == "10s, 25s, 40s")
        #expect(TuningRange.integers(from: 1, through: 7, by: 3).configurationText == "1, 4, 7")
        #expect(TuningRange.numbers(from: -90, through: -86, by: 2).values == [.number(-90), .number(-88), .number(-86)])
        #expect(TuningRange([.integer(1), .integer(1), .integer(2)]).values == [.integer(1), .integer(2)])
    }

    static func lobbyTuner(threads: Int, heldBack: Double = 0.25, objective: TuningObjective = TuningObjective()) throws
        -> (AlertTuner, [TuningRun])
    {
        let scenario = try Scenario.load(path: TestPaths.scenario("lobby-hour"))
        let configuration = try GatewayConfiguration.load(path: TestPaths.scenario("lobby-hour.alerts"))
        let base = try #require(try configuration.pipelineAlerts().first)
        let candidates = TuningCandidate.candidates(
            parameters: [Self.dwell, Self.proximity], configured: ["dwell": .duration(.seconds(60))], limit: 50, seed: 1)
        let tuner = AlertTuner(
            base: base, candidates: candidates, registry: .builtIn(), objective: objective, heldBackShare: heldBack,
            splitSeed: 3, threads: threads)
        let runs = [42, 43].map {
            TuningRun.simulation(
                scenario: scenario, seed: UInt64($0), configuration: configuration,
                definition: VisitDefinition(radius: 3, minimumDuration: .seconds(60)))
        }
        return (tuner, runs)
    }

    @Test("each candidate's score equals beacond score of a separate run of that candidate; threads change nothing")
    func scoresEqualSeparateRuns() async throws {
        let (tuner, runs) = try Self.lobbyTuner(threads: 2, heldBack: 0)
        let report = try await tuner.tune(runs: runs)
        let (oneThread, _) = try Self.lobbyTuner(threads: 1, heldBack: 0)
        #expect(try await oneThread.tune(runs: runs).outcomes == report.outcomes)

        let scenario = try Scenario.load(path: TestPaths.scenario("lobby-hour"))
        let truth = GroundTruth(scenario: scenario, definition: VisitDefinition(radius: 3, minimumDuration: .seconds(60)))
        let visits = truth.visits().map {
            Scoring.Visit(beacon: scenario.beacons[$0.beaconIndex].identity.beaconID, start: $0.start, end: $0.end)
        }.filter { tuner.base.match.matches($0.beacon) }
        for candidate in tuner.candidates {
            var alerts = 0
            var matched = 0
            var latencies: [Duration] = []
            for seed: UInt64 in [42, 43] {
                var seeded = scenario
                seeded.seed = seed
                let pipeline = try AlertPipeline(alerts: [candidate.alert(from: tuner.base)], registry: .builtIn())
                var delivered: [Scoring.Alert] = []
                _ = try await SimulationRun(simulation: Simulation(scenario: seeded, speed: .max), pipeline: pipeline).run {
                    let event = $0.event
                    if event.kind == .delivered, event.attempt == 0 {
                        delivered.append(Scoring.Alert(id: event.alertID, beacon: event.beacon, time: event.time))
                    }
                }
                let uuids = Set(visits.map(\.beacon.uuid))
                let score = Scoring.score(alerts: delivered, visits: visits, uuids: uuids).first
                alerts += score?.alerts ?? 0
                matched += score?.matchedAlerts ?? 0
                latencies += score?.latencies ?? []
            }
            let outcome = try #require(report.outcomes.first { $0.candidate == candidate })
            #expect(outcome.tuning.alerts == alerts, "\(candidate.label)")
            #expect(outcome.tuning.matchedAlerts == matched, "\(candidate.label)")
            #expect(outcome.tuning.latencies == latencies.sorted(), "\(candidate.label)")
            #expect(outcome.tuning.visits == visits.count * 2)
            #expect(outcome.heldBack.visits == 0 && outcome.heldBack.alerts == 0)
        }
    }

    @Test(
        "the ranking: candidates meeting the objective first, by recall; on the lobby hour the chairs' waiters make proximity near win"
    )
    func ranking() async throws {
        let (tuner, runs) = try Self.lobbyTuner(threads: 2)
        let report = try await tuner.tune(runs: runs)
        let meets = report.outcomes.map(\.meetsObjective)
        #expect(meets == meets.sorted { $0 && !$1 }, "a candidate that misses the objective ranks above one that meets it")
        for (a, b) in zip(report.outcomes, report.outcomes.dropFirst()) where a.meetsObjective == b.meetsObjective {
            #expect(a.tuning.recall >= b.tuning.recall)
        }
        let winner = try #require(report.winner)
        #expect(winner.tuning.precision >= 0.99)
        #expect(winner.candidate.settings.contains { $0.name == "proximity" && $0.value == .proximity(.near) })
        // The alert as configured fires for the people waiting in the chairs 5 m away.
        let configured = try #require(report.configured)
        #expect(!configured.meetsObjective && configured.tuning.precision < 0.9, "\(configured.tuning)")
        // The held-back share is about a quarter of the (run, beacon) pairs and is scored apart.
        let pairs = winner.tuning.visits + winner.heldBack.visits
        #expect(
            pairs > 0 && winner.heldBack.visits > 0 && winner.heldBack.visits < pairs / 2, "\(winner.heldBack.visits) of \(pairs)"
        )
    }

    @Test("a truth without a visit of a beacon the alert matches is refused, not ranked on nothing")
    func noVisits() async throws {
        let (tuner, runs) = try Self.lobbyTuner(threads: 1)
        var other = tuner
        other.base.match = BeaconMatch(.uuid(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, major: nil, minor: nil))
        await #expect(throws: TuningError.noVisits(alertID: "lobby-dwell")) { try await other.tune(runs: runs) }
    }

    @Test("beacond tune prints the table best first (exit 0) and refuses what it cannot run (exit 2)")
    func command() async throws {
        let scenario = TestPaths.scenario("lobby-hour")
        let run = try await CommandRun.run(
            TestPaths.beacond,
            ["tune", "--scenario", scenario, "--vary", "dwell=45s,1m", "--vary", "proximity", "--threads", "2"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("best: dwell=45s proximity=near"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("configured: dwell=1m proximity=(unset)"))

        let json = try await CommandRun.run(TestPaths.beacond, ["tune", "--scenario", scenario, "--vary", "dwell=45s", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((object["candidates"] as? [Any])?.count == 2)

        let unknown = try await CommandRun.run(TestPaths.beacond, ["tune", "--scenario", scenario, "--vary", "patience"])
        #expect(unknown.status == 2)
        #expect(
            unknown.standardError.contains("has no parameter 'patience'; its parameters: dwell, gap"), "\(unknown.standardError)")
        let twice = try await CommandRun.run(
            TestPaths.beacond, ["tune", "--scenario", scenario, "--vary", "dwell", "--vary", "dwell=30s"])
        #expect(twice.status == 2 && twice.standardError.contains("--vary dwell is given twice"), "\(twice.standardError)")
        let unnamed = try await CommandRun.run(TestPaths.beacond, ["tune", "--scenario", scenario, "--vary", "=30s"])
        #expect(unnamed.status == 2 && unnamed.standardError.contains("give a parameter's name"), "\(unnamed.standardError)")
        let spaced = try await CommandRun.run(
            TestPaths.beacond,
            ["tune", "--scenario", scenario, "--vary", "dwell= 45s , 1m", "--vary", "proximity=near", "--hold-back", "0"])
        #expect(spaced.status == 0, "\(spaced.standardError)")
        #expect(
            spaced.standardOutput.contains("best: dwell=45s proximity=near — nothing was held back"), "\(spaced.standardOutput)")
        let badValue = try await CommandRun.run(TestPaths.beacond, ["tune", "--scenario", scenario, "--vary", "dwell=soon"])
        #expect(badValue.status == 2 && badValue.standardError.contains("dwell"), "\(badValue.standardError)")
        let noTruth = try await CommandRun.run(
            TestPaths.beacond, ["tune", "--capture", TestPaths.scenario("lobby"), "--config", TestPaths.scenario("lobby.alerts")])
        #expect(noTruth.status == 2 && noTruth.standardError.contains("--capture needs --truth"), "\(noTruth.standardError)")
    }
}
