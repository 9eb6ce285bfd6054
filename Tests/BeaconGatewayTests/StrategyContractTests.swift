import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconTestSupport
import Foundation
import Testing

/// The strategy contract end to end, with the **default** policy: a strategy fires once per
/// activation, its reset (`maxTimeBeforeReset` unseen) lets it fire again, and the engine's
/// default `every-activation` delivers each activation. Cycles are 1 s, aligned on whole
/// seconds; a beacon advertising during `[a, b)` is present in the cycles ending at `a + 1` …
/// `b`. Expected times are worked out from Docs/Strategies.md by hand, in each test's comment.
@Suite("Strategy contract: resets re-alert with the default policy")
struct StrategyContractTests {
    static func pipeline(_ alerts: String, store: any AlertStateStore = InMemoryAlertStateStore()) throws -> AlertPipeline {
        try AlertPipeline(
            configuration: GatewayConfiguration(node: ConfigNode(yaml: "alerts:\n" + alerts)),
            registry: .builtIn(), store: store)
    }

    static func delivered(_ events: [AlertEvent]) -> [Double] {
        events.filter { $0.kind == .delivered }.map { Double(($0.time - Timeline.start).components.seconds) }
    }

    /// Sightings one by one, then the cycles up to `end`.
    static func feed(_ pipeline: AlertPipeline, _ sightings: [BeaconSighting], until end: Double) throws -> [AlertEvent] {
        var events: [AlertEvent] = []
        for sighting in sightings { try pipeline.ingest(sighting) { events.append($0.event) } }
        try pipeline.advance(to: Timeline.start + .seconds(end)) { events.append($0.event) }
        return events
    }

    // MARK: The scripted capture of the issue

    /// Dwell 60 s, gap 3 s, reset 30 s; present 0–70 s, 90–200 s, 240–310 s.
    /// - Visit 1 starts at the cycle ending at 1 s; it has lasted 60 s at 61 s → alert at 61.
    /// - Unseen 70 → 90 s: 20 s < 30 s, no reset; visit 2 (91 → 200) cannot fire.
    /// - Unseen from the cycle ending at 200 s: reset at 230 s; visit 3 starts at 241 s and
    ///   has lasted 60 s at 301 s → alert at 301.
    static let threeVisits = Timeline(present: [(0, 70), (90, 200), (240, 310)])
    static let dwellAlert = """
          - id: dwell
            match: {uuid: \(Timeline.uuid.uuidString)}
            strategy: time
            parameters: {dwell: 60s, gap: 3s, maxTimeBeforeReset: 30s}

        """

    @Test("three visits, dwell 60 s, reset 30 s: alerts at 61 s and 301 s (sightings)")
    func threeVisitsSightings() throws {
        let events = try Self.feed(Self.pipeline(Self.dwellAlert), Self.threeVisits.sightings, until: 400)
        #expect(Self.delivered(events) == [61, 301])
    }

    @Test("three visits through a btsnoop capture replayed: alerts at 61 s and 301 s")
    func threeVisitsReplay() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("three-visits-\(UUID()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.threeVisits.writeCapture(to: path)
        var events: [AlertEvent] = []
        try await PipelineRunner.run(source: CaptureReplaySource(path: path), pipeline: Self.pipeline(Self.dwellAlert)) {
            events.append($0.event)
        }
        #expect(Self.delivered(events) == [61, 301])
    }

