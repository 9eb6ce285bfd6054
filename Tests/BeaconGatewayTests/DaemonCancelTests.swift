import BeaconHTTP
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` cancelling one alert instance by its key (issue 39, item 4): the lobby's visitor 1
/// dwells at the desk (simulated in real time); one alert is scheduled an hour later and is
/// cancelled with `beacond cancel` before it is due (its `callbackCancelled` is posted to a real
/// HTTP server), another is reminded every 3 s (up to 1,000 times: it still reminds however slow
/// a loaded machine makes the first part) until the status page's cancel button calls it off. Everything is read from the daemon's own output, the server's log and the browser.
@Suite("beacond run: cancelling one alert instance", .serialized)
struct DaemonCancelTests {
    static func configuration(in directory: URL, server: WebhookTestServer) throws -> String {
        let path = directory.appendingPathComponent("gateway.yaml").path
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: "-"}
          - {type: webhook, url: "\(server.url)", secret: cancel-secret}
        alerts:
          - id: later
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 2s, gap: 10s, maxTimeBeforeReset: 600s}
            delay: 1h
            callback: "http://127.0.0.1:\(server.port)/other"
            callbackCancelled: "http://127.0.0.1:\(server.port)/cancelled"
          - id: desk
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 2s, gap: 10s, maxTimeBeforeReset: 600s}
            remind: {every: 3s, until: acknowledged, max: 1000}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a scheduled instance cancelled from the command line, its callback posted; a reminding one from the page")
    func cancelScheduledAndReminding() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-cancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await WebhookTestServer(secret: "cancel-secret")
        defer { server.stop() }
        let daemon = try RunningDaemon(
            arguments: ["run", "--config", try Self.configuration(in: directory, server: server)])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        // The scheduled one: its created event names the key to cancel it by.
        let created = try #require(await daemon.firstOutputLine(containing: #""event":"created","alert":"later""#))
        let scheduled = try #require(DaemonAnswerTests.string("instance", in: created))
        #expect(scheduled.hasPrefix("later|"))
        // On a failure the daemon is stopped at once: a wait for a line that will not come would
        // otherwise last as long as the 15-minute scenario.
        func stop() async {
            kill(daemon.process.processIdentifier, SIGTERM)
            _ = await daemon.waitForExit()
        }
        let cancel = try await CommandRun.run(
            TestPaths.beacond, ["cancel", scheduled, "--by", "desk-clerk", "--to", url], slot: false)
        #expect(cancel.status == 0, "\(cancel.standardError)")
        guard cancel.status == 0 else { return await stop() }
        #expect(cancel.standardOutput.contains(#""answer":"cancelled","by":"desk-clerk via cli""#), "\(cancel.standardOutput)")
        let cancelled = try #require(await daemon.firstOutputLine(containing: #""event":"cancelled","alert":"later""#))
        #expect(cancelled.contains(#""by":"desk-clerk via cli""#), "\(cancelled)")
        #expect(DaemonAnswerTests.string("instance", in: cancelled) == scheduled)
        // Its callback: the event posted to callbackCancelled, signed like any webhook.
        #expect(
            await realWorkFinishes(within: hangCeiling) {
                ((try? server.requests()) ?? []).contains { $0.path == "/cancelled" }
            })
        let posted = try #require(try server.requests().first { $0.path == "/cancelled" })
        #expect(posted.signatureValid && posted.body.contains(#""event":"cancelled""#), "\(posted)")
        #expect(posted.body.contains(#""by":"desk-clerk via cli""#))
        // Once cancelled it is gone: a second cancellation is 404 and says why.
        let again = try await CommandRun.run(TestPaths.beacond, ["cancel", scheduled, "--to", url], slot: false)
        #expect(again.status == 1 && again.standardError.contains("answered 404"), "\(again.standardError)")
        #expect(again.standardError.contains("no scheduled or delivered alert"), "\(again.standardError)")

        // The reminding one, from the page's waiting alerts.
        let delivered = try #require(await daemon.firstOutputLine(containing: #""event":"delivered","alert":"desk""#))
        let instance = try #require(DaemonAnswerTests.string("instance", in: delivered))
        _ = try #require(await daemon.firstOutputLine(containing: #""attempt":1"#))
        let failure = try await onOwnThread { () throws -> String? in
            let browser = try HeadlessChromium(width: 1280, height: 900)
            let page = try browser.open(url)
            let button = "document.querySelector('#waiting-rows button.cancel[data-instance=\"\(instance)\"]')"
            guard try browser.waitUntil("\(button) !== null", in: page, limit: .seconds(60)) else {
                return "no cancel button for \(instance) in the waiting alerts"
            }
            _ = try browser.evaluate("\(button).click()", in: page)
            guard
                try browser.waitUntil(
                    "document.querySelector('#log-rows tr[data-event=\"cancelled\"][data-alert=\"desk\"]') !== null", in: page,
                    limit: .seconds(30))
            else { return "the cancellation never showed in the log" }
            return nil
        }
        #expect(failure == nil, "\(failure ?? "")")
        guard failure == nil else { return await stop() }
        let stopped = try #require(await daemon.firstOutputLine(containing: #""event":"cancelled","alert":"desk""#))
        #expect(stopped.contains(#""by":"page via page""#), "\(stopped)")
        #expect(DaemonAnswerTests.string("instance", in: stopped) == instance)
        let ack = try await CommandRun.run(TestPaths.beacond, ["ack", instance, "--to", url], slot: false)
        #expect(ack.status == 1 && ack.standardError.contains("already cancelled"), "\(ack.standardError)")

        // Three reminder periods later, no reminder past the one cancelled was delivered, and the
        // scheduled alert never was.
        let stoppedAttempt = try #require(Self.attempt(in: stopped))
        _ = await realWorkFinishes(within: .seconds(9)) { false }
        kill(daemon.process.processIdentifier, SIGTERM)
        let rest = await daemon.waitForExit().output.split(separator: "\n")
        let later = rest.filter { line in
            line.contains(#""event":"delivered""#)
                && (line.contains(#""alert":"later""#) || (Self.attempt(in: line) ?? 0) >= stoppedAttempt)
        }
        #expect(later.isEmpty, "delivered after the cancellations: \(later)")
    }

    @Test("over MQTT: a scheduled instance's key published to …/commands/cancel cancels it; the result says so")
    func cancelOverMQTT() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let configuration = directory.appendingPathComponent("gateway.yaml")
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        sinks:
          - {type: jsonl, path: "-"}
          - {type: mqtt, host: 127.0.0.1, port: \(broker.port), gateway: desk-gw, beacons: false, commands: true}
        alerts:
          - id: later
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 2s, gap: 10s, maxTimeBeforeReset: 600s}
            delay: 1h

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(arguments: ["run", "--config", configuration.path])
        #expect(await daemon.errorLine(containing: "mqtt commands: connected") != nil)
        let created = try #require(await daemon.outputLine(containing: #""event":"created""#))
        let instance = try #require(DaemonAnswerTests.string("instance", in: created))
        let results = try await MosquittoSubscriber(broker, topic: "beacond/desk-gw/commands/result", id: "results", count: 1)
        #expect(
            try await SiteProcesses.publish(
                Array(#"{"instance": "\#(instance)", "by": "nurse-2", "id": "c-1"}"#.utf8),
                topic: "beacond/desk-gw/commands/cancel", port: broker.port, in: directory) == 0)
        let cancelled = try #require(await daemon.outputLine(containing: #""event":"cancelled""#))
        #expect(cancelled.contains(#""by":"nurse-2 via mqtt""#), "\(cancelled)")
        #expect(DaemonAnswerTests.string("instance", in: cancelled) == instance)
        let answers = await results.readToEnd()
        #expect(
            answers.contains(#"{"id":"c-1","instance":"\#(instance)","answer":"cancelled","by":"nurse-2 via mqtt""#), "\(answers)"
        )
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }

    /// The `"attempt":N` of a JSON line.
    static func attempt(in line: some StringProtocol) -> Int? {
        guard let range = line.range(of: #""attempt":"#) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
}
