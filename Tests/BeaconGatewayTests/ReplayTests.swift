import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// `beacond replay` on a real capture. The expectations come from the tshark oracle next to the
/// capture (its iBeacon rows), worked through the strategies' documented rules by hand:
///
/// The csacca capture holds iBeacon `494E5445-4C4C-495F-524F-434B535F4857` (ASCII
/// "INTELLI_ROCKS_HW"), major 20594 seen at 079.79, 080.25, 081.75, 081.80, 082.26, 087.80,
/// 087.86, 088.32, 089.82, 091.89 and major 20597 once at 088.74 (seconds after 1612150000).
/// With 1 s cycles aligned on whole seconds, major 20594 is present in the cycles ending at
/// 080, 081, 082, 083, 088, 089, 090 and 092.
/// - `time` (dwell 5 s, gap 10 s): the visit starts at 080; the 5 s gap 083 → 088 does not end
///   it; at 088 the visit has lasted 8 s ≥ 5 s → one alert at 1612150088 = 03:28:08.000Z.
///   Major 20597 is present in one cycle only → no alert.
/// - `time` (dwell 5 s, gap 3 s): the gap 083 → 088 (5 s) starts a new visit at 088; it lasts
///   only to 092 (4 s) → no alert.
/// - `enter`: each beacon's first present cycle: 20594 at 080 (03:28:00.000Z), 20597 at 089.
@Suite("Replay of a real capture")
struct ReplayTests {
    static let capture = TestPaths.capture("csacca_horizon74_btsnoop_hci.btsnoop")
    static let uuid = "494E5445-4C4C-495F-524F-434B535F4857"

    static func config(_ alerts: String) -> String { "alerts:\n" + alerts }

    static func replay(_ yaml: String) async throws -> [AlertEvent] {
        let configuration = try GatewayConfiguration(node: ConfigNode(yaml: yaml))
        let pipeline = try AlertPipeline(configuration: configuration, registry: .builtIn())
        var events: [AlertEvent] = []
        try await PipelineRunner.run(source: CaptureReplaySource(path: capture), pipeline: pipeline) { events.append($0.event) }
        return events
    }

    @Test("Dwell 5 s with a 10 s gap fires once, at 03:28:08, for major 20594 only")
    func dwellFires() async throws {
        let events = try await Self.replay(
            Self.config(
                """
                  - id: dwell
                    match: {uuid: \(Self.uuid)}
                    strategy: time
                    parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 60s}
                    content: {title: Welcome, message: Hello}
                """))
        let delivered = events.filter { $0.kind == .delivered }
        #expect(delivered.count == 1)
        #expect(delivered.first?.beacon.major == 20594)
        #expect(delivered.first?.beacon.minor == 62207)
        #expect(delivered.first?.time.rfc3339String == "2021-02-01T03:28:08.000Z")
        #expect(delivered.first?.content.title == "Welcome")
        #expect(delivered.first?.strategy == "time")
    }

    @Test("Dwell 5 s with a 3 s gap never fires: the 5 s silence splits the visit")
    func gapSplitsVisit() async throws {
        let events = try await Self.replay(
            Self.config(
                """
                  - id: dwell
                    strategy: time
                    parameters: {dwell: 5s, gap: 3s}
                """))
        #expect(events.filter { $0.kind == .delivered }.isEmpty)
    }

    @Test("Enter fires at each beacon's first present cycle")
    func enterFires() async throws {
        let events = try await Self.replay(Self.config("  - {id: hello, strategy: enter}\n"))
        let delivered = events.filter { $0.kind == .delivered }.map { "\($0.beacon.major)@\($0.time.rfc3339String)" }
        #expect(delivered == ["20594@2021-02-01T03:28:00.000Z", "20597@2021-02-01T03:28:09.000Z"])
    }

    @Test("A match narrows the beacons an alert sees")
    func matchNarrows() async throws {
        let events = try await Self.replay(
            Self.config(
                """
                  - {id: hello, strategy: enter, match: {uuid: \(Self.uuid), major: 20597}}
                """))
        #expect(events.filter { $0.kind == .delivered }.map(\.beacon.major) == [20597])
    }

    @Test("beacond replay prints the delivered alert as a JSON line with the promised fields")
    func commandLine() async throws {
        let configPath = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(getpid()).yaml").path
        try Self.config(
            """
              - id: lobby-dwell
                match: {uuid: \(Self.uuid)}
                strategy: time
                parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 60s}
                content: {title: Welcome, message: Hello}
            """
        ).write(toFile: configPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        let run = try await CommandRun.run(TestPaths.beacond, ["replay", Self.capture, "--config", configPath])
        #expect(run.status == 0, "\(run.standardError)")
        let delivered = run.standardOutput.split(separator: "\n").filter { $0.contains(#""event":"delivered""#) }
        #expect(delivered.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(delivered[0].utf8)) as? [String: Any])
        #expect(object["alert"] as? String == "lobby-dwell")
        #expect(object["strategy"] as? String == "time")
        #expect(object["time"] as? String == "2021-02-01T03:28:08.000Z")
        let beacon = try #require(object["beacon"] as? [String: Any])
        #expect(beacon["uuid"] as? String == Self.uuid)
        #expect(beacon["major"] as? Int == 20594)
        #expect(beacon["minor"] as? Int == 62207)
        #expect(run.standardError.contains("lobby-dwell/delivered 1"))
    }

    @Test("A bad configuration exits non-zero with the file, line and reason")
    func badConfiguration() async throws {
        let configPath = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(getpid()).yaml").path
        try "alerts:\n  - id: a\n    strategy: dwell\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        let run = try await CommandRun.run(TestPaths.beacond, ["replay", Self.capture, "--config", configPath])
        #expect(run.status != 0)
        #expect(run.standardError.contains("alert 'a'"), "\(run.standardError)")
        #expect(run.standardError.contains("dwell"), "\(run.standardError)")
        #expect(run.standardError.contains("time"), "the valid keys are listed: \(run.standardError)")
    }
}
