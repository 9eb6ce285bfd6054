import BeaconAlertEngine
import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// Remote-administered alert definitions against a real HTTP server on 127.0.0.1 that the test
/// starts (Support/config_server.py): conditional fetches, validation before swapping, the last
/// good set kept on every kind of failure, and application to a running pipeline.
@Suite("Remote alert definitions", .serialized)
struct RemoteAlertDefinitionsTests {
    static let now = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!
    static let uuid = "74278BDA-B644-4520-8F0C-720EAF059935"

    static let versionA = """
        alerts:
          - {id: lobby-dwell, match: {uuid: \(uuid)}, strategy: time, parameters: {dwell: 5s}}
        """
    static let versionB = """
        alerts:
          - {id: lobby-dwell, match: {uuid: \(uuid)}, strategy: time, parameters: {dwell: 5s}}
          - {id: hello, strategy: enter}
        """

    static func remote(_ server: ConfigServer, cache: String? = nil) -> RemoteAlertDefinitions {
        let registry = StrategyRegistry.builtIn()
        return RemoteAlertDefinitions(
            configuration: RemoteAlertsConfiguration(
                url: server.url, checkEvery: .seconds(60), timeout: .seconds(5), cachePath: cache),
            fetcher: HTTPConfigurationFetcher(),
            validate: { definitions in
                _ = try AlertPipeline(configuration: GatewayConfiguration(alerts: definitions), registry: registry)
            })
    }

    @Test("The first fetch applies; an unchanged document costs a 304 with the ETag sent back")
    func conditionalFetch() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        try server.serve(Self.versionA)
        let remote = Self.remote(server)
        #expect(await remote.check(now: Self.now) == .updated(["lobby-dwell"]))
        #expect(await remote.nextCheck == Self.now + .seconds(60))
        #expect(await remote.check(now: Self.now + .seconds(60)) == .unchanged)
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[0].ifNoneMatch == nil)
        #expect(requests[1].ifNoneMatch?.hasPrefix("\"") == true, "the second request is conditional")
        #expect(requests[1].ifModifiedSince != nil)
        try server.serve(Self.versionB)
        #expect(await remote.check(now: Self.now + .seconds(120)) == .updated(["lobby-dwell", "hello"]))
        #expect(await remote.definitions.map(\.id) == ["lobby-dwell", "hello"])
    }

    @Test(
        "Invalid documents, server errors and an unreachable server all keep the last good set",
        arguments: [
            ("alerts:\n  - {id: a, strategy: dwell}\n", "unknown"), // unknown strategy key
            ("alerts:\n  - {id: a, strategy: time, parameters: {dwell: soon}}\n", "dwell"),
            ("alerts: [\n", "invalid YAML"),
            ("alerts:\n  - {id: a, strategy: time, delay: 1m, notBefore: \"2025-06-01T08:00:00Z\"}\n", "delay"),
        ])
    func rejectsInvalid(document: String, reason: String) async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        try server.serve(Self.versionA)
        let remote = Self.remote(server)
        _ = await remote.check(now: Self.now)
        try server.serve(document)
        let outcome = await remote.check(now: Self.now + .seconds(60))
        guard case .rejected(let why) = outcome else {
            Issue.record("expected a rejection, got \(outcome)")
            return
        }
        #expect(why.contains(reason), "\(why)")
        #expect(outcome.logLine.contains("kept the last good set"))
        #expect(await remote.definitions.map(\.id) == ["lobby-dwell"])
    }

    @Test("HTTP 500 and a server that is gone keep the last good set and say why")
    func unreachable() async throws {
        let server = try await ConfigServer()
        try server.serve(Self.versionA)
        let remote = Self.remote(server)
        _ = await remote.check(now: Self.now)
        try server.fail(with: 500)
        let failed = await remote.check(now: Self.now + .seconds(60))
        #expect(failed == .unreachable("\(server.url) answered HTTP 500"))
        await server.stopped()
        let gone = await remote.check(now: Self.now + .seconds(120))
        guard case .unreachable = gone else {
            Issue.record("expected unreachable, got \(gone)")
            return
        }
        #expect(await remote.definitions.map(\.id) == ["lobby-dwell"])
    }

    @Test("The last good document is cached, so a restart without network still has the alerts")
    func cacheSurvivesRestart() async throws {
        let server = try await ConfigServer()
        let cache = server.directory.deletingLastPathComponent().appendingPathComponent("cache-\(UUID().uuidString).yaml").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        try server.serve(Self.versionB)
        _ = await Self.remote(server, cache: cache).check(now: Self.now)
        await server.stopped()
        let restarted = Self.remote(server, cache: cache)
        #expect(await restarted.loadCache() == .updated(["lobby-dwell", "hello"]))
        guard case .unreachable = await restarted.check(now: Self.now + .seconds(60)) else {
            Issue.record("server should be gone")
            return
        }
        #expect(await restarted.definitions.map(\.id) == ["lobby-dwell", "hello"])
    }

    @Test("A new set applies to a running pipeline without a restart; unchanged alerts keep their state")
    func appliesWithoutRestart() throws {
        let registry = StrategyRegistry.builtIn()
        let a = try ConfigNode(yaml: Self.versionA)
        let pipeline = try AlertPipeline(configuration: GatewayConfiguration(node: a), registry: registry)
        let id = BeaconID.iBeacon(uuid: UUID(uuidString: Self.uuid)!, major: 1, minor: 1)
        var events: [AlertEvent] = []
        func sight(_ seconds: Int) throws {
            try pipeline.ingest(
                BeaconSighting(
                    timestamp: Self.now + .milliseconds(Int64(seconds) * 1000 + 500), id: id,
                    address: BluetoothAddress(rawValue: 1), rssi: -60, measuredPower: -59)
            ) {
                events.append($0.event)
            }
        }
        // Three seconds of dwell under version A …
        for second in 0..<3 { try sight(second) }
        // … then version B arrives: lobby-dwell is unchanged (its visit goes on), hello is new.
        let b = try GatewayConfiguration(node: ConfigNode(yaml: Self.versionB))
        try pipeline.replaceAlerts(b.alerts, registry: registry)
        #expect(pipeline.alertsInForce.map(\.id) == ["lobby-dwell", "hello"])
        for second in 3..<8 { try sight(second) }
        let delivered = events.filter { $0.kind == .delivered }
        // The dwell counted from the first cycle (09:00:01), not from the reload: fires at 09:00:06.
        #expect(delivered.first { $0.alertID == "lobby-dwell" }?.time == Self.now + .seconds(6))
        #expect(delivered.contains { $0.alertID == "hello" })
    }

    @Test("An invalid set is refused by the pipeline and the old one stays in force")
    func pipelineRefusesInvalid() throws {
        let registry = StrategyRegistry.builtIn()
        let pipeline = try AlertPipeline(
            configuration: GatewayConfiguration(node: ConfigNode(yaml: Self.versionA)), registry: registry)
        let bad = try GatewayConfiguration(node: ConfigNode(yaml: "alerts:\n  - {id: x, strategy: nope}\n"))
        #expect(throws: PipelineError.self) { try pipeline.replaceAlerts(bad.alerts, registry: registry) }
        #expect(pipeline.alertsInForce.map(\.id) == ["lobby-dwell"])
    }

    @Test("alerts: {url, checkEvery} configures the remote source; a bad URL is refused at its line")
    func configuration() throws {
        let config = try GatewayConfiguration(
            node: ConfigNode(yaml: "alerts: {url: \"https://example.org/a.yaml\", checkEvery: 12h}\n"))
        #expect(config.remoteAlerts == RemoteAlertsConfiguration(url: "https://example.org/a.yaml", checkEvery: .seconds(43_200)))
        #expect(config.alerts.isEmpty)
        do {
            _ = try GatewayConfiguration(node: ConfigNode(yaml: "alerts:\n  url: ftp://example.org/a.yaml\n", file: "gw.yaml"))
            Issue.record("accepted an ftp URL")
        } catch {
            #expect(error.description.hasPrefix("gw.yaml:2"), "\(error)")
            #expect(error.description.contains("http:// or https://"))
        }
    }
}

