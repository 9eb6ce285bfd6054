import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit

/// A candidate alert set run beside a pipeline's own, on the same cycles: what it would do if it
/// were live, without doing it. Its events go to ``onEvent`` (a shadow log, a comparison), never
/// to the pipeline's sinks.
///
/// A shadow has its own strategies and its own engine, on an in-memory store: it starts afresh
/// when it is attached (it knows nothing of the beacons' history) and is forgotten on a restart.
/// It sees every cycle the pipeline's front end produces, every region event, every posted fact
/// (`cancelOn`), and the engine deadlines at the same times; it gets no answers, since nobody
/// saw its alerts. Ranging or fusion runs once for the pipeline and all its shadows.
///
/// Attach one with ``AlertPipeline/attachShadow(alerts:registry:comparedAs:)``. It belongs to the
/// pipeline's task.
public final class AlertShadow {
    /// The candidate alerts.
    public let alerts: [PipelineAlert]
    /// Called with each of the shadow's events, in order, on the pipeline's task.
    public var onEvent: ((RoutedEvent) -> Void)?
    /// Why the shadow stopped, if it did: a candidate whose engine fails is stopped, and the
    /// live pipeline goes on.
    public private(set) var failure: String?
    /// The live set's and the candidate's first deliveries since the shadow was attached, when
    /// it was attached to be compared (a daemon's shadow; `beacond tune` does not keep them).
    public private(set) var comparison: ShadowComparison?

    let decisions: DecisionStage

    /// A shadow of `alerts` on `front`'s cycles, with the live engine's bound on pending alerts
    /// and its named beacons, so that its events are those the alerts would have live.
    init(
        alerts: [PipelineAlert], front: PipelineFront, maxPending: Int, beacons: BeaconDirectory,
        registry: StrategyRegistry, comparison: ShadowComparison?
    ) throws(PipelineError) {
        self.alerts = alerts
        self.comparison = comparison
        decisions = try DecisionStage(
            alerts: alerts, front: front, maxPending: maxPending, registry: registry, store: InMemoryAlertStateStore())
        decisions.beacons = beacons
    }

    /// What the shadow's strategies and engine have processed (cycles, events by alert).
    public var statistics: PipelineStatistics {
        var statistics = PipelineStatistics()
        decisions.contribute(to: &statistics)
        return statistics
    }

    /// Whether the shadow still runs.
    public var isRunning: Bool { failure == nil }

    /// One cycle's update; a failure stops the shadow, not the pipeline.
    func decide(_ update: RangingUpdate) {
        guard failure == nil else { return }
        do { try decisions.decide(update) } catch { stop(error) }
    }

    func endInput(cycleClock: Timestamp?, engineTime: Timestamp?) {
        guard failure == nil else { return }
        do {
            try decisions.endInput(cycleClock: cycleClock, engineTime: engineTime) { take($0) }
        } catch {
            stop(error)
        }
    }

    func post(_ fact: EngineFact, now: Timestamp) {
        guard failure == nil else { return }
        do { try decisions.post(fact, now: now) { take($0) } } catch { stop(error) }
    }

    /// Notes one of the live set's events, for the comparison.
    func noteLive(_ routed: RoutedEvent) {
        comparison?.noteLive(routed.event)
    }

    private func take(_ routed: RoutedEvent) {
        comparison?.noteShadow(routed.event)
        onEvent?(routed)
    }

    private func stop(_ error: any Error) {
        failure = "\(error)"
        comparison?.failure = failure
    }
}
