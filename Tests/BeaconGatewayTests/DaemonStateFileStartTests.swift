import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` on a state file it must not start on: an empty one (it would send every earlier
/// event again) and one it cannot write (it would start, then fail at the first write). Both stop
/// the start with exit status 2, as a damaged file does (see `DaemonStateFileTests`), before any
/// event is decided.
@Suite("beacond run: an empty or unwritable state file stops the start", .serialized)
struct DaemonStateFileStartTests {
    /// Mounting a tmpfs needs root (CI runs as root); elsewhere the test says why it did not run.
    static let canMount: Bool = getuid() == 0 && FileManager.default.fileExists(atPath: "/bin/mount")

    static func workDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The events the run's jsonl sink wrote (none when nothing ran).
    static func events(in directory: URL) -> String {
        (try? String(contentsOfFile: directory.appendingPathComponent("events.jsonl").path, encoding: .utf8)) ?? ""
    }

    @Test("an empty (0-byte) state file stops the start (exit 2) as damaged, saying what to do, and stays as it was")
    func emptyStateFile() async throws {
        let directory = try Self.workDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.sqlite").path
        #expect(FileManager.default.createFile(atPath: state, contents: Data()))
        let run = try await CommandRun.run(
            TestPaths.beacond, ["run", "--config", try DaemonStateFileTests.configuration(state: state, in: directory)])
        #expect(run.status == 2)
        #expect(run.standardError.contains("\(state) is damaged (the file is empty (0 bytes)"), "\(run.standardError)")
        #expect(run.standardError.contains("restore the latest backup"), "\(run.standardError)")
        #expect(try FileManager.default.attributesOfItem(atPath: state)[.size] as? Int == 0)
        #expect(Self.events(in: directory).isEmpty)
    }

    @Test(
        "a state file in a read-only directory stops the start (exit 2) naming it, before any event",
        .enabled(if: canMount, "needs root to mount a tmpfs read-only"))
    func readOnlyStateDirectory() async throws {
        let directory = try Self.workDirectory()
        let readOnly = directory.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
        let mount = try await CommandRun.run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", readOnly])
        try #require(mount.status == 0, "\(mount.standardError)")
        defer {
            _ = umount2(readOnly, 2) // MNT_DETACH
            try? FileManager.default.removeItem(at: directory)
        }
        let state = readOnly + "/state.sqlite"
        let run = try await CommandRun.run(
            TestPaths.beacond, ["run", "--config", try DaemonStateFileTests.configuration(state: state, in: directory)])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains("\(state) cannot be written: its directory \(readOnly) does not take new files"),
            "\(run.standardError)")
        #expect(run.standardError.contains("set state: to a file in a writable directory"), "\(run.standardError)")
        #expect(Self.events(in: directory).isEmpty)
    }
}
