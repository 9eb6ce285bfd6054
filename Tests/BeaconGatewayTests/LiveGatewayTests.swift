import BeaconConfiguration
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconPipeline
import BeaconStrategyKit
import BeaconTestSupport
import Foundation
import Testing

/// The daemon with a live source on a manual clock: the second's tick, posted events and remote
/// checks all happen on the injected clock — the test moves it, nothing sleeps.
@Suite("The live daemon on a manual clock", .serialized)
struct LiveGatewayTests {
    static let uuid = UUID(uuidString: "74278BDA-B644-4520-8F0C-720EAF059935")!
    static let t0 = Timestamp(rfc3339: "2025-01-01T09:00:00Z")!

    /// A running gateway over a ``PushedSource``, with a jsonl sink in a temporary file.
    struct Running {
        let gateway: Gateway
        let source: PushedSource
        let clock: ManualClock
        let task: Task<Void, any Error>
        let sinkPath: String

        /// `extra`: more top-level configuration (`latency: …`).
        init(alerts: String, sinkName: String? = nil, extra: String = "") throws {
            sinkPath = NSTemporaryDirectory() + "beacond-live-\(UUID().uuidString).jsonl"
            let name = sinkName.map { "name: \($0), " } ?? ""
            let yaml = """
                sinks: [{\(name)type: jsonl, path: \(sinkPath)}]
                \(extra)
                alerts:
                \(alerts)
                """
            clock = ManualClock(start: LiveGatewayTests.t0)
            source = PushedSource()
            let gateway = try buildGateway(
                GatewayConfiguration(node: ConfigNode(yaml: yaml)), source: source, isLive: true,
                clock: AnyTimestampClock(clock))
            self.gateway = gateway
            task = Task { try await gateway.run() }
        }

        /// Sends one batch and waits until the pipeline has taken it.
        func push(_ sightings: [(time: Timestamp, minor: UInt16)]) async {
            let before = gateway.pipelineSnapshot.statistics.packets
            source.push(HCIReportBuilder.batch(uuid: LiveGatewayTests.uuid, sightings))
            await eventually { gateway.pipelineSnapshot.statistics.packets > before }
        }

        /// Moves the clock one second at a time to `time`, each tick taken by the pipeline.
        func tick(to time: Timestamp) async {
            while clock.now < time {
                await eventually { clock.sleeperCount > 0 }
                let before = gateway.pipelineSnapshot.inputs
                clock.advance(by: .seconds(1))
                await eventually { gateway.pipelineSnapshot.inputs > before }
            }
        }

        /// The sink's lines once `count` have been delivered (or what there is after waiting).
        func lines(atLeast count: Int) async -> [String] {
            var lines: [String] = []
            await eventually {
                let text = (try? String(contentsOfFile: sinkPath, encoding: .utf8)) ?? ""
                lines = text.split(separator: "\n").map(String.init)
                return lines.count >= count
            }
            return lines
        }

        func stop() async throws {
            gateway.stop()
            try await task.value
            try? FileManager.default.removeItem(atPath: sinkPath)
        }
    }

    @Test("With nothing heard, the clock's ticks end cycles and make a delayed alert fall due on time")
    func ticksDeliverOnTime() async throws {
        let running = try Running(alerts: "  - {id: welcome, match: {uuid: \(Self.uuid.uuidString)}, strategy: enter, delay: 5s}")
        await running.push([(Self.t0 + .milliseconds(500), 1)])
        await running.tick(to: Self.t0 + .seconds(7))
        let lines = await running.lines(atLeast: 2)
        try await running.stop()
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\"event\":\"created\"") == true)
        #expect(lines.first?.contains("2025-01-01T09:00:01") == true, "created when the first cycle ends, on a tick")
        #expect(lines.last?.contains("\"event\":\"delivered\"") == true)
        #expect(lines.last?.contains("\"time\":\"2025-01-01T09:00:06") == true, "delivered 5 s later, on a tick")
    }

    @Test("A posted event on a live source happens at the clock's time and cancels the pending alert")
    func postedEventAtClockTime() async throws {
        let running = try Running(
            alerts: """
                  - {id: welcome, match: {uuid: \(Self.uuid.uuidString)}, strategy: enter, delay: 1m, cancelOn: [{event: closing}]}
                """)
        await running.push([(Self.t0 + .milliseconds(500), 1)])
        await running.tick(to: Self.t0 + .seconds(3))
        running.clock.advance(by: .milliseconds(250))
        let receipt = try await running.gateway.post(event: "closing", beacon: nil)
        let lines = await running.lines(atLeast: 2)
        try await running.stop()
        #expect(receipt.time == Self.t0 + .milliseconds(3250))
        #expect(receipt.cancelled == 1)
        #expect(lines.last?.contains("\"event\":\"cancelled\"") == true)
    }

    @Test("Remote alert definitions are checked first, then again every checkEvery of the clock")
    func remoteChecksOnTheClock() async throws {
        let server = try await ConfigServer()
        defer { server.stop() }
        try server.serve(RemoteAlertDefinitionsTests.versionA)
        let clock = ManualClock(start: Self.t0)
        let source = PushedSource()
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    sinks: [{type: jsonl, path: /dev/null}]
                    alerts: {url: "\(server.url)", checkEvery: 30s}
                    """))
        let gateway = try buildGateway(configuration, source: source, isLive: true, clock: AnyTimestampClock(clock))
        let task = Task { try await gateway.run() }
        #expect(await eventually { gateway.pipelineSnapshot.alertIDs == ["lobby-dwell"] })
        try server.serve(RemoteAlertDefinitionsTests.versionB)
        // The remote service and the tick both sleep on the clock; 29 s is not yet a check.
        await eventually { clock.sleeperCount >= 2 }
        clock.advance(by: .seconds(29))
        await eventually { clock.sleeperCount >= 2 }
        #expect(server.requests.count == 1)
        clock.advance(by: .seconds(1))
        #expect(await eventually { gateway.pipelineSnapshot.alertIDs == ["lobby-dwell", "hello"] })
        #expect(server.requests.count == 2)
        gateway.stop()
        try await task.value
    }
}
