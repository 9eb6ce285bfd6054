import BeaconConfiguration
import BeaconControl
import BeaconCore
import BeaconDaemonConfiguration
import BeaconGateway
import BeaconSinks
import BeaconTestSupport
import Foundation
import Logging
import Testing

/// Advertisement-to-sink latency: from the advertisement a delivery rested on to its sink's
/// confirmation, on the daemon's clock — a live daemon on a manual clock, moved by the test.
@Suite("Alert latency", .serialized)
struct AlertLatencyTests {
    static let uuid = LiveGatewayTests.uuid
    static let t0 = LiveGatewayTests.t0

    /// A live gateway whose jsonl sink is named `log`, with `extra` configuration.
    static func running(alerts: String, extra: String = "") throws -> LiveGatewayTests.Running {
        try LiveGatewayTests.Running(alerts: alerts, sinkName: "log", extra: extra)
    }

    @Test("A delivery counts from the beacon's advertisement; the objective is missed, then met again, once each")
    func latencyAndObjective() async throws {
        let running = try Self.running(
            alerts: "  - {id: welcome, match: {uuid: \(Self.uuid.uuidString)}, strategy: enter}",
            extra: "latency: {objective: 400ms, percentile: 50, minDeliveries: 1}")
        // Beacon 1 heard at 0.5 s; its cycle ends at 1 s, when the sink confirms: 0.5 s.
        await running.push([(Self.t0 + .milliseconds(500), 1)])
        await running.tick(to: Self.t0 + .seconds(1))
        var lines = await running.lines(atLeast: 3)
        #expect(lines.count == 3, "created, delivered, then the objective's event")
        #expect(lines[2].contains("\"event\":\"latencyObjectiveMissed\""))
        #expect(lines[2].contains("\"sink\":\"log\"") && lines[2].contains("\"latency\":0.5"))
        #expect(lines[2].contains("\"objective\":0.4"))
        // Beacon 2 heard at 1.9 s, confirmed at 2 s: 0.1 s. The median of 0.1 and 0.5 is 0.1.
        await running.push([(Self.t0 + .milliseconds(1900), 2)])
        await running.tick(to: Self.t0 + .seconds(2))
        lines = await running.lines(atLeast: 6)
        #expect(lines.count == 6)
        #expect(lines[5].contains("\"event\":\"latencyObjectiveMet\"") && lines[5].contains("\"latency\":0.1"))

        let status = try await running.gateway.statusBoard.current().latency
        #expect(status.count == 1)
        #expect(status.first?.sink == "log")
        #expect(status.first?.deliveries == 2, "the objective's own events are not alert deliveries")
        #expect(status.first.flatMap(\.p50).map { abs($0 - 0.1) < 1e-9 } == true)
        #expect(status.first.flatMap(\.p99).map { abs($0 - 0.5) < 1e-9 } == true)
        #expect(status.first?.objectiveSeconds == 0.4)
        #expect(status.first?.objectiveMissed == false)
        let metrics = running.gateway.metrics.render()
        #expect(metrics.contains("beacond_alert_latency_seconds_count{alert=\"welcome\",sink=\"log\"} 2"))
        #expect(metrics.contains("beacond_alert_latency_seconds_bucket{alert=\"welcome\",sink=\"log\",le=\"0.1\"} 1"))
        #expect(metrics.contains("beacond_alert_latency_seconds_bucket{alert=\"welcome\",sink=\"log\",le=\"0.25\"} 1"))
        #expect(metrics.contains("beacond_alert_latency_seconds_bucket{alert=\"welcome\",sink=\"log\",le=\"0.5\"} 2"))
        try await running.stop()
    }

    @Test("A delayed alert counts from its due time, though its beacon is still heard: the delay is configured")
    func delayedCountsFromDue() async throws {
        let running = try Self.running(
            alerts: "  - {id: welcome, match: {uuid: \(Self.uuid.uuidString)}, strategy: enter, delay: 5s}")
        // Heard every second, half a second before each cycle ends: counted from the latest
        // advertisement, the delivery due at 6 s would show 0.5 s.
        for second in 0..<6 {
            await running.push([(Self.t0 + .milliseconds(Int64(second) * 1000 + 500), 1)])
            await running.tick(to: Self.t0 + .seconds(Int64(second) + 1))
        }
        _ = await running.lines(atLeast: 2)
        // The delivery is confirmed while the clock still reads the due time.
        await eventually { (try? await running.gateway.statusBoard.current().latency.first?.deliveries) == 1 }
        let status = try await running.gateway.statusBoard.current().latency
        #expect(status.first?.p50 == 0)
        #expect(status.first?.objectiveSeconds == nil)
        try await running.stop()
    }

