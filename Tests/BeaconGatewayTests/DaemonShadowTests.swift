import BeaconHTTP
import BeaconTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A shadow on a running daemon (issue 38, item 2): `shadow:` runs a candidate alert set beside
/// the live one; its events go to the log, never to the sinks; `GET /api/shadow` says what it
/// would have changed, and so does the page (in a headless Chromium); `beacond promote` makes it live; `beacond shadow` stages another or stops it.
@Suite("beacond run: a shadow alert set, its difference and its promotion", .serialized)
struct DaemonShadowTests {
    static let visitor = "ibeacon:5A4BCFCE-174E-4BAC-A814-092E77F6B7E5:1:1"

    static func write(_ text: String, to path: String) throws -> String {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The document at `url` once `ready` holds (or as it is after the hang ceiling).
    static func document(_ url: String, until ready: (String) -> Bool) async throws -> String {
        let limit = ContinuousClock.now + hangCeiling
        var body = try await DaemonControlTests.get(url).1
        while !ready(body), ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(100))
            body = try await DaemonControlTests.get(url).1
        }
        return body
    }

    @Test("the shadow's dwell of 5 s is 15 s earlier than the live 20 s; promoted, it is live; a bad candidate is refused")
    func shadowDifferencePromotion() async throws {
        let directory = try DaemonControlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let candidate = try Self.write(
            """
            alerts:
              - id: desk
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
                strategy: time
                parameters: {dwell: 5s, gap: 10s, maxTimeBeforeReset: 600s}
              - id: desk-proximity
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
                strategy: proximity
                parameters: {proximity: near}

            """, to: directory.appendingPathComponent("candidate.yaml").path)
        // The lobby's visitor 1 at the desk for 10 minutes, on the wall clock: there for as long
        // as the checks take, however slow the machine; the test stops the daemon.
        let config = try Self.write(
            """
            source: {simulate: \(try TestPaths.lingeringLobby(in: directory)), speed: 1}
            http: {listen: "127.0.0.1:0"}
            shadow: \(candidate)
            sinks:
              - {type: jsonl, path: "-"}
            alerts:
              - id: desk
                match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}
                strategy: time
                parameters: {dwell: 20s, gap: 10s, maxTimeBeforeReset: 600s}

            """, to: directory.appendingPathComponent("gateway.yaml").path)
        let daemon = try RunningDaemon(arguments: ["run", "--config", config])
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        let url = try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))

        // The shadow delivers first, in the log; the live alert comes about 15 s later, on the sink.
        let shadowDelivery = try #require(await daemon.errorLine(containing: "shadow event"))
        #expect(shadowDelivery.contains("alert=desk") || shadowDelivery.contains("alert=desk-proximity"), "\(shadowDelivery)")
        _ = try #require(await daemon.outputLine(containing: #""event":"delivered","alert":"desk""#))

        let (status, document) = try await DaemonControlTests.get(url + "/api/shadow")
        #expect(status == 200, "\(document)")
        try await StatusPageTests.validate(document, as: "shadow", in: directory)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let shadow = try #require(object["shadow"] as? [String: Any], "\(document)")
        #expect(shadow["candidate"] as? String == candidate)
        let differences = try #require(shadow["differences"] as? [[String: Any]])
        let desk = try #require(differences.first { $0["alert"] as? String == "desk" }, "\(document)")
        #expect(desk["change"] as? String == "earlier")
        let shift = try #require(desk["shift"] as? Double)
        #expect(shift <= -13 && shift >= -17, "dwell 5 s against 20 s: \(shift)")
        #expect(differences.contains { $0["alert"] as? String == "desk-proximity" && $0["change"] as? String == "added" })
        let (_, statusDocument) = try await DaemonControlTests.get(url + "/api/status")
        #expect(statusDocument.contains(#""shadow":"\#(candidate)""#), "\(statusDocument)")

        // The shadow's alerts reached no sink: the live alert log has none of desk-proximity's
        // events, although the shadow delivered it (the beacon is near from the start).
        let (_, log) = try await DaemonControlTests.get(url + "/api/alerts?limit=500")
        #expect(log.contains(#""alert":"desk""#) && !log.contains(#""alert":"desk-proximity""#), "\(log)")

        // The page shows the same difference.
        let failure = try await onOwnThread { () throws -> String? in
            let browser = try HeadlessChromium(width: 1280, height: 900)
            let page = try browser.open(url)
            let row = "document.querySelector('#shadow-rows tr[data-change=\"earlier\"][data-alert=\"desk\"]')"
            guard
                try browser.waitUntil(
                    "\(row) !== null && !document.querySelector('#shadow').hidden", in: page, limit: .seconds(60))
            else { return "the page shows no shadow section with desk earlier" }
            let why = try browser.evaluate("document.querySelector('#shadow-summary').dataset.why", in: page) as? String
            return why?.contains("1 earlier") == true ? nil : "the shadow summary says \(why ?? "nothing")"
        }
        #expect(failure == nil, "\(failure ?? "")")

        // A candidate that cannot run is refused with its reason; the shadow that runs stays.
        let bad = try Self.write(
            "alerts:\n  - {id: broken, strategy: time, parameters: {dwell: soon}}\n",
            to: directory.appendingPathComponent("bad.yaml").path)
        let refused = try await CommandRun.run(TestPaths.beacond, ["shadow", bad, "--to", url], slot: false)
        #expect(refused.status == 1, "\(refused.standardOutput)")
        #expect(
            refused.standardError.contains("answered 400") && refused.standardError.contains("broken"), "\(refused.standardError)"
        )

        // So is one with callbacks, which no sink of this daemon would send (as a remote set is).
        let calling = try Self.write(
            """
            alerts:
              - {id: calling, strategy: time, parameters: {dwell: 5s}, callback: "http://127.0.0.1:9/hook"}

            """, to: directory.appendingPathComponent("calling.yaml").path)
        let noSender = try await CommandRun.run(TestPaths.beacond, ["shadow", calling, "--to", url], slot: false)
        #expect(
            noSender.status == 1 && noSender.standardError.contains("answered 400")
                && noSender.standardError.contains("has callbacks, but no sink"), "\(noSender.standardError)")

        let promoted = try await CommandRun.run(TestPaths.beacond, ["promote", "--to", url], slot: false)
        #expect(promoted.status == 0, "\(promoted.standardError)")
        #expect(promoted.standardOutput.contains(#""action":"promoted""#), "\(promoted.standardOutput)")
        // The page's documents are refreshed at most once a second: asked again until they show it.
        let after = try await Self.document(url + "/api/status") { $0.contains(#""alerts":["desk","desk-proximity"]"#) }
        #expect(after.contains(#""alerts":["desk","desk-proximity"]"#), "\(after)")
        #expect(!after.contains(#""shadow":"#), "\(after)")
        let none = try await Self.document(url + "/api/shadow") { $0.contains(#""shadow":null"#) }
        #expect(none.contains(#""shadow":null"#), "\(none)")
        let again = try await CommandRun.run(TestPaths.beacond, ["promote", "--to", url], slot: false)
        #expect(again.status == 1 && again.standardError.contains("no shadow runs"), "\(again.standardError)")

        // Staged over the control endpoint, then stopped.
        let staged = try await CommandRun.run(TestPaths.beacond, ["shadow", candidate, "--to", url], slot: false)
        #expect(staged.status == 0 && staged.standardOutput.contains(#""action":"started""#), "\(staged.standardError)")
        let stopped = try await CommandRun.run(TestPaths.beacond, ["shadow", "--stop", "--to", url], slot: false)
        #expect(stopped.status == 0 && stopped.standardOutput.contains(#""action":"stopped""#), "\(stopped.standardError)")

        kill(daemon.process.processIdentifier, SIGTERM)
        _ = await daemon.waitForExit()
    }

    @Test("a shadow: file that cannot run stops the daemon at start with what is wrong")
    func badShadowFileAtStart() async throws {
        let directory = try DaemonControlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.write(
            """
            source: {simulate: \(TestPaths.scenario("lobby"))}
            shadow: \(directory.path)/missing.yaml
            sinks:
              - {type: jsonl, path: "-"}
            alerts: []

            """, to: directory.appendingPathComponent("gateway.yaml").path)
        let run = try await CommandRun.run(TestPaths.beacond, ["run", "--config", config])
        #expect(run.status != 0)
        #expect(run.standardError.contains("shadow: \(directory.path)/missing.yaml"), "\(run.standardError)")
        #expect(run.standardError.contains("remove shadow:"), "\(run.standardError)")
    }
}
