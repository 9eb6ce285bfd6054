import BeaconAlertEngine
import BeaconCore
import BeaconPipeline
import BeaconStrategies
import BeaconStrategyKit
import Testing

private typealias F = PipelineFixtures

/// The status page's look at a pipeline: taken between inputs, it lists the latest cycle's
/// beacons, each alert's strategy state and why pending alerts wait.
@Suite("PipelineInspection")
struct PipelineInspectionTests {
    @Test("lists the cycle's beacons, the strategy's per-beacon state and a delayed alert's reason")
    func beaconsStatesAndWaiting() async throws {
        let pipeline = try AlertPipeline(alerts: [F.enterAlert(delay: .seconds(600))], registry: .builtIn())
        let runner = PipelineRunner()
        let inspection = try await runner.run(pipeline, emit: { _ in }) {
            try await runner.send(F.batch([(0.2, 1), (0.4, 2), (1.2, 1), (1.4, 2), (2.1, 1)]))
            return try await runner.inspect()
        }
        #expect(inspection.cycleTime == F.t0 + .seconds(2))
        #expect(Set(inspection.beacons.map(\.id.minor)) == [1, 2])
        let alert = try #require(inspection.alerts.first)
        #expect(alert.definition.id == "welcome")
        #expect(alert.reportsStatus)
        #expect(Set(alert.statuses.map(\.beacon.minor)) == [1, 2])
        // Both were seen in the cycle ending at t0 + 2 s (the one of t0 + 2.1 s is still open).
        #expect(alert.statuses.allSatisfy { $0.lastSeen == F.t0 + .seconds(2) })
        // Both entered in the first cycle (ending at t0 + 1 s): due 600 s later, held by the delay.
        #expect(inspection.waiting.count == 2)
        for waiting in inspection.waiting {
            #expect(waiting.reason == .delay)
            #expect(waiting.until == F.t0 + .seconds(601))
            #expect(waiting.firedAt == F.t0 + .seconds(1))
        }
    }

    @Test("after the run has ended, inspect() answers with the pipeline's final state")
    func finalInspection() async throws {
        let pipeline = try AlertPipeline(alerts: [F.enterAlert()], registry: .builtIn())
        let runner = PipelineRunner()
        try await runner.run(pipeline, emit: { _ in }) {
            try await runner.send(F.batch([(0.2, 7), (1.3, 7)]))
        }
        let inspection = try await runner.inspect()
        #expect(inspection.beacons.map(\.id.minor) == [7])
        #expect(inspection.statistics.packets == 2)
    }
}
