import BeaconHTTP
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` with alerts of each priority (issue 39, item 2), on the lobby (simulated in real
/// time; it starts on Wednesday 2025-01-01 09:00 UTC). Four alerts dwell on visitor 1 with a
/// weekend-only delivery window: the critical one is delivered at once and says it passed the
/// window, the active one waits for Saturday, the passive one is delivered (no window), and a
/// critical one an hour later waits ahead of the active one on the page. Everything is read from
/// the daemon's output, its status API and its metrics.
@Suite("beacond run: priority", .serialized)
struct DaemonPriorityTests {
    static func configuration(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("gateway.yaml").path
        let visitor = "{uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}"
        let dwell = "strategy: time\n    parameters: {dwell: 2s, gap: 10s, maxTimeBeforeReset: 600s}"
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: "-"}
        alerts:
          - id: fall
            match: \(visitor)
            \(dwell)
            priority: critical
            window: {days: [sat, sun]}
          - id: weekend
            match: \(visitor)
            \(dwell)
            window: {days: [sat, sun]}
          - id: hello
            match: \(visitor)
            \(dwell)
            priority: passive
          - id: later
            match: \(visitor)
            \(dwell)
            priority: critical
            delay: 1h

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "critical passes the window and says so; the level is on every event, orders the waiting list and is counted unanswered")
    func levels() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-priority-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try RunningDaemon(arguments: ["run", "--config", try Self.configuration(in: directory)])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        let fall = try #require(await daemon.firstOutputLine(containing: #""event":"delivered","alert":"fall""#))
        #expect(fall.contains(#""priority":"critical""#), "\(fall)")
        #expect(
            fall.contains("critical: passed the delivery window (sat, sun 00:00–24:00 UTC), closed at 2025-01-01T09:"), "\(fall)")
        let weekend = try #require(await daemon.firstOutputLine(containing: #""event":"created","alert":"weekend""#))
        #expect(
            weekend.contains(#""priority":"active""#) && weekend.contains(#""scheduledFor":"2025-01-04T00:00:00.000Z""#),
            "\(weekend)")
        let hello = try #require(await daemon.firstOutputLine(containing: #""event":"delivered","alert":"hello""#))
        #expect(hello.contains(#""priority":"passive""#), "\(hello)")
        let later = try #require(await daemon.firstOutputLine(containing: #""event":"created","alert":"later""#))
        #expect(later.contains(#""priority":"critical""#), "\(later)")

        // The badge: two delivered, unanswered (fall, hello); the waiting list puts the critical first.
        // Waits for the engine to hold both (the API reads the pipeline between inputs).
        var document: [String: Any] = [:]
        let deadline = ContinuousClock.now + hangCeiling
        while ContinuousClock.now < deadline {
            if let (status, text) = try? await DaemonControlTests.get(url + "/api/alerts"), status == 200,
                let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                (object["waiting"] as? [[String: Any]])?.count == 2
            {
                document = object
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let unanswered = try #require(document["unanswered"] as? [String: Int])
        #expect(unanswered == ["critical": 1, "time-sensitive": 0, "active": 0, "passive": 1], "\(unanswered)")
        let waiting = try #require(document["waiting"] as? [[String: Any]])
        #expect(waiting.map { $0["alert"] as? String } == ["later", "weekend"], "critical first, though due later: \(waiting)")
        #expect(waiting.map { $0["priority"] as? String } == ["critical", "active"])
        let log = try #require(document["log"] as? [[String: Any]])
        #expect(log.contains { $0["alert"] as? String == "fall" && $0["priority"] as? String == "critical" })

        let (status, metrics) = try await DaemonControlTests.get(url + "/metrics")
        #expect(status == 200)
        #expect(metrics.contains(#"beacond_alerts_unanswered{priority="critical"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"beacond_alerts_unanswered{priority="passive"} 1"#))
        #expect(metrics.contains(#"beacond_alerts_unanswered{priority="active"} 0"#))

        // Acknowledging the critical one takes it off the badge.
        let instance = try #require(DaemonAnswerTests.string("instance", in: fall))
        let ack = try await CommandRun.run(TestPaths.beacond, ["ack", instance, "--to", url], slot: false)
        #expect(ack.status == 0, "\(ack.standardError)")
        // The runner answers before it publishes its counters: wait for the next publication.
        var after = ""
        let deadline2 = ContinuousClock.now + hangCeiling
        while ContinuousClock.now < deadline2, !after.contains(#"beacond_alerts_unanswered{priority="critical"} 0"#) {
            after = try await DaemonControlTests.get(url + "/metrics").1
            if !after.contains(#"beacond_alerts_unanswered{priority="critical"} 0"#) {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(after.contains(#"beacond_alerts_unanswered{priority="critical"} 0"#), "\(after)")
        #expect(after.contains(#"beacond_alerts_unanswered{priority="passive"} 1"#))
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }
}
