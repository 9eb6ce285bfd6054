import BeaconAlertEngine
import BeaconCore
import BeaconStore
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` killed with SIGKILL in the middle of a visit and started again on the same
/// state file, per firing mode. The first run replays the three-visit capture at 50× real time
/// and is killed as soon as its state file says it has decided through a chosen second of the
/// capture (the moment is the replay's own, not a guess at how fast the machine runs); the second
/// is the same configuration again, whose replay resumes where the saved state ends (the end of
/// the last cycle it had seen, as a radio would go on hearing), into the same JSON-lines file. Deduplicated by idempotency key, the events are exactly those of an
/// uninterrupted run: nothing repeated, nothing lost.
@Suite("beacond run killed mid-visit", .serialized)
struct DaemonKillMidVisitTests {
    static let alert = """
          - id: dwell
            strategy: time
            parameters: {dwell: 60s, gap: 3s, maxTimeBeforeReset: 30s}
            firing: FIRING

        """

    struct Workspace {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kill-mid-visit-\(UUID())").path
        init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { directory + "/" + name }

        /// Writes a configuration replaying `capture` (paced at `speed`) into `alerts.jsonl`.
        func configuration(
            _ name: String, capture: String, speed: Int?, firing: String, alert: String = DaemonKillMidVisitTests.alert
        ) throws -> String {
            let source = speed.map { "{replay: \(path(capture)), speed: \($0)}" } ?? "replay:\(path(capture))"
            let text =
                "source: \(source)\nstate: \(path("state-\(name).sqlite"))\n"
                + "sinks:\n  - {type: jsonl, path: \(path("alerts-\(name).jsonl"))}\nalerts:\n"
                + alert.replacingOccurrences(of: "FIRING", with: firing)
            try text.write(toFile: path(name + ".yaml"), atomically: true, encoding: .utf8)
            return path(name + ".yaml")
        }

        /// The events in `alerts-NAME.jsonl`, one per idempotency key, in first-seen order.
        func events(_ name: String) throws -> [String] {
            let text = (try? String(contentsOfFile: path("alerts-\(name).jsonl"), encoding: .utf8)) ?? ""
            var seen: Set<Substring> = []
            var events: [String] = []
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: "\"key\":\"") else { continue }
                let key = line[range.upperBound...].prefix { $0 != "\"" }
                if seen.insert(key).inserted { events.append(String(line)) }
            }
            return events
        }
    }

    static func run(_ configuration: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.beacond)
        process.arguments = ["run", "--config", configuration]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `configuration` (a paced replay of a ``Timeline`` capture) and kills it with SIGKILL
    /// as soon as its state file says the engine has decided through `second` of the capture or
    /// later (the strategy clock, saved with every cycle that changes a strategy's state: each
    /// cycle of a visit); returns the second the file said last. The file is read beside the
    /// daemon, as `beacond state` does, once the daemon is ready (it made the file). The watch
    /// runs on a thread of its own from the start, not on the cooperative pool: under
    /// `make test-loaded` a task polling from the pool was not run again before the 8 s replay had
    /// ended. Records an issue if the run ended before it was killed.
    static func runAndKill(
        _ configuration: String, statePath: String, atCaptureSecond second: Double
    ) async throws -> Double {
        let daemon = try RunningDaemon(arguments: ["run", "--config", configuration])
        let target = Timeline.start + .milliseconds(Int64(second * 1000))
        let (decided, problem) = await onOwnThread { () -> (Double, String?) in
            guard daemon.blockingErrorLine(containing: "ready:") != nil else { return (-1, "it never said it was ready") }
            let store: SQLiteAlertStateStore
            do { store = try SQLiteAlertStateStore(path: statePath) } catch { return (-1, "its state file: \(error)") }
            var decided = -1.0
            var problem: String?
            let deadline = ContinuousClock.now + hangCeiling
            while daemon.process.isRunning, ContinuousClock.now < deadline {
                do {
                    if let clock = try store.load().strategyClock {
                        decided = Double((clock - Timeline.start).components.seconds)
                        if clock >= target {
                            kill(daemon.process.processIdentifier, SIGKILL)
                            break
                        }
                    }
                } catch {
                    problem = "the last read of its state file: \(error)"
                }
                usleep(2_000)
            }
            return (decided, problem)
        }
        let exit = await daemon.waitForExit()
        #expect(
            daemon.process.terminationReason == .uncaughtSignal,
            "the paced run was to be killed at \(second) s of the capture; it ended (status \(exit.status)) decided through \(decided) s\(problem.map { " (\($0))" } ?? ""): \(exit.errors.suffix(400))"
        )
        return decided
    }

    /// The same dwell alert, reminded every 7 s until acknowledged (nobody does): each visit's
    /// delivery is followed by its reminders while the replay lasts.
    static let remindingAlert = """
          - id: dwell
            strategy: time
            parameters: {dwell: 60s, gap: 3s, maxTimeBeforeReset: 30s}
            firing: FIRING
            remind: {every: 7s, max: 30}

        """

    @Test(
        "killed during a reminder series and restarted: the reminders of an uninterrupted run, none twice, none lost",
        arguments: [72.0, 110.0]) // visit 1 between its reminders at 68 and 75 s; visit 2
    func killMidReminders(_ killAt: Double) async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(atPath: workspace.directory) }
        try StrategyContractTests.threeVisits.writeCapture(to: workspace.path("all.btsnoop"))
        func configuration(_ name: String, speed: Int?) throws -> String {
            try workspace.configuration(
                name, capture: "all.btsnoop", speed: speed, firing: "every-activation", alert: Self.remindingAlert)
        }
        let reference = try Self.run(configuration("reference", speed: nil))
        await waitForExit(reference)
        try #require(reference.terminationStatus == 0)
        let expected = try workspace.events("reference")
        let reminders = expected.filter { $0.contains(#""event":"delivered""#) && $0.contains(#""attempt":"#) }
        try #require(reminders.count >= 4, "the reference run has reminders: \(expected)")

        let killedAt = try await Self.runAndKill(
            configuration("crash", speed: 50), statePath: workspace.path("state-crash.sqlite"), atCaptureSecond: killAt)
        let second = try Self.run(configuration("crash", speed: nil))
        await waitForExit(second)
        #expect(second.terminationStatus == 0)
        #expect(try workspace.events("crash") == expected, "killed at \(killedAt) s of the capture")
    }

    @Test(
        "killed mid-visit and restarted: the events of an uninterrupted run",
        arguments: [
            ("every-activation", 280.0), // visit 3, before its alert at 301 s
            ("every-activation", 66.0), // visit 1, after its alert at 61 s
            ("once-per-beacon", 145.0), // visit 2
            ("first", 50.0), // visit 1, before its alert
        ])
    func killMidVisit(_ firing: String, _ killAt: Double) async throws {
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(atPath: workspace.directory) }
        let timeline = StrategyContractTests.threeVisits
        try timeline.writeCapture(to: workspace.path("all.btsnoop"))

        let reference = try Self.run(workspace.configuration("reference", capture: "all.btsnoop", speed: nil, firing: firing))
        await waitForExit(reference)
        try #require(reference.terminationStatus == 0)
        let expected = try workspace.events("reference")
        try #require(expected.count >= 2, "created and delivered at least once")

        let killedAt = try await Self.runAndKill(
            workspace.configuration("crash", capture: "all.btsnoop", speed: 50, firing: firing),
            statePath: workspace.path("state-crash.sqlite"), atCaptureSecond: killAt)

        // The same capture again, unpaced: the replay resumes where the saved state stops.
        let clock = try SQLiteAlertStateStore(path: workspace.path("state-crash.sqlite")).load().strategyClock
        let yaml = try workspace.configuration("crash", capture: "all.btsnoop", speed: nil, firing: firing)
        let second = try Self.run(yaml)
        await waitForExit(second)
        #expect(second.terminationStatus == 0)
        #expect(
            try workspace.events("crash") == expected,
            "killed at \(killedAt) s of the capture (state saved to \(clock.map { "\(($0 - Timeline.start).components.seconds) s" } ?? "nothing"))"
        )
    }
}
