import BeaconConfiguration
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconTestSupport
import Foundation
import Testing

/// `alerts: {url, stage: true}`: a new remote version runs as the shadow, beside the live set,
/// until someone promotes it — against a real HTTP server on 127.0.0.1, on a manual clock.
@Suite("Remote alert sets staged as the shadow", .serialized)
struct RemoteStagingTests {
    static let t0 = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!
    static let versionC = """
        alerts:
          - {id: lobby-dwell, match: {uuid: \(RemoteAlertDefinitionsTests.uuid)}, strategy: time, parameters: {dwell: 9s}}
        """

    /// A live gateway checking `server` every 30 s with `stage: true`, its cache at `cache`.
    struct Running {
        let gateway: Gateway
        let clock: ManualClock
        let server: ConfigServer
        let task: Task<Void, any Error>

        init(server: ConfigServer, cache: String) throws {
            self.server = server
            clock = ManualClock(start: RemoteStagingTests.t0)
            let configuration = try GatewayConfiguration(
                node: ConfigNode(
                    yaml: """
                        sinks: [{type: jsonl, path: /dev/null}]
                        alerts: {url: "\(server.url)", checkEvery: 30s, stage: true, cache: \(cache)}
                        """))
            let gateway = try buildGateway(
                configuration, source: PushedSource(), isLive: true, clock: AnyTimestampClock(clock))
            self.gateway = gateway
            task = Task { try await gateway.run() }
        }

        /// Moves the clock to the next check and waits until the daemon has acted on its outcome.
        func nextCheck() async {
            let remote = gateway.remoteAlerts!
            let before = await remote.settledChecks
            await eventually { clock.sleeperCount >= 2 }
            clock.advance(by: .seconds(30))
            await eventually { await remote.settledChecks > before }
        }

        /// The shadow, once a fresh inspection of the pipeline shows what `expected` wants (or what
        /// it shows after the wait's ceiling).
        func shadow(becomes expected: @escaping @Sendable (ShadowComparison?) -> Bool) async -> ShadowComparison? {
            var latest: ShadowComparison?
            await eventually {
                latest = try? await gateway.statusBoard.sources.inspect().shadow
                return expected(latest)
            }
            return latest
        }

        func stop() async throws {
            gateway.stop()
            try await task.value
        }
    }

    /// Runs `body` with a server serving version A, a cache path, and a daemon on both with A
    /// live (the first set: nothing was in force to stage it against); removes them after.
    static func withVersionALive(_ body: (ConfigServer, String, Running) async throws -> Void) async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("beacond-stage-\(UUID().uuidString).yaml")
            .path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        try server.serve(RemoteAlertDefinitionsTests.versionA)
        let running = try Running(server: server, cache: cache)
        #expect(
            await eventually { running.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"] }, "nothing was live: A goes live")
        try await body(server, cache, running)
    }

    @Test("The first set goes live; a new version runs as the shadow until promoted, then it is live and cached")
    func stagedThenPromoted() async throws {
        try await Self.withVersionALive { server, cache, running in
            try server.serve(RemoteAlertDefinitionsTests.versionB)
            await running.nextCheck()
            let staged = await running.shadow { $0 != nil }
            #expect(staged?.name.hasPrefix("remote:\(server.url) (version ") == true, "\(staged?.name ?? "none")")
            #expect(staged?.alertIDs == ["lobby-dwell", "hello"])
            #expect(running.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"], "the live set is still A")
            #expect(try String(contentsOfFile: cache, encoding: .utf8) == RemoteAlertDefinitionsTests.versionA)

            let outcome = try await running.gateway.shadow(.promote)
            #expect(outcome.action == .promoted)
            #expect(await eventually { running.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell", "hello"] })
            #expect(
                try String(contentsOfFile: cache, encoding: .utf8) == RemoteAlertDefinitionsTests.versionB,
                "a restart starts from B")

            // B again is the set in force: nothing to stage.
            await running.nextCheck()
            #expect(await running.shadow { $0 == nil } == nil)
            try await running.stop()
        }
    }

    @Test("A staged version set aside is not staged again; the next version is")
    func setAside() async throws {
        try await Self.withVersionALive { server, _, running in
            try server.serve(RemoteAlertDefinitionsTests.versionB)
            await running.nextCheck()
            #expect(await running.shadow { $0 != nil }?.alertIDs == ["lobby-dwell", "hello"])
            #expect(try await running.gateway.shadow(.stop).action == .stopped)

            await running.nextCheck()
            #expect(await running.shadow { $0 == nil } == nil, "B, set aside, is not staged again")
            #expect(running.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"])

            try server.serve(Self.versionC)
            await running.nextCheck()
            let staged = await running.shadow { $0 != nil }
            #expect(staged?.alertIDs == ["lobby-dwell"])
            #expect(running.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"])
            try await running.stop()
        }
    }

    @Test("After a restart, the cached set in force served again is not staged; an unpromoted version is")
    func restartWithCache() async throws {
        try await Self.withVersionALive { server, cache, first in
            try await first.stop()

            // The same document: the restarted daemon starts from its cache and stages nothing.
            let second = try Running(server: server, cache: cache)
            #expect(await eventually { await second.gateway.remoteAlerts!.settledChecks >= 1 })
            #expect(await second.shadow { $0 == nil } == nil)
            #expect(second.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"])
            try await second.stop()

            // A new version while it was down: staged at the first check, the cached set live.
            try server.serve(RemoteAlertDefinitionsTests.versionB)
            let third = try Running(server: server, cache: cache)
            #expect(await eventually { await third.gateway.remoteAlerts!.settledChecks >= 1 })
            #expect(await third.shadow { $0 != nil }?.alertIDs == ["lobby-dwell", "hello"])
            #expect(third.gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"])
            try await third.stop()
        }
    }

    @Test("stage must be true or false")
    func stageKey() throws {
        let read = try GatewayConfiguration(
            node: ConfigNode(yaml: "alerts: {url: \"http://127.0.0.1:1/a.yaml\", stage: true, cache: /tmp/c.yaml}"))
        #expect(read.remoteAlerts?.stage == true)
        #expect(throws: ConfigurationError.self) {
            try GatewayConfiguration(node: ConfigNode(yaml: "alerts: {url: \"http://127.0.0.1:1/a.yaml\", stage: maybe}"))
        }
        #expect {
            try GatewayConfiguration(node: ConfigNode(yaml: "alerts: {url: \"http://127.0.0.1:1/a.yaml\", stage: true}"))
        } throws: { error in
            "\(error)".contains("stage: true needs a cache")
        }
        let withState = try GatewayConfiguration(
            node: ConfigNode(yaml: "state: /tmp/s.sqlite\nalerts: {url: \"http://127.0.0.1:1/a.yaml\", stage: true}"))
        #expect(withState.remoteAlerts?.stage == true)
    }
}
