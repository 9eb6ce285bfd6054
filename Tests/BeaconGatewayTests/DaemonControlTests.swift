import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `beacond run` with `http:`: a real HTTP endpoint on 127.0.0.1, used by `beacond post-event`
/// and scraped for metrics while the lobby simulation runs at 20× real time.
@Suite("beacond run: the HTTP control endpoint", .serialized)
struct DaemonControlTests {
    static func configuration(listen: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("gateway.yaml").path
        try """
            source: {simulate: \(TestPaths.repositoryRoot)/Simulator/Scenarios/lobby.yaml, speed: 20}
            http: {listen: "\(listen)"}
            sinks:
              - {type: jsonl, path: "-"}
            alerts:
              - id: lobby-dwell
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5}
                strategy: time
                parameters: {dwell: 60s, gap: 10s, maxTimeBeforeReset: 60s}
                delay: 1h
                cancelOn: [{event: closing}]
                content: {title: Welcome, message: Hello}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The lobby visitor's dwell alert is created at 09:01:01 (simulated) for 10:01:01; the
    /// simulation ends at 09:02:00, so without the event it stays pending and is never delivered.
    @Test("post-event cancels the pending alert of the running daemon; /metrics and /health answer")
    func postEventCancels() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try RunningDaemon(arguments: ["run", "--config", try Self.configuration(listen: "127.0.0.1:0", in: directory)])
        let announced = try #require(daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        let created = try #require(daemon.outputLine(containing: #""event":"created""#))
        #expect(created.contains(#""scheduledFor":"2025-01-01T10:01:01.000Z""#))

        let post = try CommandRun(TestPaths.beacond, ["post-event", "closing", "--to", url])
        #expect(post.status == 0, "\(post.standardError)")
        #expect(post.standardOutput.hasPrefix(#"{"event":"closing","beacon":null,"time":"2025-01-01T09:"#), "\(post.standardOutput)")
        #expect(post.standardOutput.hasSuffix(#","cancelled":1}"# + "\n"), "\(post.standardOutput)")

        let cancelled = try #require(daemon.outputLine(containing: #""event":"cancelled""#))
        #expect(cancelled.contains(#""message":"cancelled: event 'closing' happened""#))

        let (metrics, metricsResponse) = try await URLSession.shared.data(from: URL(string: url + "/metrics")!)
        #expect((metricsResponse as? HTTPURLResponse)?.statusCode == 200)
        let text = String(decoding: metrics, as: UTF8.self)
        for expected in [#"beacond_external_events_total{name="closing"} 1"#,
                         #"beacond_alert_events_total{alert="lobby-dwell",event="created"} 1"#,
                         #"beacond_alert_events_total{alert="lobby-dwell",event="cancelled"} 1"#,
                         #"beacond_sink_deliveries_total{sink="jsonl:-"} 2"#] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        let packets = text.split(separator: "\n").first { $0.hasPrefix("beacond_packets_received_total ") }
        #expect((packets?.split(separator: " ").last).flatMap { Int($0) } ?? 0 > 0)
        let (health, _) = try await URLSession.shared.data(from: URL(string: url + "/health")!)
        #expect(String(decoding: health, as: UTF8.self).hasPrefix(#"{"status":"ok","source":"sim:lobby/desk","beaconsTracked":"#))

        let exit = daemon.waitForExit()
        #expect(exit.status == 0, "\(exit.errors)")
        #expect(!exit.output.contains(#""event":"delivered""#), "the cancelled alert is never delivered")
    }

    @Test("post-event says what is wrong: nothing listening, a bad name, a bad beacon id")
    func postEventErrors() throws {
        let nothing = try CommandRun(TestPaths.beacond, ["post-event", "closing", "--to", "http://127.0.0.1:9"])
        #expect(nothing.status == 69)
        #expect(nothing.standardError.contains("cannot reach a daemon at http://127.0.0.1:9"), "\(nothing.standardError)")
        let badName = try CommandRun(TestPaths.beacond, ["post-event", "door open"])
        #expect(badName.status == 64)
        #expect(badName.standardError.contains("is not an event name"), "\(badName.standardError)")
        let badBeacon = try CommandRun(TestPaths.beacond, ["post-event", "closing", "--beacon", "lobby"])
        #expect(badBeacon.status == 64)
        #expect(badBeacon.standardError.contains("is not a beacon id"), "\(badBeacon.standardError)")
    }

    @Test("a port already in use stops the start with a message naming it")
    func portInUse() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try RunningDaemon(arguments: ["run", "--config", try Self.configuration(listen: "127.0.0.1:0", in: directory)])
        let announced = try #require(holder.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let port = try #require(announced.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let second = try CommandRun(TestPaths.beacond, ["run", "--config", try Self.configuration(listen: "127.0.0.1:\(port)", in: directory)])
        #expect(second.status == 2)
        #expect(second.standardError.contains("cannot listen on 127.0.0.1:\(port)"), "\(second.standardError)")
        #expect(holder.waitForExit().status == 0)
    }
}
