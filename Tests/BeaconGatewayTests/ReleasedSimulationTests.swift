import BeaconCore
import BeaconSimulator
import BeaconTestSupport
import Foundation
import Logging
import Testing

@testable import BeaconGateway

/// A simulation released by a start file says so, and says when it saw the file too late to play
/// the scenario whole: the line a site's tests and its operator look for when one gateway heard
/// less than the others.
@Suite("ReleasedSimulation")
struct ReleasedSimulationTests {
    /// The gateway's log lines (`level: message`) for a start file holding `start` seconds from
    /// the clock's now, once the release is logged; the run is then cancelled.
    static func logged(startIn offset: Int64) async throws -> [String] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("released-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try Scenario.load(path: TestPaths.repositoryRoot + "/Simulator/Scenarios/site.yaml")
        let clock = ManualClock(start: scenario.end + .seconds(3600))
        let start = clock.now + .seconds(offset)
        let startFile = directory.appendingPathComponent("start").path
        try start.rfc3339String.write(toFile: startFile, atomically: true, encoding: .utf8)
        let captured = ReportRefusalLogTests.Lines()
        let logger = Logger(label: "test") { _ in ReportRefusalLogTests.Capture(lines: captured) }
        let source = ReleasedSimulation(
            scenario: scenario, gatewayIndex: 0, startFile: startFile, clock: AnyTimestampClock(clock), logger: logger)
        let run = Task { try await source.run { _ in } }
        defer { run.cancel() }
        let released = await eventually { captured.all.contains { $0.contains("released the scenario") } }
        try #require(released, "\(captured.all)")
        return captured.all
    }

    @Test("a start file seen 3 s after the start it holds warns that the scenario was joined under way, and how late")
    func seenLate() async throws {
        let lines = try await Self.logged(startIn: -3)
        let warning = try #require(lines.first { $0.hasPrefix("warning:") }, "\(lines)")
        #expect(warning.contains("was seen 3.0 s after the start it holds"), "\(warning)")
        #expect(warning.contains("joined the scenario under way"), "\(warning)")
    }

    @Test("a start file seen before its start gives no warning")
    func seenInTime() async throws {
        let lines = try await Self.logged(startIn: 2)
        #expect(!lines.contains { $0.hasPrefix("warning:") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("notice:") && $0.contains("released the scenario") }, "\(lines)")
    }
}