    @Test("A reminder counts from its own due time, not the first delivery's")
    func reminderCountsFromItsDue() async throws {
        let running = try Self.running(
            alerts: "  - {id: welcome, match: {uuid: \(Self.uuid.uuidString)}, strategy: enter, remind: {every: 3s, max: 1}}")
        await running.push([(Self.t0 + .milliseconds(500), 1)])
        await running.tick(to: Self.t0 + .seconds(1))
        _ = await running.lines(atLeast: 2) // created, delivered (0.5 s after the advertisement)
        await running.tick(to: Self.t0 + .seconds(4))
        let lines = await running.lines(atLeast: 3)
        #expect(lines.last?.contains("\"attempt\":1") == true, "\(lines)")
        await eventually { (try? await running.gateway.statusBoard.current().latency.first?.deliveries) == 2 }
        let status = try await running.gateway.statusBoard.current().latency
        // The first delivery 0.5 s, the reminder 0 s (released at 4 s, confirmed then): not 3 s.
        #expect(status.first.flatMap(\.p99).map { abs($0 - 0.5) < 1e-9 } == true, "\(status)")
        #expect(status.first.flatMap(\.p50) == 0, "\(status)")
        try await running.stop()
    }

    @Test("A source on a time of its own measures nothing and says that latency: is not checked")
    func replayMeasuresNothing() async throws {
        let logs = ReportRefusalLogTests.Lines()
        let logger = Logger(label: "test") { _ in ReportRefusalLogTests.Capture(lines: logs) }
        let configuration = try GatewayConfiguration(
            node: ConfigNode(
                yaml: """
                    sinks: [{name: log, type: jsonl, path: /dev/null}]
                    latency: {objective: 1s}
                    alerts: []
                    """))
        let gateway = try buildGateway(configuration, source: PushedSource(), isLive: false, logger: logger)
        #expect(logs.all.contains { $0.contains("latency: is not checked") })
        #expect(gateway.statusBoard.sources.latency().isEmpty)
    }

    @Test("The window forgets deliveries older than its length; events without an origin are not measured")
    func windowExpires() {
        let clock = ManualClock(start: Self.t0)
        let latency = AlertLatency(
            sinks: ["log", "hook"], metrics: GatewayMetrics(),
            objective: LatencyObjective(objective: .seconds(1), window: .seconds(60)), clock: AnyTimestampClock(clock))
        for second in 0..<10 {
            clock.advance(by: .seconds(1))
            let event = OutboundEvent(
                key: "k\(second)", body: "{}", origin: clock.now - .milliseconds(100 * (second + 1)), alertID: "a")
            latency.record(event, sink: "log")
            latency.record(OutboundEvent(key: "n\(second)", body: "{}"), sink: "log")
        }
        var log = latency.summaries()[0]
        #expect(log.deliveries == 10)
        #expect(log.p50.map { abs($0 - 0.5) < 1e-9 } == true, "nearest rank: the 5th of 0.1 … 1.0")
        #expect(log.p99.map { abs($0 - 1.0) < 1e-9 } == true)
        #expect(
            latency.summaries()[1]
                == SinkLatency(sink: "hook", deliveries: 0, p50: nil, p99: nil, windowSeconds: 60, objectiveSeconds: 1))
        clock.advance(by: .seconds(55)) // the first delivery (at 1 s) is now 64 s old, the last 55 s
        log = latency.summaries()[0]
        #expect(log.deliveries == 6)
        clock.advance(by: .seconds(10))
        #expect(latency.summaries()[0].deliveries == 0)
    }

    @Test("latency: needs an objective, a percentile below 100 and known keys")
    func configurationErrors() throws {
        for (yaml, expected) in [
            ("latency: {}", "needs objective"),
            ("latency: {objective: 5s, percentile: 100}", "a percentile from 1 to 99.9"),
            ("latency: {objective: 0s}", "a positive duration"),
            ("latency: {objective: 5s, windw: 5m}", "windw"),
        ] {
            #expect(throws: ConfigurationError.self) { try GatewayConfiguration(node: ConfigNode(yaml: yaml)) }
            do {
                _ = try GatewayConfiguration(node: ConfigNode(yaml: yaml))
            } catch {
                #expect("\(error)".contains(expected), "\(yaml): \(error)")
            }
        }
        let read = try GatewayConfiguration(node: ConfigNode(yaml: "latency: {objective: 2s, percentile: 95, window: 5m}"))
        #expect(read.latency == LatencyObjective(objective: .seconds(2), percentile: 0.95, window: .seconds(300)))
    }
}
