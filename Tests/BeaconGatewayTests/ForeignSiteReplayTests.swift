import BeaconDaemonConfiguration
import BeaconOfflineRuns
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// `replay --site` with ESPresense nodes' recorded MQTT traffic as their captures (issue 28): the
/// real recording of the ESPresense companion's tests (four nodes, one tag; see
/// Tests/BeaconForeignNodesTests/Fixtures/foreign/PROVENANCE.md) on the recording's clock.
@Suite("Site replay of ESPresense recordings")
struct ForeignSiteReplayTests {
    static let recording = TestPaths.repositoryRoot + "/Tests/BeaconForeignNodesTests/Fixtures/foreign/espresense-site.jsonl"

    /// Replays the four nodes, each with `capture`; the rooms of the presence lines, in order.
    static func replay(capture: String, in directory: String) async throws -> ([String], SiteReplay) {
        let site = directory + "/site.yaml"
        try """
        gateways:
          - {id: esp-master, kind: espresense, room: master, capture: \(capture)}
          - {id: esp-laundry, kind: espresense, room: laundry, capture: \(capture)}
          - {id: esp-basement, kind: espresense, room: basement, capture: \(capture)}
          - {id: esp-dining, kind: espresense, room: dining, capture: \(capture)}

        """.write(toFile: site, atomically: true, encoding: .utf8)
        var lines = ""
        let replay = try SiteReplay(
            document: SiteReplayDocument.load(path: site), alerts: [], registry: StrategyRegistry(), presence: { lines += $0 })
        try await replay.run { _ in }
        let rooms = lines.split(separator: "\n").filter { $0.contains(#""beacon":"#) }.compactMap { line -> String? in
            guard let range = line.range(of: #""room":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        return (rooms, replay)
    }

    static func temporaryDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-site-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("30 s of four nodes (mean rssi −63.5, −79.8, −86.5, −89.0 dBm): the tag is in the master bedroom throughout")
    func rooms() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (rooms, replay) = try await Self.replay(capture: Self.recording, in: directory)
        #expect(replay.captureSummaries.map(\.records) == [179, 179, 179, 179])
        #expect(replay.captureSummaries.allSatisfy { $0.errors.isEmpty })
        #expect(replay.refusedMessages.isEmpty)
        #expect(rooms.count >= 25, "\(rooms.count) presence lines")
        #expect(rooms.last == "master")
        #expect(rooms.filter { $0 == "master" }.count >= rooms.count * 9 / 10, "\(rooms)")
    }

    @Test("a line cut short and a garbled line are errors naming file:line; the other messages are replayed")
    func damagedLines() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var lines = try String(contentsOfFile: Self.recording, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[9] = String(lines[9].prefix(70)) // line 10: cut short (a recorder killed mid-write)
        lines[49] = "\u{1}\u{2}garbage" // line 50
        let damaged = directory + "/damaged.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        let (rooms, replay) = try await Self.replay(capture: damaged, in: directory)
        let summary = try #require(replay.captureSummaries.first)
        #expect(summary.records == 177)
        #expect(summary.errors == ["lines": 2])
        #expect(replay.recordingErrors.map { $0.prefix(damaged.count + 4) } == ["\(damaged):10:", "\(damaged):50:"])
        #expect(rooms.last == "master")
    }
}
