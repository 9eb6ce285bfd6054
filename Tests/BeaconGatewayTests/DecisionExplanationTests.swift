import BeaconAlertEngine
import BeaconConfiguration
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

/// Explanations (issue 38, item 1): a traced run writes each alert's and beacon's timeline, and
/// its verdict agrees with what the engine of a plain run did.
@Suite("Explanations: why an alert fired, or what stood in its way")
struct DecisionExplanationTests {
    /// Runs `scenario` (with its sibling alerts) on virtual time; with `tracer` set on the pipeline.
    static func run(
        _ name: String, duration: Duration? = nil, alerts: String? = nil, tracer: DecisionTracer? = nil
    ) async throws -> (events: [AlertEvent], scenario: Scenario) {
        var scenario = try Scenario.load(path: TestPaths.scenario(name))
        if let duration { scenario.duration = duration }
        let configuration =
            try alerts.map { try GatewayConfiguration(node: ConfigNode(yaml: $0, file: "alerts.yaml")) }
            ?? GatewayConfiguration.load(path: TestPaths.repositoryRoot + "/Simulator/Scenarios/\(name).alerts.yaml")
        let pipeline = try AlertPipeline(configuration: configuration, registry: .builtIn())
        pipeline.decisionTracer = tracer
        var events: [AlertEvent] = []
        _ = try await SimulationRun(simulation: Simulation(scenario: scenario), pipeline: pipeline).run {
            events.append($0.event)
        }
        tracer?.finish()
        return (events, scenario)
    }

    static func beacon(_ name: String, in scenario: Scenario) throws -> BeaconID {
        try #require(scenario.beacons.first { $0.name == name }).identity.beaconID
    }

    @Test("the lobby: visitor 1's timeline ends delivered when the engine delivered; visitor 2's says the dwell fell short")
    func lobby() async throws {
        let plain = try await Self.run("lobby")
        let scenario = plain.scenario
        let visitor1 = try Self.beacon("visitor-1", in: scenario)
        let visitor2 = try Self.beacon("visitor-2", in: scenario)
        let delivered = plain.events.filter { $0.kind == .delivered && $0.beacon == visitor1 }.map(\.time)
        #expect(delivered.count == 1)

        let first = DecisionTracer(.one(alertID: "lobby-dwell", beacon: visitor1))
        _ = try await Self.run("lobby", tracer: first)
        let timeline = try #require(first.timeline(alertID: "lobby-dwell", beacon: visitor1))
        #expect(timeline.verdict().deliveries == delivered)
        // The lines a person needs, in the order they happened: heard, in a visit, the condition,
        // the firing, the engine's events.
        let kinds = timeline.entries.map(\.kind)
        for (earlier, later) in [
            (DecisionTraceEntry.Kind.heard, DecisionTraceEntry.Kind.condition), (.condition, .fired), (.fired, .event),
        ] {
            let a = try #require(kinds.firstIndex(of: earlier), "no \(earlier) line")
            let b = try #require(kinds.firstIndex(of: later), "no \(later) line")
            #expect(a < b, "\(earlier) before \(later)")
        }
        #expect(timeline.entries.contains { $0.kind == .strategy && $0.text.hasPrefix("in a visit since") })
        // Visitor 1 misses a cycle now and then at the desk: folded into a line, not four each.
        #expect(timeline.entries.contains { $0.kind == .unheard && $0.text.contains("the strategy went on as before") })
        #expect(!timeline.entries.contains { $0.kind == .heard && $0.text.hasPrefix("heard again") && $0.time < delivered[0] })
        #expect(timeline.entries.allSatisfy { $0.time >= scenario.start && $0.time <= scenario.end })
        #expect(zip(timeline.entries, timeline.entries.dropFirst()).allSatisfy { $0.time <= $1.time }, "in time order")
        let text = timeline.text()
        #expect(text.hasSuffix("verdict: delivered at \(delivered[0].timeOfDayString)\n"), "\(text)")

        let second = DecisionTracer(.one(alertID: "lobby-dwell", beacon: visitor2))
        _ = try await Self.run("lobby", tracer: second)
        let crossing = try #require(second.timeline(alertID: "lobby-dwell", beacon: visitor2))
        let verdict = crossing.verdict()
        #expect(!verdict.delivered)
        let obstacle = try #require(verdict.obstacle)
        #expect(obstacle.contains("the condition never held"), "\(obstacle)")
        // Visitor 2 crosses in about 10 s: the closest it came is a few seconds of the 60.
        let best = try #require(crossing.progressPeaks.map(\.progress).max { $0.value < $1.value })
        #expect(best.threshold == 60 && best.value > 0 && best.value < 20, "\(best)")
        #expect(obstacle.contains("of 60 s"), "\(obstacle)")
    }

