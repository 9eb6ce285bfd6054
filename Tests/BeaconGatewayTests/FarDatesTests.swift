import BeaconTestSupport
import Foundation
import Testing

/// Dates past 2262 in files (issue 26, defect 1): `notBefore: 2263-…` crashed `check-config` and a
/// scenario `start:` past 2262 crashed `simulate`, in date arithmetic. Both are now refused at
/// their line, with exit status 2.
@Suite("Far dates in configuration and scenarios")
struct FarDatesTests {
    static func write(_ text: String, _ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-far-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("check-config refuses notBefore: 2263-01-01 at its line, without crashing")
    func notBefore() async throws {
        let file = try Self.write(
            """
            source: {simulate: /nonexistent.yaml}
            alerts:
              - id: late
                strategy: enter
                notBefore: 2263-01-01T00:00:00Z

            """, "gateway.yaml")
        let run = try await CommandRun.run(TestPaths.beacond, ["check-config", file.path])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("2263-01-01T00:00:00Z"), "\(run.standardError)")
        #expect(run.standardError.contains("1900–2200"), "\(run.standardError)")
    }

    @Test("simulate refuses a scenario starting in 2300 at its line, without crashing")
    func scenarioStart() async throws {
        let file = try Self.write(
            """
            name: far
            start: 2300-01-01T00:00:00Z
            duration: 10s
            gateways:
              - {name: desk, position: [0, 0, 1]}
            beacons:
              - {name: tag, ibeacon: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}, position: [1, 0, 1]}

            """, "far.yaml")
        let run = try await CommandRun.run(TestPaths.beacond, ["simulate", file.path])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("far.yaml:2"), "\(run.standardError)")
    }
}
