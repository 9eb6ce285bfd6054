import BeaconHTTP
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacond run` with a reminding alert (issue 29): the lobby's visitor 1 dwells 5 s at the desk
/// (simulated in real time), its alert is delivered, then reminded every 3 s and escalated to a
/// second sink from the third delivery; `beacond ack` over the control endpoint stops the
/// reminders. Everything is read from the daemon's own output and sink files.
@Suite("beacond run: acknowledging a reminded alert", .serialized)
struct DaemonAnswerTests {
    static func configuration(in directory: URL, pager: URL) throws -> String {
        let path = directory.appendingPathComponent("gateway.yaml").path
        try """
        source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
        http: {listen: "127.0.0.1:0"}
        sinks:
          - {type: jsonl, path: "-"}
          - {type: jsonl, name: pager, path: \(pager.path)}
        alerts:
          - id: desk
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 600s}
            remind: {every: 3s, until: acknowledged, max: 50}
            escalate: {after: 2, to: [pager]}
            content: {title: Desk, message: Someone waits at the desk}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `beacond run` on the desk alert's configuration, once its control endpoint listens; its URL.
    static func startDesk(in directory: URL, pager: URL) async throws -> (RunningDaemon, String) {
        let daemon = try RunningDaemon(arguments: ["run", "--config", try configuration(in: directory, pager: pager)])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
        return (daemon, url)
    }

    /// The value of `"name":"…"` in a JSON line.
    static func string(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: "\"\(name)\":\"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("reminded every 3 s, escalated from the third delivery, silent once acknowledged; a second ack is harmless")
    func acknowledgeStopsReminders() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-answer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pager = directory.appendingPathComponent("pager.jsonl")
        let (daemon, url) = try await Self.startDesk(in: directory, pager: pager)

        let first = try #require(await daemon.outputLine(containing: #""event":"delivered""#))
        #expect(!first.contains(#""attempt""#), "the first delivery is attempt 0: \(first)")
        let instance = try #require(Self.string("instance", in: first))
        let second = try #require(await daemon.outputLine(containing: #""attempt":2"#))
        #expect(Self.string("instance", in: second) == instance, "a reminder carries the same instance")
        #expect(second.contains(#""escalatedTo":["pager"]"#), "\(second)")
        // The pager sink has the escalated deliveries only.
        #expect(await realWorkFinishes(within: hangCeiling) { !SiteProcesses.lines(pager).isEmpty })
        let paged = SiteProcesses.lines(pager)
        #expect(paged.allSatisfy { $0.contains(#""escalatedTo":["pager"]"#) }, "\(paged)")
        #expect(!paged.contains { $0.contains(#""attempt":1,"#) || !$0.contains(#""attempt""#) }, "\(paged)")

        let ack = try await CommandRun.run(TestPaths.beacond, ["ack", instance, "--by", "desk-clerk", "--to", url], slot: false)
        #expect(ack.status == 0, "\(ack.standardError)")
        #expect(ack.standardOutput.contains(#""answer":"acknowledged","by":"desk-clerk via cli""#), "\(ack.standardOutput)")
        #expect(ack.standardOutput.contains(#""repeated":false"#))
        let acknowledged = try #require(await daemon.outputLine(containing: #""event":"acknowledged""#))
        #expect(Self.string("instance", in: acknowledged) == instance)

        let again = try await CommandRun.run(TestPaths.beacond, ["ack", instance, "--to", url], slot: false)
        #expect(again.status == 0 && again.standardOutput.contains(#""repeated":true"#), "\(again.standardOutput)")
        let dismiss = try await CommandRun.run(TestPaths.beacond, ["dismiss", instance, "--to", url], slot: false)
        #expect(dismiss.status == 1, "an acknowledged alert cannot be dismissed")
        #expect(dismiss.standardError.contains("answered 409") && dismiss.standardError.contains("already acknowledged"))
        let unknown = try await CommandRun.run(
            TestPaths.beacond, ["ack", "door" + instance.dropFirst("desk".count), "--to", url])
        #expect(unknown.status == 1 && unknown.standardError.contains("answered 404"), "\(unknown.standardError)")
        // The same alert and beacon, due a second earlier: an instance that never was is 404 too, not
        // "superseded" (409).
        let parts = instance.split(separator: "|")
        let due = try #require(parts.last.flatMap { Int64($0) })
        let never = parts.dropLast().joined(separator: "|") + "|\(due - 1_000_000_000)"
        let neverAnswered = try await CommandRun.run(TestPaths.beacond, ["ack", never, "--to", url])
        #expect(
            neverAnswered.status == 1 && neverAnswered.standardError.contains("answered 404"),
            "\(neverAnswered.standardError)")

        // Three reminder periods later, nothing more was delivered.
        _ = await realWorkFinishes(within: .seconds(9)) { false }
        kill(daemon.process.processIdentifier, SIGTERM)
        let rest = await daemon.waitForExit().output
        let later = rest.split(separator: "\n").filter { $0.contains(#""event":"delivered""#) }
        #expect(later.isEmpty, "delivered after the acknowledgement: \(later)")
    }

    @Test("in a browser: the waiting reminder has an acknowledge button; clicking it acknowledges the alert")
    func acknowledgeFromThePage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-answer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pager = directory.appendingPathComponent("pager.jsonl")
        let (daemon, url) = try await Self.startDesk(in: directory, pager: pager)
        let first = try #require(await daemon.outputLine(containing: #""event":"delivered""#))
        let instance = try #require(Self.string("instance", in: first))
        let failure = try await onOwnThread { () throws -> String? in
            let browser = try HeadlessChromium(width: 1280, height: 900)
            let page = try browser.open(url)
            let button = "document.querySelector('#waiting-rows button.ack')"
            guard try browser.waitUntil("\(button) !== null", in: page, limit: .seconds(60)) else {
                return "no acknowledge button in the waiting alerts"
            }
            guard try browser.evaluate("\(button).dataset.instance", in: page) as? String == instance else {
                return "the button is for another instance"
            }
            _ = try browser.evaluate("\(button).click()", in: page)
            guard
                try browser.waitUntil(
                    "document.querySelector('#log-rows tr[data-event=\"acknowledged\"]') !== null", in: page, limit: .seconds(30))
            else { return "the acknowledgement never showed in the log" }
            return nil
        }
        #expect(failure == nil, "\(failure ?? "")")
        let acknowledged = try #require(await daemon.outputLine(containing: #""event":"acknowledged""#))
        #expect(acknowledged.contains(#""by":"page via page""#), "\(acknowledged)")
        #expect(Self.string("instance", in: acknowledged) == instance)
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }

    @Test("over MQTT: an acknowledgement by beacon stops the reminders; a bad command is answered with the error")
    func acknowledgeOverMQTT() async throws {
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
          - id: desk
            match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
            strategy: time
            parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 600s}
            remind: {every: 3s, max: 50}

        """.write(to: configuration, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(arguments: ["run", "--config", configuration.path])
        #expect(await daemon.errorLine(containing: "mqtt commands: connected") != nil)
        let first = try #require(await daemon.outputLine(containing: #""event":"delivered""#))
        let instance = try #require(Self.string("instance", in: first))
        let results = try await MosquittoSubscriber(broker, topic: "beacond/desk-gw/commands/result", id: "results", count: 2)
        let beacon = "ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:1"
        #expect(
            try await SiteProcesses.publish(
                Array(#"{"beacon": "\#(beacon)", "by": "nurse-2"}"#.utf8), topic: "beacond/desk-gw/commands/acknowledge",
                port: broker.port, in: directory) == 0)
        let acknowledged = try #require(await daemon.outputLine(containing: #""event":"acknowledged""#))
        #expect(Self.string("instance", in: acknowledged) == instance)
        #expect(acknowledged.contains(#""by":"nurse-2 via mqtt""#), "\(acknowledged)")
        #expect(
            try await SiteProcesses.publish(
                Array("not an instance".utf8), topic: "beacond/desk-gw/commands/dismiss", port: broker.port, in: directory) == 0)
        let answers = await results.readToEnd().split(separator: "\n")
        #expect(answers.count == 2, "\(answers)")
        #expect(answers.first?.contains(#""answer":"acknowledged","by":"nurse-2 via mqtt""#) == true, "\(answers)")
        #expect(answers.last?.contains(#""error":"'not an instance' is not an alert instance"#) == true, "\(answers)")

        _ = await realWorkFinishes(within: .seconds(7)) { false }
        kill(daemon.process.processIdentifier, SIGTERM)
        let later = await daemon.waitForExit().output.split(separator: "\n").filter { $0.contains(#""event":"delivered""#) }
        #expect(later.isEmpty, "delivered after the acknowledgement: \(later)")
    }
}