    @Test("a beacon the alert does not match, and one never heard, are told apart")
    func unmatchedAndUnheard() async throws {
        let scenario = try Scenario.load(path: TestPaths.scenario("lobby"))
        let entrance = try Self.beacon("entrance", in: scenario) // another UUID: not the alert's
        let tracer = DecisionTracer(.one(alertID: "lobby-dwell", beacon: entrance))
        _ = try await Self.run("lobby", tracer: tracer)
        let unmatched = try #require(tracer.timeline(alertID: "lobby-dwell", beacon: entrance))
        #expect(unmatched.verdict().obstacle?.contains("match does not include") == true)

        let stranger = BeaconID.iBeacon(
            uuidHigh: 0x5A4B_CFCE_174E_4BAC, uuidLow: 0xA814_092E_77F6_B7E5, major: 1, minor: 99)
        let nobody = DecisionTracer(.one(alertID: "lobby-dwell", beacon: stranger))
        _ = try await Self.run("lobby", tracer: nobody)
        let timeline = try #require(nobody.timeline(alertID: "lobby-dwell", beacon: stranger))
        #expect(timeline.entries.isEmpty)
        #expect(timeline.verdict().obstacle?.hasPrefix("never heard") == true)
    }

    @Test("a firing the engine ignores (firing: first) says so, with the rule; the verdict names it")
    func ignoredFiring() async throws {
        // The lobby's dwell with a 20 s dwell that fires at each visit's start... once: `first`.
        // Visitor 1's single visit fires once; a 5 s dwell with a 2 s gap fires again after each
        // missed stretch, and `first` ignores every firing after the first.
        let alerts = """
            alerts:
              - id: lobby-dwell
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
                strategy: time
                parameters: {dwell: 5s, gap: 1s, maxTimeBeforeReset: 1s, resetWhenConditionInvalid: true}
                firing: first
            """
        let scenario = try Scenario.load(path: TestPaths.scenario("lobby"))
        let visitor1 = try Self.beacon("visitor-1", in: scenario)
        let tracer = DecisionTracer(.one(alertID: "lobby-dwell", beacon: visitor1))
        let run = try await Self.run("lobby", alerts: alerts, tracer: tracer)
        let timeline = try #require(tracer.timeline(alertID: "lobby-dwell", beacon: visitor1))
        let fired = timeline.entries.filter { $0.kind == .fired }
        let ignored = timeline.entries.filter { $0.kind == .ignored }
        #expect(fired.count >= 2, "the strategy fires again after a reset: \(timeline.text())")
        #expect(ignored.count == fired.count - 1, "every firing after the first is ignored")
        #expect(ignored.allSatisfy { $0.text.contains("firing is 'first'") })
        let delivered = run.events.filter { $0.kind == .delivered && $0.beacon == visitor1 }
        #expect(delivered.count == 1)
        // Judged after the delivery only, the verdict names the rule that stood in the way.
        let after = try #require(delivered.first).time + .seconds(1)
        let verdict = timeline.verdict(from: after)
        #expect(!verdict.delivered)
        #expect(verdict.obstacle?.contains("firing is 'first'") == true, "\(verdict)")
    }

