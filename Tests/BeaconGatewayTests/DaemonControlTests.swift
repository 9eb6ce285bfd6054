import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` with `http:`: a real HTTP endpoint on 127.0.0.1, used by `beacond post-event`
/// and scraped for metrics while the lobby simulation runs in real time (its visitor 1 stays 10
/// minutes, so the daemon outlasts any checking; stopped with SIGTERM once the test has what it
/// needs).
@Suite("beacond run: the HTTP control endpoint", .serialized)
struct DaemonControlTests {
    static func configuration(
        listen: String, in directory: URL, name: String = "gateway.yaml", tokenFile: String? = nil
    ) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        http: {listen: "\(listen)"\(tokenFile.map { ", tokenFile: \($0)" } ?? "")}
        sinks:
          - {type: jsonl, path: "-"}
        alerts:
          - id: lobby-dwell
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 60s}
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

    /// GET `url` over a socket of its own (``PlainHTTPGet``): status and body.
    static func get(_ url: String) async throws -> (Int, String) {
        let response = try await PlainHTTPGet.get(url)
        return (response.status, response.body)
    }

    /// The lobby visitor is first heard at 09:00:01 (simulated; 60 s later the README's 60 s
    /// dwell alert fires): with a 5 s dwell its alert is created at 09:00:06 for 10:00:06, an
    /// hour later, so it is still pending when the test posts the event. The alert matches
    /// visitor 1 alone, so however long the post takes on a loaded machine, it is the only one.
    @Test("post-event cancels the pending alert of the running daemon; /metrics and /health answer")
    func postEventCancels() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let daemon = try RunningDaemon(arguments: [
            "run", "--config", try Self.configuration(listen: "127.0.0.1:0", in: directory),
        ])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        let created = try #require(await daemon.outputLine(containing: #""event":"created""#))
        #expect(created.contains(#""scheduledFor":"2025-01-01T10:00:06.000Z""#), "\(created)")

        let post = try await CommandRun.run(TestPaths.beacond, ["post-event", "closing", "--to", url], slot: false)
        #expect(post.status == 0, "\(post.standardError)")
        #expect(
            post.standardOutput.hasPrefix(#"{"event":"closing","beacon":null,"time":"2025-01-01T09:"#), "\(post.standardOutput)")
        #expect(post.standardOutput.hasSuffix(#","cancelled":1}"# + "\n"), "\(post.standardOutput)")

        let cancelled = try #require(await daemon.outputLine(containing: #""event":"cancelled""#))
        #expect(cancelled.contains(#""message":"cancelled: event 'closing' happened""#))

        let (status, text) = try await Self.get(url + "/metrics")
        #expect(status == 200)
        for expected in [
            #"beacond_external_events_total{name="closing"} 1"#,
            #"beacond_alert_events_total{alert="lobby-dwell",event="created"} 1"#,
            #"beacond_alert_events_total{alert="lobby-dwell",event="cancelled"} 1"#,
            #"beacond_sink_deliveries_total{sink="jsonl:-"} 2"#,
        ] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        #expect(PrometheusTextLint.problems(in: text) == [], "the running daemon's /metrics lints clean")
        #expect(text.contains("beacond_build_info{version=") && text.contains("# TYPE process_cpu_seconds_total counter"))
        let packets = text.split(separator: "\n").first { $0.hasPrefix("beacond_packets_received_total ") }
        #expect((packets?.split(separator: " ").last).flatMap { Int($0) } ?? 0 > 0)
        let (_, health) = try await Self.get(url + "/health")
        #expect(health.hasPrefix(#"{"status":"ok","source":"sim:lobby/desk","beaconsTracked":"#), "\(health)")

        kill(daemon.process.processIdentifier, SIGTERM)
        let exit = await daemon.waitForExit()
        #expect(exit.status == 0, "\(exit.errors)")
        #expect(!exit.output.contains(#""event":"delivered""#), "the cancelled alert is never delivered")
    }

    @Test("post-event says what is wrong: nothing listening, a bad name, a bad beacon id")
    func postEventErrors() async throws {
        let nothing = try await CommandRun.run(TestPaths.beacond, ["post-event", "closing", "--to", "http://127.0.0.1:9"])
        #expect(nothing.status == 69)
        #expect(nothing.standardError.contains("cannot reach a daemon at http://127.0.0.1:9"), "\(nothing.standardError)")
        let badName = try await CommandRun.run(TestPaths.beacond, ["post-event", "door open"])
        #expect(badName.status == 64)
        #expect(badName.standardError.contains("is not an event name"), "\(badName.standardError)")
        let badBeacon = try await CommandRun.run(TestPaths.beacond, ["post-event", "closing", "--beacon", "lobby"])
        #expect(badBeacon.status == 64)
        #expect(badBeacon.standardError.contains("is not a beacon id"), "\(badBeacon.standardError)")
    }

    @Test("a port already in use stops the start with a message naming it")
    func portInUse() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try RunningDaemon(arguments: [
            "run", "--config", try Self.configuration(listen: "127.0.0.1:0", in: directory),
        ])
        let announced = try #require(await holder.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let port = try #require(announced.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let second = try await CommandRun.run(
            TestPaths.beacond,
            [
                "run", "--config",
                try Self.configuration(listen: "127.0.0.1:\(port)", in: directory, name: "second.yaml"),
            ])
        #expect(second.status == 2)
        #expect(
            second.standardError.contains(
                "cannot listen on 127.0.0.1:\(port): the address is already in use (another beacond, or another program, listens there)"
            ),
            "\(second.standardError)")
        #expect(!second.standardError.contains("bind(descriptor"), "no system call in the message")
        kill(holder.process.processIdentifier, SIGTERM)
        #expect(await holder.waitForExit().status == 0)
    }

    @Test("with a token file the endpoint refuses requests without its token; post-event sends it with --token-file")
    func bearerToken() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("control.token").path
        try "9f86d081884c7d659a2feaa0c55ad015\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(arguments: [
            "run", "--config", try Self.configuration(listen: "127.0.0.1:0", in: directory, tokenFile: tokenFile),
        ])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        #expect(announced.contains("requests need its bearer token"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        let anonymous = try await PlainHTTPGet.get(url + "/metrics")
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        let authorized = try await PlainHTTPGet.get(
            url + "/metrics", headers: [("Authorization", "Bearer 9f86d081884c7d659a2feaa0c55ad015")])
        #expect(authorized.status == 200)

        let refused = try await CommandRun.run(TestPaths.beacond, ["post-event", "closing", "--to", url], slot: false)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("answered 401"), "\(refused.standardError)")
        let accepted = try await CommandRun.run(
            TestPaths.beacond, ["post-event", "closing", "--to", url, "--token-file", tokenFile])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        #expect(accepted.standardOutput.hasPrefix(#"{"event":"closing""#), "\(accepted.standardOutput)")

        kill(daemon.process.processIdentifier, SIGTERM)
        #expect(await daemon.waitForExit().status == 0)
    }
}
