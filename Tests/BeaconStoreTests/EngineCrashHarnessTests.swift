import BeaconTestSupport
import Foundation
import Testing

/// Kills the `engine-crash-harness` process with SIGKILL between steps of a scripted engine run
/// on a SQLite store, restarts it, and checks the event log for no loss and no duplicate.
@Suite("Engine crash and restart (SIGKILL)")
struct EngineCrashHarnessTests {
    /// The run's events, worked out by hand from the script (see CrashScript.swift).
    static let expectedLog = [
        "created welcome 2025-01-06T09:10:00.000Z",
        "created hourly 2025-01-06T09:05:00.000Z",
        "created again 2025-01-06T09:01:00.000Z", "delivered again 2025-01-06T09:01:00.000Z",
        "delivered hourly 2025-01-06T09:05:00.000Z", "created hourly 2025-01-06T10:05:00.000Z",
        "delivered welcome 2025-01-06T09:10:00.000Z",
        "delivered hourly 2025-01-06T10:05:00.000Z", "created hourly 2025-01-06T11:05:00.000Z",
        "created again 2025-01-06T10:06:00.000Z", "delivered again 2025-01-06T10:06:00.000Z",
        "delivered hourly 2025-01-06T11:05:00.000Z", "created hourly 2025-01-06T12:05:00.000Z",
        "cancelled hourly 2025-01-06T12:05:00.000Z",
    ]
    static let stepCount = 12

    struct Workspace {
        let directory: URL
        var db: String { directory.appendingPathComponent("state.sqlite").path }
        var log: String { directory.appendingPathComponent("events.jsonl").path }
        var progress: String { directory.appendingPathComponent("progress.txt").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-crash-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        /// Runs the harness once; returns its termination reason and status (waited for on a
        /// thread of its own, not the cooperative pool).
        func run(killAfter: Int?) async throws -> (Process.TerminationReason, Int32) {
            let process = Process()
            process.executableURL = EngineCrashHarnessTests.harness
            process.arguments =
                ["--db", db, "--log", log, "--progress", progress]
                + (killAfter.map { ["--kill-after", String($0)] } ?? [])
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            await waitForExit(process)
            return (process.terminationReason, process.terminationStatus)
        }

        /// `kind alert scheduledFor` of every logged event, and their idempotency keys.
        func events() throws -> (summaries: [String], keys: [String]) {
            let text = try String(contentsOfFile: log, encoding: .utf8)
            var summaries: [String] = []
            var keys: [String] = []
            for line in text.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                summaries.append(
                    "\(object["event"] as? String ?? "?") \(object["alert"] as? String ?? "?") \(object["scheduledFor"] as? String ?? "-")"
                )
                keys.append(object["key"] as? String ?? "")
            }
            return (summaries, keys)
        }
    }

    /// The harness binary, built next to the test bundle.
    static var harness: URL {
        let processImage = URL(fileURLWithPath: "/proc/self/exe") // Linux: the test runner itself
        let productsDirectory =
            FileManager.default.fileExists(atPath: processImage.path)
            ? processImage.resolvingSymlinksInPath().deletingLastPathComponent()
            : (Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main).bundleURL
                .deletingLastPathComponent()
        return productsDirectory.appendingPathComponent("engine-crash-harness")
    }

    @Test("the harness run without a kill logs the expected events")
    func uninterrupted() async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        let (reason, status) = try await workspace.run(killAfter: nil)
        #expect(reason == .exit && status == 0)
        #expect(try workspace.events().summaries == Self.expectedLog)
    }

    @Test("killed with SIGKILL after every n steps and restarted: no event lost, none repeated", arguments: [1, 2, 5])
    func killedBetweenSteps(_ stepsPerRun: Int) async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.directory) }
        var kills = 0
        while true {
            let (reason, status) = try await workspace.run(killAfter: stepsPerRun)
            if reason == .exit {
                #expect(status == 0)
                break
            }
            #expect(reason == .uncaughtSignal && status == SIGKILL)
            kills += 1
            try #require(kills <= Self.stepCount)
        }
        #expect(kills == (Self.stepCount - 1) / stepsPerRun)
        let (summaries, keys) = try workspace.events()
        #expect(summaries == Self.expectedLog)
        #expect(Set(keys).count == keys.count)
    }
}
