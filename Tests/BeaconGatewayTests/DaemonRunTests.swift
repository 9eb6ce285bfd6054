import BeaconConfiguration
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconTestSupport
import Foundation
import Synchronization
import Testing

/// ``DaemonRun``, the one run path of `run`, `hub` and `simulate --serve`, performing what
/// ``DaemonShutdown`` decides: with a real control endpoint on 127.0.0.1 and a pushed source; a
/// stop is asked for in code (`requestStop`), as the signal watcher asks for it.
@Suite("DaemonRun: one run path, its endpoint and its stop", .serialized)
struct DaemonRunTests {
    /// What the run said to the terminal.
    final class Said: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    /// A gateway over a pushed source with one jsonl sink, and its endpoint on a free port.
    static func daemon(
        afterSourceEnds: DaemonShutdown.AfterSourceEnds, said: Said = Said()
    ) async throws -> (DaemonRun, PushedSource) {
        let sink = NSTemporaryDirectory() + "beacond-run-\(UUID().uuidString).jsonl"
        let source = PushedSource()
        let gateway = try buildGateway(
            GatewayConfiguration(node: ConfigNode(yaml: "sinks: [{type: jsonl, path: \(sink)}]")), source: source,
            isLive: false, clock: AnyTimestampClock(ManualClock(start: .epoch)))
        let control = try await ControlServer.bind(host: "127.0.0.1", port: 0, routes: gateway.controlRoutes)
        let daemon = DaemonRun(
            gateway: gateway, control: control, afterSourceEnds: afterSourceEnds,
            say: { line in said.lines.withLock { $0.append(line) } }, exit: { _ in Issue.record("the run exited the process") })
        return (daemon, source)
    }

    static func health(_ daemon: DaemonRun) async -> Int? {
        guard let url = daemon.control?.url else { return nil }
        // Up to the hang ceiling: a busy machine's slow answer is an answer (an endpoint that is
        // closed refuses the connection at once).
        return try? await PlainHTTPGet.get(url + "/health", within: hangCeiling).status
    }

    @Test("a source that ends by itself ends the run and closes the endpoint")
    func sourceEnds() async throws {
        let (daemon, source) = try await Self.daemon(afterSourceEnds: .stop)
        let running = Task { try await daemon.run(signals: []) }
        await eventually { await Self.health(daemon) == 200 }
        source.end()
        try await running.value
        #expect(daemon.state == .finished)
        #expect(await Self.health(daemon) == nil, "the endpoint still answers after the run")
    }

    @Test("a stop stops the gateway, says so once, and the run returns with the endpoint closed")
    func stopRequested() async throws {
        let said = Said()
        let (daemon, _) = try await Self.daemon(afterSourceEnds: .stop, said: said)
        let running = Task { try await daemon.run(signals: []) }
        await eventually { await Self.health(daemon) == 200 }
        daemon.requestStop()
        try await running.value
        #expect(daemon.state == .finished)
        #expect(said.all == ["stopping (a second signal exits at once)"])
        #expect(await Self.health(daemon) == nil, "the endpoint still answers after the run")
    }

    @Test("--serve: after the source ends the page stays up until a stop, then closes")
    func lingersUntilStopped() async throws {
        let said = Said()
        let (daemon, source) = try await Self.daemon(afterSourceEnds: .keepServing(for: nil), said: said)
        let running = Task { try await daemon.run(signals: []) }
        source.end()
        await eventually { daemon.state == .lingering }
        #expect(await Self.health(daemon) == 200, "the page is gone while it should linger")
        daemon.requestStop()
        try await running.value
        #expect(daemon.state == .finished)
        #expect(said.all == ["the source has ended; the status page shows its last state until Ctrl-C"])
    }
}
