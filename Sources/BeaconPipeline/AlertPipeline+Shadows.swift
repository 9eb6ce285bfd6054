import BeaconAlertEngine
import BeaconCore
import BeaconStrategyKit
import Dispatch

extension AlertPipeline {
    /// Attaches a candidate alert set that runs beside the pipeline's own on the same cycles (see
    /// ``AlertShadow``): `beacond tune` runs its candidates as shadows of one pipeline, so that
    /// ranging runs once for all of them.
    /// - Throws: ``PipelineError`` naming the candidate alert whose strategy or policy is invalid
    ///   (nothing is attached).
    ///
    /// With a `name`, the shadow keeps a ``ShadowComparison`` of its first deliveries and the
    /// live set's since now (what a daemon's `GET /api/shadow` shows).
    @discardableResult
    public func attachShadow(
        alerts: [PipelineAlert], registry: StrategyRegistry, comparedAs name: String? = nil
    ) throws(PipelineError) -> AlertShadow {
        let comparison = name.map { ShadowComparison(name: $0, alertIDs: alerts.map(\.id), since: latestTime) }
        let shadow = try AlertShadow(
            alerts: alerts, front: front, maxPending: decisions.maxPending, beacons: decisions.beacons, registry: registry,
            comparison: comparison)
        shadows.append(shadow)
        return shadow
    }

    /// Detaches `shadow` (it sees no more cycles).
    public func detachShadow(_ shadow: AlertShadow) {
        shadows.removeAll { $0 === shadow }
    }

    /// The shadows attached, in the order they were.
    public var attachedShadows: [AlertShadow] { shadows }

    /// One cycle to the pipeline's decisions, then to the shadows — on up to ``shadowThreads``
    /// threads, each taking every n-th shadow; the update is only read, and the front end waits
    /// until all have seen it before it reuses its buffers.
    ///
    /// The shadows see the cycle even when the live decisions throw (a store that refuses): what
    /// a candidate does never depends on the live set's fortunes.
    func decideEverywhere(_ update: RangingUpdate) throws {
        defer { decideInShadows(update) }
        try decisions.decide(update)
    }

    private func decideInShadows(_ update: RangingUpdate) {
        guard !shadows.isEmpty else { return }
        let threads = min(shadowThreads, shadows.count)
        if threads <= 1 {
            for shadow in shadows { shadow.decide(update) }
            return
        }
        let lanes = ShadowLanes(shadows: shadows, count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { lane in lanes.decide(update, lane: lane) }
    }

    /// Ends an input for the pipeline's decisions, then for each shadow (on this task: the
    /// shadows' events reach their `onEvent` in order).
    func endInputEverywhere(cycleClock: Timestamp?, engineTime: Timestamp? = nil, emit: (RoutedEvent) throws -> Void) throws {
        defer { for shadow in shadows { shadow.endInput(cycleClock: cycleClock, engineTime: engineTime) } }
        try decisions.endInput(cycleClock: cycleClock, engineTime: engineTime) { routed in
            noteLive(routed)
            try emit(routed)
        }
    }

    /// Shows a live event to the shadows that compare (nothing without shadows).
    func noteLive(_ routed: RoutedEvent) {
        for shadow in shadows { shadow.noteLive(routed) }
    }
}

/// The shadows split across threads for one cycle: lane `k` takes shadows `k`, `k + n`, ….
/// Each shadow is touched by one lane only, and the lanes end before the cycle does.
private struct ShadowLanes: @unchecked Sendable {
    let shadows: [AlertShadow]
    let count: Int

    func decide(_ update: RangingUpdate, lane: Int) {
        var index = lane
        while index < shadows.count {
            shadows[index].decide(update)
            index += count
        }
    }
}
