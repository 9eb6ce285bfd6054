import BeaconAlertEngine
import BeaconCore
import BeaconOfflineRuns
import BeaconPipeline
import BeaconSimulator
import BeaconStrategies
import BeaconStrategyKit
import BeaconTestSupport
import FoundationEssentials
import Testing

/// Shadow runs (issue 38, item 2): a candidate alert set beside the live one on the same cycles.
/// What it does must be exactly what it would do alone, and none of it may reach the live sinks.
@Suite("Alert shadows: a candidate set beside the live one")
struct AlertShadowTests {
    static let visitors = BeaconMatch(.uuid(UUID(uuidString: "5A4BCFCE-174E-4BAC-A814-092E77F6B7E5")!, major: nil, minor: nil))

    static let live = [
        PipelineAlert(
            id: "lobby-dwell", match: visitors, strategy: "time",
            parameters: ["dwell": "60s", "gap": "10s", "maxTimeBeforeReset": "60s"])
    ]
    static let candidate = [
        PipelineAlert(
            id: "lobby-dwell", match: visitors, strategy: "time",
            parameters: ["dwell": "30s", "gap": "10s", "maxTimeBeforeReset": "60s", "proximity": "near"]),
        PipelineAlert(id: "lobby-gone", match: visitors, strategy: "exit", parameters: ["away": "20s"]),
    ]

    /// The events of one simulated hour of the lobby through `alerts`, with `shadow` attached
    /// when given (its events come back second).
    static func run(
        _ alerts: [PipelineAlert], shadow: [PipelineAlert]? = nil, threads: Int = 1,
        maxPending: Int = AlertEngineConfiguration.defaultMaxPending
    ) async throws -> (live: [AlertEvent], shadow: [AlertEvent]) {
        let scenario = try Scenario.load(path: TestPaths.scenario("lobby-hour"))
        let registry = StrategyRegistry.builtIn()
        let pipeline = try AlertPipeline(alerts: alerts, maxPending: maxPending, registry: registry)
        pipeline.shadowThreads = threads
        let collected = Collected()
        if let shadow {
            let attached = try pipeline.attachShadow(alerts: shadow, registry: registry)
            attached.onEvent = { collected.shadow.append($0.event) }
        }
        var live: [AlertEvent] = []
        _ = try await SimulationRun(simulation: Simulation(scenario: scenario, speed: .max), pipeline: pipeline).run {
            live.append($0.event)
        }
        #expect(pipeline.attachedShadows.allSatisfy { $0.isRunning })
        return (live, collected.shadow)
    }

    final class Collected { var shadow: [AlertEvent] = [] }

    @Test("the shadow's events equal a separate run of the candidate; the live events equal a run without the shadow")
    func shadowEqualsSeparateRun() async throws {
        let withShadow = try await Self.run(Self.live, shadow: Self.candidate)
        let liveAlone = try await Self.run(Self.live).live
        let candidateAlone = try await Self.run(Self.candidate).live
        #expect(!candidateAlone.isEmpty && !liveAlone.isEmpty)
        #expect(withShadow.live == liveAlone, "the shadow changed the live run")
        #expect(withShadow.shadow == candidateAlone)
        #expect(!withShadow.live.contains { $0.alertID == "lobby-gone" }, "a shadow's event reached the live sinks")
    }

    @Test("the shadow difference equals the difference of two separate replays, on one thread or two")
    func differenceEqualsTwoReplays() async throws {
        let separate = AlertSetDifference(
            old: try await Self.run(Self.live).live, new: try await Self.run(Self.candidate).live, within: .seconds(300))
        #expect(!separate.differences.isEmpty, "the candidate must change something for the comparison to mean anything")
        for threads in [1, 2] {
            let run = try await Self.run(Self.live, shadow: Self.candidate, threads: threads)
            let shadowed = AlertSetDifference(old: run.live, new: run.shadow, within: .seconds(300))
            #expect(shadowed.changes == separate.changes, "threads: \(threads)")
        }
    }

    @Test("a shadow keeps the live engine's bound on pending alerts: with maxPending 2 it refuses what a separate run refuses")
    func maxPending() async throws {
        var delayed = Self.candidate[0]
        delayed.rule.policy = try AlertPolicy(delay: .seconds(600))
        let separate = try await Self.run([delayed], maxPending: 2).live
        #expect(separate.contains { $0.kind == .error }, "the bound must refuse something for the test to mean anything")
        let run = try await Self.run(Self.live, shadow: [delayed], maxPending: 2)
        #expect(run.shadow == separate)
    }

    @Test("attaching refuses an invalid candidate and attaches nothing; a detached shadow is gone")
    func refusals() throws {
        let registry = StrategyRegistry.builtIn()
        let pipeline = try AlertPipeline(alerts: Self.live, registry: registry)
        #expect(throws: PipelineError.self) {
            try pipeline.attachShadow(
                alerts: [PipelineAlert(id: "bad", strategy: "time", parameters: ["dwell": "soon"])], registry: registry)
        }
        #expect(pipeline.attachedShadows.isEmpty)
        let shadow = try pipeline.attachShadow(alerts: Self.candidate, registry: registry)
        pipeline.detachShadow(shadow)
        #expect(pipeline.attachedShadows.isEmpty)
    }
}
