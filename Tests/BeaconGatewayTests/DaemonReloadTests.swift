import BeaconConfiguration
import BeaconTestSupport
import Foundation
import Testing

@testable import BeaconGateway

#if canImport(Glibc)
import Glibc
#endif

/// A running `beacond run` and `beacond hub` re-read their configuration file on SIGHUP and
/// `POST /reload` (what `systemctl reload` sends): a new alert starts, a removed one stops, one
/// that stays keeps its state; a file that does not check, or that changes what is read at start
/// only, leaves the running configuration whole and says why. Every wait is for something the
/// daemon says (a datagram, a line, an answer), never for a time.
@Suite("beacond run and hub: reloading the configuration", .serialized)
struct DaemonReloadTests {
    static let visitor = "match: {uuid: 5A4BCFCE-174E-4BAC-A814-092E77F6B7E5, major: 1, minor: 1}"

    /// A dwell alert on the lobby's lingering visitor (`delay`: delivered that much later).
    static func alert(_ id: String, dwell: String, delay: String? = nil) -> String {
        "  - {id: \(id), \(visitor), strategy: time, parameters: {dwell: \(dwell), gap: 10s, maxTimeBeforeReset: 60s}"
            + (delay.map { ", delay: \($0)" } ?? "") + ", content: {title: \(id), message: hi}}"
    }

    static func gateway(scenario: String, state: String, sink: String = "{type: jsonl, path: \"-\"}", alerts: [String])
        -> String
    {
        """
        source: {simulate: \(scenario), speed: 1}
        state: \(state)
        http: {listen: "127.0.0.1:0"}
        sinks:
          - \(sink)
        alerts:
        \(alerts.joined(separator: "\n"))

        """
    }

    /// The next datagram that starts with `prefix` (watchdog pings and status lines are passed).
    static func datagram(_ socket: SystemdNotifierTests.NotifySocket, startingWith prefix: String) async -> String? {
        while let message = await socket.receive() {
            if message.hasPrefix(prefix) { return message }
        }
        return nil
    }

    static func controlURL(_ daemon: RunningDaemon) async throws -> String {
        let announced = try #require(await daemon.errorLine(containing: "control endpoint on http://127.0.0.1:"))
        return try #require(announced.split(separator: " ").first { $0.hasPrefix("http://") }.map(String.init))
    }

