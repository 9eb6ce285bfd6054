import BeaconTestSupport
import Foundation
import Testing

/// The daemon and its state file: a damaged one stops the start and is left as it was; `beacond
/// state backup` writes a copy the daemon starts on.
@Suite("beacond run and beacond state: the state file", .serialized)
struct DaemonStateFileTests {
    static func configuration(state: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("gateway-\(UUID().uuidString).yaml").path
        try """
        source: {simulate: \(TestPaths.repositoryRoot)/Simulator/Scenarios/lobby.yaml, speed: max}
        state: \(state)
        sinks:
          - {type: jsonl, path: "\(directory.path)/events.jsonl"}
        alerts:
          - id: lobby-dwell
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
            strategy: time
            parameters: {dwell: 5s}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a damaged state file stops the start (exit 2) saying what to do, and is not replaced")
    func damaged() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.sqlite").path
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
        try garbage.write(to: URL(fileURLWithPath: state))
        let run = try await CommandRun.run(
            TestPaths.beacond, ["run", "--config", try Self.configuration(state: state, in: directory)])
        #expect(run.status == 2)
        #expect(run.standardError.contains("is damaged"), "\(run.standardError)")
        #expect(run.standardError.contains("restore the latest backup"), "\(run.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == garbage)
        // Nothing ran: no event was written.
        let events = (try? String(contentsOfFile: directory.appendingPathComponent("events.jsonl").path, encoding: .utf8)) ?? ""
        #expect(events.isEmpty)
    }

    @Test("beacond state backup writes a copy that opens as a state file; a copy it cannot write is an error")
    func backup() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.sqlite").path
        let config = try Self.configuration(state: state, in: directory)
        #expect(try await CommandRun.run(TestPaths.beacond, ["run", "--config", config]).status == 0)
        let copy = directory.appendingPathComponent("copy.sqlite").path
        let backup = try await CommandRun.run(TestPaths.beacond, ["state", "backup", "--config", config, "--to", copy])
        #expect(backup.status == 0, "\(backup.standardError)")
        // The copy is a state file the daemon's tools open (checked at open, schema current).
        let list = try await CommandRun.run(
            TestPaths.beacond, ["outbox", "list", "--config", try Self.configuration(state: copy, in: directory)])
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardError.contains("0 dead letter(s)"))
        let noState = try await CommandRun.run(
            TestPaths.beacond, ["state", "backup", "--config", config, "--to", "/nonexistent/dir/x.sqlite"])
        #expect(noState.status == 74)
        #expect(noState.standardError.contains("cannot back up"), "\(noState.standardError)")
    }
}
