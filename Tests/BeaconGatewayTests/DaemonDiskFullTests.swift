import BeaconSinks
import BeaconStore
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The state file's disk is full when the daemon writes an input's events to its outbox: the run
/// fails loudly with that cause (it used to say only "the pipeline has stopped"), the file stays
/// sound, and no sink is sent anything the file did not accept. When the disk fills after some
/// inputs were accepted, a restart with room again delivers exactly an uninterrupted run's events.
@Suite("beacond run: the state file's disk fills up", .serialized)
struct DaemonDiskFullTests {
    /// A small tmpfs needs root (CI runs as root); elsewhere the test says why it did not run.
    static let canMount: Bool = getuid() == 0 && FileManager.default.fileExists(atPath: "/bin/mount")

    /// An enter and a dwell alert on every beacon, each event carrying a 33 KB message: a few of
    /// them fill a small disk.
    static let alerts: String = {
        let longMessage = String(repeating: "a long message to fill the outbox quickly; ", count: 760)
        return """
            alerts:
              - id: seen
                strategy: enter
                content: {title: Seen, message: "\(longMessage)"}
              - id: dwell
                strategy: time
                parameters: {dwell: 2s}
                content: {title: Dwell, message: "\(longMessage)"}
            """
    }()

    /// A work directory with a small tmpfs in it (`small`): room for a fresh state file with an
    /// outbox for `sinks`, three times over, and `spare` bytes more.
    struct SmallDisk {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-full-\(UUID().uuidString)")
        var small: URL { work.appendingPathComponent("small") }

        init(sinks: [String], spare: Int) async throws {
            try FileManager.default.createDirectory(at: work.appendingPathComponent("small"), withIntermediateDirectories: true)
            let fresh = work.appendingPathComponent("fresh.sqlite").path
            _ = try SQLiteAlertStateStore(path: fresh, outbox: OutboxConfiguration(sinks: sinks))
            let freshSize = try FileManager.default.attributesOfItem(atPath: fresh)[.size] as? Int ?? 0
            let mount = try await CommandRun.run(
                "/bin/mount", ["-t", "tmpfs", "-o", "size=\(3 * freshSize + spare)", "tmpfs", small.path])
            try #require(mount.status == 0, "\(mount.standardError)")
        }

        /// Unmounts the tmpfs (lazily) and removes the directory.
        func remove() {
            _ = umount2(small.path, 2) // MNT_DETACH
            try? FileManager.default.removeItem(at: work)
        }
    }

    @Test(
        "disk full: exit non-zero with SQLite's reason, the file checks out, nothing unaccepted is sent",
        .enabled(if: canMount, "needs root to mount a small tmpfs"))
    func diskFull() async throws {
        // Room for a fresh state file and its log for a few events (32 KiB each, twice: one copy
        // per sink): the day's 16 events outgrow it.
        let disk = try await SmallDisk(sinks: ["file", "hook"], spare: 384 * 1024)
        defer { disk.remove() }
        let (work, small) = (disk.work, disk.small)

        let state = small.appendingPathComponent("state.sqlite").path
        let events = work.appendingPathComponent("events.jsonl").path
        // The second sink never confirms (its URL answers 404): every accepted event stays with it,
        // as an outbox entry or a dead letter; and it cannot keep the daemon draining if the disk
        // does not fill.
        let server = try await WebhookTestServer(secret: "full")
        defer { server.stop() }
        let config = work.appendingPathComponent("gateway.yaml").path
        try """
        source: {simulate: \(TestPaths.repositoryRoot)/Simulator/Scenarios/lobby.yaml, speed: max}
        state: \(state)
        sinks:
          - {type: jsonl, name: file, path: "\(events)"}
          - {type: webhook, name: hook, url: "http://127.0.0.1:\(server.port)/gone", secret: full}
        \(DaemonDiskFullTests.alerts)

        """.write(toFile: config, atomically: true, encoding: .utf8)

        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(run.status != 0)
        #expect(run.standardError.contains("the state store refused the changes"), "\(run.standardError)")
        #expect(run.standardError.lowercased().contains("full"), "\(run.standardError)")

        // The file is sound, and what it accepted is there for both sinks: the hook (never
        // confirmed) holds every accepted event; the file sink delivered or still holds each.
        let store = try SQLiteAlertStateStore(path: state, outbox: OutboxConfiguration(sinks: ["file", "hook"]))
        let accepted =
            try store.pending(sink: "hook", limit: 100_000).map(\.event.key) + store.deadLetters(sink: "hook").map(\.event.key)
        let written = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["key"] as? String
        }
        let waiting = try store.pending(sink: "file", limit: 100_000).map(\.event.key)
        #expect(Set(written).isSubset(of: Set(accepted)), "nothing was sent that the state file did not accept")
        #expect(Set(waiting) == Set(accepted).subtracting(written), "what was accepted and not sent still waits")
    }

    @Test(
        "disk full after some inputs were accepted: nothing accepted is lost; with room again a restart delivers the rest, each once",
        .enabled(if: canMount, "needs root to mount a small tmpfs"))
    func diskFullPartWay() async throws {
        let disk = try await SmallDisk(sinks: ["jsonl"], spare: 512 * 1024)
        defer { disk.remove() }
        let (work, small) = (disk.work, disk.small)

        // Paced (20x): the morning comes as many small inputs, each its own transaction.
        func configuration(_ name: String, state: String, speed: String) throws -> String {
            let path = work.appendingPathComponent("\(name).yaml").path
            try """
            source: {simulate: \(TestPaths.repositoryRoot)/Simulator/Scenarios/lobby.yaml, speed: \(speed)}
            state: \(state)
            sinks:
              - {type: jsonl, path: "\(work.path)/\(name).jsonl"}
            \(DaemonDiskFullTests.alerts)

            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        func keys(_ name: String) throws -> [String] {
            let text = (try? String(contentsOfFile: work.path + "/\(name).jsonl", encoding: .utf8)) ?? ""
            var seen: Set<String> = []
            return text.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["key"] as? String
            }.filter { seen.insert($0).inserted }
        }
        let reference = try await CommandRun.run(
            TestPaths.beacond,
            ["run", "--config", try configuration("reference", state: work.path + "/reference.sqlite", speed: "max")])
        try #require(reference.status == 0, "\(reference.standardError)")
        let expected = try keys("reference")

        let config = try configuration("full", state: small.path + "/state.sqlite", speed: "20")
        let first = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(first.status != 0)
        #expect(first.standardError.lowercased().contains("full"), "\(first.standardError)")
        let store = try SQLiteAlertStateStore(path: small.path + "/state.sqlite", outbox: OutboxConfiguration(sinks: ["jsonl"]))
        let waiting = try store.pending(sink: "jsonl", limit: 100_000).map(\.event.key)
        let written = try keys("full")
        #expect(!(written + waiting).isEmpty, "some inputs were accepted before the disk filled")
        #expect(written.count + waiting.count < expected.count, "the disk filled before the end")
        #expect(Set(written + waiting).isSubset(of: Set(expected)))

        // Room again: the restart delivers what waited, resumes where the state ends, and the
        // file ends up with the uninterrupted run's events, each once, in order.
        let grow = try await CommandRun.run("/bin/mount", ["-o", "remount,size=64m", small.path])
        try #require(grow.status == 0, "\(grow.standardError)")
        let second = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try keys("full") == expected)
    }
}