@Suite("beacond run with remote alert definitions")
struct RemoteAlertsDaemonTests {
    /// The daemon fetches the alerts from a real HTTP server on 127.0.0.1 before it starts its
    /// source, runs a real capture through them, and delivers to a JSON-lines sink; the last good
    /// document is cached next to the state file. (Expected alert: see ReplayTests.)
    @Test("beacond run fetches the alerts, applies them and caches the document")
    func daemonUsesRemoteAlerts() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        let (run, events, state) = try await Self.runDaemon(on: server, alert: "")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.standardError.contains("remote alerts: applied a new version (1 alerts: lobby-dwell)"), "\(run.standardError)")
        let lines = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let delivered = lines.filter { $0.contains(#""event":"delivered""#) }
        #expect(delivered.count == 1)
        #expect(delivered.first?.contains(#""alert":"lobby-dwell""#) == true)
        #expect(delivered.first?.contains(#""time":"2021-02-01T03:28:08.000Z""#) == true)
        #expect(FileManager.default.fileExists(atPath: state + ".alerts.yaml"), "the last good document is cached")
    }

    /// Issue 26: a local alerts file with callbacks and no sink to send them is refused at start,
    /// but a remote set with callbacks was applied, and its callbacks went nowhere.
    @Test("a remote set with callbacks is refused when no sink of the gateway sends them; the daemon says why")
    func remoteCallbacksNeedASink() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        let (run, events, _) = try await Self.runDaemon(on: server, alert: "\n    callback: https://example.invalid/hook")
        #expect(
            run.standardError.contains("alert 'lobby-dwell' has callbacks, but no sink of this gateway sends them"),
            "\(run.standardError)")
        #expect(!run.standardError.contains("applied a new version"), "\(run.standardError)")
        let lines = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        #expect(!lines.contains(#""alert":"lobby-dwell""#))
    }

    /// Serves the lobby's dwell alert (with `alert` appended to its entry) and runs `beacond run`
    /// on the replayed lobby capture with a JSON-lines sink and a state file, fetching the alerts
    /// from `server`: the run, the events file and the state file.
    static func runDaemon(on server: ConfigServer, alert extra: String) async throws -> (CommandRun, String, String) {
        try server.serve(
            """
            alerts:
              - id: lobby-dwell
                match: {uuid: \(ReplayTests.uuid)}
                strategy: time
                parameters: {dwell: 5s, gap: 10s}\(extra)
            """)
        let work = server.directory
        let events = work.appendingPathComponent("events.jsonl").path
        let state = work.appendingPathComponent("state.sqlite").path
        let config = work.appendingPathComponent("gateway.yaml").path
        try """
        source: {replay: \(ReplayTests.capture), speed: max}
        state: \(state)
        sinks: [{type: jsonl, path: \(events)}]
        alerts: {url: "\(server.url)", checkEvery: 1h}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return (try await CommandRun.run(TestPaths.beacond, ["run", "--config", config]), events, state)
    }
}