    @Test(
        "beacond run (replay source, state file, jsonl sink): three visits alert at 61 s and 301 s, the lone beacon at 61 s and 511 s",
        arguments: [(false, ["09:01:01", "09:05:01"]), (true, ["09:01:01", "09:08:31"])])
    func daemon(_ lone: Bool, _ expected: [String]) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-run-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try (lone ? Self.loneBeacon : Self.threeVisits).writeCapture(to: directory + "/visits.btsnoop")
        let config =
            "source: replay:\(directory)/visits.btsnoop\nstate: \(directory)/state.sqlite\n"
            + "sinks:\n  - {type: jsonl, path: \(directory)/alerts.jsonl}\nalerts:\n" + (lone ? Self.loneAlert : Self.dwellAlert)
        try config.write(toFile: directory + "/gateway.yaml", atomically: true, encoding: .utf8)
        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", directory + "/gateway.yaml"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = try String(contentsOfFile: directory + "/alerts.jsonl", encoding: .utf8).split(separator: "\n")
        let delivered = lines.filter { $0.contains("\"event\":\"delivered\"") }
        #expect(delivered.count == expected.count)
        for (line, time) in zip(delivered, expected) {
            #expect(line.contains("\"time\":\"2025-01-01T\(time).000Z\""), "\(line)")
        }
    }

    @Test("the lone beacon through a btsnoop capture replayed: alerts at 61 s and 511 s")
    func loneBeaconReplay() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lone-\(UUID()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.loneBeacon.writeCapture(to: path)
        var events: [AlertEvent] = []
        try await PipelineRunner.run(source: CaptureReplaySource(path: path), pipeline: Self.pipeline(Self.loneAlert)) {
            events.append($0.event)
        }
        #expect(Self.delivered(events) == [61, 511])
    }

    @Test("three visits through a simulated scenario: alerts about 61 s and 301 s")
    func threeVisitsSimulated() async throws {
        // A walker at the desk (1 m) 0–70 s; at 100 m/s it is out of range (about 112 m) about
        // 1 s after leaving, 10 s to a point 1 km away and 10 s back: back in range about 89 s.
        // At the desk to 200 s, away (20 s of walking, 20 s waiting), back about 239 s to 310 s.
        let times = try await Self.simulate(
            duration: "7m",
            waypoints: """
                - {at: [1, 0, 1], dwell: 70s}
                - {at: [1000, 0, 1], dwell: 0s}
                - {at: [1, 0, 1], dwell: 110s}
                - {at: [1000, 0, 1], dwell: 20s}
                - {at: [1, 0, 1], dwell: 70s}
                - [1000, 0, 1]
                """, alert: Self.dwellAlert)
        #expect(times.count == 2, "\(times)")
        #expect(times.first.map { (60...62).contains($0) } == true, "\(times)")
        #expect(times.last.map { (298...302).contains($0) } == true, "\(times)")
    }

    @Test("with the explicit once-per-beacon the same visits alert once, at 61 s")
    func oncePerBeaconStaysAvailable() throws {
        let events = try Self.feed(
            Self.pipeline(Self.dwellAlert + "    firing: once-per-beacon\n"),
            Self.threeVisits.sightings, until: 400)
        #expect(Self.delivered(events) == [61])
    }

    // MARK: The lone beacon

    /// Dwell 60 s, reset 60 s; the only beacon heard: present 0–90 s, away 6 min, back 450–540 s.
    /// The ranging loop tracks nothing from its eviction on (30 s after 90 s) and emits no
    /// cycles; the pipeline runs them empty, so the reset happens at 150 s. Alerts at 61 s and
    /// 511 s (450 + 1 + 60).
    static let loneBeacon = Timeline(present: [(0, 90), (450, 540)])
    static let loneAlert = """
          - id: dwell
            strategy: time
            parameters: {dwell: 60s, gap: 3s, maxTimeBeforeReset: 60s}

        """

    @Test(
        "a beacon that is the only one heard resets: alerts at 61 s and 511 s", arguments: ["", "    firing: every-activation\n"])
    func loneBeaconResets(_ firing: String) throws {
        let events = try Self.feed(Self.pipeline(Self.loneAlert + firing), Self.loneBeacon.sightings, until: 700)
        #expect(Self.delivered(events) == [61, 511])
    }

    @Test("the lone beacon through a simulated scenario alerts on both visits")
    func loneBeaconSimulated() async throws {
        // One gateway; a walker at the desk (1 m) for 90 s, then 1 km away (out of range: the
        // sensitivity is reached at about 112 m) for about 6 min, then back for 90 s.
        let times = try await Self.simulate(
            duration: "12m",
            waypoints: """
                - {at: [1, 0, 1], dwell: 90s}
                - {at: [1000, 0, 1], dwell: 340s}
                - {at: [1, 0, 1], dwell: 90s}
                - [1000, 0, 1]
                """, alert: Self.loneAlert)
        // Visit 1 from 0 s: alert about 61 s. Visit 2 arrives after 90 + 10 + 340 + 10 = 450 s:
        // alert about 511 s (allowing a second either way for the walk's edge).
        #expect(times.count == 2)
        #expect(times.first.map { (60...62).contains($0) } == true)
        #expect(times.last.map { (509...513).contains($0) } == true)
    }

    /// Exit after 45 s away, the only beacon, a live source's clock ticking every second: the
    /// last present cycle ends at 10 s, so the departure fires at 55 s — although the ranging
    /// loop stopped tracking the beacon at 40 s (retention 30 s) and emits no cycle after.
    static let exitAlert = "  - {id: gone, strategy: exit, parameters: {away: 45s}}\n"

    @Test("a live tick moves the strategies' time when nothing is tracked: exit fires at 55 s")
    func tickMovesTime() throws {
        let pipeline = try Self.pipeline(Self.exitAlert)
        var events: [AlertEvent] = []
        for sighting in Timeline(present: [(0, 10)]).sightings { try pipeline.ingest(sighting) { events.append($0.event) } }
        for second in 11...120 { try pipeline.advance(to: Timeline.start + .seconds(second)) { events.append($0.event) } }
        #expect(Self.delivered(events) == [55])
    }

    /// The same departure in a replay: the capture goes on to 120 s with other devices' HCI
    /// events only. They are the replay's clock, so the exit fires at 55 s; a capture that ends
    /// with the beacon's last packet (9.5 s) ends before the departure is due.
    @Test("packets of other devices move a replay's time", arguments: [(true, [55.0]), (false, [])])
    func otherPacketsMoveTime(_ clock: Bool, _ expected: [Double]) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("exit-\(UUID()).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Timeline(present: [(0, 10)]).writeCapture(to: path, clockEvery: clock ? 5 : nil, until: 120)
        var events: [AlertEvent] = []
        try await PipelineRunner.run(source: CaptureReplaySource(path: path), pipeline: Self.pipeline(Self.exitAlert)) {
            events.append($0.event)
        }
        #expect(Self.delivered(events) == expected)
    }

    /// Runs one gateway at [0, 0, 1] and one walker (100 m/s, carrying the timeline's beacon)
    /// through the pipeline with `alert`, on a noiseless radio that loses nothing and hears up
    /// to about 112 m; returns the delivery times in seconds.
    static func simulate(duration: String, waypoints: String, alert: String) async throws -> [Double] {
        let indented = waypoints.split(separator: "\n").map { "          " + $0 }.joined(separator: "\n")
        let scenario = try Scenario.parse(
            yaml: """
                name: walker
                start: 2025-01-01T09:00:00Z
                duration: \(duration)
                radio: {path_loss_exponent: 2.0, shadowing_sigma: 0, packet_loss: 0, sensitivity: -100}
                gateways: [{name: desk, position: [0, 0, 1]}]
                walkers:
                  - name: visitor
                    speed: 100
                    waypoints:
                \(indented)
                beacons:
                  - {name: visitor, ibeacon: {uuid: \(Timeline.uuid.uuidString), major: 1, minor: 1}, carried_by: visitor}
                """, file: "walker.yaml")
        var events: [AlertEvent] = []
        _ = try await SimulationRun(simulation: Simulation(scenario: scenario), pipeline: pipeline(alert)).run {
            events.append($0.event)
        }
        return delivered(events)
    }

    // MARK: resetWhenConditionInvalid

    /// Dwell 20 s, gap 3 s, resetWhenConditionInvalid: one 90 s visit in which every fifth
    /// second is missed (a 2 s silence, within the gap) fires once; a second visit after a 10 s
    /// break (more than the gap: the visit ended, the condition stopped holding) fires again.
    @Test("resetWhenConditionInvalid on time fires once per visit, not on every missed scan")
    func resetWhenInvalidOncePerVisit() throws {
        var intervals: [(Double, Double)] = []
        for start in stride(from: 0.0, to: 90, by: 5) { intervals.append((start, start + 3)) }
        intervals.append((100, 130))
        let timeline = Timeline(present: intervals)
        let pipeline = try Self.pipeline(
            """
              - id: dwell
                strategy: time
                parameters: {dwell: 20s, gap: 3s, resetWhenConditionInvalid: true, maxTimeBeforeReset: 1h}

            """)
        let events = try Self.feed(pipeline, timeline.sightings, until: 200)
        // Visit 1 starts at 1 s and has lasted 20 s at the present cycle ending at 21 s;
        // visit 2 starts at 101 s → 121 s.
        #expect(Self.delivered(events) == [21, 121])
    }
}
