import BeaconTestSupport
import Foundation
import Testing

/// The bundled home scenario end to end (`beacond simulate`, `beacond score`): Ada's phone,
/// enrolled with the scenario's key, is ranged as device:ada-phone and greeted once per
/// homecoming, each after its second private address; 160 passers-by with phones nobody enrolled
/// are never ranged.
@Suite("The home scenario: a phone among strangers")
struct HomeScenarioTests {
    static let scenario = TestPaths.repositoryRoot + "/Simulator/Scenarios/home.yaml"

    @Test("Ada is greeted at each of her two homecomings, after her phone's second address, and at no other time")
    func greetedTwice() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-home-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", Self.scenario, "--truth", directory + "/truth.jsonl"])
        #expect(run.status == 0, "\(run.standardError)")
        let delivered = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("{\"event\":\"delivered\"") }
        #expect(delivered.count == 2, "\(run.standardOutput)")
        #expect(delivered.allSatisfy { $0.contains("\"beacon\":{\"type\":\"device\",\"device\":\"ada-phone\"}") })
        // She reaches the hall at 17:30:51 and 20:31:21 (the truth's visits). Each greeting comes
        // at her phone's next address change (every 15 min) plus the 1 min dwell: within 16 min.
        let times = delivered.compactMap { line in line.firstMatch(of: /"time":"([^"]+)"/).map { String($0.1) } }
        #expect(times.count == 2)
        #expect(times[0] > "2025-01-01T17:31:51" && times[0] < "2025-01-01T17:46:52", "\(times)")
        #expect(times[1] > "2025-01-01T20:32:21" && times[1] < "2025-01-01T20:47:22", "\(times)")
        try run.standardOutput.write(toFile: directory + "/alerts.jsonl", atomically: false, encoding: .utf8)
        let score = try await CommandRun.run(
            TestPaths.beacond, ["score", "--truth", directory + "/truth.jsonl", "--alerts", directory + "/alerts.jsonl"])
        #expect(score.standardOutput.contains("ada-home  2       2       2        100.0%     100.0%"), "\(score.standardOutput)")
    }

    @Test("with an alert on every beacon, only Ada's phone is ever ranged: no passer-by's address resolves")
    func strangersAreNeverRanged() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-home-any-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = """
            devices: [{id: ada-phone, irk: scenario}]
            alerts:
              - {id: anyone, match: any, strategy: time, parameters: {dwell: 1s, gap: 30s, maxTimeBeforeReset: 1m}}
            """
        try config.write(toFile: directory + "/any.yaml", atomically: false, encoding: .utf8)
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", Self.scenario, "--config", directory + "/any.yaml"])
        #expect(run.status == 0, "\(run.standardError)")
        let events = run.standardOutput.split(separator: "\n")
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.contains("\"device\":\"ada-phone\"") }, "\(events.filter { !$0.contains("ada-phone") })")
        #expect(run.standardError.contains(/beacons tracked at end\s+1\n/), "\(run.standardError)")
    }

    @Test("irk: scenario in a daemon's file (one with a source:) says to give a key file")
    func scenarioKeyOutsideASimulation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-home-check-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "source: {replay: air.btsnoop}\ndevices: [{id: ada-phone, irk: scenario}]\nalerts: []\n".write(
            toFile: directory + "/a.yaml", atomically: false, encoding: .utf8)
        let run = try await CommandRun.run(TestPaths.beacond, ["check-config", directory + "/a.yaml"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("only beacond simulate has one: give a key file"), "\(run.standardError)")
        // An alerts-only file is for beacond simulate --config: checked with a stand-in key.
        try "devices: [{id: ada-phone, irk: scenario}]\nalerts: []\n".write(
            toFile: directory + "/b.yaml", atomically: false, encoding: .utf8)
        let alertsOnly = try await CommandRun.run(TestPaths.beacond, ["check-config", directory + "/b.yaml"])
        #expect(alertsOnly.status == 0, "\(alertsOnly.standardError)")
        #expect(alertsOnly.standardOutput.contains("devices with irk: scenario (ada-phone) take their keys"))
    }
}
