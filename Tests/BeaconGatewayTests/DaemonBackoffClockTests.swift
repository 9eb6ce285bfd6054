import BeaconConfiguration
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconTestSupport
import Foundation
import Testing

/// The daemon gives its clock to the sinks' dispatchers: a sink's retry backoff waits on the
/// injected clock, so a test's `ManualClock` holds the retry until the test moves it.
@Suite("The daemon's clock drives the sinks' retry backoff", .serialized)
struct DaemonBackoffClockTests {
    static let uuid = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!
    static let t0 = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!

    @Test("a refused webhook delivery waits on the manual clock, and is retried once the clock has moved")
    func backoffOnTheInjectedClock() async throws {
        let server = try await WebhookTestServer(secret: "clock-secret", failFirst: 1)
        defer { server.stop() }
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    sinks: [{type: webhook, url: "\(server.url)", secret: clock-secret}]
                    alerts:
                      - {id: welcome, match: {uuid: \(Self.uuid.uuidString)}, strategy: enter}
                    """))
        let clock = ManualClock(start: Self.t0)
        let source = PushedSource()
        let gateway = try buildGateway(configuration, source: source, isLive: true, clock: AnyTimestampClock(clock))
        let task = Task { try await gateway.run() }
        source.push(HCIReportBuilder.batch(uuid: Self.uuid, [(Self.t0 + .milliseconds(500), 1)]))
        // The daemon's tick sleeps on the clock; moving it a second at a time ends the cycle.
        await eventually { clock.sleeperCount > 0 }
        clock.advance(by: .seconds(1))
        await eventually { clock.sleeperCount > 0 }
        clock.advance(by: .seconds(1))
        // Polled, not a blocking wait: the daemon runs in this process, on the same two
        // cooperative threads (a blocked one here could starve it; `make test` hung on that once).
        _ = await realWorkFinishes(within: hangCeiling) { ((try? server.requests().count) ?? 0) >= 1 }
        // Refused (503): the dispatcher's backoff is now a second sleeper on the manual clock,
        // beside the tick; on any other clock it would not be counted here.
        #expect(await eventually { clock.sleeperCount >= 2 })
        #expect(try server.requests().map(\.status) == [503])
        // At most 1.2 s of backoff (1 s ± 20 %): moving the clock past it lets the retry go.
        clock.advance(by: .seconds(2))
        _ = await realWorkFinishes(within: hangCeiling) { ((try? server.requests().count) ?? 0) >= 2 }
        #expect(try server.requests().first.map(\.status) == 503)
        #expect(try server.requests().dropFirst().allSatisfy { $0.status == 200 })
        gateway.stop()
        try await task.value
    }
}