    @Test("a gateway under systemd: SIGHUP adds, removes and keeps alerts; a bad file or a fixed key keeps it whole")
    func gateway() async throws {
        let directory = try DaemonControlTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = try TestPaths.lingeringLobby(in: directory)
        let state = directory.appendingPathComponent("state.sqlite").path
        let file = directory.appendingPathComponent("gateway.yaml").path
        try Self.gateway(
            scenario: scenario, state: state,
            alerts: [Self.alert("stays", dwell: "5s", delay: "1h"), Self.alert("goes", dwell: "3s", delay: "1h")]
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let socket = try SystemdNotifierTests.NotifySocket()
        // A 20 s watchdog: a ping at once, then one every 10 s (few enough that the socket's
        // queue, read only when the test waits for a datagram, never fills).
        let daemon = try RunningDaemon(
            arguments: ["run", "--config", file], environment: ["NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "20000000"])
        let url = try await Self.controlURL(daemon)
        #expect(await Self.datagram(socket, startingWith: "READY=1") != nil)
        #expect(await Self.datagram(socket, startingWith: "WATCHDOG=1") != nil)
        let created = try #require(await daemon.firstOutputLine(containing: #"{"event":"created","alert":"stays""#))
        let due = try #require(created.firstMatch(of: /"scheduledFor":"([^"]+)"/)?.1)
        _ = try #require(await daemon.firstOutputLine(containing: #"{"event":"created","alert":"goes""#))

        // `stays` as it was, `goes` gone, `arrives` (1 s) and `later` (8 s) new.
        try Self.gateway(
            scenario: scenario, state: state,
            alerts: [
                Self.alert("stays", dwell: "5s", delay: "1h"), Self.alert("arrives", dwell: "1s"),
                Self.alert("later", dwell: "8s"),
            ]
        ).write(toFile: file, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(await Self.datagram(socket, startingWith: "RELOADING=1\nMONOTONIC_USEC=") != nil)
        let ready = await Self.datagram(socket, startingWith: "READY=1")
        #expect(ready?.contains("reload applied") == true, "\(ready ?? "no READY=1")")
        let applied = try #require(await daemon.errorLine(containing: "reload: "))
        #expect(applied.contains("applied \(file): alerts added arrives, later; removed goes (3 run)"), "\(applied)")

        // The removed alert's pending instance is cancelled; the new ones start afresh.
        let cancelled = try #require(await daemon.firstOutputLine(containing: #"{"event":"cancelled","alert":"goes""#))
        #expect(cancelled.contains("is no longer configured"), "\(cancelled)")
        _ = try #require(await daemon.firstOutputLine(containing: #"{"event":"delivered","alert":"arrives""#))
        _ = try #require(await daemon.firstOutputLine(containing: #"{"event":"created","alert":"later""#))
        // `stays` kept its state: its strategy did not fire again (a fresh one would have, 5 s
        // into the visit, before `later`'s 8 s) and its instance still waits for the same time.
        #expect(daemon.outputSoFar.count { $0.contains(#"{"event":"created","alert":"stays""#) } == 1)
        let (_, alerts) = try await DaemonControlTests.get(url + "/api/alerts")
        #expect(alerts.contains(#""alert":"stays""#) && alerts.contains(#""until":"\#(due)""#), "\(alerts)")
        let waiting = alerts.firstMatch(of: /"waiting":\[(.*?)\],"log"/).map { String($0.1) } ?? alerts
        #expect(!waiting.contains(#""alert":"goes""#), "\(alerts)")
        let (_, status) = try await DaemonControlTests.get(url + "/api/status")
        #expect(status.contains(#""alerts":["stays","arrives","later"]"#), "\(status)")
        #expect(status.contains(#""reload":{"file":"\#(file)","#) && status.contains(#""outcome":"applied""#), "\(status)")
        try await StatusPageTests.validate(status, as: "status", in: directory)

        // A file that does not parse: 409, the place named, the running alerts kept.
        try "alerts:\n  - {id: broken, match: [\n".write(toFile: file, atomically: true, encoding: .utf8)
        let broken = try await PlainHTTPGet.post(url + "/reload")
        #expect(broken.status == 409)
        #expect(broken.body.contains(#""outcome":"rejected""#) && broken.body.contains("\(file):3"), "\(broken.body)")
        // A sink changed: read at start only, so nothing of the file is applied.
        try Self.gateway(
            scenario: scenario, state: state, sink: "{type: jsonl, path: \(directory.path)/other.jsonl}",
            alerts: [Self.alert("stays", dwell: "5s", delay: "1h")]
        ).write(toFile: file, atomically: true, encoding: .utf8)
        let fixed = try await PlainHTTPGet.post(url + "/reload")
        #expect(fixed.status == 409)
        #expect(fixed.body.contains(#""outcome":"needs-restart""#) && fixed.body.contains("sinks: changed"), "\(fixed.body)")
        let (_, after) = try await DaemonControlTests.get(url + "/api/status")
        #expect(after.contains(#""alerts":["stays","arrives","later"]"#), "\(after)")
        #expect(after.contains(#""outcome":"needs-restart""#), "the page shows the latest reload: \(after)")

        kill(daemon.process.processIdentifier, SIGTERM)
        let exit = await daemon.waitForExit()
        #expect(exit.status == 0, "\(exit.errors)")
        #expect(exit.errors.contains("reload: kept the running configuration: sinks: changed"))
    }

    @Test("a hub: POST /reload adds an alert on a room; an unknown room or a moved gateway keeps it whole; SIGHUP removes it")
    func hub() async throws {
        let broker = try await MosquittoBroker()
        defer { broker.stop() }
        let directory = broker.directory
        let file = directory.appendingPathComponent("hub.yaml").path
        func write(gateways: String = "[1, 1, 2.5]", alerts: [(String, String)]) throws {
            try """
            site: {name: reload, broker: {host: 127.0.0.1, port: \(broker.port)}}
            gateways:
              - {id: hall-a, room: hall, position: \(gateways)}
              - {id: shop, room: shop, position: [14, 5, 2.5]}
            http: {listen: "127.0.0.1:0"}
            sinks:
              - {type: jsonl, path: "-"}
            alerts:
            \(alerts.map { "  - {id: \($0.0), match: {uuid: 0C9B3F4E-6A5D-4E2B-8C1A-5F6E7D8C9B0A}, strategy: time, parameters: {dwell: 8s, room: \($0.1)}}" }.joined(separator: "\n"))

            """.write(toFile: file, atomically: true, encoding: .utf8)
        }
        try write(alerts: [("shop-dwell", "shop")])
        let hub = try RunningDaemon(arguments: ["hub", "--config", file])
        let url = try await Self.controlURL(hub)
        _ = try #require(await hub.errorLine(containing: "ready: "))

        try write(alerts: [("shop-dwell", "shop"), ("hall-dwell", "hall")])
        let added = try await PlainHTTPGet.post(url + "/reload")
        #expect(added.status == 200)
        #expect(added.body.contains(#""outcome":"applied""#) && added.body.contains(#""added":["hall-dwell"]"#), "\(added.body)")
        let (_, status) = try await DaemonControlTests.get(url + "/api/status")
        #expect(status.contains(#""alerts":["shop-dwell","hall-dwell"]"#), "\(status)")

        try write(alerts: [("shop-dwell", "shop"), ("attic-dwell", "attic")])
        let unknownRoom = try await PlainHTTPGet.post(url + "/reload")
        #expect(unknownRoom.status == 409)
        #expect(unknownRoom.body.contains(#""outcome":"rejected""#) && unknownRoom.body.contains("attic"), "\(unknownRoom.body)")
        try write(gateways: "[2, 1, 2.5]", alerts: [("shop-dwell", "shop")])
        let moved = try await PlainHTTPGet.post(url + "/reload")
        #expect(moved.status == 409)
        #expect(moved.body.contains("gateways: changed, which is read at start only"), "\(moved.body)")

        try write(alerts: [("shop-dwell", "shop")])
        kill(hub.process.processIdentifier, SIGHUP)
        let removed = try #require(await hub.errorLine(containing: "removed hall-dwell"))
        #expect(removed.contains("reload: applied \(file): alerts removed hall-dwell (1 run)"), "\(removed)")
        let (_, after) = try await DaemonControlTests.get(url + "/api/status")
        #expect(after.contains(#""alerts":["shop-dwell"]"#), "\(after)")

        kill(hub.process.processIdentifier, SIGTERM)
        let exit = await hub.waitForExit()
        #expect(exit.status == 0, "\(exit.errors)")
    }

    @Test("a mapping's keys in another order are the same configuration; a changed value or list order is not")
    func orderOfKeys() throws {
        let a = try ConfigNode(yaml: "sinks: [{type: jsonl, path: a.jsonl}]\nhttp: {listen: 127.0.0.1:0, token: x}\n").value
        let b = try ConfigNode(yaml: "http: {token: x, listen: 127.0.0.1:0}\nsinks: [{path: a.jsonl, type: jsonl}]\n").value
        let c = try ConfigNode(yaml: "http: {token: y, listen: 127.0.0.1:0}\nsinks: [{path: a.jsonl, type: jsonl}]\n").value
        #expect(ConfigurationReloader.sameIgnoringOrder(a, b))
        #expect(!ConfigurationReloader.sameIgnoringOrder(a, c))
        #expect(
            !ConfigurationReloader.sameIgnoringOrder(.list([.scalar("1"), .scalar("2")]), .list([.scalar("2"), .scalar("1")])))
        #expect(!ConfigurationReloader.sameIgnoringOrder(a, nil))
    }
}