    @Test("beacond explain: the timeline and verdict of a scenario's beacon by name, as text and JSON; what cannot run is exit 2")
    func command() async throws {
        let lobby = TestPaths.scenario("lobby")
        let text = try await CommandRun.run(TestPaths.beacond, ["explain", "--scenario", lobby, "--beacon", "visitor-2"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.hasPrefix("lobby-dwell for ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:2 (visitor-2)\n"),
            "\(text.standardOutput)")
        #expect(text.standardOutput.contains("verdict: not delivered: heard from "), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("but the condition never held"))

        let json = try await CommandRun.run(
            TestPaths.beacond,
            ["explain", "--scenario", lobby, "--beacon", "ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:1", "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let verdict = try #require(object["verdict"] as? [String: Any])
        #expect(verdict["delivered"] as? Bool == true)
        #expect((object["entries"] as? [Any])?.isEmpty == false)

        // --to before the dwell: judged then, it was not delivered yet.
        let early = try await CommandRun.run(
            TestPaths.beacond, ["explain", "--scenario", lobby, "--beacon", "visitor-1", "--to", "30s"])
        #expect(early.standardOutput.contains("verdict: not delivered: heard from"), "\(early.standardOutput)")

        // The soak's asset tags advertise every 5 s, longer than ranging keeps an unheard beacon:
        // thousands of misses fold into a line that says so; the timeline stays readable.
        let asset = try await CommandRun.run(
            TestPaths.beacond,
            [
                "explain", "--scenario", TestPaths.scenario("soak"), "--to", "20m", "--beacon", "asset-7", "--alert",
                "asset-settled",
            ])
        #expect(asset.status == 0, "\(asset.standardError)")
        #expect(asset.standardOutput.contains("long enough for ranging to stop tracking it"), "\(asset.standardOutput)")
        #expect(asset.standardOutput.split(separator: "\n").count < 30, "\(asset.standardOutput)")
        #expect(asset.standardOutput.contains("verdict: delivered at 00:10:0"), "\(asset.standardOutput)")

        let unknownAlert = try await CommandRun.run(
            TestPaths.beacond, ["explain", "--scenario", lobby, "--beacon", "visitor-1", "--alert", "nope"])
        #expect(unknownAlert.status == 2 && unknownAlert.standardError.contains("no alert 'nope'; the alerts: lobby-dwell"))
        let unknownBeacon = try await CommandRun.run(
            TestPaths.beacond, ["explain", "--scenario", lobby, "--beacon", "visitor-9"])
        #expect(unknownBeacon.status == 2 && unknownBeacon.standardError.contains("'visitor-9' is neither a beacon identity"))
        let twoInputs = try await CommandRun.run(
            TestPaths.beacond, ["explain", "--scenario", lobby, "--site", "x.yaml", "--beacon", "visitor-1"])
        #expect(twoInputs.status != 0 && twoInputs.standardError.contains("give one input"), "\(twoInputs.standardError)")
    }

    @Test("the agreement check catches a verdict that is off by a second")
    func checkCanFail() async throws {
        let scenario = try Scenario.load(path: TestPaths.scenario("lobby"))
        let visitor1 = try Self.beacon("visitor-1", in: scenario)
        let tracer = DecisionTracer(.one(alertID: "lobby-dwell", beacon: visitor1))
        let run = try await Self.run("lobby", tracer: tracer)
        let key = AlertKey(alertID: "lobby-dwell", beacon: visitor1)
        let shifted = run.events.map { event in
            var moved = event
            moved.time = moved.time + .seconds(1)
            return moved
        }
        let honest = ExplanationCheck(events: run.events).check(
            tracer.timelines, keys: [key], from: scenario.start, to: scenario.end, count: 500, seed: 1)
        #expect(honest.agreeing == 500)
        let off = ExplanationCheck(events: shifted).check(
            tracer.timelines, keys: [key], from: scenario.start, to: scenario.end, count: 500, seed: 1)
        #expect(off.agreeing < 500 && !off.disagreements.isEmpty)
    }

    @Test(
        "agreement: on the soak's first 3 hours, 10,000 random (alert, beacon, time) triples — the verdict equals the engine's deliveries"
    )
    func agreement() async throws {
        let duration = Duration.seconds(3 * 3600)
        let plain = try await Self.run("soak", duration: duration)
        let tracer = DecisionTracer(.every(alertIDs: nil))
        let traced = try await Self.run("soak", duration: duration, tracer: tracer)
        #expect(traced.events == plain.events, "tracing changed what the engine did")

        // Every alert and beacon the run touched: heard by the alert's strategy, or delivered.
        let check = ExplanationCheck(events: plain.events)
        let keys = Set(tracer.timelines.keys).union(check.deliveries.keys).sorted()
        #expect(keys.count > 100, "\(keys.count) alert and beacon pairs")
        let scenario = plain.scenario
        let result = check.check(
            tracer.timelines, keys: keys, from: scenario.start, to: scenario.end, count: 10_000, seed: 38)
        #expect(result.triples == 10_000)
        #expect(result.agreeing == result.triples, "\(result.disagreements.joined(separator: "\n"))")
        // Not a vacuous check: a good share of the triples fall after a delivery, and many before.
        #expect(result.delivered > 1_000 && result.delivered < 9_000, "\(result.delivered) delivered")
    }

    @Test("a C plugin's strategy is explained in its own words, and check-explanations holds it to its deliveries")
    func pluginExplained() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let alerts = directory.appendingPathComponent("streak.alerts.yaml").path
        try """
        alerts:
          - id: lobby-streak
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
            strategy: c-streak
            parameters: {cycles: 5, reset_seconds: 30}
        """.write(toFile: alerts, atomically: true, encoding: .utf8)
        let lobby = TestPaths.scenario("lobby")
        let explained = try await CommandRun.run(
            TestPaths.beacond,
            ["explain", "--plugin", TestPaths.exampleCPlugin, "--scenario", lobby, "--config", alerts, "--beacon", "visitor-1"])
        #expect(explained.status == 0, "\(explained.standardError)")
        #expect(explained.standardOutput.contains("in a streak of sightings, 5 cycles wanted"), "\(explained.standardOutput)")
        #expect(explained.standardOutput.contains("alerted; resets after 30 s unseen"), "\(explained.standardOutput)")
        #expect(explained.standardOutput.contains("verdict: delivered"), "\(explained.standardOutput)")

        let checked = try await CommandRun.run(
            TestPaths.beacond,
            [
                "check-explanations", "--plugin", TestPaths.exampleCPlugin, "--scenario", lobby, "--config", alerts,
                "--triples", "2000",
            ])
        #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        #expect(checked.standardOutput.contains("2000 agree (100.0 %)"), "\(checked.standardOutput)")
        let unknown = try await CommandRun.run(
            TestPaths.beacond, ["check-explanations", "--scenario", lobby, "--alert", "nope"])
        #expect(unknown.status == 2 && unknown.standardError.contains("no alert 'nope'; the alerts: lobby-dwell"))
    }
}
